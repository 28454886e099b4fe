# TINYAOT_PREBUILT_DIR=<a configured build of this tree>: package that
# build's command and library instead of compiling them again (make test
# installs the Python package this way). The build is brought up to date
# first, as `cmake --build` would.
get_filename_component(TINYAOT_PREBUILT_DIR ${TINYAOT_PREBUILT_DIR} ABSOLUTE)
if(NOT EXISTS ${TINYAOT_PREBUILT_DIR}/CMakeCache.txt)
  message(FATAL_ERROR "TINYAOT_PREBUILT_DIR=${TINYAOT_PREBUILT_DIR} is not a configured "
                      "tinyaot build (no CMakeCache.txt): configure and build it first (make build)")
endif()
add_custom_target(tinyaot_prebuilt ALL
  COMMAND ${CMAKE_COMMAND} --build ${TINYAOT_PREBUILT_DIR} --target tinyaot tinyaot_shared
  COMMENT "Bringing ${TINYAOT_PREBUILT_DIR} up to date (tinyaot, libtinyaot.so)"
  VERBATIM)
include(${CMAKE_CURRENT_LIST_DIR}/install.cmake)
