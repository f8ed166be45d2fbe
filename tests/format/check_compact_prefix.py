#!/usr/bin/env python3
"""A compacted trace cut short (an interrupted copy or download) is read as
a prefix of the calls: a two-thread trace, compacted by `gltrace record`,
truncated at several sizes (inside chunks and right after one), dumps
records numbered 0, 1, 2... without a gap, more of them the more is kept,
and says where the file was cut (exit 2, the file named; a cut right after
a chunk that completes a range of calls leaves a whole trace without its
index, read as such). Uncut, it reads whole.

usage: check_compact_prefix.py GLTRACE THREADS_APP"""
import json
import os
import struct
import sys
import tempfile

import gltest as gt

gltrace, app = sys.argv[1:3]
ck = gt.Checker('format.compacted_prefix_when_cut')


def seqs(path):
    p = gt.run([gltrace, 'dump', '--json', path], timeout=300)
    return p.returncode, [json.loads(l)['seq'] for l in p.stdout.splitlines() if l.startswith('{')], p.stderr


with tempfile.TemporaryDirectory() as d:
    trace, cut = os.path.join(d, 't.gltrace'), os.path.join(d, 'cut.gltrace')
    r = gt.run([gltrace, 'record', '-o', trace, '--', app, '2', '150000'], timeout=300)
    ck.check('threads_app with two drawing threads recorded (and compacted) exits 0', r.returncode == 0, r.stderr)
    data = open(trace, 'rb').read()
    rc, whole, err = seqs(trace)
    ck.check('the whole trace reads 0..N-1', rc == 0 and whole == list(range(len(whole))) and len(whole) > 250000,
             (rc, len(whole), err))
    chunks = [(off, size) for off, _, size in gt.chunks(data)]
    threads = {struct.unpack_from('<Q', data, off + 8 + 8)[0] for off, _ in chunks}
    ck.check('the compacted trace has chunks of several threads', len(threads) >= 2 and len(chunks) >= 4,
             (len(threads), len(chunks)))
    # Inside chunks, and right after each (a dump per cut: a handful).
    sizes = sorted({len(data) * k // 10 for k in (1, 4, 7, 9)} |
                   {off + size for off, size in chunks[1:-1]} | {100000})
    last = -1
    for n in sizes:
        open(cut, 'wb').write(data[:n])
        rc, got, err = seqs(cut)
        # Right after a chunk that completes a range, what is there is
        # whole: read as a trace whose capture ended there (no index).
        boundary = n in {off + size for off, size in chunks}
        ck.check(f'cut at {n} of {len(data)} bytes: records 0..{len(got) - 1} without a gap; exit 2 naming the '
                 f'file{" or 0" if boundary else ""}',
                 got == list(range(len(got))) and ((rc == 2 and 'cut.gltrace' in err) or (rc == 0 and boundary)),
                 (rc, got[:5], err))
        ck.check(f'cut at {n}: no fewer records than a shorter cut', len(got) >= last, (len(got), last))
        last = len(got)
    ck.check('the longest cut keeps most of the calls', last > len(whole) // 2, (last, len(whole)))
ck.exit()
