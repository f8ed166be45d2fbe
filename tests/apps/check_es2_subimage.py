#!/usr/bin/env python3
"""Records es2_subimage and checks that on GLES 2 with EXT_unpack_subimage
and NV_pack_subimage the recorded texture upload and read-back hold exactly
the bytes the driver read and wrote: the row length and skips count, as on
GLES 3 (a 3x2 upload from a 7-wide image skipping 2 pixels and 1 row is 76
bytes, not 24; the read of 3x2 into a 5-wide image skipping 1 pixel and 1 row is 56).

usage: check_es2_subimage.py --gltrace GLTRACE --app ES2_SUBIMAGE --trace OUT.gltrace"""

import gltest as gt
import apptrace as at


def main():
    args = at.parse_args()
    ck = gt.Checker('es2_subimage')
    recs = at.record_sample(ck, args, 'es2_subimage')
    if not recs:
        ck.exit()
    c = gt.calls(recs)
    src = bytes((i * 5 + 3) & 255 for i in range(7 * 4 * 4))
    tex = gt.args_of(c, 'glTexImage2D').get('pixels', {}).get('data')
    ck.check('glTexImage2D records the 76 bytes the driver reads (row length 7, skip 2 pixels, 1 row)',
             tex == {'bytes': 76, 'hex': src[:76].hex()}, tex)
    rp = gt.args_of(c, 'glReadPixels').get('pixels', {}).get('data', {})
    ck.check('glReadPixels records the 56 bytes the driver writes (row length 5, skip 1 pixel, 1 row)',
             rp.get('bytes') == 56, rp)
    if rp.get('bytes') == 56:
        dst = bytes.fromhex(rp['hex'])
        want = b''.join(src[((1 + y) * 7 + 2 + x) * 4:((1 + y) * 7 + 2 + x) * 4 + 4]
                        for y in range(2) for x in range(3))
        got = b''.join(dst[((1 + y) * 5 + 1 + x) * 4:((1 + y) * 5 + 1 + x) * 4 + 4] for y in range(2) for x in range(3))
        ck.check('the read-back pixels in those bytes are the uploaded texels', got == want, (got.hex(), want.hex()))
    ck.exit()


if __name__ == '__main__':
    main()
