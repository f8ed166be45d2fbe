/* gt_container.h: on-disk layout constants and little-endian helpers shared
 * by the writer and the reader (FORMAT.md is the description). Private to
 * proto/. */
#ifndef GT_CONTAINER_H
#define GT_CONTAINER_H

#include <stdint.h>

#define GT_ZSTD_MAGIC 0xFD2FB528u
#define GT_SKIP_MAGIC_MASK 0xFFFFFFF0u
#define GT_SKIP_MAGIC_BASE 0x184D2A50u
#define GT_CHUNK_FRAME 0x184D2A5Eu
#define GT_INDEX_FRAME 0x184D2A5Fu
#define GT_CHUNK_MAGIC 0x4B435447u  /* "GTCK" */
#define GT_INDEX_MAGIC 0x58495447u  /* "GTIX" */
#define GT_END_MAGIC 0x45495447u    /* "GTIE" */
#define GT_CHUNK_PAYLOAD 64u
#define GT_CHUNK_HEADER (8u + GT_CHUNK_PAYLOAD)
#define GT_INDEX_ENTRY 48u
#define GT_LEGACY_MAX_RECORD 207360000u

static inline void gt_le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void gt_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void gt_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t gt_rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t gt_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t gt_rd64(const uint8_t *p) { return gt_rd32(p) | (uint64_t)gt_rd32(p + 4) << 32; }
static inline uint32_t gt_rdbe32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

#endif
