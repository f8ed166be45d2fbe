"""The HTML report in a real headless browser (Debian's chromium): the page
loads, its script runs, the failing pair comes first with its images
loaded, and a screenshot shows its diff image. No chromium: the test fails.

usage: test_html.py GLTRACE DIFF_PNGSTAT SCRATCH_DIR"""
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile

import gltest as gt
import pngio


GLTRACE, PNGSTAT, WORK = sys.argv[1:4]
ck = gt.Checker('diff.html_report_in_browser')


CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
ck.check("chromium is installed", CHROMIUM is not None, "install Debian's chromium package (ci/setup.sh does)")
if CHROMIUM is None:
    ck.exit()


def chromium(*args):
    with tempfile.TemporaryDirectory() as profile:
        cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={profile}", *args]
        return subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=300)


shutil.rmtree(WORK, ignore_errors=True)
E, A, R = (os.path.join(WORK, d) for d in ("exp", "act", "report"))
os.makedirs(E)
os.makedirs(A)
W, H = 160, 120
base = pngio.solid(W, H, (40, 60, 120, 255))
pngio.set_rect(base, W, 10, 10, 30, 30, (250, 220, 40, 255))
changed = bytearray(base)
pngio.set_rect(changed, W, 80, 50, 60, 40, (255, 255, 255, 255))  # 2400 pixels
for name, exp, act in (("a_same.png", base, base), ("b_changed.png", base, changed), ("c_same.png", base, base)):
    pngio.write_rgba(os.path.join(E, name), W, H, exp)
    pngio.write_rgba(os.path.join(A, name), W, H, act)

p = subprocess.run([GLTRACE, "diff", E, A, "--html", R], capture_output=True, text=True)
ck.check("gltrace diff --html: status 1 (a pair differs)", p.returncode == 1, f"status {p.returncode}, {p.stderr}")
index = os.path.join(R, "index.html")
ck.check("index.html written", os.path.exists(index))
for kind in ("expected", "actual", "diff"):
    ck.check(f"{kind} image copied into the report", os.path.exists(os.path.join(R, "img", kind, "b_changed.png")))
ck.check("no diff image for an identical pair", not os.path.exists(os.path.join(R, "img", "diff", "a_same.png")))
url = "file://" + os.path.abspath(index)


class Page(html.parser.HTMLParser):
    """Collects the pair sections in page order and the status element."""

    def __init__(self):
        super().__init__()
        self.sections, self.status, self.in_status, self.status_text = [], {}, False, ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and "pair" in a.get("class", ""):
            self.sections.append((a.get("data-name"), a.get("class")))
        if a.get("id") == "status":
            self.status, self.in_status = a, True

    def handle_endtag(self, tag):
        self.in_status = False

    def handle_data(self, data):
        if self.in_status:
            self.status_text += data


# --dump-dom prints the DOM once the page has loaded and its script ran.
d = chromium("--virtual-time-budget=10000", "--dump-dom", url)
ck.check("chromium --dump-dom prints the page", d.returncode == 0 and "<html" in d.stdout,
         f"{d.returncode} {d.stderr[-500:]}")
page = Page()
page.feed(d.stdout)
st = page.status
ck.check("the page script finished", st.get("data-state") == "ready", st)
ck.check("one failing pair on the page", st.get("data-failing") == "1", st.get("data-failing"))
ck.check("the first pair on the page is b_changed.png", st.get("data-first") == "b_changed.png", st.get("data-first"))
# Expected, actual and diff side by side, plus the two stacked for flicking.
ck.check("failing pair's images loaded", st.get("data-images-loaded") == "5" and st.get("data-images-broken") == "0",
         st)
ck.check("failures first, then passes by name", [s[0] for s in page.sections] == ["b_changed.png", "a_same.png",
                                                                                  "c_same.png"], page.sections)
ck.check("first section marked failing", page.sections and "fail" in page.sections[0][1])
ck.check("differing pixel count shown", "2400 (" in d.stdout)
ck.check("flick control initialised by the script", "showing: expected" in d.stdout)

# The screenshot: the diff image's red block (2400 pixels scaled up to the
# column) must be on screen in the first viewport.
shot = os.path.join(WORK, "shot.png")
s = chromium("--virtual-time-budget=10000", f"--screenshot={shot}", "--window-size=1280,900", url)
ck.check("chromium takes a screenshot", os.path.exists(shot), s.stderr[-500:])
if os.path.exists(shot):
    out = subprocess.run([PNGSTAT, shot], capture_output=True, text=True)
    fields = out.stdout.split()
    ck.check("diff_pngstat reads the screenshot", out.returncode == 0 and len(fields) == 3, out.stderr)
    if len(fields) == 3:
        w, h, red = map(int, fields)
        ck.check("the screenshot is 1280x900", (w, h) == (1280, 900), f"{w}x{h}")
        # At 360 px for 160 px, the 60x40 block covers about 135x90 = 12000
        # pixels; nothing else on the page is pure red beyond a 12x12 legend.
        ck.check("the diff image is visible in the screenshot (over 5000 red pixels)", red > 5000,
                 f"{red} red pixels")


def high_fd(fd):
    """Moves fd to 10 or above. The child's pipe ends are then copied to 3
    and 4; one already at 3 or 4 would be dup2'ed onto itself, which keeps
    its close-on-exec flag, and chromium would find it closed."""
    import fcntl
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class DevTools:
    """Chromium driven over --remote-debugging-pipe (fd 3 in, fd 4 out,
    JSON messages ending in NUL): enough to run script in the page."""

    def __init__(self, url):
        self.profile = tempfile.TemporaryDirectory()
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        to_chrome_r, from_chrome_w = high_fd(to_chrome_r), high_fd(from_chrome_w)

        def fds():
            os.dup2(to_chrome_r, 3)  # os.dup2 makes the copy inheritable
            os.dup2(from_chrome_w, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={self.profile.name}", "--remote-debugging-pipe", url],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=False, preexec_fn=fds)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf, self.next_id, self.session = b"", 1, None

    def call(self, method, params=None, timeout=60):
        import json
        import select
        import time
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session:
            msg["sessionId"] = self.session
        self.next_id += 1
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == msg["id"]:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply["result"]
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_chrome], [], [], left)[0]:
                raise TimeoutError(method)
            chunk = os.read(self.from_chrome, 65536)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk

    def attach(self):
        pages = [t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page"]
        self.session = self.call("Target.attachToTarget", {"targetId": pages[0]["targetId"], "flatten": True})["sessionId"]

    def js(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        return r["result"].get("value")

    def close(self):
        try:
            self.session = None
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)
        self.profile.cleanup()


# The flick controls, used as a person would: the toggle shows actual, then
# expected again; the slider uncovers part of actual.
dt = DevTools(url)
try:
    dt.attach()
    ready = None
    for attempt in range(50):
        # The page may still be replacing about:blank, whose context then
        # vanishes under the call: try again.
        try:
            ready = dt.js("new Promise(r => { const f = () => document.getElementById('status')"
                          "&& document.getElementById('status').dataset.state === 'ready' ? r(true) :"
                          " setTimeout(f, 50); f(); })")
            break
        except RuntimeError as e:
            if "context" not in str(e):
                raise
            import time
            time.sleep(0.1)
    ck.check("the page becomes ready", ready is True)
    state = ("(() => { const p = document.querySelector('.pair'); const o = p.querySelector('.stack .over');"
             " return [p.dataset.name, getComputedStyle(o).clipPath, p.querySelector('.shown').textContent]; })()")
    first = dt.js(state)
    ck.check("flick starts on b_changed.png showing expected", first[0] == "b_changed.png" and
             first[2] == "showing: expected", first)
    dt.js("document.querySelector('.pair .toggle').click()")
    after = dt.js(state)
    ck.check("the toggle shows actual", after[2] == "showing: actual" and "100%" not in after[1], after)
    dt.js("document.querySelector('.pair .toggle').click()")
    back = dt.js(state)
    ck.check("the toggle returns to expected", back[2] == "showing: expected" and "100%" in back[1], back)
    dt.js("(() => { const s = document.querySelector('.pair .slider'); s.value = 30;"
          " s.dispatchEvent(new Event('input')); })()")
    mid = dt.js(state)
    ck.check("the slider at 30% uncovers 30% of actual", "70%" in mid[1] and "left: actual" in mid[2], mid)
except Exception as e:  # a hang or protocol failure is a test failure
    ck.check("chromium is driven to the end", False, repr(e))
finally:
    dt.close()
ck.exit()
