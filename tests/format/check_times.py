#!/usr/bin/env python3
"""Start times as differences within a chunk (FORMAT.md, format 3). A trace
of an earlier format (the format-1 fixture: no chunk carries the flag)
compacted by this build reads back record for record the same, times
included, with every chunk flagged; compacted back, still the same. A
recorded trace of several threads has each thread's times in order and
plausible (nanoseconds of the monotonic clock, not differences). A chunk
whose differences were tampered with so that a sum overflows its field is
reported as damage naming the file and offset.

usage: check_times.py GLTRACE THREADS_APP FORMAT1_TRACE"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

import gltest as gt

gltrace, app, old = sys.argv[1:4]
ck = gt.Checker('format.start_times_as_differences')
TIMES = 4


def flags(path):
    data = open(path, 'rb').read()
    return [struct.unpack_from('<I', data, off + 8 + 52)[0] for off, _, _ in gt.chunks(data)]


def dump(path):
    p = gt.run([gltrace, 'dump', '--json', '--full', path], timeout=300)
    return p.returncode, p.stdout


with tempfile.TemporaryDirectory() as d:
    new, back, rec = (os.path.join(d, n) for n in ('new.gltrace', 'back.gltrace', 'rec.gltrace'))
    ck.check('the format-1 fixture has no chunk flagged TIMES', not any(f & TIMES for f in flags(old)), flags(old))
    r = gt.run([gltrace, 'compact', '-o', new, old], timeout=300)
    ck.check('gltrace compact of it exits 0', r.returncode == 0, r.stderr)
    ck.check('every chunk of the compacted trace is flagged TIMES',
             flags(new) and all(f & TIMES for f in flags(new)), flags(new))
    a, b = dump(old), dump(new)
    ck.check('it reads back record for record as the fixture, times included (dump --json --full identical)',
             a[0] == 0 and b[0] == 0 and a[1] == b[1] and '"t":' in a[1], (a[0], b[0]))
    r = gt.run([gltrace, 'compact', '-o', back, new], timeout=300)
    ck.check('compacted again: still the same records', r.returncode == 0 and dump(back) == a, r.stderr)

    r = gt.run([gltrace, 'record', '-o', rec, '--', app, '4', '300'], timeout=300)
    ck.check('threads_app recorded, exit 0', r.returncode == 0, r.stderr)
    rc, out = dump(rec)
    by_tid = {}
    for line in out.splitlines():
        o = json.loads(line)
        by_tid.setdefault(o['tid'], []).append(o['t'])
    # Differences would be small numbers: times of one run lie within
    # seconds of one another, far from 0.
    every = [t for ts in by_tid.values() for t in ts]
    ck.check('the 5 threads\' times are times: all within 60 s of one another, not differences',
             rc == 0 and len(by_tid) == 5 and min(every) > 10**9 and max(every) - min(every) < 60e9,
             (rc, len(by_tid), min(every, default=0), max(every, default=0)))
    ck.check('and the recorded trace\'s chunks are flagged TIMES', flags(rec) and all(f & TIMES for f in flags(rec)),
             flags(rec))

    # Tamper: the first record's time field of a chunk set to the largest
    # value its bytes hold: zigzag, a difference that takes 0 below 0. The
    # chunk is re-compressed (zstd CLI) with its header's sizes and CRC fixed.
    data = bytearray(open(rec, 'rb').read())
    off, _, size = gt.chunks(bytes(data))[0]
    body = subprocess.run(['zstd', '-dcq'], input=bytes(data[off + 72:off + size]), capture_output=True).stdout
    body = bytearray(body)
    m = 4  # the first record: 08 <ctx> 10 <time>
    i = m + 1
    while body[i] & 0x80:
        i += 1
    i += 1
    ck.check('the first record begins with fields 1 and 2', body[m] == 0x08 and body[i] == 0x10, body[m:i + 1])
    j = i + 1
    while body[j] & 0x80:
        body[j] = 0xff  # zigzag: odd, a difference that takes the time below 0
        j += 1
    body[j] = 0x7f
    plain = os.path.join(d, 'chunk.bin')  # from a file, so that zstd writes the content size
    open(plain, 'wb').write(bytes(body))
    comp = subprocess.run(['zstd', '-q', '-c', plain], capture_output=True).stdout
    hdr = bytearray(data[off:off + 72])
    struct.pack_into('<I', hdr, 8 + 48, len(comp))
    struct.pack_into('<I', hdr, 8 + 60, zlib.crc32(bytes(hdr[8:8 + 60])))
    bad = os.path.join(d, 'bad.gltrace')
    open(bad, 'wb').write(bytes(hdr) + comp)  # that chunk alone: no index to match
    p = gt.run([gltrace, 'dump', bad], timeout=300)
    ck.check('a chunk whose first time comes out below 0: dump fails naming the file, the offset and the field',
             p.returncode != 0 and 'bad.gltrace' in p.stderr and 'start time' in p.stderr and 'at byte 0' in p.stderr,
             (p.returncode, p.stderr[-400:]))
ck.exit()
