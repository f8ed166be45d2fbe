#!/usr/bin/env bash
# The whole test suite: install, build with warnings as errors, run ctest;
# then again with AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bash "$here/ci/setup.sh"
jobs=$(nproc 2>/dev/null || echo 2)

bash "$here/ci/build.sh" "$here/build"
(cd "$here/build" && ctest --output-on-failure -j"$jobs" -LE bench)

if [ "${GLTRACE_SKIP_SANITIZERS:-0}" != 1 ]; then
  bash "$here/ci/build.sh" "$here/build-asan" -DCMAKE_BUILD_TYPE=Debug -DGLTRACE_SANITIZE=address,undefined
  # The preloaded library is sanitized too, so the ASan runtime cannot be
  # first in the link order of the traced programs.
  (cd "$here/build-asan" && ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     ctest --output-on-failure -j"$jobs" -LE 'bench|no-sanitizer')
fi

if [ "${GLTRACE_SKIP_SANITIZERS:-0}" != 1 ]; then
  # Threads: the capture library and a multi-threaded app under ThreadSanitizer.
  cmake -S "$here" -B "$here/build-tsan" -DGLTRACE_WERROR=ON -DGLTRACE_SANITIZE=thread >/dev/null
  cmake --build "$here/build-tsan" -j"$jobs" --target gltrace gltrace_capture threads_app server_spin_app
  (cd "$here/build-tsan" && TSAN_OPTIONS=halt_on_error=1:suppressions="$here/tests/tsan.supp" ctest --output-on-failure -L threads)
fi
