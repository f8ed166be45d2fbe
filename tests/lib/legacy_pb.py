"""legacy_pb: just enough protobuf to edit records of a trace in the legacy
framing (`zstd -dc` of a trace: a big-endian length, then the GLMessage),
so tests can make damaged or altered traces. Standard library only."""


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << s
        s += 7
        if c < 0x80:
            return v, i


def put_varint(v):
    out = bytearray()
    v &= (1 << 64) - 1  # a negative int64 as protobuf writes it: ten bytes
    while True:
        if v < 0x80:
            out.append(v)
            return bytes(out)
        out.append((v & 0x7f) | 0x80)
        v >>= 7


def fields(b):
    """[(number, wire type, raw value)]: varints as ints, the rest as bytes."""
    out, i = [], 0
    while i < len(b):
        key, i = varint(b, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError(f'wire type {wt}')
        out.append((num, wt, v))
    return out


def encode(fs):
    out = bytearray()
    for num, wt, v in fs:
        out += put_varint(num << 3 | wt)
        if wt == 0:
            out += put_varint(v)
        elif wt == 2:
            out += put_varint(len(v)) + v
        else:
            out += v
    return bytes(out)


def records(stream):
    i = 0
    while i < len(stream):
        n = int.from_bytes(stream[i:i + 4], 'big')
        yield stream[i + 4:i + 4 + n]
        i += 4 + n


def frame(msgs):
    """The legacy framing of messages: each after its big-endian length."""
    return b''.join(len(m).to_bytes(4, 'big') + m for m in msgs)


def read_trace(path):
    """A trace in the legacy framing: `zstd -dcq` of it (b'' when zstd
    fails, so that the checks on what it holds fail rather than the
    script)."""
    import subprocess
    return subprocess.run(['zstd', '-dcq', path], capture_output=True).stdout


def with_float_arg(stream, function, nth, arg, value):
    """The stream with argument `arg` (0-based) of the nth (1-based) call of
    `function` (its number) set to the float `value`; and how many calls of
    it the stream holds, so a caller can tell there was an nth."""
    import struct
    msgs, seen = [], 0
    for m in records(stream):
        fs = fields(m)
        if any(n == 4 and v == function for n, _, v in fs):
            seen += 1
            if seen == nth:
                args = [k for k, (n, _, _) in enumerate(fs) if n == 5]
                dt = [(n, wt, struct.pack('<f', value) if n == 4 else v) for n, wt, v in fields(fs[args[arg]][2])]
                fs[args[arg]] = (5, 2, encode(dt))
                m = encode(fs)
        msgs.append(m)
    return frame(msgs), seen
