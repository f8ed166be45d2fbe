#!/usr/bin/env python3
"""Several threads, each with its own context, record at once: no record is
lost, duplicated or out of order within its thread; seq numbers are unique
and dense across threads; every record carries its thread and context."""
import os
import sys
import tempfile

import gltest as gt

gltrace, app = sys.argv[1:3]
nthreads, ncalls = 4, 20000
ck = gt.Checker('capture.threads_keep_every_record_in_order')


with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 't.gltrace')
    r = gt.run([gltrace, 'record', '-o', out, '--', app, str(nthreads), str(ncalls)], timeout=300)
    ck.check('app exits 0 under record', r.returncode == 0, r.stderr[-2000:])
    dump = gt.dump(gltrace, out, timeout=300)
    ck.check('dump reads the trace cleanly, one JSON object a line', dump.returncode == 0 and not dump.bad,
             dump.stderr[-2000:] + str(dump.bad[:3]))
    recs = dump.records
    seqs = [x['seq'] for x in recs]
    ck.check('seq is 0..N-1 in order', seqs == list(range(len(recs))), f'{len(recs)} records')
    per_thread = {}
    ctx_of_tid = {}
    for x in recs:
        if x['fn'] != 'glUniform1i':
            continue
        v = x['args']['v0']
        per_thread.setdefault(v // 1000000, []).append((x['tid'], x['ctx'], v % 1000000))
    ck.check(f'{nthreads} threads recorded', len(per_thread) == nthreads, str(sorted(per_thread)))
    tids = set()
    ctxs = set()
    for tid_key, calls in per_thread.items():
        idx = [c[2] for c in calls]
        ck.check(f'thread {tid_key}: all {ncalls} calls, in order', idx == list(range(ncalls)),
                 f'{len(idx)} calls')
        ck.check(f'thread {tid_key}: one tid and one context', len({c[0] for c in calls}) == 1 and
                 len({c[1] for c in calls}) == 1 and calls[0][1] >= 0)
        tids.add(calls[0][0])
        ctxs.add(calls[0][1])
    ck.check('distinct tids and contexts per thread', len(tids) == nthreads and len(ctxs) == nthreads,
             f'tids {tids} ctxs {ctxs}')
    info = gt.info(gltrace, out)[1] or {}
    ck.check('info counts the threads and contexts', info['threads'] == nthreads + 1 and info['contexts'] == nthreads,
             f"threads {info['threads']} contexts {info['contexts']}")

ck.exit()
