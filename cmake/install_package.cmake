# What `cmake --install` adds besides the two binaries (cli/, capture/): a
# man page per command, the CMake package (find_package(gltrace)) and the
# pkg-config file. Every installed file is relocatable: `--prefix P` may be
# chosen at install time.
include(CMakePackageConfigHelpers)

# Man pages, from the --help texts of the gltrace just built: the commands
# are read from `gltrace --help`, so a new subcommand gets its page.
set(GLTRACE_MAN_DIR ${CMAKE_BINARY_DIR}/man/man1)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/man/stamp
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/gen_man.py
          $<TARGET_FILE:gltrace> ${GLTRACE_MAN_DIR} ${PROJECT_VERSION}
  COMMAND ${CMAKE_COMMAND} -E touch ${CMAKE_BINARY_DIR}/man/stamp
  DEPENDS gltrace ${CMAKE_CURRENT_LIST_DIR}/gen_man.py
  COMMENT "Writing the man pages from gltrace's --help texts"
  VERBATIM)
add_custom_target(gltrace_man ALL DEPENDS ${CMAKE_BINARY_DIR}/man/stamp)
install(DIRECTORY ${GLTRACE_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# The CMake package: gltrace::gltrace, GLTRACE_CAPTURE_LIBRARY and
# gltrace_add_trace_test().
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gltraceConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/gltraceConfig.cmake
  INSTALL_DESTINATION ${GLTRACE_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR GLTRACE_INSTALL_CAPTUREDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/gltraceConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/gltraceConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/gltraceConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/gltraceTraceTests.cmake
        DESTINATION ${GLTRACE_INSTALL_CMAKEDIR})

# pkg-config: no flags (nothing links gltrace), the paths of the tool and
# of the capture library as variables. Relative install folders are given
# from ${pcfiledir}, so the file stays right wherever --prefix puts it.
function(gltrace_pc_path var dir)
  if(IS_ABSOLUTE "${dir}")
    set(${var} "${dir}" PARENT_SCOPE)
  else()
    set(${var} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
if(IS_ABSOLUTE "${GLTRACE_INSTALL_PKGCONFIGDIR}")
  set(GLTRACE_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH up /prefix/${GLTRACE_INSTALL_PKGCONFIGDIR} /prefix)
  string(REGEX REPLACE "/$" "" up "${up}")
  set(GLTRACE_PC_PREFIX "\${pcfiledir}/${up}")
endif()
gltrace_pc_path(GLTRACE_PC_BINDIR ${CMAKE_INSTALL_BINDIR})
gltrace_pc_path(GLTRACE_PC_CAPTUREDIR ${GLTRACE_INSTALL_CAPTUREDIR})
gltrace_pc_path(GLTRACE_PC_MANDIR ${CMAKE_INSTALL_MANDIR})
configure_file(${CMAKE_CURRENT_LIST_DIR}/gltrace.pc.in ${CMAKE_BINARY_DIR}/cmake/gltrace.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cmake/gltrace.pc DESTINATION ${GLTRACE_INSTALL_PKGCONFIGDIR})
