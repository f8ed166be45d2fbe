#!/usr/bin/env bash
# The whole test suite: install, build with warnings as errors, run ctest;
# then again with AddressSanitizer and UndefinedBehaviorSanitizer; then each
# fuzz target (tests/fuzz) briefly under libFuzzer where clang has it.
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

if [ "${GLTRACE_SKIP_FUZZ:-0}" != 1 ] && command -v clang >/dev/null &&
   echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; (void)n; return 0; }' |
   clang -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null; then
  # Each fuzz target (tests/fuzz) for a short while from its seeds, under
  # libFuzzer, ASan and UBSan: a crash fails CI, its input in the log.
  CC=clang cmake -S "$here" -B "$here/build-fuzz" -DGLTRACE_WERROR=ON -DGLTRACE_FUZZ=ON >/dev/null
  cmake --build "$here/build-fuzz" -j"$jobs" --target fuzz
  fuzz_seconds=${GLTRACE_FUZZ_SECONDS:-20}
  for prog in "$here"/build-fuzz/bin/fuzz_*; do
    name=${prog##*/fuzz_}
    work=$(mktemp -d)
    echo "fuzz $name for ${fuzz_seconds}s" >&2
    # -malloc_limit_mb: one allocation over 2 GB (a size read from the input
    # and believed) is a finding. The process as a whole may grow further:
    # ASan keeps freed memory and per-thread state across millions of runs
    # (the png target starts threads), which once passed 2 GB in 11 s.
    mapfile -t own < <(bash "$here/tests/fuzz/options.sh" "$name")
    # The saved crash inputs run too (after $work, where new inputs go): a
    # leak comes back only under libFuzzer (ctest runs without leak checks).
    saved=()
    [ -d "$here/tests/fuzz/crashes/$name" ] && saved+=("$here/tests/fuzz/crashes/$name")
    # A target without leak checks (-detect_leaks=0: it hands data to Mesa)
    # has none at exit either: LeakSanitizer's exit-time pass once crashed
    # (its tracer, signal 11, with llvmpipe's threads alive) and libFuzzer
    # then wrote an empty input as a crash.
    asan=quarantine_size_mb=64
    for o in "${own[@]}"; do
      if [ "$o" = -detect_leaks=0 ]; then asan+=:detect_leaks=0; fi
    done
    ASAN_OPTIONS=$asan \
    "$prog" -max_total_time="$fuzz_seconds" -timeout=10 -malloc_limit_mb=2048 -rss_limit_mb=8192 -print_final_stats=1 \
      -dict="$here/tests/fuzz/$name.dict" -artifact_prefix="$work/" "${own[@]}" "$work" "$here/tests/fuzz/corpus/$name" "${saved[@]}" ||
      { echo "fuzz_$name failed; the input:" >&2; for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
          [ -e "$f" ] && { echo "$f" >&2; od -An -tx1 -v "$f" | head -n 64 >&2; }; done; exit 1; }
    rm -rf "$work"
  done
fi

if [ "${GLTRACE_SKIP_SANITIZERS:-0}" != 1 ]; then
  # Threads: the capture library and a multi-threaded app under ThreadSanitizer.
  cmake -S "$here" -B "$here/build-tsan" -DGLTRACE_WERROR=ON -DGLTRACE_SANITIZE=thread >/dev/null
  cmake --build "$here/build-tsan" -j"$jobs" --target gltrace gltrace_capture threads_app server_spin_app \
    apps_es3_scene view_marker_app apps_offscreen_readback
  (cd "$here/build-tsan" && TSAN_OPTIONS=halt_on_error=1:suppressions="$here/tests/tsan.supp" ctest --output-on-failure -L threads)
fi
