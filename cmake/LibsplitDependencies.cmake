# Every dependency comes from a Debian 12 package (scripts/setup.sh installs them); none is
# vendored or downloaded. Targets below are the only way the tree refers to them.

find_package(Threads REQUIRED)

# opencl-headers + ocl-icd-opencl-dev: the Khronos headers and the ICD loader (-lOpenCL).
find_package(OpenCL 3.0 REQUIRED)

# libeigen3-dev: the Broyden balancer's small dense linear algebra.
find_package(Eigen3 3.4 REQUIRED NO_MODULE)

# catch2: Catch2 v2 (header-only, catch2/catch.hpp).
find_package(Catch2 2 REQUIRED)

# libsigsegv-dev ships no CMake or pkg-config file.
find_path(SIGSEGV_INCLUDE_DIR sigsegv.h REQUIRED)
find_library(SIGSEGV_LIBRARY sigsegv REQUIRED)
add_library(libsplit::sigsegv UNKNOWN IMPORTED)
set_target_properties(libsplit::sigsegv PROPERTIES IMPORTED_LOCATION "${SIGSEGV_LIBRARY}"
                      INTERFACE_INCLUDE_DIRECTORIES "${SIGSEGV_INCLUDE_DIR}")

# llvm-16-dev, libclang-16-dev, clang-16: the kernel compiler (pass/) only. Exactly major 16:
# the pass uses the new pass manager API of that release and Clang 16 as the OpenCL C front end.
find_package(LLVM 16 REQUIRED CONFIG HINTS /usr/lib/llvm-16/lib/cmake/llvm)
find_package(Clang REQUIRED CONFIG HINTS /usr/lib/llvm-16/lib/cmake/clang)
if(NOT LLVM_VERSION_MAJOR EQUAL 16)
  message(FATAL_ERROR "libsplit needs LLVM 16, found ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")
endif()
message(STATUS "libsplit: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")

# PoCL (pocl-opencl-icd) is the test platform: needed at run time only, found through the ICD.
