# Install rules: what `cmake --install build --prefix P` writes, and what a
# wheel (pyproject.toml, scikit-build-core) carries.
#
#   P/bin/tinyaot                       the command
#   P/lib/libtinyaot.so                 the C API (include/tinyaot/tinyaot.h)
#   P/include/tinyaot/tinyaot.h         its header
#   P/share/tinyaot/runtime/...         the runtime sources (docs/install.md)
#
# A wheel puts the command in the environment's bin/ and the library inside
# the Python package, where python/tinyaot/_native.py loads it; header and
# runtime go to the environment's include/ and share/, laid out as above.
include(GNUInstallDirs)

if(SKBUILD)
  set(TINYAOT_INSTALL_BINDIR ${SKBUILD_SCRIPTS_DIR})
  set(TINYAOT_INSTALL_LIBDIR ${SKBUILD_PLATLIB_DIR}/tinyaot)
  set(TINYAOT_INSTALL_INCLUDEDIR ${SKBUILD_DATA_DIR}/${CMAKE_INSTALL_INCLUDEDIR})
  set(TINYAOT_INSTALL_DATADIR ${SKBUILD_DATA_DIR}/${CMAKE_INSTALL_DATADIR}/tinyaot)
else()
  set(TINYAOT_INSTALL_BINDIR ${CMAKE_INSTALL_BINDIR})
  set(TINYAOT_INSTALL_LIBDIR ${CMAKE_INSTALL_LIBDIR})
  set(TINYAOT_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
  set(TINYAOT_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/tinyaot)
endif()

if(TINYAOT_PREBUILT_DIR)
  # The command and library of an existing build (cmake/prebuilt.cmake).
  install(PROGRAMS ${TINYAOT_PREBUILT_DIR}/tinyaot DESTINATION ${TINYAOT_INSTALL_BINDIR})
  install(FILES ${TINYAOT_PREBUILT_DIR}/libtinyaot.so DESTINATION ${TINYAOT_INSTALL_LIBDIR})
else()
  install(TARGETS tinyaot RUNTIME DESTINATION ${TINYAOT_INSTALL_BINDIR})
  install(TARGETS tinyaot_shared LIBRARY DESTINATION ${TINYAOT_INSTALL_LIBDIR})
endif()

install(FILES ${CMAKE_CURRENT_LIST_DIR}/../include/tinyaot/tinyaot.h
        DESTINATION ${TINYAOT_INSTALL_INCLUDEDIR}/tinyaot)
# The whole runtime tree: the kernels and headers every module copies from
# (byte for byte), ta_custom.h for custom kernels, and runtime/arena with its
# CMakeLists.txt, usable with add_subdirectory().
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/../runtime/
        DESTINATION ${TINYAOT_INSTALL_DATADIR}/runtime)
