/* rp_diverge_probe.c: a replay's side of gltrace diverge (gt_diverge.h).
 * The replay reports events, one line each, on the probe's out_fd:
 *
 *   F FRAME SEQ HASH W H FUNCTION      a frame's end: the back buffer before the swap
 *                                      (none before the frames whose draws are asked for)
 *   D FRAME SEQ HASH W H FUNCTION      after a draw, in the frames asked for
 *   (with `recorded`, instead of F:)
 *   S FRAME SEQ HASH W H WHAT SAME CALL FUNCTION
 *                                      a recorded snapshot compared (SAME: byte for
 *                                      byte), after call CALL to FUNCTION
 *
 * HASH is gt_diff_image_hash of the RGBA8 picture (0 with W H 0 0 when it
 * could not be read). After each event it reads commands from in_fd:
 * "c" goes on; "i" sends the event's picture, "e" the recorded snapshot's
 * (S only), each as "I W H\n" and W*H*4 bytes of RGBA, rows top first;
 * "s DIR" dumps the state at this point into DIR (gt_inspect_write) and
 * answers "ok" or "no WHY". End
 * of input means the parent has what it wanted: the process ends at once,
 * with nothing of the rest replayed. */
#include "rp_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt_api.h"
#include "gt_diff.h"
#include "gt_diverge.h"
#include "gt_inspect.h"

typedef struct rp_probe {
    const gt_replay_probe *cfg;
    FILE *in;
    gt_diff_image img, expected; /* the last event's pictures */
    uint64_t last_seq;           /* the last GL call replayed, and its function */
    const char *last_name;
} rp_probe;

int rp_probe_open(rp *r)
{
    rp_probe *p = calloc(1, sizeof *p);
    if (p)
        p->in = fdopen(r->opt->probe->in_fd, "r");
    if (!p || !p->in) {
        free(p);
        snprintf(r->sum->error, sizeof r->sum->error, "gltrace diverge: cannot read its commands (fd %d)",
                 r->opt->probe->in_fd);
        return -1;
    }
    p->cfg = r->opt->probe;
    p->last_name = "-";
    r->probe = p;
    return 0;
}

void rp_probe_close(rp *r)
{
    rp_probe *p = r->probe;
    if (!p)
        return;
    fclose(p->in);
    gt_diff_image_free(&p->img);
    gt_diff_image_free(&p->expected);
    free(p);
    r->probe = NULL;
}

/* A write the parent cannot take ends the process: it stopped listening. */
static void send_bytes(rp_probe *p, const void *b, size_t n)
{
    const uint8_t *c = b;
    while (n) {
        ssize_t k = write(p->cfg->out_fd, c, n);
        if (k <= 0)
            _exit(0);
        c += k, n -= (size_t)k;
    }
}

static void send_image(rp_probe *p, const gt_diff_image *img)
{
    char head[64];
    uint32_t w = img->rgba ? img->width : 0, h = img->rgba ? img->height : 0;
    int n = snprintf(head, sizeof head, "I %" PRIu32 " %" PRIu32 "\n", w, h);
    send_bytes(p, head, (size_t)n);
    send_bytes(p, img->rgba, (size_t)w * h * 4);
}

static void dump_state(rp *r, const char *dir)
{
    char err[512], line[600];
    int ok = gt_inspect_write(r, dir, 1, err, sizeof err) == 0;
    int n = snprintf(line, sizeof line, ok ? "ok\n" : "no %s\n", err);
    send_bytes(r->probe, line, n < (int)sizeof line ? (size_t)n : sizeof line - 1);
}

static void wait_commands(rp *r)
{
    rp_probe *p = r->probe;
    char line[4200];
    for (;;) {
        if (!fgets(line, sizeof line, p->in))
            _exit(0);
        if (line[0] == 'c')
            return;
        if (line[0] == 'i')
            send_image(p, &p->img);
        else if (line[0] == 'e')
            send_image(p, &p->expected);
        else if (line[0] == 's' && line[1] == ' ') {
            line[strcspn(line, "\n")] = 0;
            dump_state(r, line + 2);
        }
    }
}

/* Writes the event line (`tail`: what follows its function) and waits. */
static void event(rp *r, char kind, const char *function, const char *tail)
{
    rp_probe *p = r->probe;
    char line[512];
    uint64_t hash = p->img.rgba ? gt_diff_image_hash(&p->img) : 0;
    uint32_t w = p->img.rgba ? p->img.width : 0, h = p->img.rgba ? p->img.height : 0;
    int n = snprintf(line, sizeof line, "%c %" PRIu64 " %" PRIu64 " %016" PRIx64 " %" PRIu32 " %" PRIu32 " %s%s\n",
                     kind, r->frame, r->seq, hash, w, h, function, tail);
    send_bytes(p, line, n < (int)sizeof line ? (size_t)n : sizeof line - 1);
    wait_commands(r);
}

static void read_current(rp *r, int back_buffer)
{
    int fbo = 0;
    gt_diff_image_free(&r->probe->img);
    if (rp_snapshot_read(r, back_buffer, &r->probe->img, &fbo) != 0)
        gt_diff_image_free(&r->probe->img);
}

void rp_probe_call(rp *r, const rp_entry *e)
{
    rp_probe *p = r->probe;
    p->last_seq = r->seq, p->last_name = e->name;
    if (e->cls != GT_CLASS_DRAW || r->frame < p->cfg->draw_first || r->frame > p->cfg->draw_last)
        return;
    read_current(r, 0);
    event(r, 'D', e->name, "");
}

void rp_probe_frame(rp *r, uint64_t tid)
{
    const rp_msg *m = r->cur;
    const rp_entry *e = m && m->function >= 0 && (size_t)m->function <= r->max_number ? r->by_number[m->function]
                                                                                       : NULL;
    const gt_replay_probe *cfg = r->probe->cfg;
    if (cfg->recorded || (cfg->draw_first <= cfg->draw_last && r->frame < cfg->draw_first))
        return; /* narrowing to a frame: the frames before it were compared */
    gt_diff_image_free(&r->probe->img);
    if (rp_make_current_for(r, tid) == 0)
        read_current(r, 1);
    event(r, 'F', e ? e->name : "frame-end", "");
}

static void copy_image(gt_diff_image *to, const gt_diff_image *from)
{
    gt_diff_image_free(to);
    if (from && from->rgba && gt_diff_image_alloc(to, from->width, from->height) == 0)
        memcpy(to->rgba, from->rgba, (size_t)from->width * from->height * 4);
}

void rp_probe_snapshot(rp *r, const gt_replay_snapshot *o, int same, const gt_diff_image *expected,
                       const gt_diff_image *actual)
{
    rp_probe *p = r->probe;
    if (!p->cfg->recorded)
        return;
    copy_image(&p->img, same ? NULL : actual);
    copy_image(&p->expected, same ? NULL : expected);
    char tail[256];
    snprintf(tail, sizeof tail, " %d %" PRIu64 " %s", same, p->last_seq, p->last_name);
    event(r, 'S', o && o->what[0] ? o->what : "snapshot", tail);
}
