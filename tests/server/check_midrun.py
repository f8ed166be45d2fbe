#!/usr/bin/env python3
"""Tracing started mid-run from a second terminal replays on its own.

spin_app (GLES 2 with client arrays; GLES 3 with a vertex array object, a
texture, a framebuffer object and a uniform buffer, all made before its
first frame; either with a second drawing thread) runs with GLTRACE_LISTEN,
so it records into a spool. After a random number of frames `gltrace
connect` starts tracing, lets a few frames go by, stops and quits: the
trace it writes must replay with `gltrace replay` exiting 0 and every
snapshot matched, hold the objects the app made before the start (in the
setup, before the start marker) and none of them again after it, and
start where the app said it started. The spool is the user's alone
(0600), in GLTRACE_SPOOL, and is gone when the app exits unless `,keep`;
one that cannot be made is said once, and the server streams instead.
A host that never starts gets no trace (exit 2); over tcp: the token,
then the same; a host of another user cannot read the spool (exit 2,
saying why). The app always exits 0 with no GL error. An app that exits
or crashes while traced leaves the host a trace up to its last call, cut
from the spool the host held open.

usage: check_midrun.py --gltrace G --lib LIB --app SPIN_APP --dir D"""
import argparse
import os
import random
import re
import signal
import stat
import subprocess
import threading
import time

import gltest as gt


p = argparse.ArgumentParser()
for a in ('--gltrace', '--lib', '--app', '--dir'):
    p.add_argument(a, required=True)
args = p.parse_args()
work = gt.fresh_dir(args.dir)
spool_dir = gt.fresh_dir(os.path.join(work, 'spool'))
ck = gt.Checker('server.midrun')
seed = int(os.environ.get('GLTRACE_TEST_SEED', time.time()))
rng = random.Random(seed)
print(f'seed {seed} (GLTRACE_TEST_SEED={seed} repeats this run)')
NAME = f'gltrace-midrun-{os.getpid()}'


def app(listen, *extra, seconds=60):
    env = gt.gl_env(args.lib, GLTRACE_LISTEN=listen, GLTRACE_SPOOL=spool_dir)
    a = subprocess.Popen([args.app, str(seconds), *extra], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    line = a.stdout.readline()
    ck.check(f'{listen} {" ".join(extra)}: the app draws', 'drawing' in line, line)
    return a


def spools():
    return sorted(os.listdir(spool_dir))


def connect(target, out, *extra, script=(), user=None):
    cmd = [args.gltrace, 'connect', target, '-o', out, *extra]
    if user:
        cmd = ['setpriv', f'--reuid={user}', f'--regid={user}', '--clear-groups'] + cmd
    c = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for delay, line in script:
            time.sleep(delay)
            c.stdin.write(line + '\n')
            c.stdin.flush()
    except BrokenPipeError:
        pass
    out_, err = c.communicate(timeout=300)
    return c.returncode, out_ + err


def finish_app(a, what):
    a.send_signal(signal.SIGTERM)
    out, err = a.communicate(timeout=60)
    ck.check(f'{what}: the app kept drawing and exits 0 with no GL error',
             a.returncode == 0 and re.search(r'frames \d+, 0 GL errors', out), (a.returncode, out, err[-600:]))
    return err


def check_trace(what, trace, made_before, report, frame_end='eglSwapBuffers'):
    """The trace replays bit-exact; made_before are in its setup only; it
    starts and ends at frame_end (a swap, or in an app that never swaps,
    the snapshot taken at glFinish)."""
    rp = gt.run([args.gltrace, 'replay', trace], env=gt.gl_env(headless=True), timeout=300)
    m = re.search(r'(\d+) snapshots: (\d+) matched', rp.stderr)
    ck.check(f'{what}: gltrace replay exits 0, every snapshot matched (and there are some)',
             rp.returncode == 0 and m and m.group(1) == m.group(2) and int(m.group(1)) > 0, rp.stderr[-600:])
    d, recs = gt.read_dump(ck, args.gltrace, trace)
    marker = next((i for i, r in enumerate(recs) if r['fn'] == 'gltraceMetadata' and
                   r.get('metadata', {}).get('options', {}).get('trim', '').startswith('start')), None)
    ck.check(f'{what}: a start marker divides the setup from the traced calls', marker is not None)
    if marker is None:
        return
    setup = {r['fn'] for r in recs[:marker]}
    kept = [r['fn'] for r in recs[marker + 1:]]
    ck.check(f'{what}: the objects the app made before the start are in the setup, not after it',
             set(made_before) <= setup and not set(made_before) & set(kept),
             (sorted(set(made_before) - setup), sorted(set(made_before) & set(kept))))
    offset = int(recs[marker]['metadata']['options'].get('trim_call_offset', -1))
    started = re.search(r'traced from call (\d+)', report)
    before = recs[marker - 1]['fn'] if marker else None
    ck.check(f'{what}: the traced calls begin where the app said it started, after a frame\'s end ({frame_end}), '
             'mid-run, and end with one',
             started and offset + marker + 1 == int(started.group(1)) and offset > 0 and
             frame_end in kept and kept[-1] == frame_end, (offset, marker, before, kept[-3:], report[-400:]))


ES2_OBJECTS = ['glCreateShader', 'glShaderSource', 'glCreateProgram', 'glLinkProgram', 'eglCreateContext']
ES3_OBJECTS = ES2_OBJECTS + ['glGenVertexArrays', 'glTexStorage2D', 'glTexSubImage2D', 'glGenFramebuffers',
                             'glFramebufferTexture2D', 'glBindBufferBase']
cases = [('gles2', [], ES2_OBJECTS, False), ('gles3', ['es3'], ES3_OBJECTS, False),
         ('gles2, two threads', [], ES2_OBJECTS, True), ('gles3, two threads', ['es3'], ES3_OBJECTS, True)]
for i, (what, extra, made_before, two) in enumerate(cases):
    target = f'abstract:{NAME}-{i}'
    a = app(target, *extra)
    if two:
        a.send_signal(signal.SIGUSR1)
    time.sleep(rng.uniform(0.3, 2.0))  # about 200 frames a second: a random start
    names = spools()
    mode = stat.S_IMODE(os.stat(os.path.join(spool_dir, names[0])).st_mode) if len(names) == 1 else None
    ck.check(f'{what}: the app spools into one file of GLTRACE_SPOOL, the user\'s alone (0600)',
             len(names) == 1 and mode == 0o600 and names[0].startswith(f'gltrace-spool-{a.pid}-'), (names, mode))
    out = os.path.join(work, f'case{i}.gltrace')
    frames = rng.uniform(0.1, 0.5)
    rc, report = connect(target, out, script=[(0.2, 'start'), (frames, 'stop'), (0.2, 'quit')])
    ck.check(f'{what}: connect writes the trace and says its replay was checked (exit 0)',
             rc == 0 and 'checked: its replay matches' in report, report[-800:])
    check_trace(what, out, made_before, report)
    ck.check(f'{what}: the app runs on after the host left', a.poll() is None)
    finish_app(a, what)
    ck.check(f'{what}: the spool is gone when the app exits', spools() == [], spools())

# An app that never swaps (each frame ends in glFinish): its frames end at
# the snapshots taken there, and so do a host's start and stop.
target = f'abstract:{NAME}-u'
a = app(target, 'finish')
time.sleep(rng.uniform(0.3, 1.5))
out = os.path.join(work, 'unswapped.gltrace')
rc, report = connect(target, out, script=[(0.2, 'start'), (rng.uniform(0.1, 0.4), 'stop'), (0.2, 'quit')])
ck.check('never swapping: connect writes the trace and says its replay was checked (exit 0)',
         rc == 0 and 'checked: its replay matches' in report, report[-800:])
check_trace('never swapping', out, ES2_OBJECTS, report, frame_end='gltraceSnapshot')
finish_app(a, 'never swapping')

# --start --duration: finish before stop ends the range at the next frame.
target = f'abstract:{NAME}-d'
a = app(target + ',keep')
time.sleep(rng.uniform(0.3, 1.0))
out = os.path.join(work, 'duration.gltrace')
rc, report = connect(target, out, '--start', '--duration', '0.4')
ck.check('--start --duration: exit 0, a trace that replays', rc == 0 and 'checked: its replay matches' in report,
         report[-600:])
check_trace('--start --duration', out, ES2_OBJECTS, report)
rc, report = connect(target, os.path.join(work, 'never.gltrace'), script=[(0.3, 'quit')])
ck.check('a host that never starts: exit 2, told no trace was written', rc == 2 and 'never started' in report,
         report[-400:])
finish_app(a, ',keep')
kept = spools()
ck.check(',keep: the spool stays after the app exits, a trace gltrace info reads whole', len(kept) == 1 and
         gt.read_info(ck, args.gltrace, os.path.join(spool_dir, kept[0])).get('complete') is True, kept)
for k in kept:
    os.unlink(os.path.join(spool_dir, k))

# A spool that cannot be made: said once, and the server streams instead.
env = gt.gl_env(args.lib, GLTRACE_LISTEN=f'abstract:{NAME}-f', GLTRACE_SPOOL=os.path.join(work, 'no', 'such'))
a = subprocess.Popen([args.app, '60'], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
a.stdout.readline()
time.sleep(0.3)
out = os.path.join(work, 'fallback.gltrace')
rc, report = connect(f'abstract:{NAME}-f', out, '--start', '--duration', '0.3')
err = finish_app(a, 'no spool')
ck.check('GLTRACE_SPOOL unusable: the app says so once and streams; the host gets a streamed trace (exit 0)',
         err.count('cannot make a spool file') == 1 and 'streams instead' in err and rc == 0 and
         'wrote' in report and os.path.getsize(out) > 0, (err[-600:], report[-400:]))

# tcp: the token, then the same; another user cannot read the spool.
a = app('tcp:0')
m = None
end = time.time() + 10
while m is None and time.time() < end:
    line = a.stderr.readline()
    m = re.search(r'trace server on (tcp:\d+) \(127\.0\.0\.1\).*--token ([0-9a-f]{32})', line) if line else None
    if not line:
        break
ck.check('tcp:0: the app prints its port and a token', m is not None)
if m:
    target, token = m.group(1), m.group(2)
    time.sleep(rng.uniform(0.3, 1.0))
    out = os.path.join(work, 'tcp.gltrace')
    rc, report = connect(target, out, '--token', token, script=[(0.2, 'start'), (0.3, 'stop'), (0.2, 'quit')])
    ck.check('tcp: with the token, a trace that replays (exit 0)', rc == 0 and 'checked: its replay matches' in
             report, report[-600:])
    if os.geteuid() == 0 and subprocess.run(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups',
                                             args.gltrace, '--version'], capture_output=True).returncode == 0:
        rc, report = connect(target, '/tmp/never-written.gltrace', '--token', token,
                             script=[(0.2, 'start'), (0.2, 'stop'), (0.2, 'quit')], user=65534)
        ck.check('tcp: a host of another user with the token cannot read the spool: exit 2, saying why',
                 rc == 2 and 'cannot read the app\'s spool' in report and 'connect as that user' in report,
                 report[-600:])
    else:
        print('note: not root or setpriv cannot run gltrace as uid 65534: the other-user case is not checked')
finish_app(a, 'tcp')

# The app exits, or crashes, while traced: the host cuts the trace from the
# spool it held open since the app named it (the app removed it as it
# went), up to the last call the app made.
for k, (what, crash) in enumerate((('the app exits on its own (SIGTERM: it stops drawing) while traced', False),
                                   ('the app crashes (SIGABRT) while traced', True))):
    target = f'abstract:{NAME}-x{k}'
    a = app(target)
    time.sleep(0.3)
    out = os.path.join(work, f'exit-{k}.gltrace')
    c = subprocess.Popen([args.gltrace, 'connect', target, '-o', out], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    c.stdin.write('start\n')
    c.stdin.flush()
    said, printed = [], []
    readers = [threading.Thread(target=lambda f=f, into=into: into.extend(iter(f.readline, '')), daemon=True)
               for f, into in ((c.stderr, said), (c.stdout, printed))]
    for r in readers:
        r.start()
    end = time.time() + 60
    while time.time() < end and not any('traced from call' in x for x in list(said)):  # the start took effect
        time.sleep(0.05)
    time.sleep(0.2)  # some traced frames
    a.send_signal(signal.SIGABRT if crash else signal.SIGTERM)
    a.communicate(timeout=60)
    c.wait(timeout=300)  # stdin stays open until the app has gone
    for r in readers:
        r.join(timeout=10)
    report = ''.join(said + printed)
    ck.check(f'{what}: the app ended as it does untraced ({"killed by SIGABRT" if crash else "exit 0"})',
             a.returncode == (-signal.SIGABRT if crash else 0), a.returncode)
    ck.check(f'{what}: connect cuts the trace from the spool the app removed, up to its last call, and checks its '
             'replay (exit 0)', c.returncode == 0 and 'while traced, up to its last call' in report and
             'the app removed its spool' in report and 'checked: its replay matches' in report, report[-800:])
    rp = gt.run([args.gltrace, 'replay', out], env=gt.gl_env(headless=True), timeout=300)
    m = re.search(r'(\d+) snapshots: (\d+) matched', rp.stderr)
    ck.check(f'{what}: gltrace replay exits 0, every snapshot matched (and there are some)',
             rp.returncode == 0 and m and m.group(1) == m.group(2) and int(m.group(1)) > 0, rp.stderr[-600:])
    ck.check(f'{what}: the spool is gone', spools() == [], spools())

# The app exits after the stop, while the host cuts the trace out of its
# spool: trim opens the spool more than once, and found it removed ("cannot
# open"; seen with glmark2 ending its run). The cut reads it through the
# descriptor the host holds.
target = f'abstract:{NAME}-cut'
a = app(target)
time.sleep(0.3)
out = os.path.join(work, 'exit-during-cut.gltrace')
c = subprocess.Popen([args.gltrace, 'connect', target, '-o', out, '--start', '--duration', '1'],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
said = []
for line in iter(c.stderr.readline, ''):
    said.append(line)
    if 'cutting calls' in line:  # trim has begun: the app goes now
        finish_app(a, 'the app exits while the host cuts its trace')
        break
said += c.stderr.readlines()
c.wait(timeout=300)
report = ''.join(said) + c.stdout.read()
ck.check('the app exits while the host cuts its trace: connect writes the trace and says its replay was checked '
         '(exit 0)', a.returncode == 0 and c.returncode == 0 and 'checked: its replay matches' in report,
         (a.returncode, c.returncode, report[-800:]))
check_trace('the app exits while the host cuts its trace', out, ES2_OBJECTS, report)
ck.check('the app exits while the host cuts its trace: the spool is gone', spools() == [], spools())
ck.exit()
