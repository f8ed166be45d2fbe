/* rp_trim_snap.c: coded snapshots in a trim.
 *
 * A coded snapshot (gt_snapshot.h) may be a delta against the previous
 * snapshot of its target, which a trim leaves behind. So every snapshot of
 * the original goes through a chain, kept or not, and the first one a trim
 * writes for each (thread, slot) is written as a keyframe of its pixels;
 * the deltas after it are copied as they are. */
#include "rp_trim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltrace.pb-c.h"
#include "gt_show.h"
#include "gt_trace.h"

int rp_trim_snaps_open(rp_trim_snaps *s)
{
    memset(s, 0, sizeof *s);
    s->chain = gt_snap_chain_new();
    return s->chain ? 0 : -1;
}

void rp_trim_snaps_close(rp_trim_snaps *s)
{
    gt_snap_chain_free(s->chain);
    s->chain = NULL;
}

static int is_snapshot(const gt_record *rec)
{
    uint64_t fn = 0;
    return gt_wire_find_varint(rec->data, rec->size, 4, &fn) == 1 && fn == GT_FN_SNAPSHOT;
}

/* Whether (tid, slot) has had its keyframe in the trim; notes it. A table
 * full answers no: more keyframes, never a delta without its base. */
static int keyed(rp_trim_snaps *s, uint64_t tid, uint32_t slot)
{
    for (size_t i = 0; i < s->nkeyed; i++)
        if (s->keyed[i].tid == tid && s->keyed[i].slot == slot)
            return 1;
    if (s->nkeyed < sizeof s->keyed / sizeof s->keyed[0])
        s->keyed[s->nkeyed].tid = tid, s->keyed[s->nkeyed++].slot = slot;
    return 0;
}

int rp_trim_snap_record(rp_trim_snaps *s, const gt_record *rec, int emitted, uint8_t **key, size_t *keylen,
                        char *err, size_t errlen)
{
    *key = NULL;
    if (!is_snapshot(rec))
        return 0;
    Gltrace__GLMessage *m = gltrace__glmessage__unpack(NULL, rec->size, rec->data);
    if (!m || !m->fb) {
        snprintf(err, errlen, "record %llu: a snapshot that cannot be read", (unsigned long long)rec->seq);
        if (m)
            gltrace__glmessage__free_unpacked(m, NULL);
        return -1;
    }
    Gltrace__GLMessage__FrameBuffer *fb = m->fb;
    int coded = fb->has_coding && fb->coding != 0;
    int need_key = coded && emitted && !keyed(s, rec->thread_id, fb->slot) && fb->coding != GT_SNAP_KEY;
    const uint8_t *px = NULL;
    size_t n = 0;
    int rc = 0;
    if (coded && gt_show_snapshot_pixels(s->chain, fb, rec->thread_id, need_key ? &px : NULL, &n, err, errlen) != 0) {
        rc = -1;
    } else if (need_key) {
        /* the record again, its pixels as a keyframe (the hash stays) */
        ProtobufCBinaryData old = fb->contents[0], raw = {.len = n, .data = (uint8_t *)px};
        size_t old_n = fb->n_contents;
        ProtobufCBinaryData one[1] = {raw};
        ProtobufCBinaryData *old_v = fb->contents;
        fb->contents = one, fb->n_contents = 1, fb->coding = GT_SNAP_KEY;
        *keylen = gltrace__glmessage__get_packed_size(m);
        *key = malloc(*keylen);
        if (*key)
            gltrace__glmessage__pack(m, *key);
        else
            snprintf(err, errlen, "out of memory"), rc = -1;
        fb->contents = old_v, fb->n_contents = old_n; /* the message's own, for its free */
        (void)old;
    }
    gltrace__glmessage__free_unpacked(m, NULL);
    return rc;
}
