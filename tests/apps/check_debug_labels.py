#!/usr/bin/env python3
"""KHR_debug text with a negative length (glObjectLabel, glPushDebugGroup,
glDebugMessageInsert): the driver reads it up to a NUL, and the trace
holds the text's bytes without one. Replay must hand the driver the text
NUL-terminated; before, it passed the recorded bytes in place, so the
driver read on into the rest of the record, and labels came back wrong or
raised GL_INVALID_VALUE (piglit's khr_debug object-label tests). Recorded,
debug_labels prints what it prints plainly; replayed with --check, every
query (the labels read back, glGetError) gives the recorded result.

usage: check_debug_labels.py --gltrace GLTRACE --app DEBUG_LABELS --trace OUT.gltrace"""
import os

import gltest as gt
import apptrace as at


def main():
    args = at.parse_args()
    ck = gt.Checker('debug_labels')
    plain = gt.run([args.app], env=gt.gl_env(headless=True))
    ck.check('debug_labels exits 0 when run plainly', plain.returncode == 0, (plain.stdout, plain.stderr))
    rec = at.record(args.gltrace, args.trace, [args.app])
    ck.check('recorded: exits 0 and prints what the plain run printed',
             rec.returncode == 0 and rec.stdout == plain.stdout, (rec.returncode, rec.stdout, rec.stderr))
    if not ck.check('the trace file was written', os.path.isfile(args.trace), args.trace):
        ck.exit()
    _, recs = gt.read_dump(ck, args.gltrace, args.trace)
    labels = gt.named(recs, 'glObjectLabel')
    ck.check('the trace holds the 65 labels, given with length -1',
             len(labels) == 65 and all(r.get('args', {}).get('length') == -1 for r in labels),
             labels[:1])
    p = gt.run([args.gltrace, 'replay', args.trace, '--check', '--allow-empty', '--no-progress'],
               env=gt.gl_env(headless=True))
    ck.check('replayed with --check: exit 0, 67 queries issued, none gave another result',
             p.returncode == 0 and '--check: 67 queries issued, 0 gave another result' in p.stderr, p.stderr.strip())
    ck.exit()


if __name__ == '__main__':
    main()
