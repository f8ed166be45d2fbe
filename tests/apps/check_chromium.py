#!/usr/bin/env python3
"""A browser's GPU process, recorded as a user records it: Debian's chromium,
headless, drawing a WebGL page (a textured quad over a changing clear colour,
composited with text) through ANGLE on the system's GLES. Its GPU process
makes pbuffers from EGL_CONFIG_ID with a configless context, reuses surface
handles and draws over a new pbuffer's old contents; all of it must replay
bit-exact:
- with --fb=draw: every snapshot of the GPU process's trace matches, none is
  unreadable, every pixel read of the app matches, and the new surfaces'
  first contents are in the trace;
- with the default (--fb=swap: it never swaps, so snapshots at glFinish and
  release, and its own reads): something is compared and all of it matches.
The GPU process leaves through _exit as the browser goes: its trace must
still be finished (seek index) and compacted by record. Its last calls
trimmed out replay exactly on the first try, with the draws into
textures left out (a setup under half of the calls before).
Exit 77 only when chromium is not installed or cannot start here."""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import gltest as gt

p = argparse.ArgumentParser()
p.add_argument('--gltrace', required=True)
p.add_argument('--page', required=True)
p.add_argument('--dir', required=True)
a = p.parse_args()

chromium = shutil.which('chromium')
if not chromium:
    print('SKIP: chromium is not installed (ci/setup.sh installs it)')
    sys.exit(77)


def browser(out):
    return [chromium, '--headless=new', '--no-sandbox', '--ignore-gpu-blocklist', '--use-gl=angle',
            '--use-angle=gles-egl', '--ozone-platform=headless', '--user-data-dir=' + tempfile.mkdtemp(dir=a.dir),
            '--screenshot=' + os.path.join(out, 'shot.png'), '--window-size=400,300', '--virtual-time-budget=1000',
            'file://' + os.path.abspath(a.page)]


# Can chromium start at all here (without us)?
d0 = gt.fresh_dir(os.path.join(a.dir, 'chromium_plain'))
r0 = gt.run(browser(d0), env=gt.gl_env(None))
if not os.path.exists(os.path.join(d0, 'shot.png')):
    print(f'SKIP: chromium cannot start here (exit {r0.returncode}): {r0.stderr.strip()[-600:]}')
    sys.exit(77)

ck = gt.Checker('chromium GPU process')


def gpu_trace(out):
    """The GPU process's trace among the run's (one per GL process)."""
    found = []
    for f in glob.glob(os.path.join(out, '*.gltrace')):
        _, j = gt.info(a.gltrace, f)
        cmd = ' '.join(((j or {}).get('metadata') or {}).get('command_line') or [])
        if '--type=gpu-process' in cmd:
            found.append(f)
    return found


for fb in ('draw', 'swap'):
    out = gt.fresh_dir(os.path.join(a.dir, 'chromium_' + fb))
    r = gt.run([a.gltrace, 'record', '--fb=' + fb, '-o', os.path.join(out, '%n-%p.gltrace'), '--'] + browser(out),
               env=gt.gl_env(None), timeout=180)
    ck.check(f'--fb={fb}: chromium under gltrace record exits 0 and writes its screenshot',
             r.returncode == 0 and os.path.exists(os.path.join(out, 'shot.png')),
             f'exit {r.returncode}: {r.stderr.strip()[-800:]}')
    traces = gpu_trace(out)
    if not ck.check(f'--fb={fb}: one trace is the GPU process\'s', len(traces) == 1,
                    (os.listdir(out), r.stderr[-800:])):
        continue
    _, info = gt.info(a.gltrace, traces[0])
    ck.check(f'--fb={fb}: the GPU process\'s trace was finished (seek index: its _exit while the browser goes is '
             'interposed) and compacted by record (chunks of about 4 MiB of records each)',
             (info or {}).get('indexed') is True and (info or {}).get('chunks', 1 << 30) <=
             (info or {}).get('size_uncompressed', 0) // (4 << 20) + (info or {}).get('threads', 0) + 1,
             {k: (info or {}).get(k) for k in ('indexed', 'chunks', 'threads', 'size_uncompressed')})
    rp = gt.run([a.gltrace, 'replay', traces[0], '--json', os.path.join(out, 'report.json')], env=gt.gl_env(None))
    s = gt.replay_summary(rp.stderr)
    ck.check(f'--fb={fb}: replay exits 0 with a summary', rp.returncode == 0 and s is not None,
             f'exit {rp.returncode}: {rp.stderr.strip()[-1500:]}')
    if s is None:
        continue
    snaps, matched, differ, not_compared = s
    m = re.search(r'(\d+) pixel reads of the app: (\d+) matched, (\d+) differ', rp.stderr)
    reads = [int(x) for x in m.groups()] if m else [0, 0, 0]
    want = 100 if fb == 'draw' else 1
    ck.check(f'--fb={fb}: at least {want} snapshots, every one matched, none unreadable or left out',
             snaps >= want and matched == snaps and differ == 0 and not_compared == 0, rp.stderr.strip()[-600:])
    ck.check(f'--fb={fb}: the GPU process\'s own pixel reads are compared and match',
             reads[0] > 0 and reads[1] == reads[0] and reads[2] == 0, rp.stderr.strip()[-600:])
    if fb == 'swap' and info and info.get('calls', 0) > 2000:
        # Its last calls trimmed out: the draws into textures (tiles,
        # layers, resolved passes) go, their pixels at the start written
        # instead (TRIM.md step 9), so the setup is not the process's
        # history; kept, it is most of it.
        first = info['calls'] * 17 // 20
        setups = []
        for extra in ([], ['--keep-texture-draws']):
            t = os.path.join(out, 'trim%s.gltrace' % ('-keep' if extra else ''))
            r = gt.run([a.gltrace, 'trim', traces[0], '--calls', f'{first}-{info["calls"] - 1}', '-o', t, *extra],
                       env=gt.gl_env(None), timeout=300)
            m = re.search(r'after a setup of (\d+) of', r.stdout)
            setups.append(int(m.group(1)) if m and r.returncode == 0 else -1)
            if not extra:
                d = re.search(r'(\d+) draws and clears into textures, \d+ uploads of regions into them; written at '
                              r'the start instead', r.stdout)
                ck.check(f'--fb=swap: calls {first}- trimmed, exact on the first try, {d and d.group(1)} draws into '
                         f'textures left out, a setup of {setups[0]} calls, under half of the {first} before',
                         r.returncode == 0 and 'note: without' not in r.stdout and d and int(d.group(1)) > 0 and
                         0 < setups[0] < first // 2, (r.returncode, r.stdout, r.stderr[-500:]))
        ck.check(f'--fb=swap: with --keep-texture-draws the setup is larger ({setups[1]} against {setups[0]})',
                 setups[1] > setups[0] > 0, setups)
    if fb == 'draw':
        dump = gt.run([a.gltrace, 'dump', traces[0]])
        initial = sum(1 for line in dump.stdout.splitlines() if 'gltraceSurfaceContents' in line)
        ck.check('--fb=draw: the new surfaces\' first contents are recorded (gltraceSurfaceContents)',
                 initial >= 1, f'{initial} records')
ck.exit()
