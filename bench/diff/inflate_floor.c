/* inflate_floor: the floor under decoding a PNG, its IDAT stream inflated
 * into a warm buffer and nothing else (no unfiltering, no fresh pages),
 * by libdeflate and by ISA-L's igzip; best of 10 runs each.
 * usage: inflate_floor FILE.png...  ->  "FILE libdeflate_ms igzip_ms" per file
 * Built by noisy.sh with the system's cc; not part of the project build. */
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The IDAT data gathered, and the size of the inflated stream. */
static uint8_t *load_idat(const char *path, size_t *zn, size_t *rawn)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    rewind(f);
    uint8_t *d = malloc(n), *z = malloc(n);
    if (!d || !z || fread(d, 1, n, f) != n) {
        fclose(f);
        return NULL;
    }
    fclose(f);
    *zn = 0;
    for (size_t off = 8; off + 12 <= n;) {
        uint32_t len = be32(d + off);
        if (memcmp(d + off + 4, "IHDR", 4) == 0) {
            size_t w = be32(d + off + 8), h = be32(d + off + 12);
            size_t bpp = (d[off + 17] == 6 ? 4 : 3) * (d[off + 16] / 8);
            *rawn = h * (w * bpp + 1);
        } else if (memcmp(d + off + 4, "IDAT", 4) == 0) {
            memcpy(z + *zn, d + off + 8, len);
            *zn += len;
        }
        off += 12 + (size_t)len;
    }
    free(d);
    return z;
}

int main(int argc, char **argv)
{
    struct libdeflate_decompressor *dec = libdeflate_alloc_decompressor();
    struct inflate_state *s = malloc(sizeof *s);
    for (int a = 1; a < argc; a++) {
        size_t zn = 0, rawn = 0;
        uint8_t *z = load_idat(argv[a], &zn, &rawn);
        uint8_t *raw = z ? malloc(rawn) : NULL;
        if (!raw) {
            fprintf(stderr, "inflate_floor: %s: cannot read\n", argv[a]);
            return 2;
        }
        memset(raw, 0, rawn);
        double best_ld = 1e9, best_ig = 1e9;
        for (int i = 0; i < 10; i++) {
            size_t got = 0;
            double t = now();
            int bad = libdeflate_zlib_decompress(dec, z, zn, raw, rawn, &got) != LIBDEFLATE_SUCCESS;
            t = now() - t;
            best_ld = t < best_ld ? t : best_ld;
            isal_inflate_init(s);
            s->crc_flag = ISAL_ZLIB;
            s->next_in = z;
            s->avail_in = (uint32_t)zn;
            s->next_out = raw;
            s->avail_out = (uint32_t)rawn;
            t = now();
            bad |= isal_inflate_stateless(s) != ISAL_DECOMP_OK;
            t = now() - t;
            best_ig = t < best_ig ? t : best_ig;
            if (bad) {
                fprintf(stderr, "inflate_floor: %s: inflate failed\n", argv[a]);
                return 2;
            }
        }
        printf("%s %.2f %.2f\n", argv[a], best_ld * 1e3, best_ig * 1e3);
        free(z);
        free(raw);
    }
    free(s);
    libdeflate_free_decompressor(dec);
    return 0;
}
