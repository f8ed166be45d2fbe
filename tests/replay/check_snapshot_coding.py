#!/usr/bin/env python3
"""Snapshots coded against the previous one of their target (FORMAT.md,
"Snapshot coding"), as a user meets them. The same app recorded with the
default and with GLTRACE_SNAPSHOT_DELTA=0 (raw, as format 1): dump shows the
same pixels (size and fingerprint) for every snapshot, the coded trace with
keyframes and deltas; extract writes the same PNG files; replay matches
every snapshot of both. Replayed on another driver (softpipe) where some
differ, the pictures of what was recorded, decoded from deltas, are the
same files as from the raw trace. A trace of format 1 (a fixture written by
the release before) still replays and extracts.

usage: check_snapshot_coding.py GLTRACE APPS_DIR FIXTURE WORK_DIR"""
import filecmp
import json
import os
import sys

import gltest as gt

gltrace, apps, fixture, work = sys.argv[1:5]
ck = gt.Checker('replay.snapshot_coding')
gt.fresh_dir(work)
app = os.path.join(apps, 'fbo_snapshots')


def snaps(trace):
    d = gt.dump(gltrace, trace, timeout=300)
    return d.returncode, [r['fb'] for r in d.records if r.get('fn') == 'gltraceSnapshot' and 'fb' in r]


def same_files(a, b):
    fa, fb = sorted(os.listdir(a)), sorted(os.listdir(b))
    return fa == fb and filecmp.cmpfiles(a, b, fa, shallow=False)[1:] == ([], [])


traces = {}
for name, env in (('coded', {}), ('raw', {'GLTRACE_SNAPSHOT_DELTA': '0'})):
    t = os.path.join(work, name + '.gltrace')
    r = gt.run([gltrace, 'record', '--fb=draw', '-o', t, '--', app], env=dict(os.environ, **env), timeout=300)
    ck.check(f'fbo_snapshots recorded --fb=draw ({name}) exits 0', r.returncode == 0, r.stderr)
    traces[name] = t

(rc_c, coded), (rc_r, raw) = snaps(traces['coded']), snaps(traces['raw'])
# (`surface` is the EGLSurface's address, which differs from run to run.)
plain = lambda fbs: [{k: v for k, v in f.items() if k not in ('coding', 'slot', 'coded_bytes', 'xxh3', 'surface')}
                     for f in fbs]
ck.check('dump reads both; every snapshot has the same size, format and pixel fingerprint in both',
         rc_c == 0 and rc_r == 0 and len(coded) >= 10 and plain(coded) == plain(raw), (len(coded), len(raw)))
kinds = [f.get('coding') for f in coded]
ck.check('the coded trace has keyframes and deltas, the raw one neither',
         'key' in kinds and 'delta' in kinds and not any('coding' in f for f in raw), kinds)
ck.check('a delta is smaller than its pixels',
         all(f['coded_bytes'] < f['bytes'] for f in coded if f.get('coding') == 'delta'), coded)

outs = {}
for name, t in traces.items():
    outs[name] = os.path.join(work, 'extract-' + name)
    r = gt.run([gltrace, 'extract', t, '--out', outs[name]], timeout=300)
    ck.check(f'extract of the {name} trace exits 0', r.returncode == 0, r.stderr)
ck.check('extract writes the same PNG files from both', len(os.listdir(outs['coded'])) == len(coded) and
         same_files(outs['coded'], outs['raw']), (os.listdir(outs['coded']), os.listdir(outs['raw'])))

for name, t in traces.items():
    r = gt.run([gltrace, 'replay', t], timeout=300)
    s = gt.replay_summary(r.stderr)
    ck.check(f'replay of the {name} trace: every snapshot matched', r.returncode == 0 and s and s[0] == s[1] ==
             len(coded), r.stderr)

# Another driver: where its pixels differ, the recorded ones are decoded.
pics = {}
for name, t in traces.items():
    pics[name] = os.path.join(work, 'softpipe-' + name)
    r = gt.run([gltrace, 'replay', '--out', pics[name], t], env=dict(os.environ, GALLIUM_DRIVER='softpipe'),
               timeout=300)
    pics[name + '-rc'] = r.returncode
expected = sorted(f for f in os.listdir(pics['coded']) if f.endswith('-expected.png')) \
    if os.path.isdir(pics['coded']) else []
if not expected:
    print('skip: softpipe replays every snapshot the same here; the decoding on a difference is not exercised')
else:
    ck.check('on softpipe, the differing snapshots and the recorded pictures written for them are the same files '
             'from the coded trace as from the raw one', same_files(pics['coded'], pics['raw']), expected)
    calls = {int(f.split('-call')[1][:9]) for f in expected}
    d = gt.dump(gltrace, traces['coded'], timeout=300)
    deltas = {r['seq'] for r in d.records if r.get('fb', {}).get('coding') == 'delta'}
    ck.check('some of them were deltas (decoded from their chain on the difference)', calls & deltas,
             (calls, deltas))

# Format 1: raw snapshots, written by the release before this coding.
r = gt.run([gltrace, 'replay', fixture], timeout=300)
s = gt.replay_summary(r.stderr)
ck.check('a format-1 trace replays with every snapshot matched', r.returncode == 0 and s and s[0] == s[1] > 0,
         r.stderr)
r = gt.run([gltrace, 'extract', fixture, '--out', os.path.join(work, 'extract-v1')], timeout=300)
ck.check('a format-1 trace extracts one PNG per snapshot', r.returncode == 0 and s and
         len(os.listdir(os.path.join(work, 'extract-v1'))) == s[0], r.stderr)
ck.exit()
