#!/usr/bin/env python3
"""Traces corrupted on purpose, in the ways the flipped-byte and truncation
tests (tests/format, tests/replay/check_damaged.py) do not make them: the
checksums are recomputed, so only the reader's and replay's own checks
stand between the damage and the driver.

- chunks reordered in the file: without the seek index the reader orders
  records by seq (the same records as the original); with the index kept,
  it points at the wrong chunks: exit 2 naming the file and the byte;
- a seek index entry pointing into the middle of a record, at another
  chunk, or past the end of the file (an offset near 2^64);
- huge declared sizes: a chunk's uncompressed and compressed sizes, its
  record count, the index's entry count, a legacy record's length, a
  texture's width and height, a buffer's size;
- records of real functions with the wrong number of arguments, or with
  their arguments shifted (a pointer recorded as an integer or a bool).
- client arrays (GLES 2/3 vertex attributes, GLES 1's vertex, colour,
  texture coordinate arrays): a draw reading more elements than the data
  records before it hold (a larger count, an index past them, more
  instances), or their data records gone (the driver would read the app's
  address);
- NULL pointers where the call reads data (a NULL the app never passed),
  an address with its data gone, fewer strings than the call's count; a
  pixel read whose record holds fewer bytes than it writes; and
  a NULL the GL allows (glBufferData's data, `nullable` in
  api/annotations.txt) still replayed.

Each must give exit 2 and a message naming the file and the byte offset
(container damage) or the call and function, "refused" (records), never a
crash or a sanitizer report; and the refused call must not reach the
driver: replay itself is recorded (`gltrace record -- gltrace replay`) and
its driver calls checked.

usage: check_hostile_traces.py GLTRACE THREADS_APP UPLOADS_APP ARRAYS_APP GLES1_APP WORK_DIR"""
import os
import re
import struct
import subprocess
import sys
import zlib

import gltest as gt
from legacy_pb import encode, fields, frame, records

gltrace, threads_app, uploads_app, arrays_app, gles1_app, work = sys.argv[1:7]
HEADLESS = gt.gl_env(headless=True)
ck = gt.Checker('fuzz.hostile_traces')
os.makedirs(work, exist_ok=True)
INDEX_ENTRY = 48


def crc32(b):
    return zlib.crc32(b) & 0xffffffff


def run(cmd, path):
    p = gt.run([gltrace, cmd, path], env=HEADLESS, timeout=600)
    return p.returncode, p.stdout, p.stderr


def sane(rc, err):
    """No crash, no sanitizer report: an exit status gltrace gives."""
    return rc in (0, 1, 2) and 'Sanitizer' not in err and 'runtime error' not in err


def write(name, data):
    path = os.path.join(work, name)
    open(path, 'wb').write(data)
    return path


def refused_at(name, data, byte, cmd='dump', words=()):
    """data given to `gltrace cmd`: exit 2 naming the file and `byte N`."""
    path = write(name, data)
    rc, _, err = run(cmd, path)
    ok = sane(rc, err) and rc == 2 and path in err and (byte is None or f'byte {byte}' in err) and \
        all(w in err for w in words)
    ck.check(f'{name}: {cmd} exits 2 naming the file' + (f' and byte {byte}' if byte is not None else ''),
             ok, (rc, err[-600:]))


# ------------------------------------------------------------ the container

trace = os.path.join(work, 'threads.gltrace')
r = gt.run([gltrace, 'record', '-o', trace, '--', threads_app, '3', '3000'], env=HEADLESS)
if not ck.check('record a 3-thread app', r.returncode == 0, r.stderr):
    ck.exit()
data = open(trace, 'rb').read()
ch = gt.chunks(data)
ck.check('the trace has at least 3 chunks', len(ch) >= 3, ch)
end = ch[-1][0] + ch[-1][2]
rc, full, err = run('dump', trace)
ck.check('the whole trace dumps cleanly', rc == 0 and full, err)


def moved(order):
    """The chunks in another order, the index left out."""
    return b''.join(data[ch[i][0]:ch[i][0] + ch[i][2]] for i in order)


# Reordered chunks: without an index the reader orders by seq.
for name, order in (('swapped', [0, 2, 1] + list(range(3, len(ch)))), ('reversed', list(reversed(range(len(ch)))))):
    path = write(f'{name}_noindex.gltrace', moved(order))
    rc, out, err = run('dump', path)
    ck.check(f'{name} chunks, no index: the same records, in call order', sane(rc, err) and rc == 0 and out == full,
             (rc, err[-400:]))
# ... with the index kept, the index no longer matches the chunks.
refused_at('swapped_indexed.gltrace', moved([0, 2, 1] + list(range(3, len(ch)))) + data[end:], ch[1][0])


def index_edited(k, field, value, fmt='<Q', count=None):
    """The trace with index entry k's field (byte offset in the entry) set,
    or its entry count set, and the index's CRC made right again."""
    idx = bytearray(data[end:])
    p = 8  # the skippable frame's header
    n = struct.unpack_from('<Q', idx, p + 8)[0]
    if count is not None:
        struct.pack_into('<Q', idx, p + 8, count)
    else:
        struct.pack_into(fmt, idx, p + 16 + INDEX_ENTRY * k + field, value)
    struct.pack_into('<I', idx, p + 24 + INDEX_ENTRY * n, crc32(bytes(idx[p:p + 24 + INDEX_ENTRY * n])))
    return data[:end] + bytes(idx)


mid = ch[1][0] + gt.CHUNK_HEADER + ch[1][2] // 2
refused_at('index_into_record.gltrace', index_edited(1, 0, mid), mid)
refused_at('index_into_record.gltrace', index_edited(1, 0, mid), mid, cmd='replay')
refused_at('index_into_header.gltrace', index_edited(1, 0, ch[1][0] + 20), ch[1][0] + 20)
refused_at('index_at_other_chunk.gltrace', index_edited(1, 0, ch[2][0]), ch[2][0], words=['seek index'])
refused_at('index_offset_wraps.gltrace', index_edited(1, 0, (1 << 64) - 50), None, words=['seek index'])
refused_at('index_count_huge.gltrace', index_edited(0, 0, 0, count=1 << 60), None, words=['seek index'])
refused_at('index_csize_huge.gltrace', index_edited(1, 44, 0xfffffff0, '<I'), None, words=['seek index'])


def header_edited(k, field, value, fmt='<I', keep_index=True):
    """Chunk k's header field (offset in the 64-byte payload) set, its CRC
    made right again."""
    b = bytearray(data)
    p = ch[k][0] + 8
    struct.pack_into(fmt, b, p + field, value)
    struct.pack_into('<I', b, p + 60, crc32(bytes(b[p:p + 60])))
    return bytes(b if keep_index else b[:end])


refused_at('chunk_usize_huge.gltrace', header_edited(1, 44, 0xfffffff0), ch[1][0])
refused_at('chunk_usize_huge_noindex.gltrace', header_edited(1, 44, 0xfffffff0, keep_index=False), ch[1][0])
refused_at('chunk_usize_huge_noindex.gltrace', header_edited(1, 44, 0xfffffff0, keep_index=False), ch[1][0],
           cmd='replay')
refused_at('chunk_csize_huge_noindex.gltrace', header_edited(1, 48, 0xfffffff0, keep_index=False), ch[1][0])
refused_at('chunk_count_huge.gltrace', header_edited(1, 40, 0xfffffff0), ch[1][0])
refused_at('chunk_count_huge_noindex.gltrace', header_edited(1, 40, 0xfffffff0, keep_index=False), ch[1][0])
refused_at('chunk_last_seq_short_noindex.gltrace', header_edited(1, 24, ch[1][1] + 1, '<Q', keep_index=False),
           ch[1][0])

# A legacy record declaring 2 GB, at a record boundary.
legacy = subprocess.run(['zstd', '-dcq', trace], capture_output=True).stdout
first = 4 + int.from_bytes(legacy[:4], 'big')
refused_at('legacy_length_huge.legacy', legacy[:first] + struct.pack('>I', 0x7fffffff) + legacy[first + 4:], first)

# ------------------------------------------------------------ records

good = os.path.join(work, 'uploads.gltrace')
r = gt.run([gltrace, 'record', '-o', good, '--', uploads_app], env=HEADLESS)
if not ck.check('record the uploads app', r.returncode == 0, r.stderr):
    ck.exit()
msgs = list(records(subprocess.run(['zstd', '-dcq', good], capture_output=True).stdout))
# api/functions.tsv
FN = {'glTexImage2D': 327, 'glUniformMatrix4fv': 360, 'glDeleteBuffers': 62, 'glBufferData': 22,
      'glShaderSource': 303, 'glReadPixels': 284, 'glGenTextures': 144, 'eglCreateContext': 2011,
      'glDrawArrays': 85, 'glDrawElements': 86, 'glDrawArraysInstanced': 444, 'glLightfv': 220,
      'glVertexAttribPointerData': 3001}


def function_of(fs):
    return next(v for n, _, v in fs if n == 4)


def edit_first(fn, edit, of=None, nth=0):
    """The legacy stream (of `of`, the uploads trace's records by default)
    with fn's nth record passed through edit(fields) (None: dropped), and
    that record's seq (its index in the stream when it carries none)."""
    out, seq, k = [], None, 0
    for i, m in enumerate(msgs if of is None else of):
        fs = fields(m)
        if seq is None and function_of(fs) == FN[fn]:
            if k == nth:
                seq = next((v for n, _, v in fs if n == 9), i)
                edited = edit(fs)
                if edited is None:
                    continue
                m = encode(edited)
            k += 1
        out.append(m)
    return frame(out), seq


def args_of(fs):
    return [k for k, (n, _, _) in enumerate(fs) if n == 5]


def drop_last(fs):
    return [f for k, f in enumerate(fs) if k != args_of(fs)[-1]]


def extra(fs):
    return fs + [fs[args_of(fs)[-1]]]


def none(fs):
    return [f for k, f in enumerate(fs) if k not in args_of(fs)]


def shifted(fs):  # the first argument twice, the last gone: same count
    a = args_of(fs)
    return fs[:a[0]] + [fs[a[0]]] + fs[a[0]:a[-1]] + fs[a[-1] + 1:]


def set_arg(i, value):
    """Argument i's first integer value (intValue, or int64Value) set."""
    def edit(fs):
        k = args_of(fs)[i]
        dt = [(n, wt, value if n in (3, 8) and wt == 0 else v) for n, wt, v in fields(fs[k][2])]
        fs[k] = (5, 2, encode(dt))
        return fs
    return edit


def check_refused(name, fn, edit, why, of=None, nth=0):
    stream, seq = edit_first(fn, edit, of, nth)
    path = write(name + '.legacy', stream)
    rc, _, err = run('replay', path)
    ok = sane(rc, err) and rc == 2 and path in err and f'call {seq} ({fn})' in err and 'refused' in err and \
        re.search(why, err) and gt.replay_summary(err) is not None
    ck.check(f'{name}: exit 2, the file, call {seq} ({fn}), why and "refused" named', ok, (rc, err[-600:]))
    return stream, seq


for fn in ('glTexImage2D', 'glUniformMatrix4fv', 'glDeleteBuffers', 'glShaderSource', 'glReadPixels',
           'glGenTextures', 'eglCreateContext'):
    for edit in (drop_last, extra, none):
        check_refused(f'{fn}_{edit.__name__}', fn, edit, r'\d+ arguments in the trace, the function takes \d+')
    # Shifted into a pointer's place: an integer, a bool or an enum.
    if fn not in ('glGenTextures', 'eglCreateContext'):  # their last argument is not a pointer
        check_refused(f'{fn}_shifted', fn, shifted, r'is not recorded as a pointer')
check_refused('glTexImage2D_huge', 'glTexImage2D', lambda fs: set_arg(4, 1 << 30)(set_arg(3, 1 << 30)(fs)),
              r'pixels has \d+ bytes in the trace, the call reads at least \d+')
check_refused('glBufferData_huge', 'glBufferData', set_arg(1, 1 << 62),
              r'data has \d+ bytes in the trace, the call reads at least \d+')

# The refused call never reaches the driver: replay, itself recorded, makes
# no more calls of that function than the replay of the records before the
# refused one (replay makes some of its own, such as a new surface's
# initial contents).
def calls_of_replay(name, stream, fn):
    path = write(name + '.legacy', stream)
    of_replay = os.path.join(work, name + '.replayed.gltrace')
    p = gt.run([gltrace, 'record', '-o', of_replay, '--', gltrace, 'replay', path], env=HEADLESS, timeout=600)
    d = gt.dump(gltrace, of_replay)
    recorded = d.returncode == 0 and any(x['fn'] == 'eglCreateContext' for x in d.records)  # replay's own calls
    return p.returncode, recorded, sum(1 for x in d.records if x['fn'] == fn), p.stderr


def never_called(name, fn, stream, seq, of=None, nth=0):
    """The refused call never reaches the driver: replay, itself recorded,
    calls fn no more often than the replay of the records before it."""
    of = msgs if of is None else of
    at = [i for i, m in enumerate(of) if function_of(fields(m)) == FN[fn]][nth]
    rc, recorded, made, err = calls_of_replay(name, stream, fn)
    rc0, recorded0, before, err0 = calls_of_replay(name + '_prefix', frame(of[:at]), fn)
    ck.check(f'{name}: the replay, recorded, calls {fn} no more than the replay of the records before call {seq}',
             rc == 2 and sane(rc0, err0) and recorded and recorded0 and made == before,
             (rc, rc0, made, before, err[-300:], err0[-300:]))


for name, fn, edit in (('glTexImage2D_drop_last', 'glTexImage2D', drop_last),
                       ('glUniformMatrix4fv_shifted', 'glUniformMatrix4fv', shifted),
                       ('glTexImage2D_huge', 'glTexImage2D', lambda fs: set_arg(4, 1 << 30)(set_arg(3, 1 << 30)(fs)))):
    stream, seq = edit_first(fn, edit)
    never_called(name, fn, stream, seq)

# ------------------------------------------------------------ pointers with no data


def data_edit(i, keep=(), int64=None):
    """Argument i with only its fields `keep` (type, isArray, values...)
    and, when int64 is given, that address (0: NULL)."""
    def edit(fs):
        k = args_of(fs)[i]
        dt = [(n, wt, v) for n, wt, v in fields(fs[k][2]) if n in keep or n in (1, 2)]
        if int64 is not None:
            dt = [f for f in dt if f[0] != 8] + [(8, 0, int64)]
        fs[k] = (5, 2, encode(dt))
        return fs
    return edit


def null(i):  # the app passed NULL: no data, address 0
    return data_edit(i, int64=0)


def no_data(i):  # the address kept, the data gone
    return data_edit(i, keep=(8,))


def raw(i, data):  # argument i's bytes replaced
    def edit(fs):
        k = args_of(fs)[i]
        dt = [(n, wt, v) for n, wt, v in fields(fs[k][2]) if n != 6] + [(6, 2, data)]
        fs[k] = (5, 2, encode(dt))
        return fs
    return edit


NULL_READ = r'is NULL in the trace, the call reads at least \d+ bytes through it'
stream, seq = check_refused('glUniformMatrix4fv_null', 'glUniformMatrix4fv', null(3), NULL_READ)
never_called('glUniformMatrix4fv_null', 'glUniformMatrix4fv', stream, seq)
check_refused('glDeleteBuffers_null', 'glDeleteBuffers', null(1), NULL_READ)
check_refused('glUniformMatrix4fv_no_data', 'glUniformMatrix4fv', no_data(3),
              r'value has 0 bytes in the trace, the call reads at least \d+')
check_refused('glShaderSource_no_strings', 'glShaderSource', no_data(2),
              r'string has 0 strings in the trace, the call reads 1')
check_refused('glShaderSource_long_length', 'glShaderSource', raw(3, struct.pack('<i', 1 << 20)),
              r'string 0 has \d+ bytes in the trace, its length says 1048576')
# Output: replay's buffer has the room the call's arguments say, whatever
# the record holds; past 1 GB the call is refused.
check_refused('glReadPixels_huge', 'glReadPixels', lambda fs: set_arg(3, 1 << 20)(set_arg(2, 1 << 20)(fs)),
              r'argument 7 would take \d+ bytes of output: refused')
for name, edit in (('glReadPixels_wide', set_arg(2, 5000)), ('glReadPixels_no_data', no_data(6))):
    stream, _ = edit_first('glReadPixels', edit)
    rc, _, err = run('replay', write(name + '.legacy', stream))
    ck.check(f'{name}: replayed into a buffer of the room the call needs (no crash, no sanitizer report)',
             sane(rc, err) and gt.replay_summary(err) is not None, (rc, err[-600:]))
# A NULL the GL allows: glBufferData's data (`nullable`): replayed, not refused.
stream, _ = edit_first('glBufferData', null(2))
rc, _, err = run('replay', write('glBufferData_null.legacy', stream))
ck.check('glBufferData_null: a NULL the GL allows is replayed (exit 0 or 1, nothing refused)',
         sane(rc, err) and rc in (0, 1) and 'refused' not in err, (rc, err[-600:]))

# ------------------------------------------------------------ client arrays


def legacy_of(name, app):
    path = os.path.join(work, name + '.gltrace')
    r = gt.run([gltrace, 'record', '-o', path, '--', app], env=HEADLESS, timeout=600)
    if not ck.check(f'record {name}', r.returncode == 0, r.stderr):
        ck.exit()
    return list(records(subprocess.run(['zstd', '-dcq', path], capture_output=True).stdout))


def data_dropped(of, fn, nth=0):
    """The stream without the client arrays' data records before fn's nth
    record (since the draw before it), and that record's seq."""
    at = [i for i, m in enumerate(of) if function_of(fields(m)) == FN[fn]][nth]
    k = at
    while k > 0 and function_of(fields(of[k - 1])) == FN['glVertexAttribPointerData']:
        k -= 1
    fs = fields(of[at])
    return frame(of[:k] + of[at:]), next((v for n, _, v in fs if n == 9), k), at - k

def check_data_dropped(name, of):
    """A draw whose client array data records are gone: exit 2 naming the
    file, the call and the app's memory, and the draw never called."""
    stream, seq, dropped = data_dropped(of, 'glDrawArrays')
    path = write(f'{name}.legacy', stream)
    rc, _, err = run('replay', path)
    ck.check(f'{name}: {dropped} data records gone, exit 2 naming the file and call {seq} (glDrawArrays), '
             'the app\'s memory named', sane(rc, err) and rc == 2 and dropped > 0 and path in err and
             f'call {seq} (glDrawArrays)' in err and re.search(APP, err), (rc, err[-600:]))
    never_called(name, 'glDrawArrays', stream, seq, of=of)



es3 = legacy_of('arrays_maps', arrays_app)
gles1 = legacy_of('gles1_scene', gles1_app)
PAST = r'has elements \d+\.\.\d+ in the trace, the draw reads \d+\.\.\d+'
APP = r"reads the app's memory at 0x[0-9a-f]+ and the trace has no data for it there"
# GLES 3 vertex attributes: more vertices, an index past the data, more instances.
stream, seq = check_refused('es3_draw_arrays_count', 'glDrawArrays', set_arg(2, 1000), r'vertex attribute \d+ ' + PAST,
                            of=es3)
never_called('es3_draw_arrays_count', 'glDrawArrays', stream, seq, of=es3)
check_refused('es3_draw_elements_index', 'glDrawElements', raw(3, bytes([0, 1, 200])), PAST, of=es3)
check_refused('es3_instances', 'glDrawArraysInstanced', set_arg(3, 1000), PAST, of=es3)
check_data_dropped('es3_data_dropped', es3)
# GLES 1 arrays (api/state.tsv's `pointer` rows).
check_refused('gles1_draw_arrays_count', 'glDrawArrays', set_arg(2, 400), 'GL_VERTEX_ARRAY_POINTER ' + PAST,
              of=gles1)
check_refused('gles1_draw_elements_index', 'glDrawElements', raw(3, bytes([0, 1, 2, 0, 2, 250])), PAST, of=gles1)
check_data_dropped('gles1_data_dropped', gles1)
check_refused('gles1_glLightfv_null', 'glLightfv', null(2), NULL_READ, of=gles1)
check_refused('gles1_glLightfv_short', 'glLightfv', raw(2, b'\0\0\0\0'),
              r'params has 4 bytes in the trace, the call reads at least 16', of=gles1)

ck.exit()
