# What `cmake --install` puts in place (GNUInstallDirs): the binary; hopbench(1) and the bash
# completion, generated at build time from the command-line tables by hb_gendoc (under
# CMAKE_CROSSCOMPILING_EMULATOR when cross-compiling); the README and docs/; and the launchers,
# studies and scenarios under share/hopbench/, told where the binary is relative to them.

add_executable(hb_gendoc src/cli/hb_gendoc.c)
target_link_libraries(hb_gendoc PRIVATE hb_omp)

set(hb_doc_dir ${CMAKE_BINARY_DIR}/doc)
add_custom_command(OUTPUT ${hb_doc_dir}/hopbench.1 ${hb_doc_dir}/hopbench.bash
                   COMMAND ${CMAKE_COMMAND} -E make_directory ${hb_doc_dir}
                   COMMAND hb_gendoc man ${CMAKE_INSTALL_FULL_DATADIR} ${CMAKE_INSTALL_FULL_DOCDIR}
                           > ${hb_doc_dir}/hopbench.1
                   COMMAND hb_gendoc bash > ${hb_doc_dir}/hopbench.bash
                   DEPENDS hb_gendoc
                   COMMENT "Generating hopbench.1 and the bash completion from the option tables")
add_custom_target(hb_docs ALL DEPENDS ${hb_doc_dir}/hopbench.1 ${hb_doc_dir}/hopbench.bash)
# The parts of docs/*.md printed from the same tables (between <!-- hb_gendoc ... --> marks),
# rewritten in the source tree on demand; style.doc-generated fails while they are stale.
add_custom_target(docs-update
                  COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/doc-links/generated.py
                          $<TARGET_FILE:hb_gendoc> ${CMAKE_SOURCE_DIR} --update
                  DEPENDS hb_gendoc COMMENT "Updating the generated parts of docs/" VERBATIM)

install(TARGETS hopbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${hb_doc_dir}/hopbench.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${hb_doc_dir}/hopbench.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME hopbench)
# The README with the pages it links to, so its links work where it is installed.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

set(hb_share ${CMAKE_INSTALL_DATADIR}/hopbench)
# Everything in jobs/, as it is laid out there (a new launcher is installed without a change here).
install(DIRECTORY jobs/ DESTINATION ${hb_share} USE_SOURCE_PERMISSIONS)
# The launchers find the hopbench installed with them through this relative path.
file(RELATIVE_PATH hb_bin_rel ${CMAKE_INSTALL_FULL_DATADIR}/hopbench ${CMAKE_INSTALL_FULL_BINDIR})
file(WRITE ${hb_doc_dir}/bindir "${hb_bin_rel}\n")
install(FILES ${hb_doc_dir}/bindir DESTINATION ${hb_share}/lib)
