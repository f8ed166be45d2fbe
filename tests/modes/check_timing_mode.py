#!/usr/bin/env python3
"""GLTRACE=timing: Chrome trace-event JSON, read with Python's json as
Perfetto or chrome://tracing would: complete ("X") slices with ts/dur in
microseconds, pid and tid; per thread, one frame slice per eglSwapBuffers
(two_threads: 4 frames on each of its 2 drawing threads) containing every
call slice of that frame; call slices named after GL/EGL functions, not
overlapping on a thread, durations >= 0; thread time (tts/tdur) on frames.
With GLTRACE_TIMING=draws, only draws and frames. Killed with SIGKILL, the
file is whole lines of slices and perhaps a torn last one, without the
closing: gltrace record cuts the torn line and closes the list."""
import json
import os
import signal
import subprocess
import time

import gltest as gt
import modescheck as m


a = m.parse_args('--callloop', '--functions')
ck = gt.Checker('timing mode')
names = set()
with open(a.functions) as f:
    for line in f:
        if not line.startswith('#') and '\t' in line:
            names.add(line.split('\t')[0])
two = os.path.join(a.apps, 'two_threads')
plain = gt.run([two]).stdout


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        return {'error': str(e)}


def by_thread(events):
    th = {}
    for e in events:
        if e.get('ph') == 'X':
            th.setdefault(e['tid'], []).append(e)
    return th


def check_run(how, path, pid, draws_only):
    j = load(path)
    ev = j.get('traceEvents')
    ck.check(f'{how}: {os.path.basename(path)} is JSON with a traceEvents list', isinstance(ev, list), j.get('error'))
    if not isinstance(ev, list):
        return
    xs = [e for e in ev if e.get('ph') == 'X']
    ck.check(f'{how}: every slice has name, pid (the app\'s), tid, ts and dur >= 0 (numbers, us)',
             xs and all(isinstance(e.get('ts'), (int, float)) and isinstance(e.get('dur'), (int, float)) and
                        e['dur'] >= 0 and e.get('pid') == pid and isinstance(e.get('tid'), int) for e in xs), xs[:3])
    meta = [e for e in ev if e.get('ph') == 'M' and e.get('name') == 'process_name']
    ck.check(f'{how}: the process is named two_threads', meta and meta[0]['args']['name'] == 'two_threads', meta)
    calls = [e for e in xs if e['name'] != 'frame']
    ck.check(f'{how}: every call slice is named after a GL or EGL function',
             calls and all(e['name'] in names for e in calls), sorted({e['name'] for e in calls} - names))
    if draws_only:
        ck.check(f'{how}: draws only: the slices are glDrawArrays (8) and eglSwapBuffers (8), categories draw, call',
                 sorted({e['name'] for e in calls}) == ['eglSwapBuffers', 'glDrawArrays'] and
                 sum(e['name'] == 'glDrawArrays' and e['cat'] == 'draw' for e in calls) == 8, sorted({e['name'] for e in calls}))
    else:
        ck.check(f'{how}: calls: the GL calls are there (glCreateProgram, glClear, glDrawArrays, glReadPixels)',
                 {'glCreateProgram', 'glClear', 'glDrawArrays', 'glReadPixels'} <= {e['name'] for e in calls})
    th = by_thread(xs)
    framed = {t: sorted((e for e in es if e['name'] == 'frame'), key=lambda e: e['ts']) for t, es in th.items()}
    drawing = [t for t, fr in framed.items() if fr]
    ck.check(f'{how}: two threads have frames, 4 each, numbered 0-3',
             len(drawing) == 2 and all([f['args']['frame'] for f in framed[t]] == [0, 1, 2, 3] for t in drawing),
             {t: len(f) for t, f in framed.items()})
    # The thread's CPU clock and the wall clock are read one after the other
    # at each end of a frame, so on a loaded machine tdur may pass dur by
    # the time between the two reads: allowed up to 200 us, never more.
    ck.check(f'{how}: frames have thread time: tts, tdur >= 0, tdur <= dur + 200 us',
             all('tts' in f and f['tdur'] >= 0 and f['tdur'] <= f['dur'] + 200 for t in drawing for f in framed[t]))
    bad = []
    for t in drawing:
        fr = framed[t]
        last_end = fr[-1]['ts'] + fr[-1]['dur']
        for a0, b0 in zip(fr, fr[1:]):
            if abs(a0['ts'] + a0['dur'] - b0['ts']) > 0.002:
                bad.append(('frames not back to back', a0, b0))
        cs = sorted((e for e in th[t] if e['name'] != 'frame'), key=lambda e: e['ts'])
        for c in cs:
            if c['ts'] + c['dur'] > last_end + 0.001:
                continue  # after the last swap: in no frame
            inside = [f for f in fr if f['ts'] - 0.001 <= c['ts'] and c['ts'] + c['dur'] <= f['ts'] + f['dur'] + 0.001]
            if len(inside) != 1:
                bad.append(('call in no frame', c))
        for p, q in zip(cs, cs[1:]):
            if p['ts'] + p['dur'] > q['ts'] + 0.001:
                bad.append(('calls overlap', p, q))
        swaps = [c for c in cs if c['name'] == 'eglSwapBuffers']
        if [round(s['ts'] + s['dur'], 3) for s in swaps] != [round(f['ts'] + f['dur'], 3) for f in fr]:
            bad.append(('frames do not end with the swaps', swaps, fr))
    ck.check(f'{how}: per thread, each call before the last swap lies in exactly one frame, calls do not overlap, '
             'each frame ends with its eglSwapBuffers', not bad, bad[:3])


d = m.fresh_dir(a, 'timing')
for how, argv, env, draws in (
        ('env calls', [two], gt.gl_env(a.lib, GLTRACE='timing', GLTRACE_OUT=d + '/'), False),
        ('record --timing=draws', [a.gltrace, 'record', '--mode=timing', '--timing=draws', '-o', d + '/draws/', '--', two],
         gt.gl_env(a.lib), True)):
    p = subprocess.Popen(argv, env=env, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = p.communicate(timeout=gt.TIMEOUT)
    ck.check(f'{how}: the app ran to its end with the same output', p.returncode == 0 and out == plain, out + err)
    folder = d + ('/draws' if draws else '')
    files = [f for f in os.listdir(folder) if f.endswith('.json')]
    ck.check(f'{how}: one file, two_threads.PID.json', len(files) == 1 and files[0].startswith('two_threads.'), files)
    if files:
        pid = int(files[0].split('.')[1])
        check_run(how, os.path.join(folder, files[0]), pid, draws)
    if draws:
        ck.check(f'{how}: record says where it wrote', 'gltrace: wrote ' + os.path.join(folder, files[0] if files else '')
                 in err, err)

# SIGKILL: the file holds whole slices; record closes it; by hand, "]}" does.
for how in ('record', 'env'):
    kd = m.fresh_dir(a, 'timing_kill_' + how)
    out = os.path.join(kd, 'loop.json')
    if how == 'record':
        argv, env = [a.gltrace, 'record', '--mode=timing', '-o', out, '--', a.callloop, '100000000'], gt.gl_env(a.lib)
    else:
        argv, env = [a.callloop, '100000000'], gt.gl_env(a.lib, GLTRACE='timing', GLTRACE_OUT=out)
    p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and (not os.path.exists(out) or os.path.getsize(out) < 2_000_000):
        time.sleep(0.05)
    # The app itself: record's child is the program (exec), so the pid is found by name.
    target = p.pid
    if how == 'record':
        kids = subprocess.run(['pgrep', '-P', str(p.pid)], capture_output=True, text=True).stdout.split()
        target = int(kids[0]) if kids else p.pid
    os.kill(target, signal.SIGKILL)
    _, err = p.communicate(timeout=gt.TIMEOUT)
    with open(out) as f:
        text = f.read()
    if how == 'record':
        j = load(out)
        xs = [e for e in j.get('traceEvents', []) if e.get('ph') == 'X']
        ck.check('SIGKILL under record: record closed the JSON; it parses, with many glUniform1f slices',
                 'cut short' in err and sum(e['name'] == 'glUniform1f' for e in xs) > 1000, err + str(j.get('error')))
    else:
        ck.check('SIGKILL, no record: no closing, whole lines but perhaps a torn last one',
                 not text.rstrip().endswith(']}') and text.startswith('{"displayTimeUnit"'), text[-200:])
        try:
            j = json.loads(text[:text.rindex('\n') + 1] + ']}\n')
        except ValueError as e:
            j = {'error': str(e)}
        ck.check('SIGKILL, no record: kept up to its last newline, plus "]}", it is valid JSON (the README\'s repair)',
                 len(j.get('traceEvents', [])) > 1000, j.get('error'))
ck.exit()
