#!/usr/bin/env python3
"""`replay --check` on queries that raise a GL error: failed_query makes two
(glGetIntegeri_v past the last binding, glGetFramebufferAttachmentParameteriv
of a non-attachment) into memory it filled with 7s, and reads glGetError
after each. Recorded, it prints what it prints plainly and exits 0; the
trace holds the app's 7s as those queries' outputs (the driver wrote
nothing). Replayed with --check, every query is issued again and nothing
gives another result: the failed queries' outputs are not compared (the
driver writes none), and the errors they raised are, through the app's
glGetError. Before, each failed query was a mismatch (recorded 7, replayed
0), as in piglit's viewport-array index tests.

usage: check_failed_query.py --gltrace GLTRACE --app FAILED_QUERY --trace OUT.gltrace"""
import os

import gltest as gt
import apptrace as at


def main():
    args = at.parse_args()
    ck = gt.Checker('failed_query')
    plain = gt.run([args.app], env=gt.gl_env(headless=True))
    ck.check('failed_query exits 0 when run plainly', plain.returncode == 0, (plain.stdout, plain.stderr))
    rec = at.record(args.gltrace, args.trace, [args.app])
    ck.check('recorded: exits 0 and prints what the plain run printed',
             rec.returncode == 0 and rec.stdout == plain.stdout, (rec.returncode, rec.stdout, rec.stderr))
    if not ck.check('the trace file was written', os.path.isfile(args.trace), args.trace):
        ck.exit()
    _, recs = gt.read_dump(ck, args.gltrace, args.trace)
    errors = [r.get('ret') for r in gt.named(recs, 'glGetError')]
    ck.check('the app saw GL_INVALID_VALUE, then GL_INVALID_ENUM', errors == ['GL_INVALID_VALUE', 'GL_INVALID_ENUM'],
             errors)
    p = gt.run([args.gltrace, 'replay', args.trace, '--check', '--allow-empty', '--no-progress'],
               env=gt.gl_env(headless=True))
    ck.check('replayed with --check: exit 0, 5 queries issued, none gave another result',
             p.returncode == 0 and '--check: 5 queries issued, 0 gave another result' in p.stderr, p.stderr.strip())
    ck.exit()


if __name__ == '__main__':
    main()
