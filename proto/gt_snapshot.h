/* gt_snapshot.h: the pixels of gltraceSnapshot records, coded against the
 * previous snapshot of the same target (FORMAT.md, "Snapshot coding").
 *
 * A coded snapshot carries the hash of its pixels, a slot number (the
 * target, numbered by the thread that recorded it) and its pixels: as they
 * are (a keyframe, which the chunk's compression sees with its neighbours),
 * or as one zstd frame of their difference from the slot's previous
 * snapshot, byte planes apart (a delta; no bytes at all when equal). Capture codes deltas
 * (gt_snap_encode); readers keep a chain per thread
 * and slot (gt_snap_chain) that decodes only when pixels are asked for: a
 * replay whose own read has the recorded hash never decompresses.
 *
 * Format code: zstd, xxhash and libc only. */
#ifndef GT_SNAPSHOT_H
#define GT_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* FrameBuffer.coding */
enum { GT_SNAP_RAW = 0, GT_SNAP_KEY = 1, GT_SNAP_DELTA = 2 };

/* The first byte of a delta of RGBA8 pixels (format 3): red and blue
 * planes less green's difference, a zstd frame after it. A delta without
 * it (format 2, other texels) is the zstd frame alone. */
#define GT_SNAP_TAG_RGB 0x01

/* Capture writes a keyframe at least once every this many snapshots of a
 * slot, so a reader that starts mid-trace has pixels again soon, and a
 * chain a reader keeps pending stays short. */
#define GT_SNAP_KEY_INTERVAL 64

/* Readers refuse a coded snapshot with a side longer than this (no
 * framebuffer is): its size would otherwise come from the record alone. */
#define GT_SNAP_MAX_SIDE 65536

/* The hash a coded snapshot carries: XXH3-64 (seed 0) of its pixels as
 * `contents` held them uncoded (rows bottom first, tightly packed). */
uint64_t gt_snap_hash(const void *px, size_t n);

/* Largest coded size of n bytes of pixels. */
size_t gt_snap_bound(size_t n);

/* Codes n bytes of pixels `px` (texels of `bpp` bytes) as a delta against
 * `prev`, the slot's previous pixels, into out (cap bytes, gt_snap_bound(n)
 * is enough) with zstd context `zctx` at `level`; `scratch`: n bytes.
 * Equal pixels code to 0 bytes. Returns the coded size, or -1. */
long gt_snap_encode(void *zctx, int level, const uint8_t *px, const uint8_t *prev, uint8_t *scratch, size_t n,
                    size_t bpp, uint8_t *out, size_t cap);

/* ---------------------------------------------------------------- reading */

/* A coded snapshot as a record holds it. */
typedef struct gt_snap_coded {
    uint64_t hash;
    uint32_t coding; /* GT_SNAP_KEY or GT_SNAP_DELTA */
    uint32_t slot;
    const uint8_t *data; /* keyframe: the pixels; delta: a zstd frame, or none (equal) */
    size_t len;
    size_t size; /* bytes of pixels: width * height * bpp */
    size_t bpp;  /* bytes per texel */
} gt_snap_coded;

typedef struct gt_snap_chain gt_snap_chain;

gt_snap_chain *gt_snap_chain_new(void);
void gt_snap_chain_free(gt_snap_chain *c);

/* A coded snapshot of thread `tid`, in call order; kept (its coded bytes
 * copied) until its pixels are asked for. 0, or -1 when out of memory. */
int gt_snap_chain_add(gt_snap_chain *c, uint64_t tid, const gt_snap_coded *s);

/* The pixels of the last snapshot added for (tid, slot), decoded now from
 * what is pending (and checked against its hash). Valid until the next
 * call on the chain. NULL with a reason in err: no keyframe seen since the
 * reader started (a seek), a corrupt frame, or a hash that differs. */
const uint8_t *gt_snap_chain_pixels(gt_snap_chain *c, uint64_t tid, uint32_t slot, char *err, size_t errlen);

/* The caller has the pixels of the last snapshot added for (tid, slot)
 * (its own read gave the recorded hash): `px`, malloc'd, `size` bytes,
 * becomes the chain's, which frees it. Nothing pending is decoded. */
void gt_snap_chain_adopt(gt_snap_chain *c, uint64_t tid, uint32_t slot, uint8_t *px);

#ifdef __cplusplus
}
#endif
#endif
