# The Debian package (docs/fleet.md "From apt-get install to a running campaign"): what a fleet's
# hosts install instead of building ptsuite. `cpack -G DEB` in the build directory writes
# ptsuite_<version>_<arch>.deb: /usr/bin/ptsuite, its man page and bash completion (generated
# from the command definitions by the built binary), the docs, and an empty fleet run root
# (/var/lib/ptsuite/fleet, made by postinst). Depends: from dpkg-shlibdeps over the binary
# (dpkg-dev); Recommends/Suggests: what optional features call (Slurm's clients, Chromium for
# PDF reports, fio for the side-by-side checks). Checked by ctest `package.deb`.

set(PTSUITE_PACKAGE_GEN ${CMAKE_BINARY_DIR}/package-files)
add_custom_command(
  OUTPUT ${PTSUITE_PACKAGE_GEN}/ptsuite.1.gz ${PTSUITE_PACKAGE_GEN}/ptsuite.bash-completion
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PTSUITE_PACKAGE_GEN}
  COMMAND sh -c "$<TARGET_FILE:ptsuite> man | gzip -9n > ${PTSUITE_PACKAGE_GEN}/ptsuite.1.gz"
  COMMAND sh -c "$<TARGET_FILE:ptsuite> completion bash > ${PTSUITE_PACKAGE_GEN}/ptsuite.bash-completion"
  DEPENDS ptsuite
  COMMENT "Generating the man page and bash completion for the package"
  VERBATIM)
add_custom_target(ptsuite_package_files ALL DEPENDS ${PTSUITE_PACKAGE_GEN}/ptsuite.1.gz
                                                    ${PTSUITE_PACKAGE_GEN}/ptsuite.bash-completion)

install(TARGETS ptsuite RUNTIME DESTINATION bin)
install(FILES ${PTSUITE_PACKAGE_GEN}/ptsuite.1.gz DESTINATION share/man/man1)
install(FILES ${PTSUITE_PACKAGE_GEN}/ptsuite.bash-completion DESTINATION share/bash-completion/completions
        RENAME ptsuite)
file(GLOB PTSUITE_DOCS ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${PTSUITE_DOCS} DESTINATION share/doc/ptsuite)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ptsuite)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "SNIA Solid State Storage Performance Test Specification suite")
set(CPACK_PACKAGE_DESCRIPTION
    "Runs the SNIA PTS 2.0.2 (and PTS-E 1.1) tests against SSDs: purge, preconditioning, Rounds to steady state, reports with a per-clause compliance verdict, a verifiable bundle, a results history (SQLite or PostgreSQL), and PTS runs on a lab's drives through Slurm (ptsuite fleet).")
set(CPACK_PACKAGE_CONTACT "ptsuite maintainers <ptsuite@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "slurm-client, munge")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "slurmd, chromium, postgresql-client, fio")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_SOURCE_DIR}/packaging/postinst)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_OUTPUT_FILE_PREFIX ${CMAKE_BINARY_DIR}/package)
include(CPack)
