#!/usr/bin/env python3
"""The trace server as a user drives it from a second terminal: spin_app
draws frames (about 200 a second) with GLTRACE_LISTEN set (streaming:
`,stream` or `,wait`; the default, the spool, is check_midrun.py's), and
`gltrace connect` starts tracing mid-run, changes the snapshot settings,
stops, disconnects, reconnects; a host is killed; a host of another user
and a TCP host without the token are refused; a bad GLTRACE_LISTEN is
said once and ignored; ,wait holds the app until a host starts. Through
all of it the app keeps drawing and exits 0 with no GL error.

The traces are checked with `gltrace dump --json`: each begins with
gltraceMetadata at seq 0, then announces the context and surface the app
made before tracing began (gltraceContext, gltraceSurface) and the thread's
gltraceCurrent before its first call; each thread's first call comes after
a swap and its last call is a swap (whole frames); snapshots follow the
settings the host sent; a context made while tracing is on is announced
after its eglCreateContext.

usage: check_server.py --gltrace G --lib LIB --app SPIN_APP --dir D"""
import argparse
import os
import re
import signal
import subprocess
import time

import gltest as gt


p = argparse.ArgumentParser()
for a in ('--gltrace', '--lib', '--app', '--dir'):
    p.add_argument(a, required=True)
args = p.parse_args()
os.makedirs(args.dir, exist_ok=True)
ck = gt.Checker('server')
NAME = f'gltrace-test-{os.getpid()}'


def app(listen, seconds=60):
    env = gt.gl_env(args.lib, GLTRACE_LISTEN=listen)
    return subprocess.Popen([args.app, str(seconds)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def wait_line(stream, pattern, timeout=10):
    """The first line of stream matching pattern (a regex), or None."""
    end = time.time() + timeout
    while time.time() < end:
        line = stream.readline()
        if not line:
            return None
        m = re.search(pattern, line)
        if m:
            return m
    return None


def connect(target, out, *extra, script=(), user=None):
    """Runs gltrace connect, feeding it (delay, line) pairs on stdin."""
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
    out_, err = c.communicate(timeout=60)
    return c.returncode, err


def finish_app(a, what):
    a.send_signal(signal.SIGTERM)
    out, err = a.communicate(timeout=30)
    m = re.search(r'frames (\d+), (\d+) GL errors', out)
    ck.check(f'{what}: the app kept drawing and exits 0 with no GL error', a.returncode == 0 and m and
             m.group(2) == '0', (a.returncode, out, err[-600:]))
    return err, int(m.group(1)) if m else 0


def threads(recs):
    by = {}
    for r in recs:
        by.setdefault(r['tid'], []).append(r)
    return by


# ------------------------------------------------------------------ a whole session
a = app(f'abstract:{NAME},stream')
ck.check('the app says where it listens, once', wait_line(a.stderr, rf'trace server on abstract:{NAME}') is not None)
ck.check('the app draws before any host connects', wait_line(a.stdout, r'drawing') is not None)
time.sleep(0.3)
t1 = os.path.join(args.dir, 'session1.gltrace')
# Each setting lasts a second: many frames even under ThreadSanitizer.
script = [(0.2, 'start'), (1.0, 'fb none'), (1.0, 'fb draw'), (1.0, 'fb swap'), (0.1, '')]
# The second thread starts while tracing is on: its context is made then.
spawner = subprocess.Popen(['sh', '-c', f'sleep 2.7; kill -USR1 {a.pid}'])
script += [(1.2, 'stop'), (0.3, 'fb none'), (0.4, 'quit')]  # the next host must not inherit 'none'
rc, err = connect(f'abstract:{NAME}', t1, script=script)
spawner.wait()
ck.check('connect: exit 0, the file written', rc == 0 and os.path.isfile(t1) and 'wrote' in err, err)
time.sleep(0.5)
ck.check('the app still runs after the host left', a.poll() is None)
d, recs = gt.read_dump(ck, args.gltrace, t1)
ck.check('gltrace dump reads the streamed trace cleanly', d.returncode == 0 and not d.stderr.strip(), d.stderr)
ck.check('the first record is gltraceMetadata at seq 0, seq runs by one',
         recs and recs[0]['fn'] == 'gltraceMetadata' and [r['seq'] for r in recs] == list(range(len(recs))),
         recs[:2])
inf = gt.read_info(ck, args.gltrace, t1)
ck.check('gltrace info: the trace is complete (seek index at its end)', inf.get('complete') is True, inf)
by = threads(recs)
main_tid = recs[0]['tid'] if recs else None
main = by.get(main_tid, [])
fns = [r['fn'] for r in main]
first_call = next((i for i, r in enumerate(main) if r['fn'].startswith('gl') and not r['fn'].startswith('gltrace')),
                  None)
ck.check('the main thread: gltraceContext, gltraceSurface and gltraceCurrent before its first GL call',
         first_call is not None and {'gltraceContext', 'gltraceSurface', 'gltraceCurrent'} <= set(fns[:first_call]),
         fns[:8])
ctx0 = next((r for r in recs if r['fn'] == 'gltraceContext'), {})
cur = next((r for r in recs if r['fn'] == 'gltraceCurrent'), {})
ck.check('the announced context is the one gltraceCurrent makes current, GLES 2, id 0',
         ctx0.get('args', {}).get('context') == cur.get('args', {}).get('ctx') and
         ctx0['args'].get('client_version') == 2 and ctx0['args'].get('id') == 0, (ctx0, cur))
calls = [r for r in main if not r['fn'].startswith('gltrace')]
ck.check("the main thread's first call is the one after a swap (spin_app's glGetError), its last is eglSwapBuffers",
         calls and calls[0]['fn'] == 'glGetError' and calls[1]['fn'] == 'glClearColor' and
         calls[-1]['fn'] == 'eglSwapBuffers',
         [r['fn'] for r in calls[:3] + calls[-2:]])
swaps = [i for i, r in enumerate(main) if r['fn'] == 'eglSwapBuffers']
ck.check('frames were traced (more than 20 swaps on the main thread)', len(swaps) > 20, len(swaps))
# Snapshot settings over time: swap (default), none, draw, swap.
kinds = []
for i, s in enumerate(swaps):
    start = swaps[i - 1] + 1 if i else 0
    frame = main[start:s + 1]
    snaps = [r for r in frame if r['fn'] == 'gltraceSnapshot']
    draws = [j for j, r in enumerate(frame) if r['fn'] == 'glDrawArrays']
    after_draw = draws and any(r['fn'] == 'gltraceSnapshot' for r in frame[draws[0] + 1:draws[0] + 2])
    kinds.append('draw' if after_draw else 'swap' if snaps else 'none')
runs = [k for i, k in enumerate(kinds) if i == 0 or kinds[i - 1] != k]
ck.check('snapshots follow the host: at swaps, then none, then after each draw, then at swaps again',
         runs == ['swap', 'none', 'draw', 'swap'], runs)
second = [tid for tid in by if tid != main_tid]
ctx1 = [r for r in recs if r['fn'] == 'gltraceContext' and r['args'].get('id') == 1]
s_fns = [r['fn'] for r in by[second[0]]] if len(second) == 1 else []
s_first = next((i for i, f in enumerate(s_fns) if f.startswith('gl') and not f.startswith('gltrace')), len(s_fns))
ck.check('the second thread, whose context was made while tracing was on: announced (gltraceContext id 1, '
         'GLES 2, no share group, its config) with gltraceCurrent before its first call, and it drew',
         len(ctx1) == 1 and ctx1[0]['tid'] == (second or [None])[0] and ctx1[0]['args']['client_version'] == 2 and
         ctx1[0]['args']['share_id'] == -1 and ctx1[0]['args']['config_attribs'].get('data', {}).get('bytes', 0) > 4
         and 'gltraceCurrent' in s_fns[:s_first] and 'glDrawArrays' in s_fns, (second, ctx1[:1], s_fns[:6]))
rp = gt.run([args.gltrace, 'replay', t1], timeout=300)
ck.check('replay reads it to the end and says that tracing began mid-run (exit 0 or 1, never 2)',
         rp.returncode in (0, 1) and 'switched on while the app ran' in rp.stderr, rp.stderr[-600:])

# ------------------------------------------------------------------ reconnect, then a host killed
t2 = os.path.join(args.dir, 'session2.gltrace')
rc, err = connect(f'abstract:{NAME}', t2, '--start', '--duration', '1')
d, recs2 = gt.read_dump(ck, args.gltrace, t2)
ck.check('a second host: --start gives a trace of its own, metadata at seq 0, its contexts '
         'announced again, frames in it, snapshots at swaps again (the first host\'s settings are not its)',
         rc == 0 and recs2 and recs2[0]['fn'] == 'gltraceMetadata' and recs2[0]['seq'] == 0 and
         sum(r['fn'] == 'gltraceContext' for r in recs2) >= 1 and
         sum(r['fn'] == 'eglSwapBuffers' for r in recs2) > 1 and
         sum(r['fn'] == 'gltraceSnapshot' for r in recs2) >= sum(r['fn'] == 'eglSwapBuffers' for r in recs2) - 1,
         (rc, err, len(recs2), recs2[:1] and (recs2[0]['fn'], recs2[0]['seq']),
          {f: sum(r['fn'] == f for r in recs2) for f in ('gltraceContext', 'eglSwapBuffers', 'gltraceSnapshot')}))
# One host at a time: a second one is told so, the first goes on.
tb1, tb2 = os.path.join(args.dir, 'busy1.gltrace'), os.path.join(args.dir, 'busy2.gltrace')
first = subprocess.Popen([args.gltrace, 'connect', f'abstract:{NAME}', '-o', tb1, '--start', '--duration', '7'],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
time.sleep(1)
rc, err = connect(f'abstract:{NAME}', tb2)
first_err = first.communicate(timeout=60)[1]
ck.check('a second host while one is connected: exit 2, told the app serves one host at a time; the first '
         'host\'s trace is whole', rc == 2 and 'one at a time' in err and first.returncode == 0 and
         gt.read_info(ck, args.gltrace, tb1).get('complete') is True, (rc, err, first_err))
t3 = os.path.join(args.dir, 'killed.gltrace')
k = subprocess.Popen([args.gltrace, 'connect', f'abstract:{NAME}', '-o', t3, '--start'], stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
time.sleep(0.8)
k.kill()
k.wait()
time.sleep(0.5)
ck.check('a host killed with SIGKILL mid-trace: the app runs on', a.poll() is None)
t4 = os.path.join(args.dir, 'after_kill.gltrace')
rc, err = connect(f'abstract:{NAME}', t4, '--start', '--duration', '1')
d, recs4 = gt.read_dump(ck, args.gltrace, t4)
ck.check('and the next host gets a whole trace of its own', rc == 0 and recs4 and recs4[0]['seq'] == 0 and
         sum(r['fn'] == 'eglSwapBuffers' for r in recs4) > 1, (rc, err))

# ------------------------------------------------------------------ refusals
refusals = 0
if os.geteuid() == 0 and subprocess.run(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups',
                                         args.gltrace, '--version'], capture_output=True).returncode == 0:
    rc, err = connect(f'abstract:{NAME}', '/dev/null', user=65534)
    refusals = 1
    ck.check('a host of another user (uid 65534) is refused, saying why (exit 2)',
             rc == 2 and 'refused' in err and 'user 65534 may not trace' in err, (rc, err))
else:
    print('note: not root or setpriv cannot run gltrace as uid 65534: the other-user refusal is not checked')
err, frames = finish_app(a, 'abstract socket session')
ck.check(f'the app logged each refusal once ({refusals} made)', err.count('was refused') == refusals,
         err[-600:] or '(nothing on stderr after the start line)')

# TCP: a token, printed once; nothing without it.
a = app('tcp:0,stream')
m = wait_line(a.stderr, r'trace server on (tcp:\d+) \(127\.0\.0\.1\).*--token ([0-9a-f]{32})')
ck.check('tcp:0: the app prints its port and a token', m is not None)
if m:
    target, token = m.group(1), m.group(2)
    rc, err = connect(target, '/dev/null')
    ck.check('tcp: connect without --token: exit 2, says a token is needed', rc == 2 and '--token' in err, err)
    rc, err = connect(target, '/dev/null', '--token', '0' * 32, '--start')
    ck.check('tcp: a wrong token is refused (exit 2)', rc == 2 and 'refused' in err, err)
    t5 = os.path.join(args.dir, 'tcp.gltrace')
    rc, err = connect(target, t5, '--token', token, '--start', '--duration', '1')
    d, recs5 = gt.read_dump(ck, args.gltrace, t5)
    ck.check('tcp: the right token gets a trace', rc == 0 and sum(r['fn'] == 'eglSwapBuffers' for r in recs5) > 1,
             (rc, err))
finish_app(a, 'tcp session')

# ,wait: the first GL call waits for a host's start.
a = app(f'abstract:{NAME}-w,wait')
time.sleep(1.0)
ck.check(',wait: the app has not drawn before a host started it', a.poll() is None and not
         __import__('select').select([a.stdout], [], [], 0)[0])
t6 = os.path.join(args.dir, 'wait.gltrace')
rc, err = connect(f'abstract:{NAME}-w', t6, '--start', '--duration', '2')
d, recs6 = gt.read_dump(ck, args.gltrace, t6)
fns6 = [r['fn'] for r in recs6]
calls6 = [f for f in fns6 if not f.startswith('gltrace')]
ck.check(',wait: after start the app draws; its trace holds every call from its first (eglGetPlatformDisplay)',
         rc == 0 and calls6[:1] == ['eglGetPlatformDisplay'] and 'eglCreateContext' in calls6 and
         'glDrawArrays' in calls6, fns6[:6])
rp = gt.run([args.gltrace, 'replay', t6], env=gt.gl_env(headless=True), timeout=300)
ck.check(',wait: that trace, whole from the start, replays bit-exact', rp.returncode == 0 and
         re.search(r'(\d+) snapshots: \1 matched', rp.stderr), rp.stderr[-400:])
finish_app(a, ',wait')

# A bad GLTRACE_LISTEN: one line, no server, the app untouched.
a = app('carrier-pigeon:7')
time.sleep(1.5)
err, frames = finish_app(a, 'bad GLTRACE_LISTEN')
ck.check('a bad GLTRACE_LISTEN: one gltrace: line naming it, the app drew', err.count('gltrace:') == 1 and
         'GLTRACE_LISTEN=carrier-pigeon:7' in err and frames > 2, (err, frames))

# gltrace record --listen sets it up.
r = gt.run([args.gltrace, 'record', '--listen', f'abstract:{NAME}-r', '--', args.app, '1'], timeout=60)
ck.check('gltrace record --listen: the app listens (its line), runs, leaves no file',
         r.returncode == 0 and f'trace server on abstract:{NAME}-r' in r.stderr and 'wrote' not in r.stderr,
         r.stderr[-400:])
ck.exit()
