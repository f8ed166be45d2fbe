#!/usr/bin/env python3
"""`gltrace replay`'s options, checked as a CI user reads their results:
the JSON and JUnit reports (parsed), depth and texture snapshots compared,
a real change (a clear colour altered in the trace) caught by the exact and
by the tolerant comparison with its PNGs, --frames and --calls selecting
what is compared, --benchmark and --loop timing frames, and wrong option
values refused with exit 2 naming them.

usage: check_options.py GLTRACE APPS_DIR WORK_DIR"""
import functools
import json
import os
import re
import shutil
import sys
import xml.etree.ElementTree as ET

import gltest as gt
import legacy_pb


gltrace, apps, work = sys.argv[1:4]
HEADLESS = gt.gl_env(headless=True)
# Replay must work with no display; a long replay is not a hang.
run = functools.partial(gt.run, env=HEADLESS, timeout=600)
ck = gt.Checker('replay.options_and_reports')
GL_CLEAR_COLOR = 26  # api/functions.tsv (Android's number)


def replay(trace, *opts):
    """exit status, stderr, JSON report, JUnit root."""
    js, ju = os.path.join(work, 'r.json'), os.path.join(work, 'r.xml')
    for f in (js, ju):
        if os.path.exists(f):
            os.remove(f)
    p = run([gltrace, 'replay', trace, '--json', js, '--junit', ju, *opts])
    report = json.load(open(js)) if os.path.exists(js) else None
    junit = ET.parse(ju).getroot() if os.path.exists(ju) else None
    return p.returncode, p.stderr, report, junit


def record(app, *opts):
    trace = os.path.join(work, f'{app}.gltrace')
    r = run([gltrace, 'record', '-o', trace, *opts, '--', os.path.join(apps, app)])
    ck.check(f'{app} {" ".join(opts)}: recorded', r.returncode == 0, r.stderr)
    return trace


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

# --- reports, depth and texture snapshots
es3 = record('es3_scene', '--fb=draw', '--fb-depth')
rc, err, rep, ju = replay(es3)
ck.check('es3_scene --fb=draw --fb-depth: exit 0, the JSON report says matched', rc == 0 and rep and
         rep['status'] == 'matched' and rep['differing'] == 0, (rc, err))
if rep:
    res = rep['results']
    ck.check('the JSON report has one result per snapshot, every one matched',
             len(res) == rep['snapshots'] > 0 and all(r['status'] == 'matched' for r in res), res[:3])
    depth = [r for r in res if r['what'] == 'surface-depth']
    ck.check('depth snapshots are compared (and match)', depth and all(r['status'] == 'matched' for r in depth), res[:4])
if ju is not None:
    suite = ju.find('testsuite')
    ck.check('the JUnit report: a test case per snapshot, no failure', suite is not None and
             int(suite.get('tests')) == len(suite.findall('testcase')) == (rep or {}).get('snapshots') and
             suite.get('failures') == '0', ET.tostring(ju)[:600])

fbo = record('fbo_snapshots', '--fb=draw', '--textures')
rc, err, rep, _ = replay(fbo)
tex = [r for r in (rep or {}).get('results', []) if r['what'].startswith('texture')]
ck.check('fbo_snapshots --textures: texture snapshots (2D, float, array layer) compared and matched, exit 0',
         rc == 0 and len(tex) >= 3 and all(r['status'] == 'matched' for r in tex), (rc, err, tex))
# A context asked for as GLES 2 that Mesa makes GLES 3.2: its textures are
# read back on replay as capture read them (by what the context is).
es2rt = record('es2_render_texture', '--fb=draw', '--textures')
rc2, err2, rep2, _ = replay(es2rt)
tex2 = [r for r in (rep2 or {}).get('results', []) if r['what'].startswith('texture')]
ck.check('es2_render_texture --textures (a GLES 2 context): its texture snapshots compared and matched, exit 0',
         rc2 == 0 and len(tex2) >= 2 and all(r['status'] == 'matched' for r in tex2), (rc2, err2, tex2))
kinds = {r['what'] for r in (rep or {}).get('results', [])}
ck.check('float and integer attachments are compared too', {'fbo1-color1', 'fbo1-color2'} <= kinds and
         rep['not_compared'] == 0, sorted(kinds))

# --- a real change: frame 1's clear colour altered in the trace
# the second frame's glClearColor, green set to 1.0
altered, seen = legacy_pb.with_float_arg(legacy_pb.read_trace(es3), GL_CLEAR_COLOR, 2, 1, 1.0)
changed = os.path.join(work, 'changed.legacy')
open(changed, 'wb').write(altered)
out = os.path.join(work, 'pngs')
rc, err, rep, ju = replay(changed, '--out', out)
diffs = [r for r in (rep or {}).get('results', []) if r['status'] == 'differs']
ck.check('a changed clear colour: exit 1, the first difference named in frame 1',
         rc == 1 and 'first difference at call' in err and rep and rep['first_difference']['frame'] == 1, (rc, err))
ck.check('the JSON report gives the differing snapshots with their metrics',
         diffs and all(r['frame'] == 1 for r in diffs) and
         all(r.get('diff_pixels', r.get('diff_bytes', 0)) > 0 for r in diffs), diffs[:3])
pngs = sorted(os.listdir(out)) if os.path.isdir(out) else []
rgba = [r for r in diffs if 'diff_pixels' in r]
ck.check('expected, actual and diff PNGs for each differing RGBA8 snapshot, named in the report',
         rgba and all(r.get(k) in pngs for r in rgba for k in ('expected_png', 'actual_png', 'diff_png')), (pngs, rgba[:2]))
if ju is not None:
    suite = ju.find('testsuite')
    ck.check('the JUnit report counts the failures', suite is not None and int(suite.get('failures')) == len(diffs) and
             len(suite.findall('testcase/failure')) == len(diffs), ET.tostring(ju)[:600])
rc, err, rep, _ = replay(changed, '--mode', 'perceptual')
ck.check('the perceptual comparison catches it too (exit 1)', rc == 1 and rep and rep['differing'] > 0, (rc, err))
rc, err, rep, _ = replay(changed, '--frames', '0-0')
ck.check('--frames 0-0 leaves frame 1 out: exit 0, only frame 0 compared', rc == 0 and rep and rep['matched'] > 0 and
         all(r['frame'] == 0 for r in rep['results'] if r['status'] != 'not compared'), (rc, err))
rc, err, rep, _ = replay(changed, '--frames', '1-')
ck.check('--frames 1- compares frame 1 on: exit 1', rc == 1 and rep and
         all(r['frame'] >= 1 for r in rep['results'] if r['status'] != 'not compared'), (rc, err))
first = rep['first_difference']['call'] if rep and rep.get('first_difference') else 0
rc, err, rep, _ = replay(changed, '--calls', f'0-{first - 1}')
ck.check(f'--calls 0-{first - 1} stops before the first difference: exit 0', rc == 0 and rep and
         rep['differing'] == 0 and rep['matched'] > 0, (rc, err))
rc, err, _, _ = replay(changed, '--frames', '50-')
ck.check('--frames past the end: exit 2, saying no snapshot lies inside',
         rc == 2 and 'no snapshot lies inside' in err, (rc, err))

# --- benchmark and loop
rc, err, rep, _ = replay(es3, '--benchmark')
ck.check('--benchmark: exit 0, frames timed, nothing compared', rc == 0 and re.search(r'\d+ frames in', err) and rep and
         len(rep.get('frame_ms', [])) == rep['frames'] > 0 and rep['snapshots'] == 0, (rc, err))
base = rep['frames'] if rep else 0
rc, err, rep, _ = replay(es3, '--benchmark', '--loop', '40')
ck.check('--loop 40: the last frame replayed 40 more times', rc == 0 and rep and rep['frames'] == base + 40 and
         len(rep['frame_ms']) == base + 40, (rc, err, rep and rep['frames']))

# --- wrong options
for opts, named in ((['--frames', 'x'], "--frames 'x'"), (['--frames', '5-2'], "--frames '5-2'"),
                    (['--loop', '3', '--lockstep', '3,4'], 'no --loop with it'),
                    (['--benchmark', '--loop', '0'], "--loop '0'"),
                    (['--tolerance', '300'], "--tolerance '300'"), (['--threshold', '0.1', '--mode', 'exact'],
                                                                   '--threshold applies'),
                    (['--save-all'], '--save-all needs --out'), (['--calls'], "'--calls' needs a value")):
    p = run([gltrace, 'replay', es3, *opts])
    ck.check(f'replay {" ".join(opts)}: exit 2 naming it', p.returncode == 2 and named in p.stderr, p.stderr[:300])

ck.exit()
