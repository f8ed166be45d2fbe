#!/usr/bin/env python3
"""Multisampled framebuffers under --fb=draw: msaa_resolve draws into a
4-sample renderbuffer framebuffer (scissored to its left half), resolves it
with glBlitFramebuffer into a texture framebuffer and reads that back.
Recorded with --fb=draw it reads what it reads plainly, exits 0, and
capture logs nothing; the draw has a snapshot of the multisampled
framebuffer (resolved by capture into a framebuffer of its own, the
scissor not applied to that, as the app's blit would be), the blit a
snapshot of the framebuffer it wrote, and replay (resolving the same way)
compares both and the read, all matched. Before, draws into multisampled
framebuffers had no snapshot ("draws into multisampled framebuffers have
no snapshots") and blits none either.

usage: check_msaa_resolve.py --gltrace GLTRACE --app MSAA_RESOLVE --trace OUT.gltrace"""
import os

import gltest as gt
import apptrace as at


def main():
    args = at.parse_args()
    ck = gt.Checker('msaa_resolve')
    plain = gt.run([args.app], env=gt.gl_env(headless=True))
    ck.check('msaa_resolve exits 0 when run plainly', plain.returncode == 0, plain.stderr.strip())
    rec = at.record(args.gltrace, args.trace, [args.app], flags=['--fb=draw'])
    ck.check('recorded with --fb=draw: exits 0 and reads what the plain run read',
             rec.returncode == 0 and rec.stdout == plain.stdout and plain.stdout.strip(),
             (rec.returncode, rec.stdout, plain.stdout, rec.stderr))
    logged = [l for l in rec.stderr.splitlines() if l.startswith('gltrace:') and 'wrote' not in l]
    ck.check('capture logs nothing', not logged, logged)
    if not ck.check('the trace file was written', os.path.isfile(args.trace), args.trace):
        ck.exit()
    _, recs = gt.read_dump(ck, args.gltrace, args.trace)
    names = [r.get('fn') for r in recs]

    def snapshot_after(fn):
        i = names.index(fn) if fn in names else -1
        return recs[i + 1].get('fb', {}) if 0 <= i < len(recs) - 1 and names[i + 1] == 'gltraceSnapshot' else {}
    draw, blit = snapshot_after('glDrawArrays'), snapshot_after('glBlitFramebuffer')
    ck.check('the draw has a 32x32 snapshot of the multisampled framebuffer (object 1)',
             draw.get('object') == 1 and (draw.get('width'), draw.get('height')) == (32, 32), draw)
    ck.check('the blit has a 32x32 snapshot of the framebuffer it wrote (object 2)',
             blit.get('object') == 2 and (blit.get('width'), blit.get('height')) == (32, 32), blit)
    ck.check('the two hold the same pixels (the blit resolves what the draw left)',
             draw.get('fnv1a') and draw.get('fnv1a') == blit.get('fnv1a'), (draw.get('fnv1a'), blit.get('fnv1a')))

    p = gt.run([args.gltrace, 'replay', args.trace, '--no-progress'], env=gt.gl_env(headless=True))
    ck.check('replayed headless: exit 0, both snapshots and the read matched',
             p.returncode == 0 and '2 snapshots: 2 matched, 0 differ, 0 not compared; '
             '1 pixel reads of the app: 1 matched, 0 differ' in p.stderr, p.stderr.strip())
    ck.exit()


if __name__ == '__main__':
    main()
