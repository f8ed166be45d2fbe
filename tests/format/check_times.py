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
TIMES_BASE = 8


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
    # Whatever the clock: format 3 could not code a chunk whose first time
    # lay in the upper half of its varint length (37 to 73 minutes after
    # boot, for one), and this check failed then.
    ck.check('and the recorded trace\'s chunks are flagged TIMES and TIMES_BASE (the first time as it is)',
             flags(rec) and all(f & TIMES and f & TIMES_BASE for f in flags(rec)), flags(rec))

    # Tamper: the second timed record's time field of a chunk set to the
    # largest difference its bytes hold, zigzag: below 0 from a first time
    # in the lower half of those bytes' range, past them from one in the
    # upper half (format 4 keeps the first time as it is). The chunk is
    # re-compressed (zstd CLI) with its header's sizes and CRC fixed.
    data = bytearray(open(rec, 'rb').read())
    off, _, size = gt.chunks(bytes(data))[0]
    body = subprocess.run(['zstd', '-dcq'], input=bytes(data[off + 72:off + size]), capture_output=True).stdout
    body = bytearray(body)
    timed = []  # offsets of the records that begin 08 <ctx> 10 <time>, and of their 10
    at = 0
    while at + 4 <= len(body) and len(timed) < 2:
        n = struct.unpack_from('>I', body, at)[0]
        m = at + 4
        i = m + 1
        while i < m + n and body[i] & 0x80:
            i += 1
        i += 1
        if body[m] == 0x08 and i < m + n and body[i] == 0x10:
            timed.append((m, i))
        at = m + n
    m, i = timed[-1] if len(timed) == 2 else (0, 0)
    ck.check('a second record of the chunk begins with fields 1 and 2', len(timed) == 2, timed)
    def varint(at):
        v, k = 0, 0
        while True:
            v |= (body[at + k] & 0x7f) << 7 * k
            k += 1
            if not body[at + k - 1] & 0x80:
                return v, k
    first, _ = varint(timed[0][1] + 1) if timed else (0, 0)
    _, width = varint(i + 1)
    j = i + 1
    while body[j] & 0x80:
        body[j] = 0xff
        j += 1
    body[j] = 0x7f
    if first >= 1 << (7 * width - 1):
        body[i + 1] &= 0xfe  # zigzag even: the largest rise, past the bytes
    # else zigzag odd: the largest fall, below 0
    plain = os.path.join(d, 'chunk.bin')  # from a file, so that zstd writes the content size
    open(plain, 'wb').write(bytes(body))
    comp = subprocess.run(['zstd', '-q', '-c', plain], capture_output=True).stdout
    hdr = bytearray(data[off:off + 72])
    struct.pack_into('<I', hdr, 8 + 48, len(comp))
    struct.pack_into('<I', hdr, 8 + 60, zlib.crc32(bytes(hdr[8:8 + 60])))
    bad = os.path.join(d, 'bad.gltrace')
    open(bad, 'wb').write(bytes(hdr) + comp)  # that chunk alone: no index to match
    p = gt.run([gltrace, 'dump', bad], timeout=300)
    ck.check('a chunk whose second time comes out below 0: dump fails naming the file, the offset and the field',
             p.returncode != 0 and 'bad.gltrace' in p.stderr and 'start time' in p.stderr and 'at byte 0' in p.stderr,
             (p.returncode, p.stderr[-400:]))
ck.exit()
