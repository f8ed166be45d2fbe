#!/usr/bin/env python3
"""Records shared_contexts and checks the trace keeps threads and contexts
apart: the loader's context is announced (gltraceContext) with the main
context as its share group; its texture upload carries its thread and its
context; the main context's calls carry context 0 on whichever thread made
it current (main, then a second thread); each thread's calls are in the
order the app made them; and the snapshot at each swap is what the app read.

usage: check_shared_contexts.py --gltrace GLTRACE --app SHARED_CONTEXTS --trace OUT.gltrace"""

import gltest as gt
import apptrace as at


def main():
    args = at.parse_args()
    ck = gt.Checker('shared_contexts')
    recs = at.record_sample(ck, args, 'shared_contexts')
    if not recs:
        ck.exit()
    ctxs = gt.named(recs, 'gltraceContext')
    ck.check('two contexts announced: 0 with no share group, 1 sharing with 0, both GLES 2',
             [(r['args']['id'], r['args']['share_id'], r['args']['client_version']) for r in ctxs] ==
             [(0, -1, 2), (1, 0, 2)], [r.get('args') for r in ctxs])
    ck.check('each gltraceContext follows its eglCreateContext, naming the handle it returned',
             all(recs[i - 1]['fn'] == 'eglCreateContext' and recs[i - 1]['ret'] == r['args']['context']
                 for i, r in enumerate(recs) if r['fn'] == 'gltraceContext'))
    c = gt.calls(recs)
    tex = gt.named(c, 'glTexImage2D')
    main_tid = recs[0]['tid']
    tids = [r['tid'] for r in c]
    threads = list(dict.fromkeys(tids))
    ck.check('three threads in order: main, loader, main again, mover, main again',
             len(threads) == 3 and threads[0] == main_tid, threads)
    ck.check("the loader's upload is on its own thread and context 1, with its 16 bytes",
             len(tex) == 1 and tex[0]['tid'] == threads[1] and tex[0]['ctx'] == 1 and
             tex[0]['args']['pixels'].get('data', {}).get('bytes') == 16, tex)
    loader_gl = [r for r in c if r['tid'] == threads[1] and r['fn'].startswith('gl')]
    ck.check("every GL call of the loader thread is on context 1",
             len(loader_gl) == 6 and {r['ctx'] for r in loader_gl} == {1}, [(r['fn'], r['ctx']) for r in loader_gl])
    mover_gl = [r for r in c if r['tid'] == threads[2] and r['fn'].startswith('gl')]
    ck.check('context 0 moved to the mover thread: its GL calls there carry context 0',
             len(mover_gl) >= 8 and {r['ctx'] for r in mover_gl} == {0}, [(r['fn'], r['ctx']) for r in mover_gl])
    draws = gt.named(c, 'glDrawArrays')
    ck.check('one draw on the main thread, one on the mover, both on context 0',
             [(r['tid'], r['ctx']) for r in draws] == [(main_tid, 0), (threads[2], 0)], draws)
    order = [r['fn'] for r in c if r['tid'] == threads[2]]
    ck.check("the mover's calls in the app's order",
             order == ['eglMakeCurrent', 'glEnable', 'glScissor', 'glClearColor', 'glClear', 'glDisable',
                       'glUseProgram', 'glBindTexture', 'glDrawArrays', 'eglSwapBuffers', 'glReadPixels',
                       'glGetError', 'eglMakeCurrent'], order)
    snaps = [r for r in recs if r['fn'] == 'gltraceSnapshot']
    ck.check('a snapshot before each of the two swaps, on the thread that swapped',
             [r['tid'] for r in snaps] == [main_tid, threads[2]], [r['tid'] for r in snaps])
    ck.exit()


if __name__ == '__main__':
    main()
