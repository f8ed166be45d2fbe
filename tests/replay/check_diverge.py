#!/usr/bin/env python3
"""`gltrace diverge`: the first call where two replays disagree.

 - llvmpipe against softpipe on the sample apps: diverge names the same
   first draw as brute force (`gltrace replay --snapshot draw` under each
   driver, the PNGs of each draw compared with `gltrace diff` under the same
   options), or none where brute force finds none, exactly and with a
   tolerance that steps over the drivers' differences;
 - a trace with one draw's uniform altered by the test: diverge against the
   unaltered trace (--trace-b), and the altered trace against its own
   recorded snapshots (--b recorded, recorded with --fb=draw), both name
   exactly the draw after the altered uniform, with the pictures of both
   sides and their difference in --out and a JSON report;
 - identical drivers: no divergence, exit 0;
 - bad input: exit 2 naming the argument or the file.

usage: check_diverge.py GLTRACE APPS_DIR API_FUNCTIONS_TSV WORK_DIR"""
import functools
import json
import os
import re
import struct
import subprocess
import sys

import gltest as gt
from legacy_pb import encode, fields, frame, records


gltrace, apps, functions_tsv, work = sys.argv[1:5]
run = functools.partial(gt.run, env=gt.gl_env(headless=True), timeout=600)
ck = gt.Checker('replay.diverge')
gt.fresh_dir(work)
FN = {}
for line in open(functions_tsv):
    if line.strip() and not line.startswith('#'):
        name, num = line.split()[:2]
        FN[int(num)] = name
DRIVERS = ('--a', 'GALLIUM_DRIVER=llvmpipe', '--b', 'GALLIUM_DRIVER=softpipe')


def record(app, *opts, name=None):
    trace = os.path.join(work, f'{name or app}.gltrace')
    r = run([gltrace, 'record', '-o', trace, *opts, '--', os.path.join(apps, app)])
    ck.check(f'{app} {" ".join(opts)}: recorded', r.returncode == 0, r.stderr)
    return trace


def diverge(trace, *opts, out=None):
    """exit status, stdout + stderr, the JSON report."""
    js = os.path.join(work, 'd.json')
    if os.path.exists(js):
        os.remove(js)
    extra = ['--out', out] if out else []
    p = run([gltrace, 'diverge', trace, '--json', js, *extra, *opts])
    rep = json.load(open(js)) if os.path.exists(js) else None
    return p.returncode, p.stdout + p.stderr, rep


def brute_force(trace, tag, compare):
    """The call of the first draw whose pictures differ beyond `compare`
    between llvmpipe and softpipe, from per-draw PNGs; None when none does."""
    dirs = []
    for drv in ('llvmpipe', 'softpipe'):
        d = gt.fresh_dir(os.path.join(work, f'{tag}-{drv}'))
        p = gt.run([gltrace, 'replay', trace, '--snapshot', 'draw', '--out', d],
                   env=gt.gl_env(headless=True, GALLIUM_DRIVER=drv), timeout=600)
        ck.check(f'{tag}: replayed with --snapshot draw on {drv}', p.returncode in (0, 1), p.stderr)
        dirs.append(d)
    pngs = sorted(f for f in os.listdir(dirs[0]) if '-replayed-after-draw' in f)
    for f in pngs:
        a, b = os.path.join(dirs[0], f), os.path.join(dirs[1], f)
        if not os.path.exists(b) or run([gltrace, 'diff', a, b, *compare]).returncode != 0:
            return int(re.search(r'call(\d+)', f).group(1))
    return None


# --- llvmpipe against softpipe: the same first draw as brute force
SAMPLES = ['es2_triangle', 'gles1_scene', 'es2_render_texture', 'es3_scene', 'fbo_snapshots', 'depth_stencil']
differing = 0
for app in SAMPLES:
    trace = record(app)
    for compare in ([], ['--tolerance', '255', '--max-diff', '2%']):
        tag = f'{app}{" tolerant" if compare else ""}'
        want = brute_force(trace, tag.replace(' ', '-'), compare)
        rc, out, rep = diverge(trace, *DRIVERS, *compare)
        got = rep['divergence']['call'] if rep and rep.get('divergence') else None
        ck.check(f'{tag}: diverge llvmpipe/softpipe names the first draw brute force finds ({want})',
                 got == want and rc == (1 if want else 0), (rc, out, rep))
        differing += want is not None and not compare
        if want and not compare:
            d = rep['divergence']
            ck.check(f'{tag}: a draw, named by its function, with both pictures and their metrics',
                     d['kind'] == 'draw' and d['function'].startswith('glDraw') and d['diff_pixels'] > 0 and
                     d['a']['hash'] != d['b']['hash'], d)
ck.check('some sample differs between llvmpipe and softpipe (else the comparison above proves little)',
         differing > 0, differing)
# The tolerant pass over es2_render_texture stepped over its difference.
rc, out, rep = diverge(os.path.join(work, 'es2_render_texture.gltrace'), *DRIVERS, '--tolerance', '255',
                       '--max-diff', '2%')
ck.check('differences within the tolerance are stepped over and counted', rc == 0 and rep and
         rep['compared']['within_tolerance'] > 0, (rc, out, rep))

# --- identical drivers
rc, out, rep = diverge(os.path.join(work, 'es2_render_texture.gltrace'), '--a', 'GALLIUM_DRIVER=llvmpipe', '--b',
                       'GALLIUM_DRIVER=llvmpipe')
ck.check('identical drivers: no divergence, exit 0, said on stdout', rc == 0 and 'no divergence' in out and rep and
         rep['status'] == 'agree' and rep['compared']['frame_ends'] > 0, (rc, out, rep))


# --- one draw's uniform altered
def legacy(trace):
    return list(records(subprocess.run(['zstd', '-dcq', trace], capture_output=True, check=True).stdout))


def alter_second_uniform4f(msgs):
    """The trace with the second glUniform4f's green made 0.25; the seq of
    the first draw after it (the record index, as replay numbers legacy
    traces' records)."""
    out, seen, altered, draw = [], 0, None, None
    for i, m in enumerate(msgs):
        fs = fields(m)
        fn = next((v for n, _, v in fs if n == 4), None)
        name = FN.get(fn, '')
        if name == 'glUniform4f':
            seen += 1
            if seen == 2:
                args = [k for k, (n, _, _) in enumerate(fs) if n == 5]
                dt = [(n, wt, struct.pack('<f', 0.25) if n == 4 else v) for n, wt, v in fields(fs[args[2]][2])]
                fs[args[2]] = (5, 2, encode(dt))
                m, altered = encode(fs), i
        if altered is not None and draw is None and name.startswith('glDraw'):
            draw = i
        out.append(m)
    return out, altered, draw


def seq_of(trace, index):
    """The call number replay gives the record at `index` of the legacy stream."""
    d = run([gltrace, 'dump', '--json', trace])
    seqs = [int(s) for s in re.findall(r'"seq":(\d+)', d.stdout)]
    return seqs[index] if index is not None and index < len(seqs) else None


base = record('es2_render_texture', name='uniform')
msgs = legacy(base)
changed, altered, draw_index = alter_second_uniform4f(msgs)
orig_t, changed_t = os.path.join(work, 'orig.legacy'), os.path.join(work, 'changed.legacy')
open(orig_t, 'wb').write(frame(msgs))
open(changed_t, 'wb').write(frame(changed))
want = seq_of(orig_t, draw_index)
ck.check('the test altered a glUniform4f that a draw follows', altered is not None and want is not None,
         (altered, draw_index))
out_dir = os.path.join(work, 'out-trace-b')
rc, out, rep = diverge(orig_t, '--trace-b', changed_t, out=out_dir)
d = (rep or {}).get('divergence') or {}
ck.check(f'--trace-b: the draw after the altered uniform (call {want}), exit 1, on stdout',
         rc == 1 and d.get('call') == want and d.get('kind') == 'draw' and f'call {want},' in out, (rc, out, rep))
ck.check('--out: the pictures of both sides and their difference, named in the report',
         all(d.get(k) and os.path.exists(d[k]) for k in ('diff_png',)) and
         all(d.get(s, {}).get('png') and os.path.exists(d[s]['png']) for s in ('a', 'b')), d)
ck.check('the report says where the state at the call is, or why it is not there',
         bool(d.get('state_note')) or (d.get('a', {}).get('state') and os.path.isdir(d['a']['state'])), d)

rec = record('es2_render_texture', '--fb=draw', name='uniform-draw')
msgs = legacy(rec)
changed, altered, draw_index = alter_second_uniform4f(msgs)
changed_t = os.path.join(work, 'changed-draw.legacy')
open(changed_t, 'wb').write(frame(changed))
want = seq_of(changed_t, draw_index)
rc, out, rep = diverge(changed_t, '--b', 'recorded', out=os.path.join(work, 'out-recorded'))
d = (rep or {}).get('divergence') or {}
ck.check(f'--b recorded: the draw after the altered uniform (call {want}), its snapshot named',
         rc == 1 and d.get('call') == want and d.get('kind') == 'snapshot' and d.get('snapshot') and
         d.get('a', {}).get('png') and d.get('b', {}).get('png'), (rc, out, rep))
rc, out, rep = diverge(rec, '--b', 'recorded')
ck.check('--b recorded on the unaltered trace: no divergence, exit 0', rc == 0 and rep and
         rep['compared']['recorded_snapshots'] > 0, (rc, out, rep))

# --- bad input
es2 = os.path.join(work, 'es2_triangle.gltrace')
for opts, named in (([es2], 'give side B'), ([os.path.join(work, 'none.gltrace'), '--b', 'recorded'], 'none.gltrace'),
                    ([es2, '--b', 'softpipe'], "'softpipe' is not NAME=VALUE"),
                    ([es2, '--b', 'recorded', '--trace-b', es2], 'no --trace-b'),
                    ([es2, '--trace-b', os.path.join(work, 'missing.gltrace')], 'missing.gltrace'),
                    ([es2, '--b', 'recorded', '--tolerance', '300'], "--tolerance '300'")):
    p = run([gltrace, 'diverge', *opts])
    ck.check(f'diverge {" ".join(os.path.basename(o) for o in opts)}: exit 2 naming it',
             p.returncode == 2 and named in p.stderr + p.stdout, p.stdout + p.stderr)
ck.exit()
