#!/usr/bin/env bash
# gltrace trim on a compositor: weston (headless backend, GL renderer,
# 400x300) recorded with weston-simple-egl as its client for SECONDS, then
# three-frame trims at a third, a half and near the end of its run: each
# trim's size against the original's, what it left out and wrote, and
# whether its check passed, and the same trim with --keep-state-commands
# (without step 8). The numbers of replay/TRIM.md ("Measured").
#   bench/trim_weston.sh [BUILD_DIR] [SECONDS]
set -euo pipefail
build=$(cd "${1:-build}" && pwd) secs=${2:-5}
for t in weston weston-simple-egl; do
  command -v $t >/dev/null || { echo "$t not installed (ci/setup.sh)"; exit 2; }
done
tmp=$(mktemp -d); trap 'pkill -TERM -x weston -P "${comp:-0}" 2>/dev/null || true; rm -rf "$tmp"' EXIT
export XDG_RUNTIME_DIR=$tmp/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
unset DISPLAY WAYLAND_DISPLAY
"$build/bin/gltrace" record -o "$tmp/w-%p.gltrace" -- weston --backend=headless-backend.so --use-gl \
  --socket=gt-bench-$$ --idle-time=0 --width=400 --height=300 >"$tmp/weston.log" 2>&1 &
comp=$!
for _ in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/gt-bench-$$" ] && break; sleep 0.2; done
WAYLAND_DISPLAY=gt-bench-$$ timeout -s INT "$secs" weston-simple-egl >/dev/null 2>&1 || true
# A script's background jobs ignore SIGINT: weston is asked to leave by SIGTERM.
pkill -TERM -x weston -P $comp; wait $comp || true
trace=$(ls "$tmp"/w-*.gltrace)
frames=$("$build/bin/gltrace" info "$trace" | python3 -c 'import json,sys; print(json.load(sys.stdin)["frames"])')
echo "original: $frames frames, $(stat -c %s "$trace") bytes; load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bin/gltrace" replay "$trace" --no-progress 2>&1 | tail -1
for k in $((frames / 3)) $((frames / 2)) $((frames - 6)); do
  out=$("$build/bin/gltrace" trim "$trace" --frames $k-$((k + 2)) -o "$tmp/t.gltrace")
  echo "frames $k-$((k + 2)):"
  echo "$out" | grep -E '^(size|left out|written|note|checked)|after a setup' | sed 's/^.*\(after a setup\)/\1/; s/^/  /'
  # The same trim keeping the state commands a later one replaced (step 8).
  out=$("$build/bin/gltrace" trim "$trace" --frames $k-$((k + 2)) --keep-state-commands -o "$tmp/t.gltrace")
  echo "$out" | grep -E '^size|after a setup' | sed 's/^.*\(after a setup\)/\1/; s/^/  --keep-state-commands: /'
done
