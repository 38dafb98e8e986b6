# Reads bench/apps/manifest.txt (the one list of sample apps) into CMake variables:
#   LIBSPLIT_APPS                      app names, in file order
#   LIBSPLIT_APP_<name>_TYPE           output element type (f32, f64, i32, u32)
#   LIBSPLIT_APP_<name>_TOLERANCE      relative tolerance of the app's own check
#   LIBSPLIT_APP_<name>_ARGSETS        count of argument sets
#   LIBSPLIT_APP_<name>_ARGS_<i>       argument set i (a CMake list), 0 = smallest
function(libsplit_read_app_manifest ManifestPath)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ManifestPath})
  file(STRINGS ${ManifestPath} Lines REGEX "^[a-z]")
  set(Apps "")
  foreach(Line IN LISTS Lines)
    if(NOT Line MATCHES "^([a-z0-9_]+) *\\| *([a-z0-9]+) *\\| *([^| ]+) *\\|(.*)$")
      message(FATAL_ERROR "${ManifestPath}: cannot parse line '${Line}'")
    endif()
    set(Name ${CMAKE_MATCH_1})
    list(APPEND Apps ${Name})
    set(LIBSPLIT_APP_${Name}_TYPE ${CMAKE_MATCH_2} PARENT_SCOPE)
    set(LIBSPLIT_APP_${Name}_TOLERANCE ${CMAKE_MATCH_3} PARENT_SCOPE)
    # file(STRINGS) already split the line at ';', so the argument sets arrive as list items.
    set(Index 0)
    foreach(ArgSet IN LISTS CMAKE_MATCH_4)
      string(STRIP "${ArgSet}" ArgSet)
      separate_arguments(ArgList UNIX_COMMAND "${ArgSet}")
      set(LIBSPLIT_APP_${Name}_ARGS_${Index} "${ArgList}" PARENT_SCOPE)
      math(EXPR Index "${Index} + 1")
    endforeach()
    set(LIBSPLIT_APP_${Name}_ARGSETS ${Index} PARENT_SCOPE)
  endforeach()
  set(LIBSPLIT_APPS ${Apps} PARENT_SCOPE)
endfunction()
