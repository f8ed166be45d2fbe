/* test_decode: replay's own decoder of call records (replay/rp_decode.c)
 * against protobuf-c, the reference. For every record of the traces named
 * on the command line, and for damaged copies of them (cut at every
 * length up to 64 bytes and at random lengths, one byte flipped at random
 * places): when rp_decode says it decoded a record, protobuf-c must decode
 * it too and both messages must pack to the same bytes; rp_decode may
 * decline (protobuf-c then handles the record), never crash (this test
 * also runs under AddressSanitizer). The records of real traces must mostly
 * take the fast path, or it would be pointless.
 * usage: test_decode TRACE... ; exit 0 when all agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_trace.h"
#include "rp_internal.h"

static unsigned long checked, fast, failures;
static rp_decoder dec;

static void agree(const uint8_t *b, size_t n, const char *what, unsigned long rec)
{
    rp_msg *mine = NULL;
    int got = rp_decode(&dec, b, n, &mine);
    checked++;
    if (got != 1)
        return;
    fast++;
    Gltrace__GLMessage *ref = gltrace__glmessage__unpack(NULL, n, b);
    if (!ref) {
        if (failures++ < 10)
            fprintf(stderr, "FAIL %s record %lu: rp_decode took it, protobuf-c calls it malformed\n", what, rec);
        return;
    }
    size_t a = gltrace__glmessage__get_packed_size(mine), c = gltrace__glmessage__get_packed_size(ref);
    uint8_t *pa = malloc(a ? a : 1), *pc = malloc(c ? c : 1);
    if (!pa || !pc) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    gltrace__glmessage__pack(mine, pa);
    gltrace__glmessage__pack(ref, pc);
    if (a != c || memcmp(pa, pc, a) != 0) {
        if (failures++ < 10)
            fprintf(stderr, "FAIL %s record %lu: rp_decode and protobuf-c decode different messages\n", what, rec);
    }
    free(pa);
    free(pc);
    gltrace__glmessage__free_unpacked(ref, NULL);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_decode TRACE...\n");
        return 2;
    }
    unsigned long records = 0, whole_fast = 0;
    srand(1);
    for (int i = 1; i < argc; i++) {
        char err[GT_ERRLEN];
        gt_reader *rd = gt_reader_open(argv[i], err, sizeof err);
        if (!rd) {
            fprintf(stderr, "FAIL %s\n", err);
            return 1;
        }
        gt_record rec;
        int rc;
        while ((rc = gt_reader_next(rd, &rec)) == 1) {
            records++;
            unsigned long before = fast;
            agree(rec.data, rec.size, "whole", records);
            whole_fast += fast > before;
            uint8_t *copy = malloc(rec.size ? rec.size : 1);
            if (!copy)
                return 2;
            for (size_t cut = 0; cut < rec.size && cut < 64; cut++) {
                memcpy(copy, rec.data, cut);
                agree(copy, cut, "cut", records);
            }
            for (int k = 0; k < 8 && rec.size; k++) {
                size_t cut = (size_t)rand() % rec.size;
                memcpy(copy, rec.data, cut);
                agree(copy, cut, "cut", records);
                memcpy(copy, rec.data, rec.size);
                copy[(size_t)rand() % rec.size] ^= (uint8_t)(1u << (rand() % 8));
                agree(copy, rec.size, "flipped", records);
            }
            free(copy);
        }
        if (rc < 0) {
            fprintf(stderr, "FAIL %s\n", gt_reader_error(rd));
            return 1;
        }
        gt_reader_close(rd);
    }
    rp_decoder_free(&dec);
    printf("%lu records (%lu decoded by rp_decode), %lu inputs with damaged copies (%lu decoded): %lu disagree\n",
           records, whole_fast, checked, fast, failures);
    if (records == 0 || whole_fast * 2 < records) {
        fprintf(stderr, "FAIL: fewer than half the records took rp_decode's path\n");
        return 1;
    }
    return failures ? 1 : 0;
}
