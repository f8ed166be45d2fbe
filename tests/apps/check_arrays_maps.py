#!/usr/bin/env python3
"""Records arrays_maps and checks that the trace holds exactly the bytes the
driver read after the calls that named them: before each draw, one
glVertexAttribPointerData per enabled client array with the elements the
draw uses (index range from first/count, from client indices of each type,
from an element buffer, base vertex, divisor); and gltraceMappedData
records with the bytes written through each kind of buffer map.

usage: check_arrays_maps.py --gltrace GLTRACE --app ARRAYS_MAPS --trace OUT.gltrace"""
import struct

import gltest as gt
import apptrace as at


NV = 10
POS = b''.join(struct.pack('<2f', i / 16 - 0.5, (i % 3) / 4 - 0.25) for i in range(NV))
COL = b''.join(struct.pack('<4f', i / 8, 1 - i / 16, 0.5, 1.0) + bytes([0xA0, 0xA1, 0xA2, i]) for i in range(NV))
OFF = b''.join(struct.pack('<2f', i / 32, -(i / 32)) for i in range(4))  # -0.0 for i = 0, as in C
TRI = struct.pack('<6f', 0.5, 0.5, 0.75, 0.5, 0.5, 0.75)
GL_VERTEX_ATTRIB_POINTER = 'glVertexAttribPointer'


def used(data, stride, elem, lo, hi):
    return data[lo * stride: hi * stride + elem].hex()


def expect_arrays(lo, hi, off=None):
    """What the records before a draw must say: (indx, min, max, bytes)."""
    e = [(0, lo, hi, used(POS, 8, 8, lo, hi)), (1, lo, hi, used(COL, 20, 16, lo, hi))]
    if off:
        e.append((2, off[0], off[1], used(OFF, 8, 8, off[0], off[1])))
    return e


def main():
    args = at.parse_args()
    ck = gt.Checker('arrays_maps')
    recs = at.record_sample(ck, args, 'arrays_maps')
    if not recs:
        ck.exit()

    # The records right before each draw, back to the previous app call.
    draws = []
    pending = []
    for r in recs:
        if r['fn'] == 'glVertexAttribPointerData':
            pending.append(r)
        elif r['fn'].startswith('glDraw'):
            draws.append((r, pending))
            pending = []
        elif not r['fn'].startswith('gltrace'):
            pending = []
    want = [('glDrawArrays', expect_arrays(3, 5)),
            ('glDrawElements', expect_arrays(2, 7)),
            ('glDrawElements', expect_arrays(1, 8)),
            ('glDrawElements', expect_arrays(0, 6)),
            ('glDrawElements', expect_arrays(2, 4)),
            ('glDrawArraysInstanced', expect_arrays(0, 2, off=(0, 1))),
            ('glDrawRangeElements', expect_arrays(0, 5)),
            ('glDrawElementsBaseVertex', expect_arrays(4, 6))]
    labels = ['glDrawArrays(first 3, count 3): elements 3..5',
              'client GL_UNSIGNED_BYTE indices {7, 2, 4}: elements 2..7',
              'client GL_UNSIGNED_SHORT indices {1, 8, 5}: elements 1..8',
              'client GL_UNSIGNED_INT indices {0, 6, 3}: elements 0..6',
              'indices {2, 3, 4} at offset 2 of an element buffer: elements 2..4',
              'glDrawArraysInstanced(3 vertices, 4 instances), divisor 2: elements 0..2, a_off 0..1',
              'glDrawRangeElements(start 0, end 5) {3, 1, 2}: elements 0..5, the range the driver may read',
              'glDrawElementsBaseVertex {0, 1, 2} + 4: elements 4..6']
    for i, ((fn, arrays), label) in enumerate(zip(want, labels)):
        if i >= len(draws):
            ck.check(label, False, 'draw missing')
            continue
        draw, before = draws[i]
        got = [(r['args']['indx'], r['args']['minIndex'], r['args']['maxIndex'],
                r['args']['data'].get('data', {}).get('hex')) for r in before]
        ck.check(f'{label}: the bytes the draw reads, recorded before it', draw['fn'] == fn and got == arrays,
                 {'draw': draw['fn'], 'got': got, 'expected': arrays})
    first = draws[0][1] if draws else []
    ck.check('glVertexAttribPointerData says size, type, stride and setter as the app set them',
             [(r['args']['size'], r['args']['type'], r['args']['stride'], r['args']['setter']) for r in first] ==
             [(2, 'GL_FLOAT', 0, 'glVertexAttribPointer'), (4, 'GL_FLOAT', 20, 'glVertexAttribPointer')] or
             [(r['args']['size'], r['args']['stride']) for r in first] == [(2, 0), (4, 20)],
             [r['args'] for r in first])
    client_draws = [d for d, before in draws if before]
    ck.check('no client-array records before draws from buffers only', len(client_draws) == 8,
             [d['fn'] for d in client_draws])

    maps = [(r['args']['target'], r['args']['offset'], r['args']['data'].get('data', {}).get('hex'))
            for r in gt.named(recs, 'gltraceMappedData')]

    def written(k, start, n):
        return bytes((k * 40 + i) & 255 for i in range(start, start + n)).hex()
    expected = [('GL_ARRAY_BUFFER', 0, written(1, 0, 64)),
                ('GL_ARRAY_BUFFER', 20, written(2, 4, 8)),
                ('GL_ARRAY_BUFFER', 36, written(2, 20, 12)),
                ('GL_ARRAY_BUFFER', 48, written(4, 0, 16))]
    persistent = 'persistent=1' in gt.run([args.app]).stdout
    if persistent:
        expected.append(('GL_ARRAY_BUFFER', 0, TRI.hex()))
    ck.check('mapped writes: whole range at unmap (invalidate-buffer, unsynchronized), only the flushed '
             'ranges of an explicit-flush map, nothing for a read-only map' +
             (', and a persistent map\'s bytes before the draw that reads them' if persistent else ''),
             maps[:len(expected)] == expected and len(maps) in (len(expected), len(expected) + 1), maps)
    order = [r['fn'] for r in recs if r['fn'] in ('gltraceMappedData', 'glFlushMappedBufferRange', 'glUnmapBuffer',
                                                 'glDrawArrays')]
    ck.check('each mapped-data record comes right before the flush or unmap it belongs to',
             order[:8] == ['glDrawArrays', 'gltraceMappedData', 'glUnmapBuffer', 'gltraceMappedData',
                           'glFlushMappedBufferRange', 'gltraceMappedData', 'glFlushMappedBufferRange',
                           'glUnmapBuffer'], order[:8])
    if persistent:
        i = order.index('glDrawArrays', 1) if order.count('glDrawArrays') > 1 else -1
        ck.check("the persistent map's bytes are recorded before the draw that reads them",
                 i > 0 and order[i - 1] == 'gltraceMappedData', order)
    ck.exit()


if __name__ == '__main__':
    main()
