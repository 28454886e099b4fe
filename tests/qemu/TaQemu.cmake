# TaQemu.cmake - ctest tests that build C sources with the QEMU kit and run
# them on a QEMU Cortex-M board (through tests/qemu/run.sh).
#
#   include(${PROJECT_SOURCE_DIR}/tests/qemu/TaQemu.cmake)
#   ta_qemu_add_test(NAME my_test_m55
#                    BOARD mps3-an547            # or mps2-an386
#                    SOURCES my_test.c ../../runtime/arena/ta_arena.c
#                    INCLUDES ../../runtime/include
#                    DEFINES FOO=1
#                    CFLAGS -O3
#                    ARGS input.bin output.bin  # ta_semihost_cmdline()
#                    EXPECT_STATUS 0            # default: pass on status 0
#                    TIMEOUT 120)               # seconds, default 120
#
# Relative SOURCES and INCLUDES are taken from the calling directory. The
# ELF is built when the test runs (run.sh compiles it) into the calling
# directory's binary directory, which is also the test's working directory:
# semihosting file paths in ARGS are relative to it.
#
# Needs arm-none-eabi-gcc (with newlib) and qemu-system-arm; configuring
# fails with a message naming the missing one. Set ARM_NONE_EABI_GCC or
# QEMU_SYSTEM_ARM (CMake cache variables) to use other binaries.

set(TA_QEMU_KIT_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "QEMU kit")
set(TA_QEMU_RUN "${CMAKE_CURRENT_LIST_DIR}/run.sh" CACHE INTERNAL "QEMU runner")

find_program(ARM_NONE_EABI_GCC arm-none-eabi-gcc)
find_program(QEMU_SYSTEM_ARM qemu-system-arm)
find_program(TA_QEMU_BASH bash)
if(NOT ARM_NONE_EABI_GCC)
  message(FATAL_ERROR
    "arm-none-eabi-gcc not found: the QEMU tests need it. Install the Debian "
    "packages gcc-arm-none-eabi and libnewlib-arm-none-eabi, or set "
    "-DARM_NONE_EABI_GCC=/path/to/arm-none-eabi-gcc.")
endif()
if(NOT QEMU_SYSTEM_ARM)
  message(FATAL_ERROR
    "qemu-system-arm not found: the QEMU tests need it. Install the Debian "
    "package qemu-system-arm, or set -DQEMU_SYSTEM_ARM=/path/to/qemu-system-arm.")
endif()
if(NOT TA_QEMU_BASH)
  message(FATAL_ERROR "bash not found: tests/qemu/run.sh needs it.")
endif()

function(ta_qemu_add_test)
  cmake_parse_arguments(T "" "NAME;BOARD;EXPECT_STATUS;TIMEOUT"
                        "SOURCES;INCLUDES;DEFINES;CFLAGS;ARGS" ${ARGN})
  if(NOT T_NAME OR NOT T_SOURCES)
    message(FATAL_ERROR "ta_qemu_add_test: NAME and SOURCES are required")
  endif()
  if(NOT T_BOARD)
    set(T_BOARD mps3-an547)
  endif()
  if(NOT DEFINED T_EXPECT_STATUS)
    set(T_EXPECT_STATUS 0)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()

  set(cmd "${TA_QEMU_BASH}" "${TA_QEMU_RUN}" --board "${T_BOARD}"
      -o "${CMAKE_CURRENT_BINARY_DIR}/${T_NAME}.elf"
      --timeout "${T_TIMEOUT}" --expect-status "${T_EXPECT_STATUS}")
  foreach(dir IN LISTS T_INCLUDES)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND cmd "-I${dir}")
  endforeach()
  foreach(def IN LISTS T_DEFINES)
    list(APPEND cmd "-D${def}")
  endforeach()
  if(T_CFLAGS)
    list(JOIN T_CFLAGS " " cflags)
    list(APPEND cmd --cflags "${cflags}")
  endif()
  foreach(src IN LISTS T_SOURCES)
    get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND cmd "${src}")
  endforeach()
  if(T_ARGS)
    list(APPEND cmd -- ${T_ARGS})
  endif()

  add_test(NAME "${T_NAME}"
           COMMAND "${CMAKE_COMMAND}" -E env
                   "ARM_NONE_EABI_GCC=${ARM_NONE_EABI_GCC}"
                   "QEMU_SYSTEM_ARM=${QEMU_SYSTEM_ARM}"
                   ${cmd}
           WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  math(EXPR ctest_timeout "${T_TIMEOUT} + 60")
  set_tests_properties("${T_NAME}" PROPERTIES TIMEOUT ${ctest_timeout}
                       LABELS qemu)
endfunction()
