# Compile settings every libsplit target gets: warnings (as errors in CI) and the sanitizer build.
# Applied per target so that third-party headers (Eigen, Catch2, LLVM) keep their own warnings.

set(LIBSPLIT_WARNING_FLAGS -Wall -Wextra)
if(LIBSPLIT_WERROR)
  list(APPEND LIBSPLIT_WARNING_FLAGS -Werror)
endif()

if(LIBSPLIT_SANITIZE)
  set(LIBSPLIT_SANITIZER_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer
                               -fno-sanitize-recover=undefined)
  add_compile_options(${LIBSPLIT_SANITIZER_FLAGS})
  add_link_options(-fsanitize=address,undefined)
endif()

function(libsplit_target_defaults Target)
  target_compile_options(${Target} PRIVATE ${LIBSPLIT_WARNING_FLAGS})
endfunction()
