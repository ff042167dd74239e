# Cross-build for aarch64 with Debian's gcc-aarch64-linux-gnu against Debian arm64 packages
# unpacked into HB_ARM64_ROOT (tests/arm/arm64-root.sh makes it: Debian's arm64 Open MPI
# does not co-install with the amd64 one, so the libraries live in their own root). Programs
# that run at build time and the tests run under qemu-user.
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DHB_ARM64_ROOT=$PWD/build-arm64-root
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_C_COMPILER_TARGET aarch64-linux-gnu)

if(NOT HB_ARM64_ROOT)
  set(HB_ARM64_ROOT "$ENV{HB_ARM64_ROOT}")
endif()
if(NOT IS_DIRECTORY "${HB_ARM64_ROOT}/usr/lib/aarch64-linux-gnu")
  message(FATAL_ERROR "HB_ARM64_ROOT='${HB_ARM64_ROOT}' holds no arm64 libraries; make it with "
                      "tests/arm/arm64-root.sh DIR")
endif()
# try_compile runs in a fresh project: hand it the root too.
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES HB_ARM64_ROOT)
set(CMAKE_SYSROOT "${HB_ARM64_ROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L "${HB_ARM64_ROOT}")

set(ENV{PKG_CONFIG_SYSROOT_DIR} "${HB_ARM64_ROOT}")
set(ENV{PKG_CONFIG_LIBDIR}
    "${HB_ARM64_ROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${HB_ARM64_ROOT}/usr/share/pkgconfig")

# The arm64 root holds no libpq (its Kerberos, LDAP and OpenSSL would follow): history's
# --db postgresql:// is refused in one line there, SQLite works (-DHB_POSTGRESQL=ON with a
# root that has libpq-dev).
set(HB_POSTGRESQL OFF CACHE BOOL "history: keep runs in PostgreSQL too (libpq)")

# FindMPI cannot run the arm64 mpicc wrapper: name the library and headers.
set(MPI_SKIP_COMPILER_WRAPPER TRUE)
set(MPI_C_HEADER_DIR "${HB_ARM64_ROOT}/usr/lib/aarch64-linux-gnu/openmpi/include" CACHE PATH "")
set(MPI_C_LIB_NAMES mpi CACHE STRING "")
set(MPI_mpi_LIBRARY "${HB_ARM64_ROOT}/usr/lib/aarch64-linux-gnu/openmpi/lib/libmpi.so" CACHE FILEPATH "")
