#!/usr/bin/env python3
"""Records a real program: Debian's es2gears_x11 (mesa-utils) under Xvfb for
about three seconds, stopped by SIGTERM as a user stops it. Checks that the
trace reads back (cleanly: the capture library flushes on SIGTERM; or, at
worst, with a truncated tail reported by file name and offset), that it has
the EGL set-up, glDrawArrays calls and several frames, and that handles and
counts agree across the dump and gltrace info.

usage: check_es2gears_x11.py --gltrace GLTRACE --trace OUT.gltrace"""
import shutil

import gltest as gt
import apptrace as at


SECONDS = '3'
EGL_SETUP = ['eglGetDisplay', 'eglInitialize', 'eglChooseConfig', 'eglCreateContext', 'eglCreateWindowSurface',
             'eglMakeCurrent']


def main():
    args = at.parse_args(need_app=False)
    ck = gt.Checker('es2gears_x11')
    xvfb, gears = shutil.which('xvfb-run'), shutil.which('es2gears_x11')
    if not ck.check('xvfb-run and es2gears_x11 are installed (ci/setup.sh installs xvfb, xauth and mesa-utils)',
                    xvfb and gears, f'xvfb-run: {xvfb or "missing"}, es2gears_x11: {gears or "missing"}'):
        ck.exit()
    # timeout signals its whole process group: gltrace record and the app.
    r = at.record(args.gltrace, args.trace, [gears],
                  wrap=(xvfb, '-a', '-s', '-screen 0 300x300x24', 'timeout', '-s', 'TERM', SECONDS))
    ck.check(f'es2gears_x11 ran under Xvfb until timeout stopped it after {SECONDS} s (exit 124)',
             r.returncode == 124, f'exit {r.returncode}: {r.stderr.strip()[-1500:]}')
    ck.check('gltrace record says the program was killed by SIGTERM', 'killed by signal 15' in r.stderr,
             r.stderr.strip()[-500:])

    d, recs = gt.read_dump(ck, args.gltrace, args.trace)
    clean = d.returncode == 0 and not d.stderr.strip()
    truncated = d.returncode != 0 and args.trace in d.stderr and 'offset' in d.stderr
    ck.check('gltrace dump reads the killed app\'s trace cleanly, or reports a truncated tail with file and offset',
             clean or truncated, f'exit {d.returncode}: {d.stderr.strip()[:500]}')
    print('note: ' + ('the trace read cleanly (flushed on SIGTERM)' if clean else
                      'the trace has a truncated tail, not flushed on SIGTERM: ' + d.stderr.strip()[:300]))
    if not recs:
        ck.exit()
    at.common(ck, args.gltrace, args.trace, recs, 'es2gears_x11', argv0=gears)
    c = gt.calls(recs)
    names = [x['fn'] for x in c]
    first = {fn: names.index(fn) for fn in EGL_SETUP if fn in names}
    draws = gt.named(c, 'glDrawArrays')
    ck.check('the EGL set-up, in this order, before the first draw: ' + ', '.join(EGL_SETUP),
             len(first) == len(EGL_SETUP) and sorted(first.values()) == list(first.values()) and draws and
             max(first.values()) < names.index('glDrawArrays'), first)
    made, win = gt.named(c, 'eglCreateContext'), gt.named(c, 'eglCreateWindowSurface')
    cur = gt.named(c, 'eglMakeCurrent')
    ck.check('eglCreateContext and eglCreateWindowSurface return what eglMakeCurrent makes current',
             made and win and cur and cur[0]['args'].get('ctx') == made[0].get('ret') and
             cur[0]['args'].get('draw') == win[0].get('ret') and win[0].get('ret') != '0x0', cur[:1])
    swaps = gt.named(c, 'eglSwapBuffers')
    ck.check('several frames: at least 3 eglSwapBuffers, each presenting the window surface and returning true',
             len(swaps) >= 3 and win and all(s['args'].get('surface') == win[0].get('ret') and s.get('ret') is True
                                             for s in swaps), len(swaps))
    ck.check('glDrawArrays calls, several a frame, with a named mode, on context 0',
             len(draws) >= 3 * len(swaps) > 0 and
             all(str(x['args'].get('mode', '')).startswith('GL_') and x['ctx'] == 0 for x in draws),
             (len(draws), draws[:1]))
    print(f'note: {len(swaps)} frames, {len(draws)} glDrawArrays, {len(c)} calls in {SECONDS} s')
    ck.exit()


if __name__ == '__main__':
    main()
