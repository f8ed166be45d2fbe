#!/usr/bin/env python3
"""New surfaces whose first pixels the app sees. fresh_surfaces destroys a
cleared pbuffer and makes a new one of its size six times; each new one
starts with what the allocator gave (here, mostly the old one's pixels),
and the app first draws a triangle, clears inside a scissor box, clears
with a colour mask, reads the whole surface, blits half an FBO into it, or
clears all of it. Capture records each new surface's contents when it is
first bound; replay must write them into its own new pbuffer before the
first command that sees them (and may skip them after a full clear): every
swap's picture and every read of the app matches, with --check too. A
replay that never wrote them, or took the masked or scissored clear for a
full one, differs here.

usage: check_fresh_surfaces.py --gltrace GLTRACE --app FRESH_SURFACES --trace OUT.gltrace"""
import os
import re

import gltest as gt
import apptrace as at

CASES = ('draw', 'scissor', 'masked', 'read', 'fbo', 'clear')


def main():
    args = at.parse_args()
    ck = gt.Checker('fresh_surfaces')
    rec = at.record(args.gltrace, args.trace, [args.app])
    lines = re.findall(r'fresh_surfaces: (\w+) [0-9a-f]{8}', rec.stdout)
    ck.check('recorded: exits 0 after every case and the read', rec.returncode == 0 and
             lines == ['draw', 'scissor', 'masked', 'read', 'read', 'fbo', 'clear'],
             (rec.returncode, rec.stdout, rec.stderr))
    if not ck.check('the trace file was written', os.path.isfile(args.trace), args.trace):
        ck.exit()
    _, recs = gt.read_dump(ck, args.gltrace, args.trace)
    contents = gt.named(recs, 'gltraceSurfaceContents')
    ck.check('the first contents of the first surface and of the six new ones are in the trace',
             len(contents) == 7, len(contents))
    for extra in ([], ['--check']):
        p = gt.run([args.gltrace, 'replay', args.trace, '--no-progress', *extra], env=gt.gl_env(headless=True))
        m = re.search(r'(\d+) snapshots: (\d+) matched.*?(\d+) pixel reads of the app: (\d+) matched', p.stderr)
        ck.check(f'replayed {" ".join(extra) or "plainly"}: exit 0, the six swaps\' pictures and the seven reads '
                 'of the app matched', p.returncode == 0 and m and int(m.group(1)) >= 6 and
                 m.group(1) == m.group(2) and m.group(3) == '7' and m.group(4) == '7', p.stderr.strip()[-800:])
    ck.exit()


if __name__ == '__main__':
    main()
