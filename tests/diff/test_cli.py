"""gltrace diff as a user runs it: exit status, messages naming the bad
argument or file, directory pairing, the diff image, JSON and JUnit reports.

usage: test_cli.py GLTRACE SCRATCH_DIR"""
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import gltest as gt
import pngio


GLTRACE, WORK = sys.argv[1], sys.argv[2]
ck = gt.Checker('diff.cli')


def run(*args):
    p = subprocess.run([GLTRACE, "diff", *args], capture_output=True, text=True, errors="replace")
    return p.returncode, p.stdout, p.stderr


def path(*parts):
    return os.path.join(WORK, *parts)


W, H = 40, 30
BG = (30, 40, 90, 255)


def image(name, changes=(), size=(W, H)):
    """Writes a background image with rectangles (x, y, w, h, rgba)."""
    os.makedirs(os.path.dirname(name), exist_ok=True)
    px = pngio.solid(size[0], size[1], BG)
    for x, y, w, h, c in changes:
        pngio.set_rect(px, size[0], x, y, w, h, c)
    pngio.write_rgba(name, size[0], size[1], px)


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)

# --- two files -------------------------------------------------------------
image(path("a.png"))
image(path("b.png"), [(5, 6, 3, 2, (255, 255, 255, 255))])  # 6 pixels differ
image(path("c.png"), [(5, 6, 1, 1, (31, 40, 90, 255))])  # one pixel off by one

rc, out, err = run(path("a.png"), path("a.png"))
ck.check(f"identical: rc {rc} {out!r}", rc == 0 and "PASS" in out and "identical" in out)

rc, out, err = run(path("a.png"), path("b.png"))
ck.check(f"differing: rc {rc} {out!r}", rc == 1 and "FAIL" in out and "6 pixels differ" in out)
ck.check(f"bounding box printed: {out!r}", "box x 5 y 6 3x2" in out)

rc, out, err = run(path("a.png"), path("c.png"), "--tolerance", "1")
ck.check(f"--tolerance 1 passes an off-by-one: rc {rc} {out!r}", rc == 0)
rc, out, err = run(path("a.png"), path("c.png"), "--mode", "perceptual")
ck.check(f"perceptual passes an off-by-one: rc {rc}", rc == 0)
rc, out, err = run(path("a.png"), path("c.png"))
ck.check("exact fails an off-by-one", rc == 1)

for budget, want in (("6", 0), ("5", 1), ("0.5%", 0), ("0.4%", 1)):  # 6 of 1200 = 0.5%
    rc, out, err = run(path("a.png"), path("b.png"), "--max-diff", budget)
    ck.check(f"--max-diff {budget}: rc {rc}, want {want}", rc == want)
rc, out, err = run(path("a.png"), path("b.png"), "--ignore", "4,5,5,5")
ck.check(f"--ignore covering the change: rc {rc} {out!r}", rc == 0)
rc, out, err = run(path("a.png"), path("b.png"), "--ignore=4,5,2,5")
ck.check(f"--ignore covering part of the change: rc {rc}", rc == 1)

# The diff image: red where pixels differ, grey elsewhere, written fast
# (no filtering).
rc, out, err = run(path("a.png"), path("b.png"), "--diff-image", path("out", "d.png"))
ck.check(f"--diff-image written: {out!r} {err!r}", rc == 1 and os.path.exists(path("out", "d.png")))
if os.path.exists(path("out", "d.png")):
    d = pngio.read(path("out", "d.png"))
    ck.check("diff image size", d[0] == W and d[1] == H)
    ck.check(f"changed pixels red: {pngio.pixel(d, 5, 6)}",
             pngio.pixel(d, 5, 6) == (255, 0, 0, 255) and pngio.pixel(d, 7, 7) == (255, 0, 0, 255))
    g = pngio.pixel(d, 0, 0)
    ck.check(f"unchanged pixels faded grey: {g}", g[0] == g[1] == g[2] and g[0] > 150)
    ck.check(f"diff image rows unfiltered (fast): filters {d[3]}", d[3] == {0})
rc, out, err = run(path("a.png"), path("a.png"), "--diff-image", path("out", "none.png"))
ck.check("no diff image for identical files", rc == 0 and not os.path.exists(path("out", "none.png")))

# Sizes differ: a difference (1), naming both files and sizes.
image(path("small.png"), size=(W, H - 1))
rc, out, err = run(path("a.png"), path("small.png"))
ck.check(f"size mismatch: rc {rc} {out!r}",
         rc == 1 and "size differs" in out and "40x30" in out and "40x29" in out and "small.png" in out)

# Unreadable input: an error (2) naming the file.
with open(path("a.png"), "rb") as f:
    data = f.read()
with open(path("cut.png"), "wb") as f:
    f.write(data[:len(data) // 2])
rc, out, err = run(path("a.png"), path("cut.png"))
ck.check(f"truncated: rc {rc} {err!r}", rc == 2 and path("cut.png") in err and "truncated" in err)
rc, out, err = run(path("a.png"), path("nope.png"))
ck.check(f"missing file: rc {rc} {err!r}", rc == 2 and path("nope.png") in err)

# --- bad arguments: usage, the argument named, status 2 --------------------
bad = [
    (["--bogus"], "'--bogus'"),
    (["--tolerance", "300"], "'300'"),
    (["--tolerance", "-1"], "'-1'"),
    (["--threshold", "2"], "'2'"),
    (["--mode", "fuzzy"], "'fuzzy'"),
    (["--radius", "x"], "'x'"),
    (["--ignore", "1,2,3"], "'1,2,3'"),
    (["--max-diff", "abc"], "'abc'"),
    (["--max-diff", "120%"], "'120%'"),
    (["--jobs", "0"], "'0'"),
    (["--mode", "exact", "--threshold", "0.2"], "--threshold applies"),
    (["--mode", "tolerance", "--radius", "1"], "--radius applies"),
    (["--isolated", "maybe", "--mode", "perceptual"], "'maybe'"),
    (["--isolated", "count"], "exact means every pixel"),
    (["--json"], "'--json' needs a value"),
    ([path("c.png")], "unexpected argument"),
]
for extra, want in bad:
    rc, out, err = run(path("a.png"), path("b.png"), *extra)
    ck.check(f"{extra}: rc {rc} {err[:200]!r}", rc == 2 and want in err and "usage: gltrace diff" in err)
rc, out, err = run(path("a.png"))
ck.check(f"one path: rc {rc} {err!r}", rc == 2 and "missing ACTUAL" in err)
rc, out, err = run("--help")
ck.check("--help", rc == 0 and "usage: gltrace diff" in out)

# --- directories -----------------------------------------------------------
E, A = path("exp"), path("act")
image(os.path.join(E, "same.png"))
image(os.path.join(A, "same.png"))
image(os.path.join(E, "off.png"))
image(os.path.join(A, "off.png"), [(10, 10, 4, 5, (200, 0, 0, 255))])  # 20 pixels
image(os.path.join(E, "sub", "deep.png"))
image(os.path.join(A, "sub", "deep.png"))
image(os.path.join(E, "upper.PNG"))
image(os.path.join(A, "upper.PNG"))
image(os.path.join(E, "only_e.png"))
image(os.path.join(A, "only_a.png"))
image(os.path.join(E, "size.png"))
image(os.path.join(A, "size.png"), size=(W + 1, H))
image(os.path.join(E, "name with spaces é.png"))
image(os.path.join(A, "name with spaces é.png"))
for d in (E, A):
    with open(os.path.join(d, "notes.txt"), "w") as f:
        f.write("not an image\n")

rc, out, err = run(E, A, "--json", path("r.json"), "--junit", path("r.xml"), "--diff-dir", path("diffs"))
ck.check(f"directories with differences: rc {rc} {out!r} {err!r}", rc == 1)
ck.check(f"summary line: {out!r}", "8 pairs: 4 passed, 4 failed, 0 errors" in out)
ck.check(f"failures listed: {out!r}", "FAIL  off.png" in out and "missing from ACTUAL" in out and "only in ACTUAL" in out)
ck.check("passing pairs are quiet without -v", "same.png" not in out)
rep = json.load(open(path("r.json"), encoding="utf-8"))
pairs = {p["name"]: p for p in rep["pairs"]}
ck.check(f"pairing: {sorted(pairs)}",
         sorted(pairs) == sorted(["name with spaces é.png", "off.png", "only_a.png", "only_e.png", "same.png",
                               "size.png", "sub/deep.png", "upper.PNG"]))
ck.check(f"summary {rep['summary']}",
         rep["summary"] == {"pairs": 8, "passed": 4, "failed": 4, "errors": 0, "status": "fail"})
off = pairs.get("off.png", {})
m = off.get("metrics") or {}
ck.check(f"off.png metrics {m}",
         off.get("status") == "fail" and m.get("diff_pixels") == 20 and m.get("max_channel_diff") == 170
      and m.get("bbox") == {"x": 10, "y": 10, "w": 4, "h": 5})
ck.check("off.png percent", abs(m.get("diff_percent", 0) - 100 * 20 / 1200) < 1e-3)
ck.check("PSNR of identical images is null", pairs.get("same.png", {}).get("metrics", {}).get("psnr", 0) is None)
ck.check("size mismatch in JSON",
         pairs.get("size.png", {}).get("metrics", 1) is None and "size differs" in pairs.get("size.png", {}).get("message", ""))
ck.check("missing side is null", pairs.get("only_e.png", {}).get("actual", 1) is None)
ck.check("mode in JSON", rep["options"]["mode"] == "exact")
ck.check(f"diff images only for differing pairs: {os.listdir(path('diffs'))}", sorted(os.listdir(path("diffs"))) == ["off.png"])
ck.check("diff image path in JSON", off.get("diff_image") == os.path.join(path("diffs"), "off.png"))

junit = ET.parse(path("r.xml")).getroot()
suite = junit.find("testsuite")
ck.check("JUnit counts",
         suite is not None and suite.get("tests") == "8" and suite.get("failures") == "4" and suite.get("errors") == "0")
cases = {c.get("name"): c for c in junit.iter("testcase")}
ck.check("JUnit failure for off.png",
         cases.get("off.png") is not None and cases["off.png"].find("failure") is not None
      and "20 pixels differ" in cases["off.png"].find("failure").get("message"))
ck.check("JUnit pass for same.png", cases.get("same.png") is not None and cases["same.png"].find("failure") is None)

# The same run on one thread gives the same report.
rc1, _, _ = run(E, A, "-j", "1", "--json", path("r1.json"))
rep1 = json.load(open(path("r1.json"), encoding="utf-8"))
ck.check("one thread and all threads agree",
         rc1 == 1 and rep1["pairs"] == [dict(p, diff_image=None) for p in rep["pairs"]])

# A broken file makes the run an error (2), reported in JSON and JUnit.
with open(os.path.join(A, "sub", "deep.png"), "wb") as f:
    f.write(data[:40])
rc, out, err = run(E, A, "--json", "-", "--junit", path("r2.xml"), "-q")
ck.check(f"broken file in a directory: rc {rc}", rc == 2)
ck.check("--json - writes JSON to standard output", out.lstrip().startswith("{"))
rep2 = json.loads(out)
ck.check("error counted in JSON", rep2["summary"]["errors"] == 1 and rep2["summary"]["status"] == "error")
deep = [p for p in rep2["pairs"] if p["name"] == "sub/deep.png"][0]
ck.check(f"error message in JSON: {deep['message']}", deep["status"] == "error" and "truncated" in deep["message"])
ck.check(f"errors go to stderr even with -q: {err!r}", "ERROR sub/deep.png" in err)
junit2 = ET.parse(path("r2.xml")).getroot()
ck.check("JUnit error count", junit2.find("testsuite").get("errors") == "1")

# File names that are not UTF-8 still give valid JSON.
odd = os.fsencode(E) + b"/bad\xff.png"
image(os.fsdecode(odd))
rc, out, err = run(E, A, "--json", "-", "-q")
try:
    json.loads(out)
    ck.check("JSON valid with a non-UTF-8 file name", True)
except ValueError as e:
    ck.check("JSON valid with a non-UTF-8 file name", False, str(e))

# Scattered single pixels (driver noise) pass perceptual mode unless counted.
speckled = pngio.solid(W, H, BG)
for y in range(1, H, 4):
    for x in range(1 + y % 8, W, 9):
        pngio.set_rect(speckled, W, x, y, 1, 1, (0, 255, 0, 255))
pngio.write_rgba(path("speckled.png"), W, H, speckled)
rc, out, err = run(path("a.png"), path("speckled.png"), "--mode", "perceptual")
ck.check(f"isolated pixels ignored in perceptual mode: rc {rc} {out!r}", rc == 0 and "isolated" in out)
rc, out, err = run(path("a.png"), path("speckled.png"), "--mode", "perceptual", "--isolated", "count")
ck.check(f"--isolated count: rc {rc} {out!r}", rc == 1)

# Mode implied by its option; mismatch of directory and file; empty folders.
rc, out, err = run(path("a.png"), path("c.png"), "--tolerance", "1", "--json", "-")
ck.check("--tolerance implies tolerance mode", json.loads(out)["options"]["mode"] == "tolerance")
rc, out, err = run(E, path("a.png"))
ck.check(f"directory against file: rc {rc} {err!r}", rc == 2 and "directory" in err)
os.makedirs(path("empty1"))
os.makedirs(path("empty2"))
rc, out, err = run(path("empty1"), path("empty2"))
ck.check(f"empty directories: rc {rc} {err!r}", rc == 2 and "no .png files" in err)

ck.exit()
