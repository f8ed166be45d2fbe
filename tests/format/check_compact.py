#!/usr/bin/env python3
"""Compaction as a user meets it. `gltrace record` rewrites the trace in
large chunks once the app has exited: the records read back exactly as
capture wrote them (every field, every thread, in order), the file has fewer
chunks and is smaller, seeking by frame still works. `gltrace compact`
refuses a damaged trace with exit 2, a message naming the file, and leaves
it untouched.

usage: check_compact.py GLTRACE THREADS_APP"""
import os
import sys
import tempfile

import gltest as gt

gltrace, app = sys.argv[1:3]
ck = gt.Checker('format.compaction_keeps_every_record')


def info(path):
    p, obj = gt.info(gltrace, path, timeout=300)
    return (obj or {}) if p.returncode == 0 else {}


with tempfile.TemporaryDirectory() as d:
    raw, packed, other = (os.path.join(d, n) for n in ('raw.gltrace', 'packed.gltrace', 'other.gltrace'))
    r = gt.run([gltrace, 'record', '--no-compact', '-o', raw, '--', app, '4', '300'], timeout=300)
    ck.check('threads_app recorded with --no-compact exits 0', r.returncode == 0, r.stderr)
    r = gt.run([gltrace, 'compact', '-o', packed, raw], timeout=300)
    ck.check('gltrace compact -o exits 0, silent', r.returncode == 0 and not r.stderr, r.stderr)
    a, b = (gt.run([gltrace, 'dump', '--json', '--full', t], timeout=300) for t in (raw, packed))
    ck.check('the compacted trace reads back record for record as the original (dump --json --full identical)',
             a.returncode == 0 and b.returncode == 0 and a.stdout == b.stdout and a.stdout.count('\n') > 100,
             (a.returncode, b.returncode, a.stdout.count('\n'), b.stdout.count('\n')))
    ia, ib = info(raw), info(packed)
    # Each thread's records are far below a compacted chunk (4 MiB): one
    # chunk per thread, however capture's flushes fell.
    ck.check('compacted: one chunk per thread, the same records, complete',
             ib.get('chunks') == ia.get('threads') == 5 and ib.get('calls') == ia.get('calls') and
             ib.get('complete') is True,
             {k: (ia.get(k), ib.get(k)) for k in ('threads', 'chunks', 'calls', 'complete')})
    # Capture flushes when a thread ends and every 100 ms, so the raw trace
    # has 6 to 10 chunks here; it could, rarely, have one per thread already,
    # and then there is nothing to gain.
    if ia.get('chunks', 0) > ia.get('threads', 0):
        ck.check('fewer chunks and fewer bytes on disk than the raw trace',
                 ib.get('chunks', 1e9) < ia.get('chunks', 0) and ib.get('size_on_disk', 1e18) < ia.get('size_on_disk', 0),
                 {k: (ia.get(k), ib.get(k)) for k in ('chunks', 'size_on_disk')})
    else:
        print(f"note: the raw trace has one chunk per thread already ({ia.get('chunks')}): no gain to check")

    # `gltrace record` compacts by itself.
    r = gt.run([gltrace, 'record', '-o', other, '--', app, '4', '300'], timeout=300)
    io = info(other)
    ck.check('gltrace record compacts at the end: as few chunks as compact gives',
             r.returncode == 0 and io.get('chunks') == ib.get('chunks') and io.get('calls') == ia.get('calls'),
             (r.returncode, io.get('chunks'), ib.get('chunks')))

    # A damaged trace is refused and left alone.
    data = open(raw, 'rb').read()
    cut = os.path.join(d, 'cut.gltrace')
    open(cut, 'wb').write(data[:len(data) * 2 // 3])
    before = open(cut, 'rb').read()
    r = gt.run([gltrace, 'compact', cut], timeout=300)
    ck.check('gltrace compact on a truncated trace: exit 2, a message naming the file, the file untouched',
             r.returncode == 2 and cut in r.stderr and open(cut, 'rb').read() == before and
             not os.path.exists(cut + '.compacting'), (r.returncode, r.stderr))
    r = gt.run([gltrace, 'compact', os.path.join(d, 'missing.gltrace')], timeout=300)
    ck.check('gltrace compact on a missing file: exit 2 naming it', r.returncode == 2 and 'missing.gltrace' in r.stderr,
             (r.returncode, r.stderr))
    r = gt.run([gltrace, 'compact', '--level', '99', raw], timeout=300)
    ck.check('gltrace compact --level 99: exit 2 naming the argument', r.returncode == 2 and "'99'" in r.stderr, r.stderr)

ck.exit()
