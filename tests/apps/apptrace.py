"""apptrace: what every tests/apps check shares. Runs a sample app plainly
and under `gltrace record`, reads the trace back the ways a user does
(`gltrace dump --json`, `gltrace dump`, `gltrace info`) and asserts what
holds for any trace: the metadata record first, seq numbering, per-thread
time order, the current context of GL calls, the text dump saying what the
JSON says and `info` agreeing with the dump. Each check_<app>.py adds the
app's own call sequence and arguments.

Running, reading traces and the Checker are tests/lib/gltest.py's.
Standard library only."""
import argparse
import json
import os
import re
import sys

import gltest as gt


def parse_args(need_app=True):
    p = argparse.ArgumentParser(description='Record a sample app with gltrace and check its trace.')
    p.add_argument('--gltrace', required=True, help='the gltrace executable')
    if need_app:
        p.add_argument('--app', required=True, help='the sample app executable')
    p.add_argument('--trace', required=True, help='where to write the trace (kept for inspection)')
    args = p.parse_args()
    for path in [args.gltrace] + ([args.app] if need_app else []):
        if not os.access(path, os.X_OK):
            sys.exit(f'{sys.argv[0]}: {path} is not an executable (build it first)')
    return args


def record(gltrace, trace, argv, wrap=(), flags=()):
    """`gltrace record [flags...] -o trace -- argv...`, optionally inside wrap
    (e.g. xvfb-run)."""
    if os.path.exists(trace):
        os.remove(trace)  # a stale trace must not pass for a new one
    return gt.run([*wrap, gltrace, 'record', *flags, '-o', trace, '--', *argv])


def out_data(r, key):
    """The data behind output pointer `key` of call r (bytes, a list or a
    string; None when it was not recorded)."""
    v = r.get('args', {}).get(key)
    d = v.get('data') if isinstance(v, dict) else None
    if isinstance(d, dict) and 'hex' in d:
        return bytes.fromhex(d['hex'])
    return d


def first_difference(got, expected):
    """A short report of where two call-name lists part, for a failed check."""
    for i, (g, e) in enumerate(zip(got, expected)):
        if g != e:
            break
    else:
        i = min(len(got), len(expected))
    lo = max(0, i - 3)
    return (f'{len(got)} calls, {len(expected)} expected; first difference at call {i}: '
            f'got {got[lo:i + 4]}, expected {expected[lo:i + 4]}')


def check_sequence(ck, what, got, expected):
    return ck.check(what, got == expected, first_difference(got, expected))


def _text_value(v):
    """A JSON value as `gltrace dump` writes it in text."""
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, dict) and 'ptr' in v:  # a pointer with the data behind it
        d = v['data']
        return f"{v['ptr']} -> {json.dumps(d) if isinstance(d, str) else _text_value(d)}"
    if isinstance(v, dict) and 'bytes' in v:
        return f"<{v['bytes']} bytes: {v['hex']}>"
    if isinstance(v, list):  # strings in an array are quoted; addresses ("0x..") are not
        return '[' + ', '.join(json.dumps(x) if isinstance(x, str) and not re.fullmatch(r'0x[0-9a-f]+', x)
                               else _text_value(x) for x in v) + ']'
    return str(v)


def text_line(r):
    """The `gltrace dump` text line that says what JSON record r says."""
    args = ', '.join(f'{k} = {_text_value(v)}' for k, v in r.get('args', {}).items())
    line = f"{r['seq']} {r['fn']}({args})"
    return line + (f" = {_text_value(r['ret'])}" if 'ret' in r else '')


def expected_ctx_mismatches(app):
    """Replays eglCreateContext/eglMakeCurrent per thread and returns the
    calls whose "ctx" is not the dense id of the context current on their
    thread. eglMakeCurrent itself is left out: it changes the answer
    mid-call."""
    ids, current, wrong, made = {}, {}, [], 0
    for r in app:
        if r['fn'] == 'eglCreateContext' and r.get('ret') not in (None, '0x0'):
            ids[r['ret']] = made  # a handle reused after eglDestroyContext gets the new id
            made += 1
        if r['fn'] == 'eglMakeCurrent':
            if r.get('ret') is True:
                current[r['tid']] = ids.get(r['args'].get('ctx'), -1)
            continue
        if r['ctx'] != current.get(r['tid'], -1):
            wrong.append({'seq': r['seq'], 'fn': r['fn'], 'ctx': r['ctx'], 'expected': current.get(r['tid'], -1)})
    return wrong


def common(ck, gltrace, trace, recs, process_name, argv0=None):
    """The checks every recorded app gets; returns gltrace info's object."""
    ck.check('the trace has records', len(recs) > 1, f'{len(recs)} records')
    if not recs:
        return {}
    m = recs[0]
    meta = m.get('metadata') or {}
    ck.check('the first record (seq 0) is gltraceMetadata, format_version 4',
             m.get('seq') == 0 and m.get('fn') == 'gltraceMetadata' and meta.get('format_version') == 4,
             json.dumps(m)[:300])
    ck.check(f'metadata: process_name is {process_name}, a pid, the command line',
             meta.get('process_name') == process_name and isinstance(meta.get('pid'), int) and meta['pid'] > 0 and
             (argv0 is None or (meta.get('command_line') or [None])[0] == argv0),
             {k: meta.get(k) for k in ('process_name', 'pid', 'command_line')})
    seqs = [r.get('seq') for r in recs]
    ck.check('seq runs 0, 1, 2, ... by one over the whole trace', seqs == list(range(len(recs))),
             next((f'record {i} has seq {s}' for i, s in enumerate(seqs) if s != i), ''))
    fields = ('seq', 'tid', 'ctx', 't', 'dur', 'fn')
    ck.check('every record has seq, tid, ctx, t, dur, fn; every call has args',
             all(all(isinstance(r.get(f), str if f == 'fn' else int) for f in fields) for r in recs) and
             all(isinstance(r.get('args'), dict) for r in gt.calls(recs)),
             next((r for r in recs if not all(f in r for f in fields)), ''))
    app = gt.calls(recs)
    ck.check('durations are not negative', all(r['dur'] >= 0 for r in app))
    backwards = []
    last = {}
    for r in app:
        if r['t'] < last.get(r['tid'], 0):
            backwards.append(r)
        last[r['tid']] = r['t']
    ck.check("each thread's calls start in time order (t never goes back within a thread)", not backwards,
             backwards[:2])
    gl_without = [r for r in app if r['fn'].startswith('gl') and r['ctx'] < 0]
    ck.check('every GL call carries the id of a current context', not gl_without, gl_without[:2])
    wrong = expected_ctx_mismatches(app)
    ck.check('"ctx" is the context the thread made current (ids 0, 1, ... in eglCreateContext order; -1 for none)',
             not wrong, wrong[:2])

    text = gt.run([gltrace, 'dump', '--full', trace])
    lines = text.stdout.splitlines()
    by_seq = {}
    for line in lines:
        head = line.split(' ', 1)[0]
        if head.isdigit():
            by_seq[int(head)] = line
    wrong = [(text_line(r), by_seq.get(r['seq'])) for r in app if by_seq.get(r['seq']) != text_line(r)]
    ck.check('the text dump says what the JSON dump says, call by call',
             text.returncode == 0 and not wrong and len(lines) == len(recs),
             f'exit {text.returncode}, {len(lines)} lines for {len(recs)} records, first mismatch '
             f'(expected, got): {wrong[:1]}')

    inf = gt.read_info(ck, gltrace, trace)
    frames = len(gt.named(app, 'eglSwapBuffers'))
    ends = 'swaps'
    if not frames:  # a trace that never swaps: each run of snapshots ends a frame (proto/gt_frames.c)
        marks = [r['fn'] in ('gltraceSnapshot', 'gltraceFrameEnd') for r in recs]
        frames = sum(1 for i, m in enumerate(marks) if m and (i + 1 == len(marks) or not marks[i + 1]))
        ends = 'snapshots' if frames else 'swaps'
    tids = {r['tid'] for r in recs}
    ctxs = {r['ctx'] for r in recs if r['ctx'] >= 0}
    markers = len(gt.named(recs, 'gltraceUncovered'))
    got = {k: inf.get(k) for k in ('calls', 'frames', 'frames_end_at', 'threads', 'contexts', 'uncovered_markers')}
    want = {'calls': len(app), 'frames': frames, 'frames_end_at': ends, 'threads': len(tids), 'contexts': len(ctxs),
            'uncovered_markers': markers}
    ck.check('gltrace info agrees with the dump (calls, frames = eglSwapBuffers or, with none, runs of snapshots, '
             'threads, contexts, markers)',
             got == want, f'info {got}, dump {want}')
    ck.check('gltrace info: size on disk and uncompressed are positive, the metadata names llvmpipe',
             isinstance(inf.get('size_on_disk'), int) and inf['size_on_disk'] > 0 and
             isinstance(inf.get('size_uncompressed'), int) and inf['size_uncompressed'] > 0 and
             'llvmpipe' in (inf.get('metadata') or {}).get('gl_renderer', ''),
             {k: inf.get(k) for k in ('size_on_disk', 'size_uncompressed')})
    return inf


def record_sample(ck, args, process_name, flags=()):
    """Runs the app plainly, then recorded (with `gltrace record` options
    flags, such as --fb=draw); checks both exit 0 and print the same frame
    fingerprint (recording must not change what the app draws); reads the
    trace back. Returns the records ([] if there are none)."""
    plain = gt.run([args.app])
    ck.check(f'{process_name} exits 0 when run plainly', plain.returncode == 0,
             f'exit {plain.returncode}: {plain.stderr.strip()}')
    rec = record(args.gltrace, args.trace, [args.app], flags=flags)
    ck.check(f'{process_name} exits 0 under gltrace record', rec.returncode == 0,
             f'exit {rec.returncode}: {rec.stderr.strip()}')
    ck.check('the recorded run draws the same pixels as the plain run (same printed fingerprint)',
             plain.stdout == rec.stdout and plain.stdout.strip() != '',
             f'plain {plain.stdout.strip()!r}, recorded {rec.stdout.strip()!r}')
    # Each surface's last snapshot (at its last eglSwapBuffers) is what the
    # app read back after it: a pbuffer keeps its content across the swap.
    printed = re.findall(r'fnv1a=([0-9a-f]{8})', rec.stdout)
    print('app output: ' + rec.stdout.strip().replace('\n', ' | '))
    if not ck.check('the trace file was written', os.path.isfile(args.trace), args.trace):
        return []
    d, recs = gt.read_dump(ck, args.gltrace, args.trace)
    ck.check('gltrace dump --json reads the whole trace cleanly (exit 0, nothing on stderr)',
             d.returncode == 0 and not d.stderr.strip(), f'exit {d.returncode}: {d.stderr.strip()}')
    common(ck, args.gltrace, args.trace, recs, process_name, argv0=args.app)
    last = {}
    for r in recs:
        fb = r.get('fb')
        if r.get('fn') == 'gltraceSnapshot' and fb and fb['source'] == 'surface':
            last[fb['surface']] = fb['fnv1a']
    if printed:  # apps that print a frame fingerprint read back after their last swap
        ck.check("each surface's last snapshot has the pixels the app read back after its last swap",
                 sorted(last.values()) == sorted(printed), f'snapshots {last}, app printed {printed}')
    return recs


def record_variant(ck, args, plain, suffix, flags, label):
    """The app recorded again with `gltrace record` options flags, into the
    trace's name with -suffix: checked to exit 0 printing what the plain run
    printed, and to read back cleanly. Returns the records."""
    trace = args.trace[:-len('.gltrace')] + f'-{suffix}.gltrace' if args.trace.endswith('.gltrace') \
        else f'{args.trace}-{suffix}'
    rec = record(args.gltrace, trace, [args.app], flags=flags)
    name = os.path.basename(args.app)
    ck.check(f'{label}: {name} exits 0 and prints what the plain run prints',
             rec.returncode == 0 and rec.stdout == plain.stdout and plain.stdout.strip() != '',
             f'exit {rec.returncode}: {rec.stderr.strip()}; plain {plain.stdout.strip()!r}, '
             f'recorded {rec.stdout.strip()!r}')
    d, recs = gt.read_dump(ck, args.gltrace, trace)
    ck.check(f'{label}: gltrace dump --json reads the trace cleanly', d.returncode == 0 and not d.stderr.strip(),
             f'exit {d.returncode}: {d.stderr.strip()}')
    return recs


def snap_summary(s, *more):
    """The fields of a gltraceSnapshot record that say which picture it is
    (and the fields named in more)."""
    fb = s.get('fb', {})
    return {k: fb.get(k) for k in ('source', 'attachment', 'object', 'level', 'layer', 'format', 'type', 'width',
                                   'height', 'bytes', 'fnv1a', *more)}


def links(ck, what, producers, consumers, key, ret_key='ret'):
    """Each producer's return value is the `key` argument of the matching
    consumer (same position), and there is at least one pair."""
    got = [c['args'].get(key) for c in consumers]
    made = [p.get(ret_key) for p in producers]
    return ck.check(what, made == got and len(made) > 0, f'returned {made}, passed on {got}')


EGL_OPEN = ['eglBindAPI', 'eglChooseConfig', 'eglCreatePbufferSurface', 'eglCreateContext', 'eglMakeCurrent']
EGL_CLOSE = ['eglMakeCurrent', 'eglDestroyContext', 'eglDestroySurface']
SHADER = ['glCreateShader', 'glShaderSource', 'glCompileShader', 'glGetShaderiv']


def check_display(ck, c):
    """The display: surfaceless, and the one every EGL call then uses."""
    dpy = gt.named(c, 'eglGetPlatformDisplay') + gt.named(c, 'eglGetPlatformDisplayEXT')
    if not ck.check('one eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA) that returns a display',
                    len(dpy) == 1 and dpy[0]['args'].get('platform') == 'EGL_PLATFORM_SURFACELESS_MESA' and
                    dpy[0].get('ret') not in (None, '0x0'), dpy[:2]):
        return
    users = [r for r in c if r['fn'].startswith('egl') and 'dpy' in r['args']]
    ck.check('every EGL call is on the display eglGetPlatformDisplay returned',
             users and all(r['args']['dpy'] == dpy[0]['ret'] for r in users),
             [r for r in users if r['args']['dpy'] != dpy[0]['ret']][:1])
    ck.check('eglInitialize returns true', [r.get('ret') for r in gt.named(c, 'eglInitialize')] == [True])


def check_egl_open(ck, c, label=''):
    """The calls of sample_egl_open and _close on one thread: handles that
    link up, and success everywhere. label prefixes the check names."""
    p = label + ': ' if label else ''
    ck.check(p + 'eglBindAPI(EGL_OPENGL_ES_API) returns true',
             gt.named(c, 'eglBindAPI') and all(r.get('ret') is True and r['args'].get('api') == 'EGL_OPENGL_ES_API'
                                               for r in gt.named(c, 'eglBindAPI')), gt.named(c, 'eglBindAPI'))
    made = gt.named(c, 'eglCreateContext')
    current = [r for r in gt.named(c, 'eglMakeCurrent') if r['args'].get('ctx') != '0x0']
    links(ck, p + "eglCreateContext's return is the ctx of the eglMakeCurrent that follows", made, current, 'ctx')
    surfs = gt.named(c, 'eglCreatePbufferSurface')
    links(ck, p + "eglCreatePbufferSurface's return is eglMakeCurrent's draw surface", surfs, current, 'draw')
    if len(surfs) == 1:
        swaps = gt.named(c, 'eglSwapBuffers')
        links(ck, p + '... and the surface eglSwapBuffers presents', surfs * len(swaps), swaps, 'surface')
    links(ck, p + 'eglDestroyContext destroys the context made', made, gt.named(c, 'eglDestroyContext'), 'ctx')
    links(ck, p + 'eglDestroySurface destroys the surface made', surfs, gt.named(c, 'eglDestroySurface'), 'surface')
    ck.check(p + 'eglMakeCurrent, eglSwapBuffers and the EGL tear-down return true',
             all(r.get('ret') is True for fn in ('eglMakeCurrent', 'eglSwapBuffers', 'eglDestroyContext',
                                                 'eglDestroySurface', 'eglTerminate') for r in gt.named(c, fn)))
