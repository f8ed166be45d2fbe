#!/usr/bin/env bash
# bench/diff/drivers.sh BUILD_DIR [WORK_DIR]
#
# Do the tolerant modes pass what a person would call the same picture, and
# still fail real changes? Renders real frames twice: glmark2-es2 is traced
# with apitrace under Xvfb, the trace replayed on llvmpipe and on softpipe
# (a snapshot per frame). Then, for several option sets, counts how many
# llvmpipe/softpipe pairs pass, and how many of two kinds of visible change
# made to every 5th softpipe frame are caught: a 24x24 object missing (the
# patch painted over with a nearby pixel's colour) and a 40x40 region of
# wrong colour (hue turned 72 degrees). Only changes a person can see count
# (at least 100 pixels off by more than 30 in a channel).
# Needs: glmark2-es2 apitrace eglretrace xvfb-run imagemagick python3.
set -euo pipefail
BUILD=${1:?usage: drivers.sh BUILD_DIR [WORK_DIR]}
WORK=${2:-/tmp/gltrace-diff-drivers}
GT=$(cd "$BUILD" && pwd)/bin/gltrace
mkdir -p "$WORK"
cd "$WORK"
XVFB=(xvfb-run -a -s "-screen 0 1280x800x24")

if [ ! -f frames.done ]; then
  rm -rf ll sp sub_ll sub_sp miss col gm.trace
  "${XVFB[@]}" apitrace trace --api egl -o gm.trace glmark2-es2 --size 800x600 \
    -b build:use-vbo=true:duration=0.5 -b texture:texture-filter=linear:duration=0.5 \
    -b shading:shading=phong:duration=0.5 -b bump:bump-render=normals:duration=0.5 \
    -b 'effect2d:kernel=0,1,0;1,-4,1;0,1,0;:duration=0.5' -b pulsar:duration=0.5 \
    -b jellyfish:duration=0.5 -b terrain:duration=0.5 -b shadow:duration=0.5 \
    -b refract:duration=0.5 -b desktop:duration=0.5 >/dev/null
  for d in llvmpipe:ll softpipe:sp; do
    mkdir -p "${d##*:}"
    GALLIUM_DRIVER=${d%%:*} LIBGL_ALWAYS_SOFTWARE=1 "${XVFB[@]}" \
      eglretrace --snapshot-prefix="${d##*:}/" --snapshot=frame gm.trace >/dev/null
  done
  mkdir -p sub_ll sub_sp miss col
  i=0
  for f in $(ls ll | awk 'NR % 5 == 1'); do
    cp "ll/$f" sub_ll/
    cp "sp/$f" sub_sp/
    i=$((i + 1))
    x=$(((i * 137) % 700 + 20))
    y=$(((i * 89) % 500 + 20))
    c=$(convert "sp/$f" -format "%[pixel:p{$((x - 5)),$((y - 5))}]" info:)
    convert "sp/$f" -fill "$c" -draw "rectangle $x,$y $((x + 23)),$((y + 23))" "PNG32:miss/$f"
    convert "sp/$f" \( +clone -crop 40x40+$x+$y +repage -modulate 100,100,140 \) \
      -geometry +$x+$y -composite "PNG32:col/$f"
  done
  touch frames.done
fi

python3 - "$GT" <<'EOF'
import json, subprocess, sys
gt = sys.argv[1]

def run(e, a, opts):
    p = subprocess.run([gt, "diff", e, a, "-q", "--json", "-", *opts], capture_output=True, text=True)
    return {x["name"]: x for x in json.loads(p.stdout)["pairs"]}

visible = {}
for d in ("miss", "col"):
    r = run("sub_sp", d, ["--tolerance", "30"])
    visible[d] = {n for n, p in r.items() if p["metrics"]["diff_pixels"] >= 100}
cases = [["--mode", "exact"], ["--mode", "tolerance", "--tolerance", "8"],
         ["--mode", "perceptual", "--isolated", "count", "--radius", "0"],
         ["--mode", "perceptual"], ["--mode", "perceptual", "--max-diff", "0.02%"],
         ["--mode", "perceptual", "--max-diff", "0.05%"], ["--mode", "position", "--tolerance", "16"]]
print(f"{'options':<52}{'same picture passes':>20}{'missing caught':>16}{'colour caught':>15}")
for opts in cases:
    same = run("ll", "sp", opts)
    ok = sum(p["status"] == "pass" for p in same.values())
    caught = []
    for d in ("miss", "col"):
        r = run("sub_ll", d, opts)
        caught.append(f"{sum(r[n]['status'] == 'fail' for n in visible[d])}/{len(visible[d])}")
    print(f"{' '.join(opts):<52}{f'{ok}/{len(same)}':>20}{caught[0]:>16}{caught[1]:>15}")
EOF
