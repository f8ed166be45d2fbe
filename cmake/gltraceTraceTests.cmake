# gltrace_add_trace_test(NAME TRACE [DEVICE d] [OPTIONS opt...] [LABELS l...]
#                        [TIMEOUT s] [ENVIRONMENT VAR=value...])
#
# A ctest named NAME that replays TRACE headless with the installed
# `gltrace replay TRACE OPTIONS...`: it passes when every compared snapshot
# matches (exit 0), fails on a difference (1) or an unusable trace (2).
# OPTIONS are replay's (the comparison options of `gltrace diff`, --frames,
# --check, ...). TRACE is relative to the current source folder.
#
# Labels: `traces` always, LABELS, and `device:d` for DEVICE, so a project
# selects its trace tests with `ctest -L traces -j N`, one device's with
# `ctest -L traces -L device:d`, and spreads them over machines with
# `ctest -L traces -I I,,N` (every N-th test from the I-th).
# ENVIRONMENT is set for the replay (e.g. GALLIUM_DRIVER=softpipe to
# replay on another Mesa driver); TIMEOUT is in seconds.
function(gltrace_add_trace_test name trace)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "DEVICE;TIMEOUT" "OPTIONS;LABELS;ENVIRONMENT")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gltrace_add_trace_test(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET gltrace::gltrace)
    message(FATAL_ERROR "gltrace_add_trace_test(${name}): find_package(gltrace) first")
  endif()
  get_filename_component(trace "${trace}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  add_test(NAME ${name} COMMAND $<TARGET_FILE:gltrace::gltrace> replay ${trace} ${arg_OPTIONS})

  set(labels traces ${arg_LABELS})
  if(arg_DEVICE)
    list(APPEND labels device:${arg_DEVICE})
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${labels}")
  if(arg_TIMEOUT)
    set_tests_properties(${name} PROPERTIES TIMEOUT ${arg_TIMEOUT})
  endif()
  if(arg_ENVIRONMENT)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${arg_ENVIRONMENT}")
  endif()
endfunction()
