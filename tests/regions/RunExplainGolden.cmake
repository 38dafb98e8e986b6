# Runs `libsplit-cc --explain` on corpus/<CASE>.cl and compares its output with
# corpus/<CASE>.expected.
#   cmake -DTOOL=<libsplit-cc> -DDIR=<corpus dir> -DCASE=<name> -DOUT=<dir> -P RunExplainGolden.cmake
# Build options come from the file's `//@ options` line. With LIBSPLIT_UPDATE_GOLDEN=1 in the
# environment the expected file is rewritten instead (review the diff before committing).

file(STRINGS "${DIR}/${CASE}.cl" OptionLines REGEX "^//@ options ")
set(Options "")
if(OptionLines)
  list(GET OptionLines 0 Options)
  string(REPLACE "//@ options " "" Options "${Options}")
endif()
file(MAKE_DIRECTORY "${OUT}")
execute_process(
  COMMAND "${TOOL}" --explain "${CASE}.cl" --build-options "${Options}"
  WORKING_DIRECTORY "${DIR}"
  RESULT_VARIABLE Status
  OUTPUT_FILE "${OUT}/${CASE}.explain"
  ERROR_VARIABLE Stderr)
if(NOT Status EQUAL 0)
  message(FATAL_ERROR "libsplit-cc exited with '${Status}':\n${Stderr}")
endif()
set(Expected "${DIR}/${CASE}.expected")
if("$ENV{LIBSPLIT_UPDATE_GOLDEN}" STREQUAL "1")
  file(COPY_FILE "${OUT}/${CASE}.explain" "${Expected}")
  return()
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${Expected}" "${OUT}/${CASE}.explain"
                RESULT_VARIABLE Different)
if(Different)
  execute_process(COMMAND diff -u "${Expected}" "${OUT}/${CASE}.explain" OUTPUT_VARIABLE Diff)
  message(FATAL_ERROR "${OUT}/${CASE}.explain differs from ${Expected}:\n${Diff}")
endif()
