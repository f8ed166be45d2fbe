"""gltest: what every Python test of gltrace shares. A Checker that prints
every result and fails the run at its end (never at the first failure, so
one run shows everything that is wrong); running a program with a timeout;
the environment of a run under test (the capture library preloaded, the
caller's GLTRACE* settings left out, no display when headless); reading a
trace back the ways a user does (`gltrace dump --json`, `gltrace info`)
and picking calls out of it; the chunk layout of a trace file; replay's
summary line.

ctest puts this folder on PYTHONPATH (gt_python_test in
tests/CMakeLists.txt); by hand: PYTHONPATH=tests/lib python3 tests/.../x.py.
Standard library only."""
import json
import os
import re
import shutil
import struct
import select
import subprocess
import sys
import time
import zlib

TIMEOUT = 120  # seconds; only a hang reaches it


# ------------------------------------------------------------ results

class Checker:
    """Collects named results; exit() ends the script with 0 only if
    something was checked and all of it passed."""

    def __init__(self, title):
        self.title = title
        self.passed = 0
        self.failed = []

    def check(self, what, cond, detail=''):
        """what: the statement checked; cond: whether it holds; detail:
        what to print when it does not (any value)."""
        if cond:
            self.passed += 1
            print('ok   ' + what)
        else:
            self.failed.append(what)
            text = detail if isinstance(detail, str) else repr(detail)
            print('FAIL ' + what + (': ' + text[:3000] if text else ''))
        return bool(cond)

    def exit(self):
        print(f'{self.title}: {self.passed} passed, {len(self.failed)} failed')
        for f in self.failed:
            print('  failed: ' + f)
        sys.exit(1 if self.failed or not self.passed else 0)


# ------------------------------------------------------------ running

def gl_env(preload=None, headless=False, **variables):
    """The environment of a run under test: the caller's, without any
    GLTRACE* variable (a developer's own settings must not change a test);
    with preload (libgltrace.so) first in LD_PRELOAD; without DISPLAY and
    WAYLAND_DISPLAY when headless (replay must work with neither); then
    variables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith('GLTRACE')}
    if headless:
        env.pop('DISPLAY', None)
        env.pop('WAYLAND_DISPLAY', None)
    if preload:
        old = env.get('LD_PRELOAD')
        env['LD_PRELOAD'] = preload + (':' + old if old else '')
    env.update(variables)
    return env


def run(argv, env=None, timeout=TIMEOUT, text=True, **kw):
    """argv run to its end, stdout and stderr captured."""
    return subprocess.run(argv, capture_output=True, text=text, timeout=timeout, env=env, **kw)


def fresh_dir(path):
    """path as an empty folder (what an earlier run left there removed)."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def lib_lines(stderr):
    """The capture library's lines on stderr: its fixed prefix 'gltrace:'."""
    return [line for line in stderr.splitlines() if line.startswith('gltrace:')]


# ------------------------------------------------------------ reading traces

NOT_JSON = '<not JSON>'


class Dump:
    """`gltrace dump --json` of a trace: the finished process (returncode,
    stdout, stderr), its output lines, one record per line (a line that is
    not a JSON object stays in its place as {'fn': NOT_JSON, 'line': ...},
    so that a check walking the records fails on it) and the list of those
    lines (bad)."""

    def __init__(self, proc):
        self.returncode, self.stdout, self.stderr = proc.returncode, proc.stdout, proc.stderr
        self.lines = proc.stdout.splitlines()
        self.records, self.bad = [], []
        for n, line in enumerate(self.lines, 1):
            try:
                r = json.loads(line)
                why = '' if isinstance(r, dict) else 'not an object'
            except ValueError as e:
                why = str(e)
            if why:
                self.bad.append(f'line {n}: {why}: {line[:200]}')
                r = {'fn': NOT_JSON, 'line': line[:200]}
            self.records.append(r)

    def objects(self):
        """The records that are JSON objects (the others left out)."""
        return [r for r in self.records if r.get('fn') != NOT_JSON]


def dump(gltrace, trace, *flags, env=None, timeout=TIMEOUT):
    """`gltrace dump --json [flags...] trace` as a Dump."""
    return Dump(run([gltrace, 'dump', '--json', *flags, trace], env=env, timeout=timeout))


def info(gltrace, trace, timeout=TIMEOUT):
    """`gltrace info trace`: (the finished process, the JSON object it
    printed, or None when it printed no JSON object)."""
    p = run([gltrace, 'info', trace], timeout=timeout)
    try:
        obj = json.loads(p.stdout)
    except ValueError:
        obj = None
    return p, obj if isinstance(obj, dict) else None


def read_dump(ck, gltrace, trace):
    """`gltrace dump --json --full`, checked to be one JSON object a line
    (a line that is not is a failed check, not a crash): (the Dump, its
    records that are JSON objects)."""
    d = dump(gltrace, trace, '--full')
    ck.check('every line of dump --json is a JSON object', not d.bad, d.bad[:3])
    return d, d.objects()


def read_info(ck, gltrace, trace):
    """`gltrace info`, checked to exit 0 printing one JSON object: that
    object ({} when there is none)."""
    p, obj = info(gltrace, trace)
    ck.check('gltrace info prints one JSON object and exits 0', p.returncode == 0 and obj is not None,
             f'exit {p.returncode}, stdout {p.stdout[:300]!r}, stderr {p.stderr[:300]!r}')
    return obj or {}


def calls(recs):
    """The app's own calls: everything but the records gltrace adds (metadata,
    markers, snapshots, surfaces, mapped and client-array data)."""
    return [r for r in recs if not r.get('fn', '').startswith('gltrace') and r.get('fn') != 'glVertexAttribPointerData']


def named(recs, fn):
    return [r for r in recs if r.get('fn') == fn]


def args_of(recs, fn, i=0):
    """The args of the i-th call of fn ({} when there is none, so that a
    missing call fails the checks that look at it instead of raising)."""
    found = named(recs, fn)
    return found[i].get('args', {}) if len(found) > i else {}


def all_args(recs, fn):
    return [r.get('args', {}) for r in named(recs, fn)]


def png_rgba(path):
    """The pixels of an 8-bit RGBA PNG as gltrace writes them."""
    data = open(path, 'rb').read()
    pos, idat, w, h = 8, b'', 0, 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        if kind == b'IHDR':
            w, h = struct.unpack('>II', data[pos + 8:pos + 16])
        elif kind == b'IDAT':
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw, out, prev = zlib.decompress(idat), bytearray(), bytearray(w * 4)
    for y in range(h):
        f, row = raw[y * (w * 4 + 1)], bytearray(raw[y * (w * 4 + 1) + 1:(y + 1) * (w * 4 + 1)])
        for i in range(len(row)):
            a, b = row[i - 4] if i >= 4 else 0, prev[i]
            c = prev[i - 4] if i >= 4 else 0
            p = a + b - c
            pred = [0, a, b, (a + b) // 2,
                    a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c)
                    else c][f]
            row[i] = (row[i] + pred) & 255
        out += row
        prev = row
    return bytes(out)


def fnv1a(data):
    """FNV-1a of bytes, as 8 hex digits: the fingerprint the sample apps
    print of what they read back and `gltrace dump` shows of snapshots."""
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xffffffff
    return f'{h:08x}'


# ------------------------------------------------------------ the trace file

CHUNK_FRAME, INDEX_FRAME, CHUNK_HEADER = 0x184D2A5E, 0x184D2A5F, 72


def chunks(data):
    """(offset, first seq, size) of every chunk of a trace file's bytes,
    walking the chunk headers (FORMAT.md); stops at the seek index or at
    anything else."""
    out, off = [], 0
    while off + CHUNK_HEADER <= len(data):
        magic, size = struct.unpack_from('<II', data, off)
        if magic != CHUNK_FRAME or size != 64:
            break
        first_seq = struct.unpack_from('<Q', data, off + 8 + 16)[0]
        csize = struct.unpack_from('<I', data, off + 8 + 48)[0]
        out.append((off, first_seq, CHUNK_HEADER + csize))
        off += CHUNK_HEADER + csize
    return out


# ------------------------------------------------------------ replay

def replay_summary(err):
    """(snapshots, matched, differ, not compared) from replay's summary
    line, or None when it printed none."""
    m = re.search(r'(\d+) snapshots: (\d+) matched, (\d+) differ, (\d+) not compared', err)
    return tuple(map(int, m.groups())) if m else None


def trim_at(ck, gltrace, trace, label, starts, work, want=()):
    """Trims trace to frames [k, k+2] for each start k, as a user would,
    and checks each: exact on the first try (no note), the state at the
    start the original's, every string of `want` in its report, and its
    replay on its own matching 3 of 3 snapshots. The setups' sizes in
    calls, in order (-1 where trim said none)."""
    setups = []
    for k in starts:
        out = os.path.join(work, f'{label}-{k}.trim.gltrace')
        r = run([gltrace, 'trim', trace, '--frames', f'{k}-{k + 2}', '-o', out], env=gl_env(headless=True))
        ck.check(f'{label} frames {k}-{k + 2}: trimmed, exact on the first try (no note), the state at the start the '
                 f'original\'s{"".join(", " + w for w in want)}', r.returncode == 0 and
                 'checked: its replay matches 3 of 3' in r.stdout and 'note: without' not in r.stdout and
                 'is the original\'s' in r.stdout and all(w in r.stdout for w in want), (r.stdout, r.stderr))
        rp = run([gltrace, 'replay', out, '--no-progress'], env=gl_env(headless=True))
        s = replay_summary(rp.stderr)
        ck.check(f'{label} frames {k}-{k + 2}: the trim replays on its own, 3 of 3 snapshots matched',
                 rp.returncode == 0 and s and s[0] == 3 and s[1] == 3, rp.stderr.strip()[-400:])
        m = re.search(r'after a setup of (\d+) of', r.stdout)
        setups.append(int(m.group(1)) if m else -1)
    return setups


# ------------------------------------------------------------ X server

def start_xvfb_once():
    """An Xvfb on a display number it picks itself (-displayfd): no clash
    with other X servers or with tests running in parallel. Waits at most
    20 s for the number: an Xvfb that neither answers nor exits (seen once,
    in a CI run) is killed rather than left to hang the test."""
    rfd, wfd = os.pipe()
    x = subprocess.Popen(['Xvfb', '-displayfd', str(wfd), '-screen', '0', '640x480x24', '-nolisten', 'tcp'],
                         pass_fds=(wfd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(wfd)
    num = b''
    deadline = time.time() + 20
    while not num.endswith(b'\n'):
        left = deadline - time.time()
        if left <= 0 or not select.select([rfd], [], [], left)[0]:
            break
        b = os.read(rfd, 16)
        if not b:
            break
        num += b
    os.close(rfd)
    if num.strip():
        return x, ':' + num.decode().strip()
    x.kill()
    x.wait()
    return None, None


def start_xvfb():
    """start_xvfb_once, tried up to three times: (the Xvfb process, its
    display, how many starts failed first); (None, None, 3) when none
    started. The caller ends it (terminate, wait)."""
    for attempt in range(3):
        x, display = start_xvfb_once()
        if x:
            return x, display, attempt
    return None, None, 3
