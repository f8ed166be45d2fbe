#!/usr/bin/env python3
"""Broken traces given to `gltrace replay`, as a user meets them: a trace
cut short, bytes flipped on disk, a texture upload whose data is shorter
than the call reads, and one whose data is missing. Each must end with exit
2 and a message naming the file (and, for the refused records, the call
number and function), the comparisons made before the damage still
summarised, and never a crash (ctest also runs this under AddressSanitizer).

The records are edited in the legacy framing (`zstd -dc` of a trace, which
gltrace reads as it reads Android's files): a big-endian length, then the
GLMessage, re-encoded here with a minimal protobuf writer.

usage: check_damaged.py GLTRACE UPLOADS_APP WORK_DIR"""
import functools
import json
import os
import random
import subprocess
import sys

import gltest as gt
from legacy_pb import encode, fields, frame, records

gltrace, app, work = sys.argv[1:4]
HEADLESS = gt.gl_env(headless=True)
# Replay must work with no display; a long replay is not a hang.
run = functools.partial(gt.run, env=HEADLESS, timeout=600)
ck = gt.Checker('replay.damaged_traces')
GL_TEX_IMAGE_2D = 327  # api/functions.tsv (Android's number)
EGL_MAKE_CURRENT = 2013  # api/functions.tsv


def edit_first_upload(stream, edit):
    """The stream with the first glTexImage2D's pixels argument (args[8])
    passed through edit(DataType fields) -> fields; and that call's seq
    (records leave out the seq where it is their index in the stream)."""
    msgs, seq, done = [], None, False
    for index, m in enumerate(records(stream)):
        fs = fields(m)
        if not done and any(n == 4 and v == GL_TEX_IMAGE_2D for n, _, v in fs):
            args = [k for k, (n, _, _) in enumerate(fs) if n == 5]
            k = args[8]
            fs[k] = (5, 2, encode(edit(fields(fs[k][2]))))
            seq = next((v for n, _, v in fs if n == 9), index)
            done = True
            m = encode(fs)
        msgs.append(m)
    return frame(msgs), seq


# ------------------------------------------------------------ the traces

os.makedirs(work, exist_ok=True)
good = os.path.join(work, 'uploads.gltrace')
r = run([gltrace, 'record', '-o', good, '--', app])
if not ck.check('uploads recorded', r.returncode == 0, r.stderr):
    sys.exit(1)
p = run([gltrace, 'replay', good])
ck.check('the undamaged trace replays bit-exact (exit 0)', p.returncode == 0, p.stderr)
legacy = subprocess.run(['zstd', '-dcq', good], capture_output=True, check=True).stdout
plain = os.path.join(work, 'uploads.legacy')
open(plain, 'wb').write(legacy)
p = run([gltrace, 'replay', plain])
ck.check('its legacy framing (zstd -dc) replays the same (exit 0)', p.returncode == 0, p.stderr)


def refused(name, edit):
    data, seq = edit_first_upload(legacy, edit)
    path = os.path.join(work, name + '.legacy')
    open(path, 'wb').write(data)
    p = run([gltrace, 'replay', path])
    err = p.stderr
    ck.check(f'{name}: exit 2, the file, call {seq}, glTexImage2D and "refused" named, the summary printed',
             p.returncode == 2 and path in err and f'call {seq} (glTexImage2D)' in err and 'refused' in err and
             gt.replay_summary(err) is not None, (p.returncode, err))


def shorten(dt):
    return [(n, wt, v[:len(v) // 2] if n == 6 else v) for n, wt, v in dt]


refused('short_pixels', shorten)
refused('missing_pixels', lambda dt: [(n, wt, v) for n, wt, v in dt if n != 6])

# A trace whose eglMakeCurrent records are gone: replay has no context for
# the snapshots. Nothing shows they match, so that is a failure (exit 1),
# said once with the first, and in the JSON report; never a quiet exit 0.
nomc = os.path.join(work, 'no_make_current.legacy')
open(nomc, 'wb').write(frame([m for m in records(legacy)
                               if not any(n == 4 and v == EGL_MAKE_CURRENT for n, _, v in fields(m))]))
rep = os.path.join(work, 'no_make_current.json')
p = run([gltrace, 'replay', nomc, '--json', rep])
s = gt.replay_summary(p.stderr)
j = json.load(open(rep)) if os.path.exists(rep) else {}
ck.check('no eglMakeCurrent: exit 1, "could not be read back" with the first one\'s reason, JSON counts them',
         p.returncode == 1 and s and s[0] > 0 and s[1] == 0 and 'could not be read back' in p.stderr and
         'no context was current' in p.stderr and j.get('unreadable') == s[0] and
         all(r['status'] == 'unreadable' for r in j.get('results', [])), (p.returncode, p.stderr, j.get('unreadable')))

# Bytes flipped on disk, at spread offsets: the reader's checks (zstd, the
# chunk CRC, protobuf) must catch every one that changes what is replayed.
data = open(good, 'rb').read()
rng = random.Random(1)
crashed, unnamed = [], []
for k in range(24):
    off = rng.randrange(len(data))
    bad = bytearray(data)
    bad[off] ^= 0x5a
    path = os.path.join(work, 'flipped.gltrace')
    open(path, 'wb').write(bad)
    p = run([gltrace, 'replay', path])
    err = p.stderr
    if p.returncode not in (0, 1, 2) or 'AddressSanitizer' in err or 'runtime error' in err:
        crashed.append((off, p.returncode, err[-400:]))
    elif p.returncode != 0 and (p.returncode != 2 or path not in err or gt.replay_summary(err) is None):
        unnamed.append((off, p.returncode, err[-400:]))
ck.check('24 traces with a flipped byte: no crash, no sanitizer report', not crashed, crashed)
ck.check('each one refused exits 2 naming the file, with the summary of what was compared', not unnamed, unnamed)

ck.exit()
