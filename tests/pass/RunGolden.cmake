# Runs libsplit-cc on one golden input and compares its outputs with the expected files.
#   cmake -DTOOL=<libsplit-cc> -DDIR=<golden dir> -DCASE=<name> -DOUT=<dir> [-DCLANG=<clang>]
#         -P RunGolden.cmake
# Inputs: <DIR>/<CASE>.cl, or the files listed in <DIR>/<CASE>.inputs (several source strings,
# concatenated by the tool), and, if present, <DIR>/<CASE>.options (the app's build options as
# one string). Expected: <DIR>/<CASE>.expected.cl and <DIR>/<CASE>.expected.kernels, or, when
# <DIR>/<CASE>.expected.stderr exists, exit status 1 and a standard error containing each of its
# lines. With LIBSPLIT_UPDATE_GOLDEN=1 in the environment the expected files are rewritten
# instead (review the diff before committing).

set(Options "")
if(EXISTS "${DIR}/${CASE}.options")
  file(READ "${DIR}/${CASE}.options" Options)
  string(STRIP "${Options}" Options)
endif()
set(Inputs "${CASE}.cl")
if(EXISTS "${DIR}/${CASE}.inputs")
  file(STRINGS "${DIR}/${CASE}.inputs" Inputs)
endif()
file(MAKE_DIRECTORY "${OUT}")
# Relative paths, run from DIR: the #line names in the output do not depend on the checkout.
execute_process(
  COMMAND "${TOOL}" ${Inputs} -o "${OUT}/${CASE}.cl" --kernels "${OUT}/${CASE}.kernels"
          --build-options "${Options}"
  WORKING_DIRECTORY "${DIR}"
  RESULT_VARIABLE Status
  ERROR_VARIABLE Stderr)

if(EXISTS "${DIR}/${CASE}.expected.stderr")
  if(NOT Status EQUAL 1)
    message(FATAL_ERROR "expected exit status 1, got '${Status}'\n${Stderr}")
  endif()
  file(STRINGS "${DIR}/${CASE}.expected.stderr" Needles)
  foreach(Needle IN LISTS Needles)
    string(FIND "${Stderr}" "${Needle}" At)
    if(At EQUAL -1)
      message(FATAL_ERROR "standard error lacks '${Needle}':\n${Stderr}")
    endif()
  endforeach()
  return()
endif()

if(NOT Status EQUAL 0)
  message(FATAL_ERROR "libsplit-cc exited with '${Status}':\n${Stderr}")
endif()
set(Mismatch FALSE)
foreach(Kind cl kernels)
  set(Expected "${DIR}/${CASE}.expected.${Kind}")
  set(Actual "${OUT}/${CASE}.${Kind}")
  if("$ENV{LIBSPLIT_UPDATE_GOLDEN}" STREQUAL "1")
    file(COPY_FILE "${Actual}" "${Expected}")
    continue()
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${Expected}" "${Actual}"
                  RESULT_VARIABLE Different)
  if(Different)
    set(Mismatch TRUE)
    execute_process(COMMAND diff -u "${Expected}" "${Actual}" OUTPUT_VARIABLE Diff)
    message("${Actual} differs from ${Expected}:\n${Diff}")
  endif()
endforeach()
if(Mismatch)
  message(FATAL_ERROR "golden mismatch for ${CASE}")
endif()

# The output must itself be OpenCL C that compiles cleanly, as a vendor would compile it (with
# the app's options, from the golden directory so that -I still resolves).
if(CLANG)
  file(STRINGS "${OUT}/${CASE}.kernels" ProgramLine REGEX "^program ")
  if(ProgramLine STREQUAL "program rewritten")
    separate_arguments(OptionList UNIX_COMMAND "${Options}")
    execute_process(
      COMMAND "${CLANG}" -x cl -Xclang -finclude-default-header -target spir64 -fsyntax-only
              -Werror ${OptionList} "${OUT}/${CASE}.cl"
      WORKING_DIRECTORY "${DIR}"
      RESULT_VARIABLE Status
      ERROR_VARIABLE Stderr)
    if(NOT Status EQUAL 0)
      message(FATAL_ERROR "the partition-ready source does not compile with ${CLANG}:\n${Stderr}")
    endif()
  endif()
endif()
