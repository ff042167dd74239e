# Spack package for hopbench. Use this directory as a repository:
#   spack repo add packaging/spack && spack install hopbench
# (packaging/spack/repo.yaml names the namespace.)

from spack.package import *


class Hopbench(CMakePackage):
    """NUMA memory latency and bandwidth, node by node: one MPI rank per NUMA node,
    OpenMP threads bound inside it, hwloc-verified thread and page placement, JSON Lines
    results, an HTML report and a regression gate."""

    homepage = "https://github.com/hopbench/hopbench"
    git = "https://github.com/hopbench/hopbench.git"

    maintainers("hopbench")

    version("main", branch="main")

    variant("werror", default=False, description="Treat compiler warnings as errors")
    variant("postgresql", default=True,
            description="history: keep runs in PostgreSQL too (libpq), not only in SQLite")

    depends_on("c", type="build")
    depends_on("cmake@3.20:", type="build")
    depends_on("pkgconfig", type="build")
    # Tested with Open MPI 4.1.4 (Debian 12) and Open MPI 5.0.7 (Debian 13,
    # tests/distros/trixie.sh), hwloc 2.9 and 2.12. Another MPI builds and runs; hopbench then
    # gives Open MPI 4.1's mpirun options in its launch lines and says so once.
    depends_on("mpi")
    depends_on("hwloc@2:")
    depends_on("jansson")
    # The run history (docs/history.md): SQLite always, libpq for --db postgresql://.
    depends_on("sqlite@3.35:")
    depends_on("postgresql", when="+postgresql")
    depends_on("jq", type="run")

    def cmake_args(self):
        return [
            self.define_from_variant("HB_WERROR", "werror"),
            self.define_from_variant("HB_POSTGRESQL", "postgresql"),
            self.define("BUILD_TESTING", self.run_tests),
            self.define("MPI_C_COMPILER", self.spec["mpi"].mpicc),
        ]
