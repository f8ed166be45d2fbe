#!/usr/bin/env bash
# bench/diff/noisy.sh BUILD_DIR [WORK_DIR] [ROUNDS]
#
# gltrace diff against ImageMagick's `compare -metric AE` on noisy images,
# where PNG decoding is the whole cost: ImageMagick `plasma:fractal` at
# 1920x1080 and 3840x2160, and ACTUAL the same with a small rectangle
# painted over. Each size comes as 8-bit RGBA (PNG32), 8-bit RGB (PNG24),
# plain -depth 8 (EXPECTED RGB, ACTUAL RGBA: what ImageMagick writes after
# drawing) and 16-bit (ImageMagick's default for plasma; ACTUAL RGBA). Rounds are interleaved (in
# each round every command runs once, in turn), so both tools see the same
# load; prints per case the medians, their ratio, and the spread of the
# per-round ratios (min..max); then the floor: each file's IDAT stream
# inflated alone into a warm buffer by libdeflate and by igzip
# (inflate_floor.c, compiled here with cc). Needs: imagemagick, python3, cc,
# libdeflate-dev, libisal-dev. Builds nothing of the project.
# GT_OTHER=/path/to/another/gltrace adds a column for it (before/after).
set -euo pipefail

BUILD=${1:?usage: noisy.sh BUILD_DIR [WORK_DIR] [ROUNDS]}
WORK=${2:-/tmp/gltrace-diff-noisy}
ROUNDS=${3:-5}
GT=$(cd "$BUILD" && pwd)/bin/gltrace
[ -x "$GT" ] || { echo "noisy.sh: $GT not found; build the gltrace target first" >&2; exit 2; }
for tool in compare convert python3 cc; do
  command -v $tool >/dev/null || { echo "noisy.sh: $tool missing (see ci/setup.sh)" >&2; exit 2; }
done
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$WORK"
cd "$WORK"
cc -O2 -o inflate_floor "$HERE/inflate_floor.c" -ldeflate -lisal

# make_pair NAME W H DEPTH PREFIX: NAME_e.png and NAME_a.png from one
# plasma, ACTUAL with a rectangle of about 1/48 x 1/36 of the frame painted
# red. Plasma is slow (20 s at 4K): made once per size and kept.
make_pair() {
  local name=$1 w=$2 h=$3 depth=$4 pfx=$5
  [ -f "${name}_a.png" ] && return
  local src="plasma_${w}x${h}.miff" x=$(($2 / 10)) y=$(($3 / 10))
  [ -f "$src" ] || { echo "making plasma ${w}x${h} (once)..."; convert -size "${w}x${h}" -seed 3 plasma:fractal "$src"; }
  # shellcheck disable=SC2086
  convert "$src" $depth "${pfx}${name}_e.png"
  # shellcheck disable=SC2086
  convert "$src" -fill '#ff0000' -draw "rectangle $x,$y $((x + w / 48 - 1)),$((y + h / 36 - 1))" $depth "${pfx}${name}_a.png"
}
make_pair 1080_rgba 1920 1080 "-depth 8" PNG32:
make_pair 2160_rgba 3840 2160 "-depth 8" PNG32:
make_pair 1080_rgb 1920 1080 "-depth 8" PNG24:
make_pair 2160_rgb 3840 2160 "-depth 8" PNG24:
make_pair 1080_d8 1920 1080 "-depth 8" ""
make_pair 2160_d8 3840 2160 "-depth 8" ""
make_pair 1080_16 1920 1080 "" ""
make_pair 2160_16 3840 2160 "" ""
CASES="1080_rgba 2160_rgba 1080_rgb 2160_rgb 1080_d8 2160_d8 1080_16 2160_16"

python3 - "$GT" "${GT_OTHER:-}" "$ROUNDS" $CASES <<'EOF2'
import os, statistics, subprocess, sys, time
gt, other, rounds, cases = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]

def run(cmd):
    """Wall and CPU (user + system) seconds of one run, and its output."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = p.stdout.read()
    _, _, ru = os.wait4(p.pid, 0)
    return time.perf_counter() - t, ru.ru_utime + ru.ru_stime, out

def check(c):
    """Both tools count the same differing pixels, or the race is void."""
    im = run(["compare", "-metric", "AE", f"{c}_e.png", f"{c}_a.png", "null:"])[2].strip()
    g = run([gt, "diff", f"{c}_e.png", f"{c}_a.png"])[2]
    n = g.split(" pixels differ")[0].split()[-1] if "pixels differ" in g else "0"
    if n != im:
        sys.exit(f"noisy.sh: {c}: gltrace counts {n} differing pixels, ImageMagick AE {im}")
    return n

tools = [("im", ["compare", "-metric", "AE"], ["null:"]), ("gt", [gt, "diff"], [])]
if other:
    tools.append(("other", [other, "diff"], []))
load = lambda: " ".join(open("/proc/loadavg").read().split()[:3])
print(f"{os.cpu_count()} CPUs, {rounds} rounds interleaved; load average before: {load()}")
counts = {c: check(c) for c in cases}
t = {(c, k): [] for c in cases for k, _, _ in tools}
for r in range(rounds):
    for c in cases:
        for k, pre, post in tools:
            t[(c, k)].append(run(pre + [f"{c}_e.png", f"{c}_a.png"] + post)[:2])
print(f"load average after: {load()}")
med = lambda xs, i: statistics.median(x[i] for x in xs)
print(f"{'':<18}{'-- wall, median ms --':^30}{'-- CPU (user+sys), median ms --':^32}")
print(f"{'case':<11}{'pixels':>7}{'IM':>8}{'gltrace':>9}{'ratio':>6}{'min..max':>11}"
      f"{'IM':>9}{'gltrace':>9}{'ratio':>7}" + (f"{'other wall':>12}{'ratio':>6}{'CPU':>6}" if other else ""))
for c in cases:
    im, g = t[(c, "im")], t[(c, "gt")]
    per = [a[0] / b[0] for a, b in zip(im, g)]
    line = (f"{c:<11}{counts[c]:>7}{med(im, 0)*1e3:>8.0f}{med(g, 0)*1e3:>9.0f}{med(im, 0)/med(g, 0):>5.1f}x"
            f"{min(per):>6.1f}..{max(per):<4.1f}{med(im, 1)*1e3:>8.0f}{med(g, 1)*1e3:>9.0f}{med(im, 1)/med(g, 1):>6.1f}x")
    if other:
        o = t[(c, "other")]
        line += f"{med(o, 0)*1e3:>12.0f}{med(im, 0)/med(o, 0):>5.1f}x{med(o, 1)*1e3:>6.0f}"
    print(line)
EOF2

echo
echo "floor: inflate alone, warm buffer, best of 10 (ms); a pair on two cores"
echo "cannot beat the slower file's best, nor use less CPU than the sum"
printf '%-11s%12s%12s%12s%12s\n' case "libdeflate" igzip "wall floor" "CPU floor"
for c in $CASES; do
  ./inflate_floor "${c}_e.png" "${c}_a.png" | awk -v c="$c" '
    { ld[NR] = $2; ig[NR] = $3; b[NR] = $2 < $3 ? $2 : $3 }
    END { printf "%-11s%6.1f+%-5.1f%6.1f+%-5.1f%12.1f%12.1f\n", c, ld[1], ld[2], ig[1], ig[2],
          (b[1] > b[2] ? b[1] : b[2]), b[1] + b[2] }'
done
