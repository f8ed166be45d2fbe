#!/usr/bin/env python3
"""A Wayland compositor, recorded as a user records it: Debian's weston
(headless backend, GL renderer on the system's GLES) under `gltrace record`,
with weston-simple-egl as its client, itself recorded, for a few seconds;
then weston stopped with SIGTERM. Both traces must replay with every snapshot
matched. Weston redraws only what changed, over what its earlier frames left
in the window, and uploads its client's shared-memory buffer into one
texture each frame: three frames trimmed out of the middle of its trace
must replay exactly and be small (the window's pixels at the start stand
for the draws before it; the uploads a later one replaced are left out), so
that a trim late in the run is not much larger than one early in it.
Exit 77 only when weston or weston-simple-egl is not installed, or weston
cannot start here (saying why)."""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

import gltest as gt

p = argparse.ArgumentParser()
p.add_argument('--gltrace', required=True)
p.add_argument('--dir', required=True)
a = p.parse_args()

for tool in ('weston', 'weston-simple-egl'):
    if not shutil.which(tool):
        print(f'SKIP: {tool} is not installed (ci/setup.sh installs weston)')
        sys.exit(77)

work = gt.fresh_dir(os.path.join(a.dir, 'weston'))
xdg = os.path.join(work, 'xdg')
os.makedirs(xdg, mode=0o700)
env = gt.gl_env(headless=True, XDG_RUNTIME_DIR=xdg)
socket = 'gltrace-test-%d' % os.getpid()
log = open(os.path.join(work, 'weston.log'), 'w')
comp = subprocess.Popen([a.gltrace, 'record', '-o', os.path.join(work, 'w-%n-%p.gltrace'), '--', 'weston',
                         '--backend=headless-backend.so', '--use-gl', '--socket=' + socket, '--idle-time=0',
                         '--width=400', '--height=300'], env=env, stdout=log, stderr=subprocess.STDOUT)
deadline = time.time() + 30
while time.time() < deadline and not os.path.exists(os.path.join(xdg, socket)) and comp.poll() is None:
    time.sleep(0.2)
if not os.path.exists(os.path.join(xdg, socket)):
    comp.kill()
    comp.wait()
    log.close()
    print('SKIP: weston did not start here: ' + open(os.path.join(work, 'weston.log')).read()[-800:])
    sys.exit(77)

ck = gt.Checker('weston')
client = gt.run(['timeout', '-s', 'INT', '5', a.gltrace, 'record', '-o', os.path.join(work, 'c-%n-%p.gltrace'), '--',
                 'weston-simple-egl'], env=dict(env, WAYLAND_DISPLAY=socket), timeout=60)
time.sleep(0.5)
# weston itself is asked to leave (SIGTERM, as its service manager would);
# gltrace record then finishes its trace and exits with it.
subprocess.run(['pkill', '-TERM', '-P', str(comp.pid), '-x', 'weston'])
try:
    comp.wait(timeout=60)
except subprocess.TimeoutExpired:
    comp.kill()
    comp.wait()
log.close()
traces = {k: glob.glob(os.path.join(work, f'{k}-*.gltrace')) for k in ('w', 'c')}
ck.check('weston and its client each leave one trace', len(traces['w']) == 1 and len(traces['c']) == 1,
         (traces, client.stderr[-500:], open(os.path.join(work, 'weston.log')).read()[-800:]))
if not (traces['w'] and traces['c']):
    ck.exit()
wtrace, ctrace = traces['w'][0], traces['c'][0]

for name, trace in (('weston', wtrace), ('weston-simple-egl', ctrace)):
    r = gt.run([a.gltrace, 'replay', trace, '--no-progress'], env=gt.gl_env(headless=True))
    s = gt.replay_summary(r.stderr)
    ck.check(f'{name}: replayed headless, every snapshot matches (exit 0)',
             r.returncode == 0 and s and s[0] > 20 and s[1] == s[0], r.stderr.strip()[-600:])

_, obj = gt.info(a.gltrace, wtrace)
frames = obj.get('frames', 0) if obj else 0
size = os.path.getsize(wtrace)
sizes, uploads, setups = [], [], []


def setup_of(out):
    """The functions of a trim's setup: its records before the start marker."""
    fns = []
    for rec in gt.dump(a.gltrace, out).objects():
        if rec.get('fn') == 'gltraceMetadata' and \
                rec.get('metadata', {}).get('options', {}).get('trim', '').startswith('start'):
            break
        fns.append(rec.get('fn'))
    return fns


for k in (frames // 3, frames - 6):
    out = os.path.join(work, f'weston-{k}.gltrace')
    r = gt.run([a.gltrace, 'trim', wtrace, '--frames', f'{k}-{k + 2}', '-o', out], env=gt.gl_env(headless=True))
    m = re.search(r'size: (\d+) bytes', r.stdout)
    ok = r.returncode == 0 and 'checked: its replay matches 3 of 3' in r.stdout and m
    ck.check(f'weston frames {k}-{k + 2} of {frames}: trimmed, its replay checked exact', ok, (r.stdout, r.stderr))
    if not ok:
        continue
    sizes.append(int(m.group(1)))
    setup = setup_of(out)
    uploads.append(sum(1 for f in setup if f in ('glTexImage2D', 'glTexSubImage2D')))
    setups.append(len(setup))
    # Weston's headless output is a pbuffer, whose swaps keep its pixels:
    # its pixels at the start are written on the first try for the draws
    # before it, which stay out (before, only the check's second try wrote
    # them).
    # The client's uploads go as a later whole one replaces them (step 7),
    # or, a level written in several, read back at the start (step 9).
    replaced = 'a later whole one replaced' in r.stdout or re.search(r'[1-9]\d* uploads of regions into them', r.stdout)
    ck.check(f'weston frames {k}-{k + 2}: the draws before the start stay out, the output\'s pixels written in '
             'their place on the first try, and the client uploads a later one replaced or the start reads back '
             'are left out',
             'they are kept' not in r.stdout and replaced and
             'note: without' not in r.stdout and 'the pixels of 1 window surfaces' in r.stdout, r.stdout)
    rp = gt.run([a.gltrace, 'replay', out, '--no-progress'], env=gt.gl_env(headless=True))
    s = gt.replay_summary(rp.stderr)
    ck.check(f'weston frames {k}-{k + 2}: the trim replays on its own, 3 of 3 snapshots matched',
             rp.returncode == 0 and s and s[0] == 3 and s[1] == 3, rp.stderr.strip()[-400:])
if len(sizes) == 2:
    # Before the windows' pixels and the replaced uploads, these were 21%
    # and 66%: every upload before the start stayed (a hundred and more).
    # Sizes vary with the kept frames' own snapshots, so the uploads are
    # counted.
    ck.check(f'the trims are small ({sizes[0]} and {sizes[1]} bytes of {size}: under 10%), and each setup holds '
             f'a few texture uploads, not one per earlier frame ({uploads})',
             max(sizes) < 0.10 * size and max(uploads) <= 6, (sizes, size, uploads))
    # Weston sets its bindings, blending, vertex arrays and uniforms again
    # every frame: before step 8 the setups held 2500 to 8700 such calls,
    # growing with the start. Now each piece of state is set once: about
    # 280 records, wherever the start is.
    ck.check(f'the setups do not grow with the start: {setups[0]} and {setups[1]} records, each under 600, the '
             'later no more than 50 over the earlier (the state commands a later one replaced are left out)',
             max(setups) < 600 and setups[1] <= setups[0] + 50, setups)
ck.exit()
