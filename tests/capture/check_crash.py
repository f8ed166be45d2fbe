#!/usr/bin/env python3
"""Crash safety of the capture library, checked the way a user would: run
tests/capture/crash_app with libgltrace.so preloaded and GLTRACE=1,
GLTRACE_OUT set (what `gltrace record` sets; the app is run without the
record command so that the file checked is the one the library left, and a
kill reaches the app itself), end it in one of the ways an app ends, and
read the trace back with `gltrace dump --json` and `gltrace info`.

What the reader does with a trace, as these checks assert it:
- a trace that was closed (normal exit, exit() from any thread, _exit, a
  fatal signal the library caught) ends with its seek index: `info` says
  "indexed": true, `dump` exits 0 and prints nothing on stderr;
- a trace whose process ended without the library running (SIGKILL, a disk
  that filled up) has no index: `info` says "indexed": false; when
  it ends on a chunk boundary it still reads cleanly (exit 0, silent,
  "complete": true);
- a trace cut inside a chunk (a kill during a write): `dump` prints every
  record before the cut chunk, then exits 2 with one stderr line naming the
  file and "truncated at byte N"; `info` exits 2 with "complete": false.

One scenario per run (ctest runs each as its own test, so each can carry
its own labels). Every check prints ok or FAIL; all run; exit 1 if any
failed. Waiting for something to reach the disk uses a generous timeout and
no timing threshold. Python 3 standard library only."""
import argparse
import os
import queue
import re
import resource
import shutil
import signal
import subprocess
import threading
import time

import gltest as gt

WAIT = 120      # seconds: only a hang reaches it
ROLE = 1000000  # glClearStencil(k + ROLE * role): role 0 main/parent, 1 forked child


# ------------------------------------------------------------ running the app

class App:
    """A running program, its stdout read line by line while it runs."""

    def __init__(self, argv, env=None, stdin=False, preexec_fn=None):
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                  stdin=subprocess.PIPE if stdin else subprocess.DEVNULL, preexec_fn=preexec_fn)
        self.lines, self.out, self.err = queue.Queue(), [], []
        self.pumps = [threading.Thread(target=self._pump, args=(self.p.stdout, self.out, self.lines), daemon=True),
                      threading.Thread(target=self._pump, args=(self.p.stderr, self.err, None), daemon=True)]
        for t in self.pumps:
            t.start()

    @staticmethod
    def _pump(f, keep, q):
        for line in f:
            keep.append(line)
            if q is not None:
                q.put(line.rstrip('\n'))
        if q is not None:
            q.put(None)

    def wait_line(self, pattern):
        """The first line (from here on) matching pattern, or None at EOF or
        after WAIT seconds."""
        deadline = time.monotonic() + WAIT
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                return None
            m = re.fullmatch(pattern, line)
            if m:
                return m
            if time.monotonic() > deadline:
                return None

    def finish(self):
        """Exit status (the process is killed if it is still running after
        WAIT seconds), stdout and stderr."""
        try:
            rc = self.p.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = self.p.wait()
            self.err.append('check_crash: the app did not end; killed\n')
        for t in self.pumps:
            t.join(timeout=WAIT)  # until EOF: every line the app wrote
        return rc, ''.join(self.out), ''.join(self.err)


def traced_env(a, trace):
    return gt.gl_env(a.lib, GLTRACE='1', GLTRACE_OUT=trace)


def record(a, trace, *app_args, stdin=False, preexec_fn=None):
    """crash_app with the capture library preloaded, tracing into trace."""
    if os.path.exists(trace):
        os.remove(trace)  # a stale trace must not pass for a new one
    return App([a.app, *app_args], env=traced_env(a, trace), stdin=stdin, preexec_fn=preexec_fn)


def swaps(c):
    return sum(1 for r in c if r.get('fn') == 'eglSwapBuffers')


def tags(c):
    return [r.get('args', {}).get('s') for r in c if r.get('fn') == 'glClearStencil']


def wait_on_disk(gltrace, trace, cond):
    """Reads the live trace until cond(records) holds, for up to WAIT
    seconds. Returns the records then (or the last read)."""
    deadline = time.monotonic() + WAIT
    recs = []
    while time.monotonic() < deadline:
        if os.path.exists(trace):
            recs = gt.dump(gltrace, trace, timeout=WAIT).records
            if cond(recs):
                return recs, True
        time.sleep(0.1)
    return recs, False


def check_prefix(ck, recs):
    """Records are seq 0, 1, 2, ... with no gap: a true prefix of the calls."""
    seqs = [r.get('seq') for r in recs]
    return ck.check('the records read are seq 0, 1, 2, ... without a gap (a prefix of the calls)',
                    seqs == list(range(len(recs))),
                    next((f'record {i} has seq {s}' for i, s in enumerate(seqs) if s != i), 'no records'))


def check_clean(ck, a, trace, indexed, what):
    """dump exits 0 and is silent; info agrees; the index is (not) there."""
    d = gt.dump(a.gltrace, trace, timeout=WAIT)
    recs = d.records
    ck.check(f'{what}: gltrace dump reads the whole trace cleanly (exit 0, nothing on stderr)',
             d.returncode == 0 and not d.stderr.strip(), f'exit {d.returncode}: {d.stderr.strip()}')
    check_prefix(ck, recs)
    i, inf = gt.info(a.gltrace, trace, timeout=WAIT)
    inf = inf or {}
    ck.check(f'{what}: gltrace info exits 0, "complete": true, "indexed": {str(indexed).lower()}',
             i.returncode == 0 and inf.get('complete') is True and inf.get('indexed') is indexed,
             f'exit {i.returncode}, {i.stderr.strip()}, ' + str({k: inf.get(k) for k in ('complete', 'indexed')}))
    c = gt.calls(recs)
    ck.check(f'{what}: gltrace info counts the calls and frames dump shows',
             (inf.get('calls'), inf.get('frames')) == (len(c), swaps(c)),
             f"info {inf.get('calls')} calls {inf.get('frames')} frames, dump {len(c)} calls {swaps(c)} frames")
    return recs


def check_damage_named(ck, rc, err, trace, what):
    """A trace of a killed process: read cleanly, or the damaged tail named."""
    if rc == 0:
        return ck.check(f'{what}: the trace ends on a chunk boundary and reads cleanly (exit 0, silent)',
                        not err.strip(), err.strip())
    lines = err.strip().splitlines()
    return ck.check(f'{what}: the damaged tail is named: exit 2, one line naming the file and the damage',
                    rc == 2 and len(lines) == 1 and trace in lines[0] and
                    ('truncated at byte' in lines[0] or 'corrupt' in lines[0]), f'exit {rc}: {err.strip()}')


def frame_calls(k, role=0):
    """The calls of frame k as crash_app makes them (before the swap)."""
    return [('glViewport', None), ('glClearColor', None), ('glClearStencil', k + ROLE * role), ('glClear', None)]


def shape(c):
    return [(r['fn'], r['args'].get('s') if r['fn'] == 'glClearStencil' else None) for r in c]


def check_frames(ck, c, n, mid_frame, what):
    """Frames 0..n-1 complete, each swapped; then, if mid_frame, frame n's
    calls up to the swap, and nothing after."""
    draw = [r for r in c if r['fn'] in ('glViewport', 'glClearColor', 'glClearStencil', 'glClear', 'eglSwapBuffers')]
    want = []
    for k in range(n):
        want += frame_calls(k) + [('eglSwapBuffers', None)]
    if mid_frame:
        want += frame_calls(n)
    got = shape(draw)
    ck.check(f'{what}: frames 0..{n - 1} are in the trace, call by call' +
             (f', then frame {n} up to its swap (mid-frame)' if mid_frame else ''),
             got[:len(want)] == want, f'{len(got)} draw calls, first {len(want)} expected; got tags {tags(c)}')
    return got


# ------------------------------------------------------------ scenarios

def normal_exit(ck, a):
    plain = subprocess.run([a.app, 'exit', '5'], capture_output=True, text=True, timeout=WAIT)
    r = record(a, a.trace, 'exit', '5')
    rc, out, err = r.finish()
    ck.check('crash_app exit 5 exits 0 traced, and prints what a plain run prints',
             rc == 0 and plain.returncode == 0 and out == plain.stdout and out.startswith('frames 5'),
             f'exit {rc}, plain {plain.stdout!r}, recorded {out!r}, {err.strip()}')
    ck.check('a void GL call from an atexit handler that runs after the library\'s own works '
             '(the app prints "late calls done" and exits 0)', rc == 0 and 'late calls done' in out,
             f'exit {rc}, {out!r}')
    ck.check('nothing from the capture library on stderr', not gt.lib_lines(err), err)
    recs = check_clean(ck, a, a.trace, True, 'normal exit')
    c = gt.calls(recs)
    check_frames(ck, c, 5, False, 'normal exit')
    ck.check('normal exit: 5 frames and the tear-down up to eglTerminate are there, the late call is not '
             '(the trace was closed before it)',
             swaps(c) == 5 and c and c[-1]['fn'] == 'eglTerminate', [r['fn'] for r in c[-5:]])


def thread_exit(ck, a):
    r = record(a, a.trace, 'thread-exit', '5')
    rc, out, err = r.finish()
    ck.check('exit(3) from a second thread: the app exits 3', rc == 3, f'exit {rc}: {err.strip()}')
    ck.check('nothing from the capture library on stderr', not gt.lib_lines(err), err)
    recs = check_clean(ck, a, a.trace, True, 'exit() from a thread')
    c = gt.calls(recs)
    check_frames(ck, c, 5, False, 'exit() from a thread')
    ck.check('exit() from a thread: exactly the 5 frames before it', swaps(c) == 5, f'{swaps(c)} swaps')
    main_tid = c[0]['tid'] if c else None
    other = [x for x in c if x['tid'] != main_tid]
    ck.check("the exiting thread's own call (eglGetError, on a thread of its own) is in the trace",
             any(x['fn'] == 'eglGetError' for x in other), [x['fn'] for x in other][:5])


def quick_exit(ck, a):
    r = record(a, a.trace, '_exit', '5', stdin=True)
    ready = r.wait_line('waiting')
    ck.check('crash_app _exit 5 draws 5 frames and waits', ready is not None, ''.join(r.err))
    recs, ok = wait_on_disk(a.gltrace, a.trace, lambda rs: swaps(gt.calls(rs)) >= 5)
    ck.check('the 5 frames reach the disk while the app runs', ok, f'{swaps(gt.calls(recs))} frames on disk')
    try:
        r.p.stdin.write('go\n')
        r.p.stdin.flush()
    except OSError:
        pass
    rc, out, err = r.finish()
    ck.check('_exit(4) right after a mid-frame: the app exits 4', rc == 4, f'exit {rc}: {err.strip()}')
    ck.check('nothing from the capture library on stderr', not gt.lib_lines(err), err)
    d = gt.dump(a.gltrace, a.trace, timeout=WAIT)
    drc, recs = d.returncode, d.records
    check_damage_named(ck, drc, d.stderr, a.trace, '_exit')
    check_prefix(ck, recs)
    c = gt.calls(recs)
    check_frames(ck, c, 5, False, '_exit')
    ck.check('_exit: the 5 frames before it, and no frame after', swaps(c) == 5, f'{swaps(c)} swaps')
    inf = gt.info(a.gltrace, a.trace, timeout=WAIT)[1] or {}
    ck.check('_exit: the trace ends with its seek index (the library, interposing _exit, finishes it first), '
             'as gltrace info says', inf.get('indexed') is True, inf.get('indexed'))
    last_swap = max((i for i, x in enumerate(c) if x['fn'] == 'eglSwapBuffers'), default=-1)
    after = len(c) - last_swap - 1
    ck.check('_exit: the 4 mid-frame calls made just before it are in the trace', after == 4,
             [x['fn'] for x in c[last_swap + 1:]])


def torn_tail(ck, a, trace, what):
    """What a kill during a write leaves, made on purpose from a real killed
    trace: its last chunk cut in its data, and in its header. The reader
    returns exactly the records before that chunk and names the cut."""
    d = gt.dump(a.gltrace, trace, timeout=WAIT)
    full_rc, full, full_lines = d.returncode, d.records, d.lines
    data = open(trace, 'rb').read()
    chunks = gt.chunks(data)  # (offset, first seq, size) of each
    if not ck.check(f'{what}: the killed trace has whole chunks to cut', full_rc == 0 and chunks,
                    f'dump exit {full_rc}, {len(chunks)} chunks'):
        return
    off, first_seq, size = chunks[-1]
    want = [line for line, r in zip(full_lines, full) if r.get('seq', 0) < first_seq]
    for name, cut in (('inside its data', off + gt.CHUNK_HEADER + (size - gt.CHUNK_HEADER) // 2),
                      ('inside its header', off + gt.CHUNK_HEADER // 2)):
        torn = trace + '.torn'
        with open(torn, 'wb') as f:
            f.write(data[:cut])
        d = gt.dump(a.gltrace, torn, timeout=WAIT)
        rc, err, lines = d.returncode, d.stderr, d.lines
        ck.check(f'{what}, last chunk cut {name}: dump prints every record before that chunk ({len(want)}), '
                 f'and only those', lines == want, f'{len(lines)} lines, {len(want)} expected')
        ck.check(f'{what}, last chunk cut {name}: dump exits 2 with one line naming the file and '
                 f'"truncated at byte {cut}"',
                 rc == 2 and len(err.strip().splitlines()) == 1 and torn in err and f'truncated at byte {cut}' in err,
                 f'exit {rc}: {err.strip()}')
        i, inf = gt.info(a.gltrace, torn, timeout=WAIT)
        irc, inf = i.returncode, inf or {}
        ck.check(f'{what}, last chunk cut {name}: info exits 2, "complete": false, "indexed": false',
                 irc == 2 and inf.get('complete') is False and inf.get('indexed') is False,
                 f"exit {irc}, {({k: inf.get(k) for k in ('complete', 'indexed', 'calls')})}")
        os.remove(torn)


def sigkill_running(ck, a):
    r = record(a, a.trace, 'loop')
    pid = r.wait_line(r'pid (\d+)')
    last = r.wait_line('frame 20')
    ck.check('crash_app loop runs and counts its frames', pid is not None and last is not None, ''.join(r.err))
    recs, ok = wait_on_disk(a.gltrace, a.trace, lambda rs: swaps(gt.calls(rs)) >= 20)
    ck.check('while it runs, the trace on disk grows to (at least) the 20 frames it printed', ok,
             f'{swaps(gt.calls(recs))} frames on disk')
    r.p.send_signal(signal.SIGKILL)  # mid-frame: the app never stops drawing
    rc, out, err = r.finish()
    ck.check('SIGKILL: the app is killed by it', rc == -signal.SIGKILL, f'exit {rc}: {err.strip()}')
    ck.check('nothing from the capture library on stderr', not gt.lib_lines(err), err)
    d = gt.dump(a.gltrace, a.trace, timeout=WAIT)
    drc, recs = d.returncode, d.records
    check_damage_named(ck, drc, d.stderr, a.trace, 'SIGKILL mid-frame')
    check_prefix(ck, recs)
    c = gt.calls(recs)
    ck.check('SIGKILL mid-frame: every frame seen on disk before the kill is read back (>= 20)',
             swaps(c) >= 20, f'{swaps(c)} frames')
    check_frames(ck, c, 20, False, 'SIGKILL mid-frame')
    i, inf = gt.info(a.gltrace, a.trace, timeout=WAIT)
    irc, inf = i.returncode, inf or {}
    ck.check('SIGKILL mid-frame: info says "indexed": false and agrees with dump on complete and frames',
             inf.get('indexed') is False and inf.get('complete') is (drc == 0) and inf.get('frames') == swaps(c),
             f"exit {irc}, {({k: inf.get(k) for k in ('indexed', 'complete', 'frames')})}")
    print(f'     (killed after {swaps(c)} frames on disk, dump exit {drc})')
    torn_tail(ck, a, a.trace, 'SIGKILL')


def sigkill_holding(ck, a):
    """No swap, no full buffer, no exit: only the periodic flush can put the
    mid-frame calls on disk."""
    r = record(a, a.trace, 'loop', '5')
    pid = r.wait_line(r'pid (\d+)')
    held = r.wait_line('holding')
    ck.check('crash_app loop 5 draws 5 frames, starts the 6th and holds', pid is not None and held is not None,
             ''.join(r.err))
    want = [f for f, _ in frame_calls(5)]
    recs, ok = wait_on_disk(a.gltrace, a.trace,
                            lambda rs: [x['fn'] for x in gt.calls(rs)][-len(want):] == want and swaps(gt.calls(rs)) == 5)
    ck.check('the calls after the last swap reach the disk with no swap to push them (the periodic flush)', ok,
             f'{swaps(gt.calls(recs))} frames, last calls {[x["fn"] for x in gt.calls(recs)][-5:]}')
    r.p.send_signal(signal.SIGKILL)
    rc, out, err = r.finish()
    ck.check('SIGKILL while holding: the app is killed by it', rc == -signal.SIGKILL, f'exit {rc}: {err.strip()}')
    ck.check('nothing from the capture library on stderr', not gt.lib_lines(err), err)
    recs = check_clean(ck, a, a.trace, False, 'SIGKILL while holding')
    c = gt.calls(recs)
    got = check_frames(ck, c, 5, True, 'SIGKILL while holding')
    ck.check('SIGKILL while holding: nothing after the mid-frame calls', len(got) == 5 * 5 + 4, f'{len(got)} calls')


def fatal_signal(ck, a, mode, sig, name):
    args = ['segfault', '5'] if mode == 'segfault' else ['signal', '5', name]
    r = record(a, a.trace, *args)
    rc, out, err = r.finish()
    how = 'a write through NULL' if mode == 'segfault' else ('abort()' if name == 'ABRT' else f'raise(SIG{name})')
    ck.check(f'{how}: the app dies of signal {sig}, as it does untraced', rc == -sig, f'exit {rc}: {err.strip()}')
    ck.check('nothing from the capture library on stderr', not gt.lib_lines(err), err)
    recs = check_clean(ck, a, a.trace, True, how)
    c = gt.calls(recs)
    got = check_frames(ck, c, 5, True, how)
    ck.check(f'{how}: every call made before it is there, nothing after', len(got) == 5 * 5 + 4, f'{len(got)} calls')


def sigterm_outside(ck, a):
    r = record(a, a.trace, 'loop')
    pid = r.wait_line(r'pid (\d+)')
    last = r.wait_line('frame 10')
    ck.check('crash_app loop runs and counts its frames', pid is not None and last is not None, ''.join(r.err))
    # Every frame it printed was swapped (and its records committed) before
    # the print; the library's handler flushes all that is committed.
    seen = 10
    while True:
        try:
            line = r.lines.get_nowait()
        except queue.Empty:
            break
        m = re.fullmatch(r'frame (\d+)', line or '')
        if m:
            seen = int(m.group(1))
    r.p.send_signal(signal.SIGTERM)
    rc, out, err = r.finish()
    ck.check('SIGTERM from outside: the app dies of it', rc == -signal.SIGTERM, f'exit {rc}: {err.strip()}')
    ck.check('nothing from the capture library on stderr', not gt.lib_lines(err), err)
    recs = check_clean(ck, a, a.trace, True, 'SIGTERM from outside')
    c = gt.calls(recs)
    ck.check(f'SIGTERM from outside: every frame it printed before the signal ({seen}) is in the trace',
             swaps(c) >= seen, f'{swaps(c)} frames')
    check_frames(ck, c, seen, False, 'SIGTERM from outside')


def files_besides(d, trace):
    return sorted(f for f in os.listdir(d) if os.path.join(d, f) != trace)


def fork_after_init(ck, a):
    r = record(a, a.trace, 'fork', '3', '2')
    rc, out, err = r.finish()
    m = re.search(r'child (\d+) status (\d+)', out)
    ck.check('fork after 3 frames: the child draws 2 frames and exits 0, the parent exits 0',
             rc == 0 and m and m.group(2) == '0' and 'child drew 2 frames' in out and 'parent drew 6 frames' in out,
             f'exit {rc}, {out!r}, {err.strip()}')
    ck.check('the child runs untraced without a word (nothing from the capture library on stderr)',
             not gt.lib_lines(err), err)
    recs = check_clean(ck, a, a.trace, True, "fork: the parent's trace")
    c = gt.calls(recs)
    child = int(m.group(1)) if m else -1
    meta = recs[0].get('metadata', {}) if recs else {}
    ck.check("fork: the trace is the parent's (metadata pid)", meta.get('pid') == r.p.pid,
             f"metadata pid {meta.get('pid')}, parent {r.p.pid}, child {child}")
    ck.check("fork: no record of the child's thread in the parent's trace", all(x.get('tid') != child for x in recs))
    ck.check("fork: no child frame in the parent's trace: tags 0..5, role 0 only", tags(c) == list(range(6)), tags(c))
    ck.check("fork: the parent's 6 frames, before and after the fork", swaps(c) == 6, f'{swaps(c)} frames')
    ck.check("fork: the child wrote no trace of its own (no other file, none named with its pid)",
             files_besides(a.dir, a.trace) == [], files_besides(a.dir, a.trace))


def fork_exec(ck, a):
    r = record(a, a.trace, 'fork-exec', '3', '2')
    rc, out, err = r.finish()
    m = re.search(r'child (\d+) status (\d+)', out)
    child = int(m.group(1)) if m else -1
    ck.check('fork and exec after 3 frames: the exec\'d program draws 2 frames and exits 0, the parent exits 0',
             rc == 0 and m and m.group(2) == '0' and 'frames 2, last pixel' in out and 'parent drew 6 frames' in out,
             f'exit {rc}, {out!r}, {err.strip()}')
    ours = gt.lib_lines(err)
    ck.check("the exec'd program (same GLTRACE_OUT) says in one line that it is not traced, naming the file and "
             "its pid", len(ours) == 1 and a.trace in ours[0] and f'pid {child}' in ours[0] and
             'not traced' in ours[0], err)
    recs = check_clean(ck, a, a.trace, True, "fork and exec: the parent's trace")
    c = gt.calls(recs)
    meta = recs[0].get('metadata', {}) if recs else {}
    ck.check("fork and exec: the trace is the parent's (metadata pid), with no record of the child",
             meta.get('pid') == r.p.pid and all(x.get('tid') != child for x in recs),
             f"metadata pid {meta.get('pid')}, parent {r.p.pid}, child {child}")
    ck.check("fork and exec: the parent's 6 frames, tags 0..5", tags(c) == list(range(6)) and swaps(c) == 6, tags(c))
    ck.check('fork and exec: no other trace file', files_besides(a.dir, a.trace) == [],
             files_besides(a.dir, a.trace))


def fork_before_init(ck, a):
    """Fork before any GL call: both processes start tracing from the same
    environment, at the same time (the app makes them wait for each other).
    The first to start owns the file; the other runs untraced and says so."""
    r = record(a, a.trace, 'fork', '0', '3')
    rc, out, err = r.finish()
    m = re.search(r'child (\d+) status (\d+)', out)
    child = int(m.group(1)) if m else -1
    ck.check('fork before the first GL call: both draw 3 frames at once, both exit 0',
             rc == 0 and m and m.group(2) == '0' and 'child drew 3 frames' in out and 'parent drew 3 frames' in out,
             f'exit {rc}, {out!r}, {err.strip()}')
    ours = gt.lib_lines(err)
    loser = re.search(r'\(pid (\d+)\) is not traced', ours[0]) if len(ours) == 1 else None
    ck.check('exactly one of the two says in one line that it is not traced, naming the file and its pid',
             loser is not None and a.trace in ours[0], err)
    recs = check_clean(ck, a, a.trace, True, 'fork before init')
    c = gt.calls(recs)
    meta = recs[0].get('metadata', {}) if recs else {}
    owner = meta.get('pid')
    ck.check('the trace belongs to the other one (metadata pid): one is the parent, one the child',
             loser is not None and {owner, int(loser.group(1))} == {r.p.pid, child},
             f'owner {owner}, not traced {loser and loser.group(1)}, parent {r.p.pid}, child {child}')
    role = 1 if owner == child else 0
    ck.check("the trace holds only its owner's frames: 3 frames, tags of one process",
             tags(c) == [k + ROLE * role for k in range(3)] and swaps(c) == 3, f'owner role {role}, tags {tags(c)}')
    ck.check('fork before init: no record of a second process (one tid)', len({x.get('tid') for x in recs}) == 1,
             sorted({x.get('tid') for x in recs}))
    print(f'     (the {"child" if role else "parent"} owned the trace)')


def disk_full(ck, a):
    # 20 frames of one 64 KiB upload each: the disk fills a few frames in.
    full_disk_case(ck, a, ['exit', '20', '64'], 'disk full')
    # One frame of 24 uploads of 64 KiB, more than a trace buffer (1 MiB):
    # the buffer is handed over full, so its one chunk is larger than the
    # disk whenever the flusher gets to it. The trace must still keep every
    # record there was room for: the uploads that fit whole, 3 of 64 KiB in
    # 256 KiB (a 4th cannot fit), and nothing after a record that did not.
    c = full_disk_case(ck, a, ['exit', '2', '64', '24'], 'disk full in one frame')
    ups = [r for r in c if r['fn'] == 'glBufferData']
    ck.check('disk full in one frame: the trace keeps the uploads there was room for (3 of 64 KiB in 256 KiB)',
             len(ups) >= 3, f'{len(ups)} glBufferData calls in the trace')


def memory_cap(ck, a):
    """Backpressure: with GLTRACE_BUFFER_MB=8 and a slow writer (zstd level
    19), 12 uploads of 600 KiB, one per 1 MiB buffer, fill the 8 MiB; the
    app waits for the writer. Then one upload of 2 MiB needs a buffer larger
    than the pooled ones. The free buffers the burst left behind count
    against the cap: the library must give them back rather than wait for
    memory nobody will free (it hung here, the app with it)."""
    trace = a.trace
    args = ['exit', '1', '600', '12', '2048']
    env = dict(traced_env(a, trace), GLTRACE_BUFFER_MB='8', GLTRACE_ZSTD_LEVEL='19')
    if os.path.exists(trace):
        os.remove(trace)
    try:
        p = subprocess.run([a.app, *args], env=env, capture_output=True, text=True, timeout=120)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = None, '', 'still running after 120 s (killed)'
    ck.check('memory cap: the app exits 0 and prints its line (no hang waiting for trace memory)',
             rc == 0 and out.startswith('frames 1'), f'exit {rc}: {err.strip()[-400:]}')
    ck.check('memory cap: nothing from the capture library on stderr', rc == 0 and not gt.lib_lines(err), err[-400:])
    if rc != 0:
        return
    recs = check_clean(ck, a, trace, True, 'memory cap')
    sizes = [r['args'].get('size') for r in gt.calls(recs) if r['fn'] == 'glBufferData']
    ck.check('memory cap: every upload is in the trace: 12 of 600 KiB, then one of 2 MiB',
             sizes == [600 * 1024] * 12 + [2048 * 1024], sizes)
    # A value the library does not know: one line naming it, no tracing, the app unharmed.
    os.remove(trace)
    p = subprocess.run([a.app, 'exit', '1'], env=dict(traced_env(a, trace), GLTRACE_BUFFER_MB='12x'),
                       capture_output=True, text=True, timeout=WAIT)
    lines = gt.lib_lines(p.stderr)
    ck.check('GLTRACE_BUFFER_MB=12x: the app exits 0, one gltrace: line naming the value, no trace',
             p.returncode == 0 and len(lines) == 1 and 'GLTRACE_BUFFER_MB=12x' in lines[0] and
             not os.path.exists(trace), (p.returncode, p.stderr[-400:]))


def full_disk_case(ck, a, args, what):
    """Records crash_app ARGS onto a 256 KiB disk; checks the trace is a
    clean prefix of the calls and tracing stopped with one line."""
    full = os.path.join(a.dir, 'tiny')
    os.makedirs(full, exist_ok=True)
    if os.path.ismount(full):
        subprocess.run(['umount', full])
    m = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', full], capture_output=True, text=True)
    mounted = m.returncode == 0

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (256 * 1024, 256 * 1024))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    print(f'     ({what}: crash_app {" ".join(args)}; method: ' + ('a 256 KiB tmpfs mounted at ' + full if mounted else
          f'no mount ({m.stderr.strip()}): RLIMIT_FSIZE 256 KiB with SIGXFSZ ignored') + ')')
    try:
        trace = os.path.join(full, 'crash.gltrace')
        plain = subprocess.run([a.app] + args, capture_output=True, text=True, timeout=WAIT)
        r = record(a, trace, *args, preexec_fn=None if mounted else limit)
        rc, out, err = r.finish()
        ck.check(f'{what}: the app exits 0', rc == 0, f'exit {rc}: {err.strip()}')
        ck.check(f'{what}: the app prints what it prints untraced',
                 out == plain.stdout and out.startswith(f'frames {args[1]}'),
                 f'plain {plain.stdout!r}, traced {out!r}')
        reason = 'No space left on device' if mounted else 'File too large'
        lines = err.strip().splitlines()
        ck.check(f'{what}: exactly one line on stderr, "gltrace: ...", naming the file, "{reason}" and that '
                 f'tracing stopped', len(lines) == 1 and lines[0].startswith('gltrace: ') and trace in lines[0] and
                 reason in lines[0] and 'tracing stopped' in lines[0], err.strip())
        size = os.path.getsize(trace) if os.path.exists(trace) else -1
        ck.check(f'{what}: the trace stays within the space there was, and is not empty',
                 0 < size <= 256 * 1024, f'{size} bytes')
        recs = check_clean(ck, a, trace, False, what)
        c = gt.calls(recs)
        n = swaps(c)
        ck.check(f'{what}: tracing stopped: fewer than the {args[1]} frames are in the trace', n < int(args[1]),
                 f'{n} frames')
        check_frames(ck, c, n, False, what)
        print(f'     ({n} frames fit, {size} bytes)')
        if os.path.exists(trace):
            shutil.copy(trace, a.trace)  # kept for inspection
        return c
    finally:
        if mounted:
            subprocess.run(['umount', full])


SCENARIOS = {
    'normal_exit': normal_exit,
    'thread_exit': thread_exit,
    '_exit': quick_exit,
    'sigkill_running': sigkill_running,
    'sigkill_holding': sigkill_holding,
    'sigterm': lambda ck, a: fatal_signal(ck, a, 'signal', signal.SIGTERM, 'TERM'),
    'sigterm_outside': sigterm_outside,
    'sigsegv': lambda ck, a: fatal_signal(ck, a, 'signal', signal.SIGSEGV, 'SEGV'),
    'segfault': lambda ck, a: fatal_signal(ck, a, 'segfault', signal.SIGSEGV, 'SEGV'),
    'abort': lambda ck, a: fatal_signal(ck, a, 'signal', signal.SIGABRT, 'ABRT'),
    'fork': fork_after_init,
    'fork_exec': fork_exec,
    'fork_before_init': fork_before_init,
    'disk_full': disk_full,
    'memory_cap': memory_cap,
}


def main():
    p = argparse.ArgumentParser(description='Crash safety of the gltrace capture library.')
    p.add_argument('--gltrace', required=True)
    p.add_argument('--lib', required=True, help='libgltrace.so')
    p.add_argument('--app', required=True, help='crash_app')
    p.add_argument('--dir', required=True, help='a folder of its own for the traces (emptied first)')
    p.add_argument('scenario', choices=sorted(SCENARIOS))
    a = p.parse_args()
    a.dir = os.path.abspath(a.dir)
    if os.path.ismount(os.path.join(a.dir, 'tiny')):  # left by a run that was killed
        subprocess.run(['umount', os.path.join(a.dir, 'tiny')])
    if os.path.isdir(a.dir):
        shutil.rmtree(a.dir)
    os.makedirs(a.dir)
    a.trace = os.path.join(a.dir, 'crash.gltrace')
    ck = gt.Checker('capture.crash_' + a.scenario)
    SCENARIOS[a.scenario](ck, a)
    ck.exit()


if __name__ == '__main__':
    main()
