#!/usr/bin/env python3
"""GLES extension commands an EGL program found with glXGetProcAddressARB
(libGL's, as piglit does) are traced: glx_lookup draws through a texture
view (glTextureViewOES) into viewport 0 set by glViewportIndexedfOES, with
glPolygonOffsetClampEXT set, all three looked up in GLX. Recorded with
--fb=draw it prints what it prints plainly and exits 0; the trace has each
of the three calls with its arguments, and replay compares the draw's
snapshot, the swap's and the app's read, all matched. Before capture handed
out its own entry points to glXGetProcAddressARB, these calls went past the
library: missing from the trace, the replayed quad was red and full-width.

usage: check_glx_lookup.py --gltrace GLTRACE --app GLX_LOOKUP --trace OUT.gltrace"""
import gltest as gt
import apptrace as at


def main():
    args = at.parse_args()
    ck = gt.Checker('glx_lookup')
    recs = at.record_sample(ck, args, 'glx_lookup', flags=['--fb=draw'])
    if not recs:
        ck.exit()
    view = gt.named(recs, 'glTextureViewOES')
    ck.check('glTextureViewOES is in the trace once, viewing level 1 (minlevel 1, 1 level)',
             len(view) == 1 and view[0]['args'].get('minlevel') == 1 and view[0]['args'].get('numlevels') == 1,
             view)
    vp = gt.named(recs, 'glViewportIndexedfOES')
    ck.check('glViewportIndexedfOES is in the trace once, viewport 0 the left half (16 wide)',
             len(vp) == 1 and vp[0]['args'].get('index') == 0 and vp[0]['args'].get('w') == 16, vp)
    ck.check('glPolygonOffsetClampEXT is in the trace once', len(gt.named(recs, 'glPolygonOffsetClampEXT')) == 1)

    p = gt.run([args.gltrace, 'replay', args.trace, '--no-progress'], env=gt.gl_env(headless=True))
    ck.check('replayed headless: exit 0, the draw and swap snapshots and the read all matched',
             p.returncode == 0 and '2 snapshots: 2 matched, 0 differ, 0 not compared; '
             '1 pixel reads of the app: 1 matched, 0 differ' in p.stderr, p.stderr.strip())
    ck.exit()


if __name__ == '__main__':
    main()
