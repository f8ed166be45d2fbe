#!/usr/bin/env python3
"""Snapshots of attachments that are not the viewport's size or RGBA8:
fbo_levels draws into level 1 of a 2D array texture's layer, into a
texture view of level 1 of a 2D texture (never bound) and into an
RGBA8_SNORM texture, the viewport 32x32 throughout. Recorded with
--fb=draw it reads what it reads plainly and exits 0 (the snapshots leave
no GL error to the app); the snapshot after each draw has the attachment's
own size (16x16, 16x16, 32x32), the SNORM one is read in the driver's own
format for it (not RGBA8, which a SNORM buffer refuses), and replay
compares every snapshot and read, all matched, none unreadable. Before,
the levels were taken at the viewport's size (pixels outside the level are
undefined, and differed on replay) and the SNORM one could not be read.

usage: check_fbo_levels.py --gltrace GLTRACE --app FBO_LEVELS --trace OUT.gltrace"""
import gltest as gt
import apptrace as at


def main():
    args = at.parse_args()
    ck = gt.Checker('fbo_levels')
    recs = at.record_sample(ck, args, 'fbo_levels', flags=['--fb=draw'])
    if not recs:
        ck.exit()
    names = [r.get('fn') for r in recs]
    draws = [i for i, n in enumerate(names) if n == 'glDrawArrays']
    fbs = [recs[i + 1].get('fb', {}) if i + 1 < len(recs) and names[i + 1] == 'gltraceSnapshot' else {}
           for i in draws]
    ck.check('a snapshot right after each of the 3 draws', len(draws) == 3 and all(fbs), names)
    sizes = [(f.get('width'), f.get('height')) for f in fbs]
    ck.check("each of the attachment's own size: 16x16 (array level 1), 16x16 (view of level 1), 32x32",
             sizes == [(16, 16), (16, 16), (32, 32)], sizes)
    ck.check('the first two are RGBA8, the SNORM one is not',
             [(f.get('format'), f.get('type')) for f in fbs[:2]] == [('GL_RGBA', 'GL_UNSIGNED_BYTE')] * 2 and
             len(fbs) == 3 and (fbs[2].get('format'), fbs[2].get('type')) != ('GL_RGBA', 'GL_UNSIGNED_BYTE'),
             [(f.get('format'), f.get('type')) for f in fbs])

    p = gt.run([args.gltrace, 'replay', args.trace, '--no-progress', '--json', '-'], env=gt.gl_env(headless=True))
    ck.check('replayed headless: exit 0, every snapshot and the 3 reads matched, none unreadable',
             p.returncode == 0 and '0 differ, 0 not compared; 3 pixel reads of the app: 3 matched, 0 differ'
             in p.stderr and '"unreadable": 0' in p.stdout, p.stderr.strip())
    ck.exit()


if __name__ == '__main__':
    main()
