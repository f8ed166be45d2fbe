#!/usr/bin/env bash
# bench/diff/run.sh BUILD_DIR [WORK_DIR]
#
# gltrace diff against ImageMagick's `compare -metric AE`, end to end, in one
# run: a 1920x1080 pair, a 3840x2160 pair and a directory of 1000 320x240
# pairs. Builds nothing (give it a build directory with bin/gltrace); makes
# its frames with ImageMagick once and keeps them in WORK_DIR (default
# /tmp/gltrace-diff-bench). Needs: imagemagick, hyperfine, python3.
#
# Frames look like renders: a gradient sky with a fractal texture over it
# and 40 anti-aliased shapes; ACTUAL is the same scene drawn 0.4 pixel to
# the right, so every pair differs along its edges and both tools decode
# everything (byte-identical files would let gltrace skip a decode).
set -euo pipefail

BUILD=${1:?usage: run.sh BUILD_DIR [WORK_DIR]}
WORK=${2:-/tmp/gltrace-diff-bench}
GT=$(cd "$BUILD" && pwd)/bin/gltrace
[ -x "$GT" ] || { echo "run.sh: $GT not found; build the gltrace target first" >&2; exit 2; }
for tool in compare convert hyperfine python3; do
  command -v $tool >/dev/null || { echo "run.sh: $tool missing (see ci/setup.sh)" >&2; exit 2; }
done
mkdir -p "$WORK"
cd "$WORK"

# scene W H DX OUT: the test scene, shapes shifted right by DX pixels.
scene() {
  local w=$1 h=$2 dx=$3 out=$4 args=()
  while IFS='|' read -r fill shape; do
    args+=(-fill "$fill" -draw "$shape")
  done < <(awk -v W="$w" -v H="$h" -v O="$dx" 'BEGIN { srand(7)
    for (i = 0; i < 40; i++) {
      x = rand() * W + O; y = rand() * H; r = (0.02 + rand() * 0.08) * H
      printf "#%02x%02x%02x|", rand() * 255, rand() * 255, rand() * 255
      if (i % 2) printf "circle %.2f,%.2f %.2f,%.2f\n", x, y, x + r, y
      else printf "polygon %.2f,%.2f %.2f,%.2f %.2f,%.2f\n", x, y, x + r * 1.7, y + r * 0.4, x + r * 0.5, y + r * 1.5
    } }')
  # The texture is made at a quarter size and enlarged: plasma is slow.
  convert -size "${w}x${h}" gradient:'#203060-#c0d0f0' \
    \( -size "$((w / 4))x$((h / 4))" -seed 5 plasma:fractal -blur 0x1 -resize "${w}x${h}!" \) \
    -compose blend -define compose:args=25 -composite -compose over "${args[@]}" -depth 8 "PNG32:$out"
}

if [ ! -f frames.done ]; then
  echo "making frames in $WORK (once)..."
  rm -rf exp act && mkdir -p exp act
  scene 1920 1080 0 e1080.png && scene 1920 1080 0.4 a1080.png
  scene 3840 2160 0 e2160.png && scene 3840 2160 0.4 a2160.png
  # 10 sheets of 10x10 tiles of 320x240: 1000 pairs.
  for s in 0 1 2 3 4 5 6 7 8 9; do
    scene 3200 2400 0 sheet_e.png && scene 3200 2400 0.4 sheet_a.png
    convert sheet_e.png -crop 320x240 +repage -depth 8 "PNG32:exp/s${s}_%02d.png"
    convert sheet_a.png -crop 320x240 +repage -depth 8 "PNG32:act/s${s}_%02d.png"
  done
  rm -f sheet_e.png sheet_a.png
  touch frames.done
fi
echo "frames: $(ls exp | wc -l) pairs in exp/ and act/, 1080p $(stat -c %s e1080.png) bytes, 4K $(stat -c %s e2160.png) bytes"

# ImageMagick exits 1 on differences, gltrace too: -i keeps hyperfine going.
# ImageMagick has no directory mode: a shell loop over the pairs, and the
# same spread over all cores with xargs -P (the better of the two counts).
NP=$(nproc)
IM_LOOP='for f in exp/*.png; do compare -metric AE "$f" "act/${f#exp/}" null: 2>/dev/null || true; done'
IM_PAR="ls exp | xargs -P $NP -I{} sh -c 'compare -metric AE exp/{} act/{} null: 2>/dev/null || true'"
hyperfine -i -N -w 2 -r 10 --export-json single.json \
  -n im_1080 "compare -metric AE e1080.png a1080.png null:" \
  -n gt_1080 "$GT diff e1080.png a1080.png" \
  -n gt_1080_perceptual "$GT diff e1080.png a1080.png --mode perceptual" \
  -n gt_1080_libpng "env GT_DIFF_NO_FAST_PNG=1 $GT diff e1080.png a1080.png" \
  -n im_2160 "compare -metric AE e2160.png a2160.png null:" \
  -n gt_2160 "$GT diff e2160.png a2160.png" \
  -n gt_2160_perceptual "$GT diff e2160.png a2160.png --mode perceptual" \
  -n gt_2160_libpng "env GT_DIFF_NO_FAST_PNG=1 $GT diff e2160.png a2160.png"
hyperfine -i -w 1 -r 3 --export-json dir.json \
  -n im_dir_loop "$IM_LOOP" \
  -n im_dir_xargs "$IM_PAR" \
  -n gt_dir "$GT diff exp act -q" \
  -n gt_dir_perceptual "$GT diff exp act -q --mode perceptual"

python3 - "$NP" <<'EOF'
import json, sys
t = {}
for f in ("single.json", "dir.json"):
    for r in json.load(open(f))["results"]:
        t[r["command"]] = r["mean"]
print(f"\nend to end, mean of runs ({sys.argv[1]} CPUs):")
print(f"{'case':<34}{'ImageMagick':>12}{'gltrace':>10}{'ratio':>8}")
rows = [("1920x1080 pair, exact", "im_1080", "gt_1080"),
        ("1920x1080 pair, perceptual", "im_1080", "gt_1080_perceptual"),
        ("1920x1080 pair, libpng only", "im_1080", "gt_1080_libpng"),
        ("3840x2160 pair, exact", "im_2160", "gt_2160"),
        ("3840x2160 pair, perceptual", "im_2160", "gt_2160_perceptual"),
        ("3840x2160 pair, libpng only", "im_2160", "gt_2160_libpng")]
best_im_dir = min(t["im_dir_loop"], t["im_dir_xargs"])
t["im_dir"] = best_im_dir
rows += [("1000 x 320x240 pairs, exact", "im_dir", "gt_dir"),
         ("1000 x 320x240 pairs, perceptual", "im_dir", "gt_dir_perceptual")]
for name, im, gt in rows:
    print(f"{name:<34}{t[im]*1e3:>10.0f}ms{t[gt]*1e3:>8.0f}ms{t[im]/t[gt]:>7.1f}x")
print(f"(ImageMagick directory: loop {t['im_dir_loop']:.1f} s, xargs -P {sys.argv[1]} {t['im_dir_xargs']:.1f} s; the faster is used)")
EOF
