#!/usr/bin/env python3
"""libgltrace.so in a GLES layer chain, placed by a loader that follows
Android's contract (layer_loader), next to a second layer (count_layer,
which counts six functions and writes the counts at exit), in both orders:

* the app draws the same pixels with and without the layers;
* gltrace records (GLTRACE unset: placing the layer asks for it) every call
  the app made, each once, in order, with the data behind pointers, and a
  snapshot per swap holding the app's last read-back pixels;
* the other layer saw exactly the calls the trace holds (so gltrace passed
  every call on, through the `next` pointers, both ways), and, below
  gltrace, also gltrace's own snapshot reads;
* every layer handed back `next` for a name it does not know;
* the trace replays bit-exact;
* GLTRACE=0: the chain still works, no trace is written;
* preloaded and in the chain at once: one line says so, each call is
  recorded once.

usage: check_layer_chain.py --gltrace G --lib LIB --loader L --count-layer C --dir D"""
import argparse
import os
import re

import gltest as gt


p = argparse.ArgumentParser()
for a in ('--gltrace', '--lib', '--loader', '--count-layer', '--dir'):
    p.add_argument(a, required=True)
args = p.parse_args()
os.makedirs(args.dir, exist_ok=True)
ck = gt.Checker('layer.chain')
COUNTED = ['glClear', 'glDrawArrays', 'glBufferData', 'glUniform4f', 'glReadPixels', 'eglSwapBuffers']
TRI = b''.join(int(v).to_bytes(4, 'little') for v in (0xbf4ccccd, 0xbf4ccccd, 0x3f4ccccd, 0xbf4ccccd, 0, 0x3f4ccccd))


def env(**kw):
    """The loader's environment: libgltrace.so reaches it as a layer only
    (through GLES_LAYERS), never preloaded unless kw preloads it."""
    e = gt.gl_env()
    e.pop('LD_PRELOAD', None)
    e.update(kw)
    return e


def fingerprint(out):
    m = re.search(r'fnv1a=([0-9a-f]{8})', out)
    return m.group(1) if m else None


def counts(path):
    try:
        return {l.split()[0]: int(l.split()[1]) for l in open(path) if l.strip()}
    except OSError:
        return {}


plain = gt.run([args.loader], env=env())
ck.check('the app runs with no layer (exit 0, a fingerprint)', plain.returncode == 0 and fingerprint(plain.stdout),
         plain.stderr)
want = fingerprint(plain.stdout)

for order in (['count', 'gltrace'], ['gltrace', 'count']):
    name = '+'.join(order)
    trace, cfile = os.path.join(args.dir, f'{name}.gltrace'), os.path.join(args.dir, f'{name}.counts')
    for f in (trace, cfile):
        if os.path.exists(f):
            os.remove(f)
    layers = ':'.join(args.lib if o == 'gltrace' else args.count_layer for o in order)
    r = gt.run([args.loader], env=env(GLES_LAYERS=layers, GLTRACE_OUT=trace, COUNT_LAYER_OUT=cfile))
    ck.check(f'{name}: exit 0, 2 layers, each handed back `next` for an unknown name, the same pixels',
             r.returncode == 0 and '2 layers; unknown names handed back by every layer' in r.stdout and
             fingerprint(r.stdout) == want, (r.returncode, r.stdout, r.stderr))
    if not ck.check(f'{name}: a trace was written with GLTRACE unset', os.path.isfile(trace), r.stderr):
        continue
    d, recs = gt.read_dump(ck, args.gltrace, trace)
    c = gt.calls(recs)
    fns = [x['fn'] for x in c]
    seen = counts(cfile)
    # Below gltrace, a layer also sees gltrace's own read of the back buffer
    # at each swap (the snapshot) and of the new surface's first contents
    # (gltraceSurfaceContents): they go down the chain like any call.
    snaps = [x['fb']['fnv1a'] for x in recs if x['fn'] == 'gltraceSnapshot']
    reads = len(snaps) + sum(1 for x in recs if x['fn'] == 'gltraceSurfaceContents')
    own = {'glReadPixels': reads} if order[0] == 'gltrace' else {}
    ck.check(f'{name}: the other layer saw exactly the calls the trace holds (six functions counted)' +
             (', plus a glReadPixels per snapshot and new surface from gltrace above it' if own else ''),
             seen and all(seen.get(f) == fns.count(f) + own.get(f, 0) for f in COUNTED) and
             seen.get('glDrawArrays') == 3, (seen, {f: fns.count(f) for f in COUNTED}))
    ck.check(f'{name}: every call once, in the app\'s order (the first GL calls, the frames)',
             fns[:4] == ['eglGetPlatformDisplay', 'eglInitialize', 'eglBindAPI', 'eglChooseConfig'] and
             [f for f in fns if f in ('glClear', 'glDrawArrays', 'eglSwapBuffers')] ==
             ['glClear', 'glDrawArrays', 'eglSwapBuffers'] * 3, fns)
    bd = gt.args_of(c, 'glBufferData').get('data', {}).get('data')
    ck.check(f'{name}: glBufferData records the 24 bytes of the triangle', bd == {'bytes': 24, 'hex': TRI.hex()}, bd)
    ck.check(f'{name}: a snapshot per swap, the last one the pixels the app read back',
             len(snaps) == 3 and snaps[-1] == want, snaps)
    rp = gt.run([args.gltrace, 'replay', trace], env=env())
    ck.check(f'{name}: the trace replays bit-exact', rp.returncode == 0 and '3 snapshots: 3 matched' in rp.stderr,
             rp.stderr)

# GLTRACE=0: the layer passes everything on and writes nothing.
trace, cfile = os.path.join(args.dir, 'off.gltrace'), os.path.join(args.dir, 'off.counts')
for f in (trace, cfile):
    if os.path.exists(f):
        os.remove(f)
r = gt.run([args.loader], env=env(GLES_LAYERS=f'{args.count_layer}:{args.lib}', GLTRACE='0', GLTRACE_OUT=trace,
                                  COUNT_LAYER_OUT=cfile))
ck.check('GLTRACE=0: exit 0, the same pixels, every call reached the driver (counts), no trace',
         r.returncode == 0 and fingerprint(r.stdout) == want and counts(cfile).get('glDrawArrays') == 3 and
         not os.path.exists(trace), (r.returncode, r.stderr, counts(cfile)))

# Preloaded and in the chain: traced once, through the preload.
trace = os.path.join(args.dir, 'both.gltrace')
if os.path.exists(trace):
    os.remove(trace)
r = gt.run([args.loader], env=env(GLES_LAYERS=args.lib, LD_PRELOAD=args.lib, GLTRACE='1', GLTRACE_OUT=trace))
d, recs = gt.read_dump(ck, args.gltrace, trace) if os.path.isfile(trace) else (None, [])
fns = [x['fn'] for x in gt.calls(recs)]
ck.check('preloaded and in a chain: exit 0, one gltrace: line about it, each draw recorded once',
         r.returncode == 0 and r.stderr.count('also placed in a GLES layer chain') == 1 and
         fns.count('glDrawArrays') == 3, (r.returncode, r.stderr, fns.count('glDrawArrays')))
ck.exit()
