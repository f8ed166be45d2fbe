#!/usr/bin/env python3
"""Records two_threads and checks its trace: three threads (main and two
workers), each worker's calls complete and in its program order on its own
context, the contexts numbered in creation order, and the cross-thread
order the app enforces (a barrier, a join) visible in seq.

usage: check_two_threads.py --gltrace GLTRACE --app TWO_THREADS --trace OUT.gltrace"""

import gltest as gt
import apptrace as at

FRAMES = 4
MAIN = ['eglGetPlatformDisplay', 'eglInitialize', 'eglTerminate']
WORKER = (at.EGL_OPEN + at.SHADER + at.SHADER +
          ['glCreateProgram', 'glAttachShader', 'glAttachShader', 'glBindAttribLocation', 'glLinkProgram',
           'glGetUniformLocation', 'glUseProgram', 'glVertexAttribPointer', 'glEnableVertexAttribArray',
           'glViewport'] +
          ['glClearColor', 'glClear', 'glUniform4f', 'glDrawArrays', 'eglSwapBuffers'] * FRAMES +
          ['glReadPixels', 'glGetError', 'glDeleteProgram', 'glDeleteShader', 'glDeleteShader'] +
          at.EGL_CLOSE + ['eglReleaseThread'])
RED, BLUE = (1, 0, 0, 1), (0, 0, 1, 1)


def main():
    args = at.parse_args()
    ck = gt.Checker('two_threads')
    recs = at.record_sample(ck, args, 'two_threads')
    if not recs:
        ck.exit()
    c = gt.calls(recs)
    main_tid = recs[0]['tid']
    by_tid = {}
    for r in c:
        by_tid.setdefault(r['tid'], []).append(r)
    workers = [t for t in by_tid if t != main_tid]
    ck.check('three threads call EGL/GL: the main thread (the metadata\'s) and two workers',
             main_tid in by_tid and len(workers) == 2, list(by_tid))
    if len(workers) != 2:
        ck.exit()
    main_calls = by_tid.get(main_tid, [])
    at.check_sequence(ck, 'the main thread: display set-up, then eglTerminate', [r['fn'] for r in main_calls], MAIN)
    at.check_display(ck, c)

    ctx_ids = {}
    for r in gt.named(c, 'eglCreateContext'):
        ctx_ids[r.get('ret')] = len(ctx_ids)
    colours = {}
    for i, t in enumerate(sorted(workers, key=lambda t: by_tid[t][0]['seq'])):
        mine = by_tid[t]
        label = f'worker {i + 1} (tid {t})'
        at.check_sequence(ck, f'{label}: its calls, complete and in its program order', [r['fn'] for r in mine],
                          WORKER)
        at.check_egl_open(ck, mine, label)
        made = gt.named(mine, 'eglCreateContext')
        own = ctx_ids.get(made[0].get('ret')) if made else None
        gl_ctx = {r['ctx'] for r in mine if r['fn'].startswith('gl')}
        ck.check(f'{label}: every GL call carries the id of the context this thread created ({own})',
                 own is not None and gl_ctx == {own}, gl_ctx)
        shaders = gt.named(mine, 'glCreateShader')
        at.links(ck, f"{label}: glCreateShader's returns are its glShaderSource's shaders", shaders,
                 gt.named(mine, 'glShaderSource'), 'shader')
        at.links(ck, f"{label}: glGetUniformLocation's return is every glUniform4f's location",
                 gt.named(mine, 'glGetUniformLocation') * FRAMES, gt.named(mine, 'glUniform4f'), 'location')
        greens = [r['args'].get('v1') for r in gt.named(mine, 'glUniform4f')]
        ck.check(f'{label}: the triangle gets greener each frame (0.25, 0.5, 0.75, 1)',
                 greens == [0.25, 0.5, 0.75, 1], greens)
        ck.check(f'{label}: glDrawArrays(GL_TRIANGLES, 0, 3) each frame; glGetError gives GL_NO_ERROR',
                 gt.all_args(mine, 'glDrawArrays') == [{'mode': 'GL_TRIANGLES', 'first': 0, 'count': 3}] * FRAMES and
                 [r.get('ret') for r in gt.named(mine, 'glGetError')] == ['GL_NO_ERROR'])
        clears = {tuple(r['args'].get(k) for k in ('red', 'green', 'blue', 'alpha'))
                  for r in gt.named(mine, 'glClearColor')}
        colours[t] = clears
    ck.check('one worker clears red every frame, the other blue',
             sorted(sorted(v) for v in colours.values()) == sorted([[RED], [BLUE]]), colours)
    ck.check('two contexts, ids 0 and 1, one per worker', sorted(ctx_ids.values()) == [0, 1] and
             {r['ctx'] for r in c if r['fn'].startswith('gl')} == {0, 1}, ctx_ids)

    first_clear = min(r['seq'] for r in gt.named(c, 'glClearColor'))
    currents = [r['seq'] for r in gt.named(c, 'eglMakeCurrent') if r['args'].get('ctx') != '0x0']
    ck.check('seq order shows the barrier: both contexts were made current before either worker drew',
             len(currents) == 2 and max(currents) < first_clear, (currents, first_clear))
    term = gt.named(main_calls, 'eglTerminate')
    ck.check('seq order shows the join: eglTerminate comes after every worker call',
             term and all(r['seq'] < term[0]['seq'] for t in workers for r in by_tid[t]))
    interleaved = any(a['tid'] != b['tid'] for a, b in zip(c, c[1:]) if a['tid'] in workers and b['tid'] in workers)
    print(f"note: the workers' calls {'interleave' if interleaved else 'did not interleave this time'} in the trace")
    # Each worker draws from a client-side array: every draw needs the
    # array's bytes recorded right before it, on its own thread.
    last = {}
    missing = []
    for r in recs:
        if r['fn'] == 'glVertexAttribPointerData':
            last[r['tid']] = r['seq']
        elif r['fn'] == 'glDrawArrays':
            if r['tid'] not in last:
                missing.append(r['seq'])
            last.pop(r['tid'], None)
    ck.check("every draw is preceded, on its thread, by its client array's bytes", not missing, missing)
    ck.exit()


if __name__ == '__main__':
    main()
