# `cmake --install` layout and the .deb package (CPack). The runtime finds its compiler tool
# relative to itself (interpose/src/objects/kernel_compiler.cpp), so an installed tree can be moved.
include(GNUInstallDirs)

install(TARGETS split LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS libsplit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS libsplit-cc RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/libsplit)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/plot-trace DESTINATION ${CMAKE_INSTALL_BINDIR}
        RENAME libsplit-plot-trace)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME libsplit)
set(CPACK_PACKAGE_VENDOR "libsplit")
set(CPACK_PACKAGE_CONTACT "libsplit developers <dev@libsplit.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The compiler tool links LLVM and Clang 16; the runtime needs an ICD loader and some device.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libllvm16, libclang-cpp16, ocl-icd-libopencl1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd, python3-matplotlib")
include(CPack)
