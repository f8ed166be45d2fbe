#!/bin/bash
# AFL++ as a second engine on the same targets: the GLTRACE_FUZZ build made
# with afl-clang-fast links AFL++'s libFuzzer driver (libAFLDriver) in
# place of libFuzzer, so each fuzz_NAME.c runs unchanged, in persistent
# mode (many inputs per process), under ASan and UBSan as with libFuzzer.
# AFL++ brings other mutations (havoc stacks, splicing, its dictionary
# use) and its own queue: a second view of the targets, whose new inputs
# are fed back to the libFuzzer corpus with campaign.sh's merge.
#
# usage: tests/fuzz/afl.sh BUILD_AFL_DIR NAME SECONDS [WORK_DIR]
# Builds fuzz_NAME in BUILD_AFL_DIR (configured on first use), runs
# afl-fuzz for SECONDS at the lowest priority from tests/fuzz/corpus/NAME
# with NAME.dict; crashes and hangs land in WORK/afl-NAME/out/default/.
# The stats (execs_done, edges_found of map size) are printed at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$1 name=$2 seconds=$3 work=${4:-/tmp/gltrace-fuzz}
command -v afl-clang-fast >/dev/null || { echo "afl.sh: afl-clang-fast missing (apt-get install afl++)" >&2; exit 2; }
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=afl-clang-fast AFL_QUIET=1 cmake -S "$src" -B "$build" -DGLTRACE_WERROR=ON -DGLTRACE_FUZZ=ON >/dev/null
fi
AFL_QUIET=1 cmake --build "$build" -j2 --target "fuzz_$name" >/dev/null
dir="$work/afl-$name"
rm -rf "$dir/out" && mkdir -p "$dir"
extra=()
[ "$name" = replay ] && extra+=(-t 30000)
# AFL++ wants abort() on a sanitizer report, and no leak report at exit of
# the persistent loop (the driver's process lives for many inputs).
AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0:quarantine_size_mb=64 \
UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1 \
  nice -n 19 afl-fuzz -V "$seconds" -i "$here/corpus/$name" -o "$dir/out" -x "$here/$name.dict" "${extra[@]}" \
  -- "$build/bin/fuzz_$name" >"$dir/log" 2>&1 || { tail -20 "$dir/log" >&2; exit 1; }
stats="$dir/out/default/fuzzer_stats"
grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|bitmap_cvg|edges_found|total_edges|saved_crashes|saved_hangs)' "$stats"
ls "$dir/out/default/crashes" "$dir/out/default/hangs"
