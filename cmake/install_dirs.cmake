# Where `cmake --install` puts things (GNUInstallDirs, so a distribution's
# -DCMAKE_INSTALL_LIBDIR=... is honoured), and the one fact two parts must
# agree on: where `gltrace record` finds libgltrace.so from its own folder.
include(GNUInstallDirs)

# The capture library is preloaded by path, never linked: it lives in a
# folder of its own, not beside the system's shared libraries.
set(GLTRACE_INSTALL_CAPTUREDIR ${CMAKE_INSTALL_LIBDIR}/gltrace)
set(GLTRACE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/gltrace)
set(GLTRACE_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Relative to the executable's folder, so that `cmake --install --prefix P`
# may choose P after the build; absolute only when the user gave absolute
# install folders.
if(IS_ABSOLUTE "${GLTRACE_INSTALL_CAPTUREDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
  set(GLTRACE_CAPTURE_FROM_BINDIR "${CMAKE_INSTALL_FULL_LIBDIR}/gltrace/libgltrace.so")
else()
  file(RELATIVE_PATH GLTRACE_CAPTURE_FROM_BINDIR
       /prefix/${CMAKE_INSTALL_BINDIR} /prefix/${GLTRACE_INSTALL_CAPTUREDIR}/libgltrace.so)
endif()
