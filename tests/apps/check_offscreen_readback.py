#!/usr/bin/env python3
"""A program that never swaps, recorded with the defaults, is compared on
replay: offscreen_readback renders two frames into a framebuffer object,
reads each back with glReadPixels and calls glFinish, and never swaps. Its
trace has a snapshot of the framebuffer's attachment right after each
glFinish (and none anywhere else: the context is let go of after its last
glFinish, with nothing drawn since); replay compares both snapshots and
both reads, exit 0. The same trace with the second frame's clear colour
changed (green 1.0) fails, naming the first difference in frame 0 (the
program never ends a frame). And a trace with nothing to compare (the
program recorded with --fb=none, its glReadPixels records taken out):
replay exits 1 saying "nothing was compared", and 0 with --allow-empty.

usage: check_offscreen_readback.py --gltrace GLTRACE --app OFFSCREEN_READBACK --trace OUT.gltrace"""
import os

import gltest as gt
import apptrace as at
import legacy_pb

GL_CLEAR_COLOR, GL_READ_PIXELS = 26, 284  # api/functions.tsv (Android's numbers)
W, H, FRAMES = 64, 48, 2


def replay(gltrace, trace, *opts):
    return gt.run([gltrace, 'replay', trace, '--no-progress', *opts], env=gt.gl_env(headless=True))


def main():
    args = at.parse_args()
    ck = gt.Checker('offscreen_readback')
    plain = gt.run([args.app])
    ck.check('offscreen_readback exits 0 when run plainly', plain.returncode == 0, plain.stderr.strip())
    rec = at.record(args.gltrace, args.trace, [args.app])
    ck.check('recorded with no options: exits 0 and reads what the plain run read',
             rec.returncode == 0 and rec.stdout == plain.stdout and plain.stdout.strip(),
             (rec.returncode, rec.stdout, plain.stdout, rec.stderr))
    if not ck.check('the trace file was written', os.path.isfile(args.trace), args.trace):
        ck.exit()
    _, recs = gt.read_dump(ck, args.gltrace, args.trace)
    names = [r.get('fn') for r in recs]
    snaps = [i for i, n in enumerate(names) if n == 'gltraceSnapshot']
    finishes = [i for i, n in enumerate(names) if n == 'glFinish']
    ck.check('no eglSwapBuffers in the trace', 'eglSwapBuffers' not in names)
    ck.check(f'one snapshot right after each of the {FRAMES} glFinish, and no other',
             len(finishes) == FRAMES and snaps == [i + 1 for i in finishes], (snaps, finishes))
    fbs = [recs[i].get('fb', {}) for i in snaps]
    ck.check('each is colour attachment 0 of the framebuffer object, 64x48 RGBA8',
             all(f.get('source') == 'attachment' and f.get('attachment') == 'GL_COLOR_ATTACHMENT0' and
                 f.get('width') == W and f.get('height') == H for f in fbs), fbs)
    reads = gt.named(recs, 'glReadPixels')
    ck.check("each snapshot holds the pixels of the app's read before it (FNV-1a)",
             len(reads) == FRAMES and [f.get('fnv1a') for f in fbs] ==
             [gt.fnv1a(at.out_data(r, 'pixels') or b'') for r in reads], [f.get('fnv1a') for f in fbs])

    p = replay(args.gltrace, args.trace)
    ck.check(f'replayed headless: exit 0, {FRAMES} snapshots and {FRAMES} pixel reads of the app compared, all matched',
             p.returncode == 0 and f'{FRAMES} snapshots: {FRAMES} matched, 0 differ, 0 not compared; '
             f'{FRAMES} pixel reads of the app: {FRAMES} matched, 0 differ' in p.stderr, p.stderr.strip())

    altered, seen = legacy_pb.with_float_arg(legacy_pb.read_trace(args.trace), GL_CLEAR_COLOR, 2, 1, 1.0)
    changed = args.trace + '.changed.legacy'
    with open(changed, 'wb') as f:
        f.write(altered)
    p = replay(args.gltrace, changed)
    ck.check("the trace with frame 1's clear colour changed: exit 1, its snapshot and its read differ",
             seen == FRAMES and p.returncode == 1 and f'{FRAMES} snapshots: 1 matched, 1 differ' in p.stderr and
             'pixel reads of the app: 1 matched, 1 differ' in p.stderr and 'first difference at call' in p.stderr,
             (seen, p.returncode, p.stderr.strip()))

    # Nothing to compare: --fb=none, and the reads taken out of the trace.
    bare = args.trace + '.none.gltrace'
    r = at.record(args.gltrace, bare, [args.app], flags=['--fb=none'])
    ck.check('recorded with --fb=none: exit 0', r.returncode == 0, r.stderr.strip())
    p = replay(args.gltrace, bare)
    ck.check('--fb=none: the reads alone are compared (exit 0, 0 snapshots, 2 reads matched)',
             p.returncode == 0 and '0 snapshots' in p.stderr and
             f'{FRAMES} pixel reads of the app: {FRAMES} matched' in p.stderr, p.stderr.strip())
    msgs = [m for m in legacy_pb.records(legacy_pb.read_trace(bare))
            if not any(n == 4 and v == GL_READ_PIXELS for n, _, v in legacy_pb.fields(m))]
    empty = args.trace + '.empty.legacy'
    with open(empty, 'wb') as f:
        f.write(legacy_pb.frame(msgs))
    p = replay(args.gltrace, empty)
    ck.check('a trace with no snapshot and no read: exit 1, "nothing was compared" said in one line',
             p.returncode == 1 and sum('nothing was compared' in ln for ln in p.stderr.splitlines()) == 1 and
             '--allow-empty' in p.stderr, (p.returncode, p.stderr.strip()))
    p = replay(args.gltrace, empty, '--allow-empty')
    ck.check('... and exit 0 with --allow-empty', p.returncode == 0 and 'nothing was compared' not in p.stderr,
             (p.returncode, p.stderr.strip()))
    p = replay(args.gltrace, empty, '--benchmark')
    ck.check('... and exit 0 with --benchmark, which compares nothing by design', p.returncode == 0,
             (p.returncode, p.stderr.strip()))
    ck.exit()


if __name__ == '__main__':
    main()
