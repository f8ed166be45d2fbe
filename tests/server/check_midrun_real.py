#!/usr/bin/env python3
"""Tracing a running real program from a second terminal: es2gears_x11 and
glmark2-es2 (mesa-utils, glmark2-es2) under Xvfb, with GLTRACE_LISTEN set;
after a random number of seconds `gltrace connect` starts tracing, lets
about half a second of frames go by, stops and quits. The trace it writes
must replay with `gltrace replay` exiting 0 and every snapshot matched,
with the program's objects (shaders, programs, buffers) made before the
start in its setup. glmark2 runs two scenes, a context each, and is
started in the second. Exit 77 (skipped) when xvfb-run or either program
is missing.

usage: check_midrun_real.py --gltrace G --lib LIB --dir D"""
import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

import gltest as gt


p = argparse.ArgumentParser()
for a in ('--gltrace', '--lib', '--dir'):
    p.add_argument(a, required=True)
args = p.parse_args()
work = gt.fresh_dir(args.dir)
xvfb, gears, glmark = shutil.which('xvfb-run'), shutil.which('es2gears_x11'), shutil.which('glmark2-es2')
if not (xvfb and gears and glmark):
    print(f'skipped: xvfb-run {xvfb or "missing"}, es2gears_x11 {gears or "missing"}, '
          f'glmark2-es2 {glmark or "missing"} (ci/setup.sh installs them)')
    sys.exit(77)
ck = gt.Checker('server.midrun_real')
seed = int(os.environ.get('GLTRACE_TEST_SEED', time.time()))
rng = random.Random(seed)
print(f'seed {seed} (GLTRACE_TEST_SEED={seed} repeats this run)')

PROGRAMS = [
    ('es2gears_x11', [gears], (1.0, 3.0)),
    ('glmark2-es2', [glmark, '--size', '160x120', '-b', 'build:use-vbo=true:duration=2',
                     '-b', 'shading:shading=phong:duration=30'], (3.0, 5.0)),
]
for name, argv, wait in PROGRAMS:
    target = f'abstract:gltrace-real-{os.getpid()}-{name}'
    env = gt.gl_env(args.lib, GLTRACE_LISTEN=target, GLTRACE_SPOOL=work)
    a = subprocess.Popen([xvfb, '-a', '-s', '-screen 0 640x480x24', *argv], env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    line, end = '', time.time() + 30
    while line is not None and 'trace server on' not in line and time.time() < end:
        line = a.stderr.readline() or None
    ck.check(f'{name}: it says where its trace server listens', line and 'trace server on' in line, line)
    time.sleep(rng.uniform(*wait))
    out = os.path.join(work, f'{name}.gltrace')
    c = subprocess.Popen([args.gltrace, 'connect', target, '-o', out], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for delay, cmd in ((0.2, 'start'), (0.5, 'stop'), (0.2, 'quit')):
        time.sleep(delay)
        c.stdin.write(cmd + '\n')
        c.stdin.flush()
    report = ''.join(c.communicate(timeout=600))
    ck.check(f'{name}: connect writes the trace and its check replays it exactly (exit 0)',
             c.returncode == 0 and 'checked: its replay matches' in report, report[-800:])
    ck.check(f'{name}: the program runs on after the host left', a.poll() is None)
    os.killpg(a.pid, signal.SIGTERM)
    a.communicate(timeout=60)
    rp = gt.run([args.gltrace, 'replay', out], env=gt.gl_env(headless=True), timeout=600)
    m = re.search(r'(\d+) snapshots: (\d+) matched', rp.stderr)
    ck.check(f'{name}: gltrace replay of the trace exits 0 with every snapshot matched (and there are some)',
             rp.returncode == 0 and m and m.group(1) == m.group(2) and int(m.group(1)) > 2, rp.stderr[-600:])
    d, recs = gt.read_dump(ck, args.gltrace, out)
    marker = next((i for i, r in enumerate(recs) if r['fn'] == 'gltraceMetadata' and
                   r.get('metadata', {}).get('options', {}).get('trim', '').startswith('start')), len(recs))
    setup = {r['fn'] for r in recs[:marker]}
    ck.check(f'{name}: the objects made before the start are in the setup',
             {'glCreateShader', 'glLinkProgram', 'glBufferData', 'eglCreateContext'} <= setup and
             marker < len(recs), sorted(setup)[:40])
    ck.check(f'{name}: the spool is gone after the program exits',
             not [f for f in os.listdir(work) if f.startswith('gltrace-spool-')], os.listdir(work))
ck.exit()
