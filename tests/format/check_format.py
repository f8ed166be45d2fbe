#!/usr/bin/env python3
"""Traces as users meet them. A recorded trace (several threads, so chunks
interleave) must: give a legacy Android stream through `zstd -dc` that
gltrace reads back with the same calls; read the same without its seek
index; and when truncated or with a flipped byte, deliver every record
before the damage, then stop with exit 2 and a message naming the file and
a byte offset. A legacy file written here by hand loads."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

import gltest as gt
from legacy_pb import encode, frame

gltrace, app = sys.argv[1:3]
ck = gt.Checker('format.damaged_and_legacy_traces')


def dump(path):
    d = gt.dump(gltrace, path, timeout=300)
    return d.returncode, d.records, d.stderr


def key(rec):  # what a record says, apart from where it came from
    return (rec['fn'], json.dumps(rec.get('args'), sort_keys=True), json.dumps(rec.get('ret')))


d = tempfile.mkdtemp()
try:
    trace = os.path.join(d, 't.gltrace')
    r = gt.run([gltrace, 'record', '-o', trace, '--', app, '3', '30000'])
    ck.check('record a 3-thread app', r.returncode == 0, r.stderr)
    rc, full, err = dump(trace)
    ck.check('the whole trace reads cleanly', rc == 0 and len(full) > 90000, err)
    data = open(trace, 'rb').read()
    ch = [(off, size) for off, _, size in gt.chunks(data)]
    ck.check('the trace has several chunks', len(ch) >= 4, len(ch))

    # zstd -dc gives the legacy framing, which gltrace reads as a legacy trace.
    legacy = os.path.join(d, 'legacy.gltrace')
    with open(legacy, 'wb') as f:
        z = subprocess.run(['zstd', '-dc', trace], stdout=f, stderr=subprocess.PIPE)
    ck.check('zstd -dc decompresses the trace', z.returncode == 0, z.stderr)
    rc, leg, err = dump(legacy)
    info = gt.info(gltrace, legacy)[1] or {}
    ck.check('zstd -dc output is read as a legacy trace', rc == 0 and info.get('format') == 'android-legacy', err)
    ck.check('legacy framing holds the same calls', sorted(map(key, leg)) == sorted(map(key, full)),
             f'{len(leg)} vs {len(full)}')

    # Without the seek index (a crashed capture) the reader walks the chunks.
    noidx = os.path.join(d, 'noindex.gltrace')
    open(noidx, 'wb').write(data[:ch[-1][0] + ch[-1][1]])
    rc, recs, err = dump(noidx)
    ck.check('without the index: same records, same order', rc == 0 and recs == full, err)

    # Truncated inside a chunk: everything ordered before it, then the error.
    cut_at = ch[len(ch) // 2][0] + 100
    cut = os.path.join(d, 'cut.gltrace')
    open(cut, 'wb').write(data[:cut_at])
    rc, recs, err = dump(cut)
    ck.check('truncated: exit 2', rc == 2, rc)
    ck.check('truncated: message names file and byte', 'cut.gltrace' in err and re.search(r'byte \d+', err), err)
    ck.check('truncated: records before the damage are delivered, in order',
             0 < len(recs) < len(full) and recs == full[:len(recs)], f'{len(recs)} of {len(full)}')

    # A flipped byte inside a chunk's data: zstd's checksum catches it.
    bad = bytearray(data)
    off, size = ch[len(ch) // 2]
    bad[off + 72 + size // 2 - 36] ^= 0x40
    flip = os.path.join(d, 'flip.gltrace')
    open(flip, 'wb').write(bad)
    rc, recs, err = dump(flip)
    ck.check('flipped data byte: exit 2 naming file and chunk offset',
             rc == 2 and 'flip.gltrace' in err and f'byte {off}' in err, err)
    ck.check('flipped data byte: records before it delivered', recs == full[:len(recs)], len(recs))

    # A flipped byte in a chunk header.
    bad = bytearray(data)
    bad[ch[1][0] + 20] ^= 0x01
    open(flip, 'wb').write(bad)
    rc, recs, err = dump(flip)
    ck.check('flipped header byte: exit 2 naming file and offset', rc == 2 and 'flip.gltrace' in err and
             re.search(r'byte \d+', err), err)

    # A flipped byte in the seek index.
    bad = bytearray(data)
    bad[len(data) - 30] ^= 0x01
    open(flip, 'wb').write(bad)
    rc, recs, err = dump(flip)
    ck.check('flipped index byte: exit 2 naming the index', rc == 2 and 'index' in err and 'flip.gltrace' in err, err)

    # Not a trace at all.
    junk = os.path.join(d, 'junk.gltrace')
    open(junk, 'wb').write(b'\x89PNG\r\n\x1a\n' + bytes(range(256)) * 4)
    rc, recs, err = dump(junk)
    ck.check('not a trace: exit 2 naming the file', rc == 2 and 'junk.gltrace' in err and not recs, err)
    empty = os.path.join(d, 'empty.gltrace')
    open(empty, 'wb').close()
    rc, recs, err = dump(empty)
    ck.check('empty file: exit 2 naming the file', rc == 2 and 'empty.gltrace' in err, err)

    # A legacy Android file, written by hand: glClear(GL_COLOR_BUFFER_BIT)
    # (function 33 in Android's table), then eglSwapBuffers (2020).
    def msg(fn, args):  # context 0, start time, duration, function, args
        return encode([(1, 0, 0), (2, 0, 123456789), (3, 0, 1000), (4, 0, fn)] + [(5, 2, a) for a in args])

    clear_arg = encode([(1, 0, 4), (2, 0, 0), (3, 0, 0x4000)])
    dpy_arg = encode([(1, 0, 4), (2, 0, 0), (3, 0, 0x1234)])
    hand = os.path.join(d, 'android.gltrace')
    open(hand, 'wb').write(frame([msg(33, [clear_arg]), msg(2020, [dpy_arg, dpy_arg])]))
    rc, recs, err = dump(hand)
    ck.check('hand-written legacy file loads', rc == 0 and [x['fn'] for x in recs] == ['glClear', 'eglSwapBuffers'], err)
    ck.check('legacy values shown by the API description', rc == 0 and recs[0]['args'].get('mask') == 0x4000, recs[:1])
    open(hand, 'ab').write(struct.pack('>I', 50) + b'\x08\x00')
    rc, recs, err = dump(hand)
    ck.check('legacy file cut in a record: 2 records, then exit 2 naming the byte',
             rc == 2 and len(recs) == 2 and re.search(r'byte \d+', err), err)
finally:
    shutil.rmtree(d)

ck.exit()
