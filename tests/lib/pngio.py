"""pngio: minimal PNG writing and reading for the diff tests, standard
library only (zlib). Writes 8-bit RGBA; reads 8-bit RGB/RGBA with any
filter, which covers what gltrace diff writes."""
import struct
import zlib


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def write_rgba(path, width, height, pixels):
    """pixels: bytes or bytearray of width*height*4."""
    assert len(pixels) == width * height * 4
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        raw += pixels[y * width * 4:(y + 1) * width * 4]
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)))
        f.write(_chunk(b"IDAT", zlib.compress(bytes(raw), 6)))
        f.write(_chunk(b"IEND", b""))


def solid(width, height, rgba):
    return bytearray(bytes(rgba) * (width * height))


def set_rect(pixels, width, x, y, w, h, rgba):
    for j in range(y, y + h):
        for i in range(x, x + w):
            o = (j * width + i) * 4
            pixels[o:o + 4] = bytes(rgba)


def read(path):
    """Returns (width, height, rgba bytearray, filter types used)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path + ": not a PNG"
    pos, idat, width = 8, bytearray(), None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, "unsupported PNG kind"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(bytes(idat))
    stride = width * bpp
    out = bytearray(width * height * 4)
    prev = bytearray(stride)
    filters = set()
    for y in range(height):
        f = raw[y * (stride + 1)]
        filters.add(f)
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(width):
            o = (y * width + x) * 4
            out[o:o + 3] = line[x * bpp:x * bpp + 3]
            out[o + 3] = line[x * bpp + 3] if bpp == 4 else 255
        prev = line
    return width, height, out, filters


def pixel(img, x, y):
    width, _, rgba, _ = img
    o = (y * width + x) * 4
    return tuple(rgba[o:o + 4])
