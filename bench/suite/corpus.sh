#!/usr/bin/env bash
# `gltrace suite` on a corpus of real programs, as a user would run it:
# glmark2-es2 scenes and variants, es2gears and es2tri recorded windowed under
# an Xvfb of our own (the default --fb=swap), plus the sample apps; the
# suite made with `suite add`; run whole, then in three shards through
# GitLab's variables (CI_NODE_INDEX/CI_NODE_TOTAL) and merged. Then the
# wall time of `suite run` against a serial loop of `gltrace replay` over
# the same traces, interleaved, ROUNDS rounds: the ratio per round, its
# median and spread, and the runner's own time per trace (suite run
# --jobs 1 against the serial loop).
#   bench/suite/corpus.sh [BUILD_DIR] [WORK_DIR] [ROUNDS]
set -euo pipefail
build=$(cd "${1:-build}" && pwd); work=${2:-/tmp/gltrace-corpus}; rounds=${3:-3}
gltrace=$build/bin/gltrace
mkdir -p "$work"; work=$(cd "$work" && pwd)
rm -rf "$work/traces" "$work"/run-* "$work"/shard-* "$work/merged"
mkdir -p "$work/traces"

# --- record
exec 3< <(Xvfb -displayfd 4 -screen 0 640x480x24 -nolisten tcp 4>&1 2>/dev/null)
read -r -t 20 display <&3 || { echo "Xvfb did not start" >&2; exit 2; }
xvfb=$(pgrep -n Xvfb); trap 'kill $xvfb 2>/dev/null || true' EXIT
export DISPLAY=:$display
rec() { # name command...
  local name=$1; shift
  "$gltrace" record -o "$work/traces/$name.gltrace" -- "$@" >/dev/null 2>&1 || echo "record $name: exit $?" >&2
}
scenes=(build:use-vbo=true build:use-vbo=false texture:texture-filter=nearest texture:texture-filter=mipmap
        shading:shading=gouraud shading:shading=phong shading:shading=cel bump:bump-render=normals
        bump:bump-render=height effect2d pulsar desktop buffer:update-method=map buffer:update-method=subdata
        ideas jellyfish terrain shadow refract conditionals function loop clear)
for s in "${scenes[@]}"; do
  rec "glmark2-${s//[:=]/-}" glmark2-es2 -s 320x240 -b "$s:duration=0.5"
done
rec es2gears timeout -s INT 3 es2gears_x11
rec es2tri timeout -s INT 2 es2tri
for app in "$build"/tests/apps/*; do
  [ -x "$app" ] && [ -f "$app" ] || continue
  case $(basename "$app") in resize_x11|es2gears*) continue ;; esac
  env -u DISPLAY "$gltrace" record -o "$work/traces/app-$(basename "$app").gltrace" -- "$app" >/dev/null 2>&1 ||
    echo "record app $(basename "$app"): exit $?" >&2
done
kill "$xvfb" 2>/dev/null || true
unset DISPLAY
n=$(ls "$work/traces" | wc -l)
echo "corpus: $n traces, $(du -sh "$work/traces" | cut -f1)"

# --- the suite, whole, sharded, merged
"$gltrace" suite add "$work/corpus.yml" "$work"/traces/*.gltrace >/dev/null
status=0
"$gltrace" suite run "$work/corpus.yml" --device llvmpipe --out "$work/run-whole" >/dev/null 2>&1 || status=$?
echo "whole run: exit $status; $(cut -d, -f2 "$work/run-whole/results.csv" | tail -n +2 | sort | uniq -c | xargs)"
for i in 1 2 3; do
  CI_NODE_INDEX=$i CI_NODE_TOTAL=3 "$gltrace" suite run "$work/corpus.yml" --device llvmpipe \
    --out "$work/shard-$i" >/dev/null 2>&1 || true
done
"$gltrace" suite merge "$work"/shard-{1,2,3} --out "$work/merged" >/dev/null
same=$(diff <(cut -d, -f1,2 "$work/run-whole/results.csv" | sort) <(cut -d, -f1,2 "$work/merged/results.csv" | sort) \
       >/dev/null && echo yes || echo NO)
echo "three GitLab shards merged: same traces and statuses as the whole run: $same; report: $work/merged/report.html"

# --- speed: suite run against a serial loop, interleaved
serial() { for t in "$work"/traces/*.gltrace; do "$gltrace" replay --quiet "$t" >/dev/null 2>&1 || true; done; }
now() { date +%s.%N; }
ratios=(); own=()
for r in $(seq "$rounds"); do
  t0=$(now); serial; t1=$(now)
  "$gltrace" suite run "$work/corpus.yml" --device llvmpipe --out "$work/run-$r" >/dev/null 2>&1 || true; t2=$(now)
  "$gltrace" suite run "$work/corpus.yml" --device llvmpipe --jobs 1 --out "$work/run-$r-j1" >/dev/null 2>&1 || true
  t3=$(now)
  ratios+=("$(python3 -c "print(($t2 - $t1) / ($t1 - $t0))")")
  own+=("$(python3 -c "print(($t3 - $t2 - ($t1 - $t0)) / $n * 1000)")")
  echo "round $r: serial $(python3 -c "print(f'{$t1 - $t0:.2f}')") s, suite $(python3 -c "print(f'{$t2 - $t1:.2f}')") s," \
       "suite --jobs 1 $(python3 -c "print(f'{$t3 - $t2:.2f}')") s"
done
python3 - "$n" "${ratios[*]}" "${own[*]}" "$(uptime)" <<'PY'
import statistics, sys
n, ratios, own, load = int(sys.argv[1]), list(map(float, sys.argv[2].split())), list(map(float, sys.argv[3].split())), sys.argv[4]
print(f"suite / serial wall time: median {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}) over {len(ratios)} rounds")
print(f"runner's own time per trace (suite --jobs 1 minus serial, / {n}): median {statistics.median(own):.1f} ms "
      f"(min {min(own):.1f}, max {max(own):.1f})")
print(f"load at the end: {load.strip()}")
PY
