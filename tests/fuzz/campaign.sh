#!/bin/bash
# A fuzzing campaign of one target, as CAMPAIGN.md records them: the
# libFuzzer program of a GLTRACE_FUZZ build runs for SECONDS from a copy of
# the target's corpus, at the lowest priority, one process; then the inputs
# that reached new coverage are merged (-merge=1: the smallest set keeping
# every edge) back into tests/fuzz/corpus/NAME, and every crash, leak,
# timeout or out-of-memory input is copied to WORK/NAME/findings for
# review (those kept go to tests/fuzz/crashes/NAME once fixed).
#
# usage: tests/fuzz/campaign.sh BUILD_FUZZ_DIR NAME SECONDS [WORK_DIR]
# The log (with libFuzzer's final stats: execs, cov) is WORK/NAME/log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 name=$2 seconds=$3 work=${4:-/tmp/gltrace-fuzz}
prog="$build/bin/fuzz_$name"
[ -x "$prog" ] || { echo "campaign: $prog is missing (build the target fuzz)" >&2; exit 2; }
dir="$work/$name"
mkdir -p "$dir/corpus" "$dir/findings"
cp -n "$here/corpus/$name"/* "$dir/corpus/" 2>/dev/null || true
# The same limits as CI's fuzz step (ci/test.sh), and the target's own.
mapfile -t extra < <("$here/options.sh" "$name")
# Replay (and trim) hands what it accepts to Mesa: a crash there is recorded and the
# campaign goes on (a child process per job), not ended by the first one.
fork=()
[ "$name" = replay ] || [ "$name" = trim ] && fork+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
echo "campaign: fuzz_$name for ${seconds}s, $(date -u +%FT%TZ), load: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$dir/log"
# The goal is CPU time, not wall time: /usr/bin/time appends the fuzzer's
# own user and system seconds (its children's too, for fork mode) to the log.
# No leak checks at exit either where the target has none (ci/test.sh).
asan=quarantine_size_mb=64
for o in "${extra[@]}"; do
  if [ "$o" = -detect_leaks=0 ]; then asan+=:detect_leaks=0; fi
done
ASAN_OPTIONS=$asan nice -n 19 /usr/bin/time -a -o "$dir/log" -f 'campaign: cpu %U s user, %S s system, %e s wall' \
  "$prog" -max_total_time="$seconds" -timeout=10 \
  -malloc_limit_mb=2048 -rss_limit_mb=8192 -print_final_stats=1 \
  -dict="$here/$name.dict" -artifact_prefix="$dir/findings/" "${extra[@]}" "${fork[@]}" "$dir/corpus" >>"$dir/log" 2>&1 ||
  echo "campaign: fuzz_$name stopped on a finding (status $?)" | tee -a "$dir/log"
grep -E '^(#[0-9]+.*DONE|stat::|Done|campaign: cpu)' "$dir/log" | tail -9 || true
# The repository's corpus: the smallest set of inputs keeping every edge
# of the old corpus and of the campaign's.
merged="$dir/merged"
rm -rf "$merged" && mkdir -p "$merged"
nice -n 19 "$prog" -merge=1 -timeout=30 "${extra[@]}" "$merged" "$here/corpus/$name" "$dir/corpus" >>"$dir/merge.log" 2>&1
rm -f "$here/corpus/$name"/*
cp "$merged"/* "$here/corpus/$name/"
echo "campaign: corpus/$name now $(ls "$here/corpus/$name" | wc -l) inputs, $(du -sh "$here/corpus/$name" | cut -f1)"
ls "$dir/findings"
