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

gltrace, app = sys.argv[1:3]
failures, checked = [], []


def check(name, cond, detail=''):
    checked.append(name)
    print(('ok   ' if cond else 'FAIL ') + name + ('' if cond else ': ' + str(detail)[:1500]))
    if not cond:
        failures.append(name)


def dump(path, *opts):
    r = subprocess.run([gltrace, 'dump', '--json', *opts, path], capture_output=True, text=True, timeout=300)
    return r.returncode, [json.loads(l) for l in r.stdout.splitlines()], r.stderr


def key(rec):  # what a record says, apart from where it came from
    return (rec['fn'], json.dumps(rec.get('args'), sort_keys=True), json.dumps(rec.get('ret')))


def chunks(data):
    """(offset, total size) of each chunk: header frame + data frame."""
    out, off = [], 0
    while off + 8 <= len(data):
        magic, size = struct.unpack_from('<II', data, off)
        if magic == 0x184D2A5F:
            break
        csize = struct.unpack_from('<I', data, off + 8 + 48)[0]
        out.append((off, 72 + csize))
        off += 72 + csize
    return out


d = tempfile.mkdtemp()
try:
    trace = os.path.join(d, 't.gltrace')
    r = subprocess.run([gltrace, 'record', '-o', trace, '--', app, '3', '30000'], capture_output=True, text=True)
    check('record a 3-thread app', r.returncode == 0, r.stderr)
    rc, full, err = dump(trace)
    check('the whole trace reads cleanly', rc == 0 and len(full) > 90000, err)
    data = open(trace, 'rb').read()
    ch = chunks(data)
    check('the trace has several chunks', len(ch) >= 4, len(ch))

    # zstd -dc gives the legacy framing, which gltrace reads as a legacy trace.
    legacy = os.path.join(d, 'legacy.gltrace')
    with open(legacy, 'wb') as f:
        z = subprocess.run(['zstd', '-dc', trace], stdout=f, stderr=subprocess.PIPE)
    check('zstd -dc decompresses the trace', z.returncode == 0, z.stderr)
    rc, leg, err = dump(legacy)
    info = json.loads(subprocess.run([gltrace, 'info', legacy], capture_output=True, text=True).stdout)
    check('zstd -dc output is read as a legacy trace', rc == 0 and info['format'] == 'android-legacy', err)
    check('legacy framing holds the same calls', sorted(map(key, leg)) == sorted(map(key, full)),
          f'{len(leg)} vs {len(full)}')

    # Without the seek index (a crashed capture) the reader walks the chunks.
    noidx = os.path.join(d, 'noindex.gltrace')
    open(noidx, 'wb').write(data[:ch[-1][0] + ch[-1][1]])
    rc, recs, err = dump(noidx)
    check('without the index: same records, same order', rc == 0 and recs == full, err)

    # Truncated inside a chunk: everything ordered before it, then the error.
    cut_at = ch[len(ch) // 2][0] + 100
    cut = os.path.join(d, 'cut.gltrace')
    open(cut, 'wb').write(data[:cut_at])
    rc, recs, err = dump(cut)
    check('truncated: exit 2', rc == 2, rc)
    check('truncated: message names file and byte', 'cut.gltrace' in err and re.search(r'byte \d+', err), err)
    check('truncated: records before the damage are delivered, in order',
          0 < len(recs) < len(full) and recs == full[:len(recs)], f'{len(recs)} of {len(full)}')

    # A flipped byte inside a chunk's data: zstd's checksum catches it.
    bad = bytearray(data)
    off, size = ch[len(ch) // 2]
    bad[off + 72 + size // 2 - 36] ^= 0x40
    flip = os.path.join(d, 'flip.gltrace')
    open(flip, 'wb').write(bad)
    rc, recs, err = dump(flip)
    check('flipped data byte: exit 2 naming file and chunk offset',
          rc == 2 and 'flip.gltrace' in err and f'byte {off}' in err, err)
    check('flipped data byte: records before it delivered', recs == full[:len(recs)], len(recs))

    # A flipped byte in a chunk header.
    bad = bytearray(data)
    bad[ch[1][0] + 20] ^= 0x01
    open(flip, 'wb').write(bad)
    rc, recs, err = dump(flip)
    check('flipped header byte: exit 2 naming file and offset', rc == 2 and 'flip.gltrace' in err and
          re.search(r'byte \d+', err), err)

    # A flipped byte in the seek index.
    bad = bytearray(data)
    bad[len(data) - 30] ^= 0x01
    open(flip, 'wb').write(bad)
    rc, recs, err = dump(flip)
    check('flipped index byte: exit 2 naming the index', rc == 2 and 'index' in err and 'flip.gltrace' in err, err)

    # Not a trace at all.
    junk = os.path.join(d, 'junk.gltrace')
    open(junk, 'wb').write(b'\x89PNG\r\n\x1a\n' + bytes(range(256)) * 4)
    rc, recs, err = dump(junk)
    check('not a trace: exit 2 naming the file', rc == 2 and 'junk.gltrace' in err and not recs, err)
    empty = os.path.join(d, 'empty.gltrace')
    open(empty, 'wb').close()
    rc, recs, err = dump(empty)
    check('empty file: exit 2 naming the file', rc == 2 and 'empty.gltrace' in err, err)

    # A legacy Android file, written by hand: glClear(GL_COLOR_BUFFER_BIT)
    # (function 33 in Android's table), then eglSwapBuffers (2020).
    def varint(v):
        out = b''
        v &= (1 << 64) - 1
        while v >= 0x80:
            out += bytes([(v & 0x7f) | 0x80])
            v >>= 7
        return out + bytes([v])

    def field(n, wt, payload):
        return varint(n << 3 | wt) + payload

    def msg(fn, args):
        m = field(1, 0, varint(0)) + field(2, 0, varint(123456789)) + field(3, 0, varint(1000)) + field(4, 0, varint(fn))
        for a in args:
            m += field(5, 2, varint(len(a)) + a)
        return m

    clear_arg = field(1, 0, varint(4)) + field(2, 0, varint(0)) + field(3, 0, varint(0x4000))
    dpy_arg = field(1, 0, varint(4)) + field(2, 0, varint(0)) + field(3, 0, varint(0x1234))
    recs_bin = [msg(33, [clear_arg]), msg(2020, [dpy_arg, dpy_arg])]
    hand = os.path.join(d, 'android.gltrace')
    open(hand, 'wb').write(b''.join(struct.pack('>I', len(m)) + m for m in recs_bin))
    rc, recs, err = dump(hand)
    check('hand-written legacy file loads', rc == 0 and [x['fn'] for x in recs] == ['glClear', 'eglSwapBuffers'], err)
    check('legacy values shown by the API description', rc == 0 and recs[0]['args'].get('mask') == 0x4000, recs[:1])
    open(hand, 'ab').write(struct.pack('>I', 50) + b'\x08\x00')
    rc, recs, err = dump(hand)
    check('legacy file cut in a record: 2 records, then exit 2 naming the byte',
          rc == 2 and len(recs) == 2 and re.search(r'byte \d+', err), err)
finally:
    shutil.rmtree(d)

print(f'{len(checked) - len(failures)} passed, {len(failures)} failed')
sys.exit(1 if failures else 0)
