/* rp_trim_objects.c: the objects deleted before the start of a trim, and
 * the records that only filled them, which the trim leaves out; and the
 * writes into live objects that a later whole write replaced before
 * anything read them (write_of, supersede).
 *
 * What a command does to an object, and where that object is, is data
 * (api/annotations.txt `object` lines, gt_api_fn.obj_*): `contents` (an
 * upload, a parameter, a source, a link: it changes that object alone),
 * `pins` (something else now holds it: a framebuffer attachment, a vertex
 * array), `maps` (a mapping keeps it; with its data records, flushes and
 * unmap, one write), `deletes`. The object is found by the replay of the
 * original as it happens: by the name a parameter gives, or by asking the
 * replay's driver what is bound to the command's target (the binding is
 * api/state.tsv's row with that target=), or which program is in use. So
 * the active texture unit, a vertex array's element buffer and the like
 * are the driver's business, not ours.
 *
 * An object's life runs from its first contents record to its deletion;
 * a name used again after that is a new life. The contents records of a
 * life that ended before the start go, unless the object was pinned
 * (its contents outlived its name) or the trim keeps every object
 * (--keep-all), or was bound at a draw of the setup that stays (into a
 * framebuffer object: its pixels reached a live texture). What this
 * misses (a copy between objects, an EGL image made from a deleted
 * texture) the check of the result finds, and rp_trim.c then makes the
 * trim again keeping them. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <stdlib.h>
#include <string.h>

#include <GLES3/gl32.h>

#include "gt_api.h"
#include "gt_api_state.h"
#include "gt_enums.h"
#include "gt_trace.h"

/* Something that may have read a life's records so far, or held the
 * object: a mark. Marks are kept, not applied, because a draw's marks
 * count only if the draw stays, and step 9 decides that only at the end
 * of the plan (a draw into a texture it leaves out reads nothing). */
/* PIN: something holds it, that draws read through (an attachment, a
 * vertex array); KEEP: its contents outlive its name, but nothing reads
 * through what keeps it (a mapping); IF_PINNED: a barrier when the object
 * was held then. */
enum { BARRIER = 1, PIN = 2, IF_PINNED = 4, KEEP = 8 };
#define ALWAYS UINT64_MAX
typedef struct mark {
    size_t pos;   /* the life's records before it */
    uint64_t seq; /* the draw it came from (it counts if that draw stays), or ALWAYS */
    uint64_t last; /* an IF_PINNED run: every draw of the life's group from seq to last marked it (seq: one) */
    uint8_t how;
} mark;

typedef struct life {
    uint64_t *seq; /* its contents records */
    uint32_t *part; /* of each: what it writes (write_of: a level, the buffer), 0 else, SUPERSEDED, ASKED; | WHOLE */
    struct box { int64_t v[6]; } *box; /* of each SUB write: its region (x y z width height depth; offset size) */
    size_t n, cap;
    mark *marks;
    size_t nmarks, capmarks;
    int group;     /* its share group */
    uint32_t name; /* replayed */
    uint8_t cls;   /* gt_state_class */
    uint8_t pinned; /* kept (PIN or KEEP): while planning, by any mark; after resolve, by marks that count */
    uint8_t held;   /* the same, PIN only */
    uint8_t dead;
    uint8_t touched; /* bound at the start, or named by a kept record */
    uint8_t counted; /* in the summary's count of objects */
    uint32_t epoch;  /* its contents records so far that are not state commands (a link, a source) */
    uint64_t made, deleted; /* the records that made its name and deleted it (one name each), or UINT64_MAX */
    uint8_t ended;   /* made and deleted handed to step 8 */
    uint8_t packed;  /* a pixel read wrote into it: its record is pack_pos */
    size_t pack_pos;
    size_t back;     /* its bytes read back at the start: plan->buffers.v index + 1 */
    struct hold_at *holds; /* the slots holding it (hold, unhold) */
    uint32_t nholds, capholds;
    uint64_t *users; /* state commands that bind it (glUseProgram): they go when all of it goes */
    uint32_t nusers, capusers;
} life;

/* A slot holding an object: the holder it is part of (a vertex array: the
 * one bound then, GT_PART_GET of `what`; a framebuffer: the one bound to
 * the target `what`, GT_PART_BOUND), so that a deletion can tell whether
 * GL let go of it there (the current one's slots). */
typedef struct hold_at {
    uint64_t slot;
    uint32_t what, holder;
    int ctx;
    uint8_t kind;
} hold_at;

#define MAP_OPEN 8  /* mappings open at once, all contexts */
#define MAP_SEQS 16 /* records of one mapped write: the map, its data, the unmap */

/* A write-only mapping of a buffer, from its map to its unmap: one write
 * of the mapped range, made of the map call, the gltraceMappedData
 * records (the bytes the app wrote) and the unmap. */
typedef struct mapping {
    uint8_t open, spoiled; /* spoiled: a record of its context that may read the buffer came between, or too many */
    int ctx;
    uint32_t buffer; /* the replayed buffer mapped */
    int64_t offset, length, size; /* the mapped range, the buffer's size */
    int64_t written;       /* bytes from offset the data records wrote one after the other */
    uint64_t seq[MAP_SEQS];
    int n;
} mapping;

struct rp_trim_objs {
    rp_map live;     /* (group, class, replayed name) -> index + 1 in lives */
    rp_map asked;    /* (life, a query's arguments and answer) -> the life's epoch + 1 when asked */
    life *lives;
    size_t n, cap;
    int start_group;  /* the group whose untouched objects may go, -1 none */
    mapping maps[MAP_OPEN];
    int oom;          /* a mark was lost: nothing is left out */
    uint64_t wrote_seq, wrote; /* the last record that wrote into a buffer, its life + 1: it does not read it */
    rp_map active;    /* (context, target) -> the replayed query begun on it */
    rp_map made;      /* key_of an object's name -> the record that made it (a glGen* of one name) + 1 */
    rp_map holds;     /* a holder's slot (step 8's key) -> (life + 1) << 32 | its pin's mark, while it holds */
    rp_map fbos;      /* framebuffers whose attachments the kept records reach (touch_attached): replayed name -> 1 */
    rp_map reached;   /* key_of what those framebuffers hold at the start, alive or deleted by name -> 1 */
    rp_map last;      /* key_of a name -> its last life + 1, alive or deleted (held_life) */
    /* Fence syncs (rp_trim_objs_syncs_finish). */
    struct sync_use { uint64_t handle, seq; uint32_t life; int makes; } *syncs;
    size_t nsyncs, capsyncs;
    rp_map sync_life;  /* recorded handle -> its life + 1 while alive, 0 deleted */
    size_t nlives_sync;
    rp_map sync_kept; /* recorded handles the kept records name */
    int syncs_known;  /* the kept records were read */
    /* The draws and reads through a framebuffer (rp_trim_objs_draw), in
     * order: a run of the same mark on an object from consecutive draws of
     * its share group is one mark (mark.last), which counts when one of
     * the draws of its group in that run stays. A mark each took 200 MB by
     * frame 16000 of a glmark2 run (a draw times the objects held), and
     * 111 MB by frame 19000 for the objects bound at each draw. */
    struct group_draw { uint64_t seq; int group; } *draws;
    uint32_t ndraws, capdraws;
    uint64_t group_last[RP_MAX_CTX]; /* each share group's last draw so far + 1 (0: none) */
    uint64_t run_after; /* while a draw marks: its group's draw before, whose marks it may extend (ALWAYS: none) */
};

rp_trim_objs *rp_trim_objs_new(void)
{
    rp_trim_objs *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->start_group = -1;
    o->run_after = ALWAYS;
    return o;
}

void rp_trim_objs_free(rp_trim_objs *o)
{
    if (!o)
        return;
    for (size_t i = 0; i < o->n; i++)
        free(o->lives[i].seq), free(o->lives[i].part), free(o->lives[i].box), free(o->lives[i].marks), free(o->lives[i].holds),
            free(o->lives[i].users);
    free(o->lives);
    rp_map_free(&o->live);
    rp_map_free(&o->asked);
    rp_map_free(&o->active);
    rp_map_free(&o->made);
    free(o->draws);
    rp_map_free(&o->holds);
    rp_map_free(&o->fbos);
    rp_map_free(&o->reached);
    rp_map_free(&o->last);
    rp_map_free(&o->sync_kept);
    rp_map_free(&o->sync_life);
    free(o->syncs);
    free(o);
}

static uint64_t key_of(const rp *r, int cls, uint32_t name)
{
    uint64_t group = (uint64_t)(uint32_t)r->ctx[r->cur_ctx].group & 0xffffff;
    return 1ull << 63 | group << 40 | (uint64_t)(cls & 0xff) << 32 | name;
}

/* The binding a target names (key part binding:PARAM): a cube map's
 * faces are bound as the cube map; GL_FRAMEBUFFER names the draw
 * framebuffer (binding it binds the read one too: rp_trim_binding_also). */
uint32_t rp_trim_binding_target(uint32_t target)
{
    if (target == GL_FRAMEBUFFER)
        return GL_DRAW_FRAMEBUFFER;
    return target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z ? GL_TEXTURE_CUBE_MAP
                                                                                               : target;
}

/* The second binding a binding of target sets, or 0: glBindFramebuffer
 * of GL_FRAMEBUFFER binds the draw and the read framebuffer (GLES 3.2
 * section 9.2). */
uint32_t rp_trim_binding_also(uint32_t target)
{
    return target == GL_FRAMEBUFFER ? GL_READ_FRAMEBUFFER : 0;
}

/* The object bound to `target` on the replay's current context: its
 * replayed name and class, 0 when nothing is bound or the target has no
 * binding in api/state.tsv. A cube map's faces are bound as the cube map,
 * GL_FRAMEBUFFER is the draw framebuffer. */
uint32_t rp_trim_bound(uint32_t target, int *cls)
{
    target = rp_trim_binding_target(target);
    for (size_t i = 0; i < gt_api_nstates; i++) {
        const gt_api_state *s = &gt_api_states[i];
        if (s->query != GT_STATE_GET || s->target != target || s->type != GT_STATE_NAME)
            continue;
        GLint name = 0;
        glGetIntegerv(s->pname, &name);
        *cls = s->cls;
        return (uint32_t)name;
    }
    return 0;
}

/* The life of an object, made on its first use; NULL: out of memory. */
static life *life_of(rp_trim_objs *o, const rp *r, uint64_t key)
{
    uint64_t v;
    if (rp_map_get(&o->live, key, &v) && v)
        return &o->lives[v - 1];
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 256;
        life *l = realloc(o->lives, cap * sizeof *l);
        if (!l)
            return NULL;
        o->lives = l, o->cap = cap;
    }
    memset(&o->lives[o->n], 0, sizeof o->lives[o->n]);
    uint64_t mk = 0;
    o->lives[o->n].made = rp_map_get(&o->made, key, &mk) && mk ? mk - 1 : UINT64_MAX;
    o->lives[o->n].deleted = UINT64_MAX;
    o->lives[o->n].group = r->ctx[r->cur_ctx].group;
    o->lives[o->n].name = (uint32_t)key, o->lives[o->n].cls = (uint8_t)(key >> 32);
    if (rp_map_put(&o->live, key, o->n + 1) != 0 || rp_map_put(&o->last, key, o->n + 1) != 0)
        return NULL;
    return &o->lives[o->n++];
}

/* ---------------------------------------------------------------- superseded writes */

#define SUPERSEDED UINT32_MAX
#define ASKED (UINT32_MAX - 1) /* a query asked again with the same answer: it goes as a superseded write */
#define SUB (1u << 30) /* a write into what a specification made (glTexSubImage*, glBufferSubData) */
#define WHOLE (1u << 29) /* in part[]: the write replaced all of its part (resolve supersedes what came before) */

/* The index of f's parameter `name` (the registry's), or -1. */
int rp_trim_param(const gt_api_fn *f, const char *name)
{
    for (unsigned i = 0; i < f->nparams; i++)
        if (!strcmp(f->params[i].name, name))
            return (int)i;
    return -1;
}

/* The value of f's parameter `name` in m, or `absent`. */
int64_t rp_trim_arg(const gt_api_fn *f, const rp_msg *m, const char *name, int64_t absent)
{
    int i = rp_trim_param(f, name);
    return i >= 0 && (unsigned)i < m->n_args ? rp_arg_i(m, (unsigned)i) : absent;
}

/* Whether the region [x, x+w) x [y, y+h) x [z, z+d) of the level just
 * written covers it (GLES 3.1's glGetTexLevelParameteriv, asked of the
 * replay's driver; an older context refuses: not known to cover). */
static int covers_level(rp *r, uint32_t target, int64_t level, int64_t x, int64_t y, int64_t z, int64_t w,
                        int64_t h, int64_t d)
{
    GLint lw = -1, lh = -1, ld = -1;
    rp_hold_errors(r);
    glGetTexLevelParameteriv(target, (GLint)level, GL_TEXTURE_WIDTH, &lw);
    glGetTexLevelParameteriv(target, (GLint)level, GL_TEXTURE_HEIGHT, &lh);
    glGetTexLevelParameteriv(target, (GLint)level, GL_TEXTURE_DEPTH, &ld);
    int refused = 0;
    while (glGetError() != GL_NO_ERROR)
        refused = 1;
    return !refused && !x && !y && !z && w == lw && h == lh && d == ld;
}

/* A pixel read (a format, a width) that writes into an object bound to a
 * target: the pixel pack buffer. */
static int is_pack_write(const gt_api_fn *f)
{
    return f->obj_where == GT_WHERE_BOUND_TO && rp_trim_param(f, "format") >= 0 && rp_trim_param(f, "width") >= 0;
}

/* A pixel read into the pixel pack buffer (the object the record writes
 * is the one bound there): a range of it, from the offset its pointer
 * parameter gives; whole when the rows written fill the buffer from 0
 * without a byte between them left as it was. */
static uint32_t pack_write(rp *r, const gt_api_fn *f, const rp_msg *m, int *whole)
{
    int64_t offset = -1;
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++)
        if (f->params[i].kind == GT_K_POINTER && f->params[i].dir == GT_DIR_OUT)
            offset = (int64_t)rp_arg_u(m, i);
    int gaps = 1;
    long n = rp_pack_bytes(r, rp_trim_arg(f, m, "format", 0), rp_trim_arg(f, m, "type", 0), rp_trim_arg(f, m, "width", 0),
                           rp_trim_arg(f, m, "height", 0), &gaps);
    GLint size = -1;
    rp_hold_errors(r);
    glGetBufferParameteriv(f->obj_target, GL_BUFFER_SIZE, &size);
    while (glGetError() != GL_NO_ERROR)
        size = -1;
    *whole = offset == 0 && !gaps && n == size;
    return 1 | SUB;
}

/* What a contents record writes, from its parameters' names in the
 * registry: a texture level (a `level`: without an `xoffset` it
 * specifies the level, its size, format and pixels: glTexImage*,
 * glCopyTexImage*, glCompressedTexImage*; with one it writes a region
 * of what a specification made, SUB, whole when it covers the level),
 * keyed by target (a cube face) and level; a buffer (a `usage`:
 * glBufferData specifies it; an `offset`: a range, SUB, whole when from 0
 * to its size); else 0 (parameters, sources, storage, mipmap generation).
 * *whole: it replaces the pixels or bytes that part held. Asked after
 * the replay made the call. */
static uint32_t write_of(rp *r, const gt_api_fn *f, const rp_msg *m, int *whole, struct box *box)
{
    *whole = 0;
    *box = (struct box){{-1, -1, -1, -1, -1, -1}};
    if (f->obj_class == GT_STATE_QUERY_NAME) { /* a begin or timestamp writes the result whole, an end in part */
        *whole = f->obj_where != GT_WHERE_ACTIVE;
        return *whole ? 1 : 1 | SUB;
    }
    int64_t level = rp_trim_arg(f, m, "level", -1), target = rp_trim_arg(f, m, "target", 0);
    if (level >= 0 && level < 256) {
        uint32_t part = ((uint32_t)target & 0xffff) << 8 | (uint32_t)level;
        if (rp_trim_param(f, "xoffset") < 0) {
            *whole = 1;
        } else {
            int64_t depth = rp_trim_param(f, "depth") >= 0 ? rp_trim_arg(f, m, "depth", 1) : 1;
            *box = (struct box){{rp_trim_arg(f, m, "xoffset", 0), rp_trim_arg(f, m, "yoffset", 0),
                                 rp_trim_arg(f, m, "zoffset", 0), rp_trim_arg(f, m, "width", -1),
                                 rp_trim_arg(f, m, "height", 1), depth}};
            *whole = covers_level(r, (uint32_t)target, level, box->v[0], box->v[1], box->v[2], box->v[3], box->v[4],
                                  box->v[5]);
            part |= SUB;
        }
        return part;
    }
    if (rp_trim_param(f, "usage") >= 0)
        return *whole = 1, 1;
    if (is_pack_write(f))
        return pack_write(r, f, m, whole);
    if (rp_trim_param(f, "offset") >= 0 && rp_trim_param(f, "size") >= 0 && target) {
        GLint size = -1;
        rp_hold_errors(r);
        glGetBufferParameteriv((GLenum)target, GL_BUFFER_SIZE, &size);
        while (glGetError() != GL_NO_ERROR)
            size = -1;
        *whole = rp_trim_arg(f, m, "offset", -1) == 0 && rp_trim_arg(f, m, "size", -2) == size;
        *box = (struct box){{rp_trim_arg(f, m, "offset", -1), rp_trim_arg(f, m, "size", -1), 0, 0, 0, 0}};
        return 1 | SUB;
    }
    return 0;
}

/* A write that replaced all of `part`: the life's earlier writes to it
 * in [from, end), since the last record that may have read them, are
 * superseded; a region's write (SUB) supersedes only regions' writes, as
 * the specification under them still makes the level or buffer. */
static void supersede_before(life *l, uint32_t part, size_t from, size_t end)
{
    for (size_t k = from; k < end; k++) {
        uint32_t p = l->part[k] & ~WHOLE;
        if (l->part[k] < ASKED && (p | SUB) == (part | SUB) && (!(part & SUB) || (p & SUB)))
            l->part[k] = SUPERSEDED;
    }
}

/* A region's write replaces an earlier write of the same region of the
 * same part in [from, k) (Qt writes an image into its texture atlas in
 * five glTexSubImage2D a frame, the same five rectangles each time). */
static void supersede_same_region(life *l, size_t k, size_t from)
{
    if (l->box[k].v[0] < 0 || l->box[k].v[3] <= 0)
        return; /* no region known */
    for (size_t j = from; j < k; j++)
        if (l->part[j] == l->part[k] && !memcmp(&l->box[j], &l->box[k], sizeof l->box[k]))
            l->part[j] = SUPERSEDED;
}

static struct mapping *mapping_of(rp_trim_objs *o, int ctx, uint32_t buffer);

/* A draw reads a buffer mapped now: the mapping is no longer one write. */
static void spoil_buffer(rp_trim_objs *o, const rp *r, const life *l)
{
    struct mapping *mp = l->cls == GT_STATE_BUFFER_NAME ? mapping_of(o, r->cur_ctx, l->name) : NULL;
    if (mp)
        mp->spoiled = 1;
}

/* A mark on l at its records so far; from a draw (seq) or ALWAYS. */
static void mark_add(rp_trim_objs *o, life *l, int how, uint64_t seq)
{
    mark *prev = l->nmarks ? &l->marks[l->nmarks - 1] : NULL;
    if (prev && prev->pos == l->n && prev->seq == ALWAYS && (prev->how & how) == how)
        return; /* one that always counts says as much already */
    if (prev && prev->pos == l->n && prev->how == IF_PINNED && how == IF_PINNED && prev->seq != ALWAYS &&
        seq != ALWAYS) {
        prev->last = seq; /* the next draw of a run: barrier_group marks every held object at every draw */
        return;
    }
    /* The same draw again, or the next draw of its group, with no record
     * of the object between: the run is whole. A mark with BARRIER
     * settles at its position what any mark there would, so it may join
     * a run a few marks back (a bound texture is held too: its marks
     * alternate with barrier_group's). */
    for (size_t i = l->nmarks, back = 0; seq != ALWAYS && i > 0 && back < 4; i--, back++) {
        mark *m = &l->marks[i - 1];
        if (m->pos != l->n)
            break;
        if (m->how == how && m->seq != ALWAYS && (m->last == seq || m->last == o->run_after)) {
            m->last = seq;
            return;
        }
        if (!(how & BARRIER))
            break;
    }
    if (l->nmarks == l->capmarks) {
        size_t cap = l->capmarks ? l->capmarks * 2 : 8;
        mark *m = realloc(l->marks, cap * sizeof *m);
        if (!m) {
            o->oom = 1;
            return;
        }
        l->marks = m, l->capmarks = cap;
    }
    l->marks[l->nmarks++] = (mark){l->n, seq, seq, (uint8_t)how};
    l->pinned |= (how & (PIN | KEEP)) != 0;
    l->held |= (how & PIN) != 0;
}

/* Whether the record seq stays in the trim (a mark from it counts). */
static int stays(const rp_trim_plan *plan, size_t nbytes, uint64_t seq)
{
    return seq == ALWAYS || (seq >> 3) >= nbytes || !(plan->drop[seq >> 3] >> (seq & 7) & 1);
}

#define NOT_EXCEPTED (ALWAYS - 1) /* no record is */

/* Whether mark m of l counts: its record stays, or of a run, a draw of
 * l's group in it other than `except` does. */
static int mark_counts(const rp_trim_objs *o, const life *l, const mark *m, const rp_trim_plan *plan,
                       size_t nbytes, uint64_t except)
{
    if (m->seq == m->last)
        return m->seq != except && stays(plan, nbytes, m->seq);
    size_t lo = 0, hi = o->ndraws;
    while (lo < hi) { /* the first draw at or after the run's */
        size_t mid = lo + (hi - lo) / 2;
        if (o->draws[mid].seq < m->seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < o->ndraws && o->draws[i].seq <= m->last; i++)
        if (o->draws[i].group == l->group && o->draws[i].seq != except && stays(plan, nbytes, o->draws[i].seq))
            return 1;
    return 0;
}

/* The marks that count applied in order: the writes a whole one replaced
 * since the last barrier are superseded, and l->pinned says whether
 * something held the object. */
static void resolve(const rp_trim_objs *o, life *l, const rp_trim_plan *plan, size_t nbytes)
{
    size_t barrier = 0, j = 0;
    int pinned = 0, held = 0;
    for (size_t k = 0; k <= l->n; k++) {
        for (; j < l->nmarks && l->marks[j].pos <= k; j++) {
            const mark *m = &l->marks[j];
            if (!mark_counts(o, l, m, plan, nbytes, NOT_EXCEPTED))
                continue;
            if ((m->how & BARRIER) || ((m->how & IF_PINNED) && held))
                barrier = m->pos;
            pinned |= (m->how & (PIN | KEEP)) != 0;
            held |= (m->how & PIN) != 0;
        }
        if (k < l->n && l->part[k] < ASKED && (l->part[k] & WHOLE))
            supersede_before(l, l->part[k] & ~WHOLE, barrier, k);
        else if (k < l->n && l->part[k] < ASKED && (l->part[k] & SUB))
            supersede_same_region(l, k, barrier);
    }
    l->pinned = (uint8_t)pinned, l->held = (uint8_t)held;
}

/* Every live object of the current context's share group (pinned_only:
 * those something holds) may have been read: its writes so far stay. */
static void barrier_group(rp_trim_objs *o, const rp *r, int pinned_only, uint64_t seq)
{
    int g = r->ctx[r->cur_ctx].group;
    for (size_t i = 0; i < o->n; i++)
        if (o->lives[i].group == g && !o->lives[i].dead && (!pinned_only || o->lives[i].held)) {
            mark_add(o, &o->lives[i], pinned_only ? IF_PINNED : BARRIER, seq);
            spoil_buffer(o, r, &o->lives[i]);
        }
}

/* A holder's slot (a vertex array's attribute, an attachment point) is
 * filled by a state command that pins the object it names (its mark,
 * which counts if that command stays). Filled again, the slot holds that
 * object no more: what the pin guarded from then on is only what read
 * through the slot meanwhile, the draws and reads whose IF_PINNED marks
 * followed it. Those become reads that pin, counting if their record
 * stays. Else a buffer a vertex array once pointed at kept its contents
 * after its deletion however often the attribute was pointed elsewhere
 * (glmark2 with one context for all its scenes: each scene's models). */
static void unhold(rp_trim_objs *o, uint64_t slot)
{
    uint64_t v = 0;
    if (!slot || !rp_map_get(&o->holds, slot, &v) || !v)
        return;
    rp_map_put(&o->holds, slot, 0);
    life *l = &o->lives[(v >> 32) - 1];
    size_t at = (uint32_t)v;
    for (uint32_t i = 0; i < l->nholds; i++)
        if (l->holds[i].slot == slot) {
            l->holds[i] = l->holds[--l->nholds];
            break;
        }
    if (at >= l->nmarks)
        return;
    l->marks[at].how &= (uint8_t)~PIN;
    for (size_t j = at + 1; j < l->nmarks; j++)
        if ((l->marks[j].how & IF_PINNED) && l->marks[j].seq != ALWAYS)
            l->marks[j].how = (uint8_t)((l->marks[j].how & ~IF_PINNED) | BARRIER | PIN);
}

/* v (cap elements of `size` bytes, n used) with room for one more: v, or
 * the array it moved to; NULL out of memory (v is left as it was). */
static void *room(void *v, uint32_t *cap, uint32_t n, size_t size)
{
    if (n < *cap)
        return v;
    uint32_t c = *cap ? *cap * 2 : 4;
    void *p = realloc(v, c * size);
    if (p)
        *cap = c;
    return p;
}

/* The holder a slot of the state command f is part of, on the replay's
 * current context (after its record); 0 when its key names none. */
static uint32_t holder_now(uint8_t kind, uint32_t what)
{
    GLint v = 0;
    int cls = 0;
    uint32_t name = kind == GT_PART_GET ? (glGetIntegerv(what, &v), (uint32_t)v) : rp_trim_bound(what, &cls);
    while (glGetError() != GL_NO_ERROR)
        ; /* no vertex arrays (GLES 2): the one default array */
    return name;
}

static void hold(rp_trim_objs *o, rp *r, uint64_t slot, life *l, const gt_api_fn *f, const rp_msg *m)
{
    if (!slot || !l->nmarks || l->marks[l->nmarks - 1].how != PIN)
        return;
    if (rp_map_put(&o->holds, slot, (uint64_t)(l - o->lives + 1) << 32 | (uint32_t)(l->nmarks - 1)) != 0) {
        o->oom = 1;
        return;
    }
    const gt_api_key *k = &f->state[0];
    hold_at h = {.slot = slot, .ctx = r->cur_ctx};
    for (unsigned i = 0; i < k->nparts && i < 3 && !h.kind; i++)
        if (k->part[i].kind == GT_PART_GET)
            h.kind = GT_PART_GET, h.what = k->part[i].value;
        else if (k->part[i].kind == GT_PART_BOUND && k->part[i].value < m->n_args)
            h.kind = GT_PART_BOUND, h.what = (uint32_t)rp_arg_u(m, k->part[i].value);
    if (!h.kind)
        return; /* a slot of no holder's: never let go of by a deletion */
    h.holder = holder_now(h.kind, h.what);
    hold_at *v = room(l->holds, &l->capholds, l->nholds, sizeof *v);
    if (!v)
        o->oom = 1;
    else
        l->holds = v, l->holds[l->nholds++] = h;
}

/* l deleted by name: GL lets go of it in the holders bound on this
 * context (the vertex array bound, the framebuffers bound), not in
 * others. */
static void unhold_deleted(rp_trim_objs *o, rp *r, life *l)
{
    if (l->nholds)
        rp_hold_errors(r); /* the deletion's own, if any: not the queries' */
    for (uint32_t i = 0; i < l->nholds;) {
        const hold_at *h = &l->holds[i];
        if (h->ctx == r->cur_ctx && holder_now(h->kind, h->what) == h->holder)
            unhold(o, h->slot); /* removes holds[i] */
        else
            i++;
    }
}

/* The life of the object of class cls and replayed name `name` that GL
 * has: the live one, else the last one deleted by name, which GL keeps
 * while something holds it (a program its shader, a framebuffer its
 * attachment). */
static life *held_life(rp_trim_objs *o, const rp *r, int cls, uint32_t name)
{
    uint64_t v;
    return rp_map_get(&o->last, key_of(r, cls, name), &v) && v ? &o->lives[v - 1] : NULL;
}

/* The textures and renderbuffers attached to the framebuffer object bound
 * to target: their classes (gt_state_class) and replayed names into cls[]
 * and name[]; how many. */
#define MAX_ATTACHED 34 /* 32 colour, depth, stencil */
static int attachments(const rp *r, GLenum target, int *cls, uint32_t *name)
{
    GLint colors = 1, type, nm;
    int n = 0;
    if (r->ctx[r->cur_ctx].version >= 3)
        glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &colors);
    for (GLint i = -2; i < colors && i < 32; i++) {
        GLenum att = i == -2 ? GL_DEPTH_ATTACHMENT : i == -1 ? GL_STENCIL_ATTACHMENT : GL_COLOR_ATTACHMENT0 + (GLenum)i;
        type = GL_NONE, nm = 0;
        glGetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
        if (type != GL_TEXTURE && type != GL_RENDERBUFFER)
            continue;
        glGetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &nm);
        cls[n] = type == GL_TEXTURE ? GT_STATE_TEXTURE_NAME : GT_STATE_RENDERBUFFER_NAME;
        name[n++] = (uint32_t)nm;
    }
    return n;
}

/* A record that changes the program `program` (a link, an attachment):
 * a link reads the shaders attached then, so their sources and compiles
 * stay while such a record does (a mark from seq). Before, attaching
 * pinned a shader for good: glmark2 with one context for all its scenes
 * kept every scene's shaders in a trim of its last frames. */
static void mark_attached(rp_trim_objs *o, rp *r, uint32_t program, uint64_t seq)
{
    GLuint sh[64];
    GLsizei n = 0;
    rp_hold_errors(r); /* the record's own, if any */
    if (glIsProgram(program))
        glGetAttachedShaders(program, 64, &n, sh);
    while (glGetError() != GL_NO_ERROR)
        n = 0;
    for (GLsizei i = 0; i < n; i++) {
        life *l = held_life(o, r, GT_STATE_PROGRAM_NAME, sh[i]);
        if (l)
            mark_add(o, l, BARRIER | PIN, seq);
    }
}

/* The names a `deletes` record ends: each one's life is over. */
static void end_lives(rp_trim_objs *o, rp *r, const rp_msg *m, const gt_api_fn *f, uint64_t seq)
{
    int cls = rp_class_of_state(f->obj_class);
    GLint in_use = 0;
    if (f->obj_class == GT_STATE_PROGRAM_NAME)
        glGetIntegerv(GL_CURRENT_PROGRAM, &in_use); /* a program in use outlives its deletion */
    size_t n = 0;
    rp_obj_param_name(f, m, 0, &n);
    for (size_t i = 0; i < n; i++) {
        uint32_t rec = rp_obj_param_name(f, m, i, &n);
        uint64_t key = key_of(r, f->obj_class, rp_name(r, cls, rec)), v = 0, mk = 0;
        /* A name made and deleted with no use between (ANGLE makes seven
         * textures with each context and deletes them unused): a life of
         * its own, so that its making and deletion can go as a used one's. */
        if (rec && !(rp_map_get(&o->live, key, &v) && v) && rp_map_get(&o->made, key, &mk) && mk &&
            !life_of(o, r, key))
            continue; /* out of memory: they stay */
        if (rec)
            rp_map_put(&o->made, key, 0); /* the name's next making is another's */
        if (rec && rp_map_get(&o->live, key, &v) && v) {
            if (in_use && (uint32_t)in_use == (uint32_t)key) {
                mark_add(o, &o->lives[v - 1], PIN, ALWAYS);
                continue;
            }
            o->lives[v - 1].dead = 1;
            o->lives[v - 1].deleted = n == 1 ? seq : UINT64_MAX;
            unhold_deleted(o, r, &o->lives[v - 1]);
            rp_map_put(&o->live, key, 0); /* the name's next use is a new life */
        }
    }
}

static int lives_class(int cls);

/* A glGen* of one name of a class with lives, or a command that returns
 * one (glCreateShader, glCreateProgram: the registry's class of its
 * return value): the record that made it, which goes with the life when
 * that ends unheld before the start. */
static int note_made(rp_trim_objs *o, rp *r, const gt_api_fn *f, const rp_msg *m, uint64_t seq)
{
    uint32_t ret = lives_class(f->ret_class) && m->returnvalue ? (uint32_t)rp_ret_u(m) : 0;
    if (ret && rp_map_put(&o->made, key_of(r, f->ret_class, rp_name(r, rp_class_of_state(f->ret_class), ret)),
                          seq + 1) != 0)
        return -1;
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++) {
        const gt_api_param *pa = &f->params[i];
        size_t len = 0;
        const uint8_t *b = pa->kind == GT_K_POINTER && pa->dir == GT_DIR_OUT && lives_class(pa->obj_class)
                               ? rp_arg_bytes(m, i, &len) : NULL;
        uint32_t rec = 0;
        if (!b || len != 4 || (memcpy(&rec, b, 4), !rec))
            continue;
        uint64_t key = key_of(r, pa->obj_class, rp_name(r, rp_class_of_state(pa->obj_class), rec));
        if (rp_map_put(&o->made, key, seq + 1) != 0)
            return -1;
    }
    return 0;
}

/* A contents record of a life, with the region a SUB write wrote (NULL:
 * none known); -1: out of memory. */
static int add(life *l, uint64_t seq, uint32_t part, const struct box *box)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        uint64_t *s = realloc(l->seq, cap * sizeof *s);
        if (s)
            l->seq = s;
        uint32_t *w = realloc(l->part, cap * sizeof *w);
        if (w)
            l->part = w;
        struct box *b = realloc(l->box, cap * sizeof *b);
        if (b)
            l->box = b;
        if (!s || !w || !b)
            return -1;
        l->cap = cap;
    }
    l->box[l->n] = box ? *box : (struct box){{-1, -1, -1, -1, -1, -1}};
    l->seq[l->n] = seq, l->part[l->n++] = part;
    return 0;
}

/* ---------------------------------------------------------------- mapped writes */

static struct mapping *mapping_of(rp_trim_objs *o, int ctx, uint32_t buffer)
{
    for (int i = 0; i < MAP_OPEN; i++)
        if (o->maps[i].open && o->maps[i].ctx == ctx && o->maps[i].buffer == buffer)
            return &o->maps[i];
    return NULL;
}

/* Another record of a context with a mapping open: the mapping's records
 * are no longer one write that may go as one. */
static void spoil_mappings(rp_trim_objs *o, int ctx)
{
    for (int i = 0; i < MAP_OPEN; i++)
        if (o->maps[i].open && o->maps[i].ctx == ctx)
            o->maps[i].spoiled = 1;
}

/* A record between a map and its unmap spoils the mappings whose bytes
 * written so far it may read (a draw, a copy, an upload from the buffer):
 * not another mapping's record, not a state command, not a command whose
 * `reads` line names state only and that touches no object's bytes
 * (fences, makings, shaders, attachments, location queries), not an
 * EGL call; a texture upload only the
 * mapping of the buffer bound to GL_PIXEL_UNPACK_BUFFER. */
static void spoil_readers(rp_trim_objs *o, rp *r, const gt_api_fn *f)
{
    if (f && (f->obj_role == GT_OBJ_MAPS || f->obj_role == GT_OBJ_UNMAPS || f->obj_role == GT_OBJ_FLUSHES))
        return;
    if (f && f->is_egl)
        return; /* a swap, a context made current: EGL reads no buffer's bytes (GStreamer maps across swaps) */
    if (f && f->cls == GT_CLASS_DRAW)
        return; /* rp_trim_objs_draw: the buffers bound or held then */
    if (f && f->nstate && !(f->state[0].flags & GT_KEY_NONE))
        return; /* a state command */
    if (f && f->nstate && (f->obj_role == GT_OBJ_NONE || f->obj_role == GT_OBJ_PINS || f->obj_role == GT_OBJ_ASKS ||
                           f->obj_class == GT_STATE_SYNC_NAME || f->obj_class == GT_STATE_QUERY_NAME))
        return; /* it reads the state its `reads` line names (an attachment, a fence: no bytes) */
    if (f && f->nstate && f->obj_role == GT_OBJ_CONTENTS && rp_trim_param(f, "level") >= 0) {
        int cls = 0;
        uint32_t unpack = rp_trim_bound(GL_PIXEL_UNPACK_BUFFER, &cls);
        rp_hold_errors(r); /* a GLES 2 context has no such binding */
        mapping *mp = unpack ? mapping_of(o, r->cur_ctx, unpack) : NULL;
        if (mp)
            mp->spoiled = 1;
        return;
    }
    spoil_mappings(o, r->cur_ctx);
}

/* A map of the buffer l (replayed name `buffer`): a write of its range
 * when write-only (its bytes then come in gltraceMappedData records up to
 * its unmap; persistent or not, a record between that may read them
 * spoils that); a read of it else. glMapBufferOES maps all of it,
 * write-only; glMapBufferRange's `access` is bits. */
static void map_begin(rp_trim_objs *o, rp *r, const gt_api_fn *f, const rp_msg *m, life *l, uint32_t buffer,
                      uint64_t seq)
{
    uint32_t target = (uint32_t)rp_trim_arg(f, m, "target", 0);
    int ranged = rp_trim_param(f, "offset") >= 0;
    int64_t access = rp_trim_arg(f, m, "access", 0);
    GLint size = -1;
    rp_hold_errors(r);
    glGetBufferParameteriv(target, GL_BUFFER_SIZE, &size);
    while (glGetError() != GL_NO_ERROR)
        size = -1;
    mapping *mp = mapping_of(o, r->cur_ctx, buffer);
    for (int i = 0; !mp && i < MAP_OPEN; i++)
        if (!o->maps[i].open)
            mp = &o->maps[i];
    if (!mp || mp->open || (ranged && (access & GL_MAP_READ_BIT))) {
        mark_add(o, l, BARRIER, ALWAYS); /* what it reads needs what came before */
        if (mp && mp->open)
            mp->spoiled = 1; /* mapped twice: an error, or a mapping that did not end */
        return;
    }
    *mp = (mapping){.open = 1, .ctx = r->cur_ctx, .buffer = buffer, .size = size, .n = 1};
    mp->offset = ranged ? rp_trim_arg(f, m, "offset", -1) : 0;
    mp->length = ranged ? rp_trim_arg(f, m, "length", -1) : size;
    mp->seq[0] = seq;
}

/* A record of an open mapping (its data, a flush): one more of its write. */
static void map_part(mapping *mp, uint64_t seq)
{
    if (mp->n >= MAP_SEQS - 1) /* the unmap needs the last */
        mp->spoiled = 1;
    else
        mp->seq[mp->n++] = seq;
}

/* A gltraceMappedData record (proto/FORMAT.md: target, buffer, offset,
 * data): part of its buffer's open mapping. */
static void map_data(rp_trim_objs *o, rp *r, const rp_msg *m, uint64_t seq)
{
    uint32_t buffer = m->n_args >= 4 ? rp_name(r, RP_BUFFER, (uint32_t)rp_arg_u(m, 1)) : 0;
    mapping *mp = buffer ? mapping_of(o, r->cur_ctx, buffer) : NULL;
    if (!mp)
        return;
    size_t len = 0;
    rp_arg_bytes(m, 3, &len);
    map_part(mp, seq);
    if (rp_arg_i(m, 2) == mp->offset + mp->written)
        mp->written += (int64_t)len;
}

/* The unmap: the mapping's records join the buffer's writes, as one write
 * of its range; of all of it (mapped and written from 0 to its size), it
 * replaces the writes into the buffer before it, as glBufferSubData of
 * all of it would. -1: out of memory. */
static int map_end(rp_trim_objs *o, rp *r, life *l, uint32_t buffer, uint64_t seq)
{
    mapping *mp = mapping_of(o, r->cur_ctx, buffer);
    if (!mp)
        return 0;
    mp->open = 0;
    if (mp->spoiled || mp->n >= MAP_SEQS) {
        mark_add(o, l, BARRIER, ALWAYS);
        return 0;
    }
    mp->seq[mp->n++] = seq;
    size_t before = l->n;
    for (int i = 0; i < mp->n; i++)
        if (add(l, mp->seq[i], 1 | SUB, NULL) != 0)
            return -1;
    if (mp->offset == 0 && mp->length == mp->size && mp->written == mp->size)
        l->part[before] |= WHOLE; /* supersedes what came before the map */
    return 0;
}

/* A query's key: the life it asks of, its arguments (the bytes of a name)
 * and its answer. */
static uint64_t ask_key(const rp_msg *m, size_t life_index)
{
    uint64_t h = rp_trim_mix(0x61736b, life_index);
    for (unsigned i = 0; i < m->n_args; i++) {
        const Gltrace__GLMessage__DataType *d = m->args[i];
        const ProtobufCBinaryData *b = d && d->n_rawbytes ? &d->rawbytes[0] : d && d->n_charvalue ? &d->charvalue[0]
                                                                                                  : NULL;
        h = rp_trim_mix(h, b ? b->len : rp_arg_u(m, i)); /* the bytes behind a pointer, not its address */
        for (size_t k = 0; b && k < b->len; k++)
            h = rp_trim_mix(h, b->data[k]);
    }
    return rp_trim_mix(h, rp_ret_u(m));
}

/* ---------------------------------------------------------------- fence syncs */

/* A fence sync orders work and changes no pixel. Its life runs from the
 * command that made it (one returning a GLsync: the registry's type) to
 * its deletion (object role deletes, class sync); a handle made again is
 * a new life. The setup's records of a life deleted before the start go
 * (its making, waits, queries and deletion), and those of one alive at
 * the start that no kept record names. */
static int sync_use(rp_trim_objs *o, uint64_t handle, uint64_t seq, int makes)
{
    uint64_t v = 0;
    if (makes || !rp_map_get(&o->sync_life, handle, &v) || !v) {
        v = ++o->nlives_sync;
        if (rp_map_put(&o->sync_life, handle, v) != 0)
            return -1;
    }
    if (o->nsyncs == o->capsyncs) {
        size_t cap = o->capsyncs ? o->capsyncs * 2 : 64;
        struct sync_use *u = realloc(o->syncs, cap * sizeof *u);
        if (!u)
            return -1;
        o->syncs = u, o->capsyncs = cap;
    }
    o->syncs[o->nsyncs++] = (struct sync_use){handle, seq, (uint32_t)(v - 1), makes};
    return 0;
}

/* The record's fence syncs: made (returned), named (waited on, asked), or
 * deleted; -1: out of memory. */
static int note_syncs(rp_trim_objs *o, const gt_api_fn *f, const rp_msg *m, uint64_t seq)
{
    if (f->ret_ctype && !strcmp(f->ret_ctype, "GLsync") && m->returnvalue && sync_use(o, rp_ret_u(m), seq, 1) != 0)
        return -1;
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++) {
        if (f->params[i].obj_class != GT_STATE_SYNC_NAME)
            continue;
        uint64_t h = rp_arg_u(m, i), v = 0;
        if (sync_use(o, h, seq, 0) != 0)
            return -1;
        if (f->obj_role == GT_OBJ_DELETES && rp_map_get(&o->sync_life, h, &v) && v)
            rp_map_put(&o->sync_life, h, 0); /* over: the handle's next making is a new life */
    }
    return 0;
}

/* The kept record's fence syncs: their lives alive at the start stay. */
static void keep_syncs(rp_trim_objs *o, const gt_api_fn *f, const rp_msg *m)
{
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++)
        if (f->params[i].obj_class == GT_STATE_SYNC_NAME)
            rp_map_put(&o->sync_kept, rp_arg_u(m, i), 1);
}

static void syncs_finish(rp_trim_objs *o, rp_trim_plan *plan, size_t nbytes)
{
    for (size_t i = 0; i < o->nsyncs; i++) {
        const struct sync_use *u = &o->syncs[i];
        uint64_t s = u->seq, v = 0, life = 0;
        int alive = rp_map_get(&o->sync_life, u->handle, &life) && life == (uint64_t)u->life + 1;
        if ((alive && (!o->syncs_known || rp_map_get(&o->sync_kept, u->handle, &v))) || (s >> 3) >= nbytes ||
            (plan->drop[s >> 3] >> (s & 7) & 1))
            continue;
        plan->drop[s >> 3] |= (uint8_t)(1u << (s & 7));
        plan->dropped_syncs++;
        plan->syncs += u->makes;
    }
}

/* A state command that binds a program by a parameter (glUseProgram):
 * binding one with no link is an error, so it goes with the program's
 * contents when all of them go (finish_life). Step 8 may keep it when a
 * command after it reads everything, after this step let the link go
 * (chromium: GL_INVALID_OPERATION in a trim's setup). -1: out of memory. */
static int note_users(rp_trim_objs *o, rp *r, const gt_api_fn *f, const rp_msg *m, uint64_t seq)
{
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++) {
        if (f->params[i].obj_class != GT_STATE_PROGRAM_NAME || f->params[i].kind == GT_K_POINTER)
            continue;
        uint32_t name = rp_name(r, rp_class_of_state(GT_STATE_PROGRAM_NAME), (uint32_t)rp_arg_i(m, i));
        life *l = name ? held_life(o, r, GT_STATE_PROGRAM_NAME, name) : NULL;
        if (!l)
            continue;
        uint64_t *v = room(l->users, &l->capusers, l->nusers, sizeof *v);
        if (!v)
            return -1;
        l->users = v, l->users[l->nusers++] = seq;
    }
    return 0;
}

#define NO_TARGET 255 /* obj_param of GT_WHERE_ACTIVE with no target (api/annotations.py) */

/* The object a command writes besides its role (`writes`: a copy's
 * destination): the record is one of its contents, which may read what
 * came before. The other objects it names (the copy's source) it reads:
 * their contents stay while the record does, deleted or not (capture's
 * write-back of a renderbuffer copies from a texture it deletes at once).
 * -1: out of memory. */
static int note_writes(rp_trim_objs *o, rp *r, const gt_api_fn *f, const rp_msg *m, uint64_t seq)
{
    for (unsigned i = 0; i < f->nparams && i < m->n_args; i++) {
        int cls = f->params[i].kind == GT_K_POINTER ? 0 : rp_param_class(f, m, i);
        uint32_t name = cls ? rp_name(r, rp_class_of_state(cls), (uint32_t)rp_arg_i(m, i)) : 0;
        if (!name || !lives_class(cls))
            continue;
        life *l = life_of(o, r, key_of(r, cls, name));
        if (!l)
            return -1;
        if (i + 1u != f->obj_writes) {
            mark_add(o, l, BARRIER | PIN, seq);
            continue;
        }
        if (add(l, seq, 0, NULL) != 0)
            return -1;
        l->epoch++;
        mark_add(o, l, BARRIER, ALWAYS);
    }
    return 0;
}

int rp_trim_objs_note(rp_trim_objs *o, rp *r, const rp_msg *m, uint64_t seq)
{
    if (r->cur_ctx < 0 || r->cur_ctx >= RP_MAX_CTX)
        return 0;
    if (m->function == GT_FN_MAPPED_DATA) {
        map_data(o, r, m, seq);
        return 0;
    }
    if (GT_FN_IS_SYNTHETIC(m->function))
        return 0;
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    spoil_readers(o, r, f);
    if (f && !f->is_egl && note_syncs(o, f, m, seq) != 0)
        return -1;
    if (f && !f->is_egl && note_made(o, r, f, m, seq) != 0)
        return -1;
    if (f && f->obj_writes && f->obj_writes <= m->n_args && note_writes(o, r, f, m, seq) != 0)
        return -1;
    if (f && f->obj_role == GT_OBJ_NONE && f->nstate && !(f->state[0].flags & GT_KEY_NONE) &&
        note_users(o, r, f, m, seq) != 0)
        return -1;
    int untargeted = f && f->obj_where == GT_WHERE_ACTIVE && f->obj_param == NO_TARGET;
    if (!f || f->obj_role == GT_OBJ_NONE || (f->obj_where != GT_WHERE_CURRENT && f->obj_where != GT_WHERE_BOUND_TO &&
                                             f->obj_param >= m->n_args && !untargeted))
        return 0;
    if (f->obj_role == GT_OBJ_DELETES) {
        if (f->obj_class != GT_STATE_SYNC_NAME) /* note_syncs ended a sync's */
            end_lives(o, r, m, f, seq);
        return 0;
    }
    if (f->obj_role == GT_OBJ_READS && f->obj_where == GT_WHERE_ALL) {
        barrier_group(o, r, 0, ALWAYS);
        return 0;
    }
    /* A pin by a state command: its slot's earlier one ends (unhold). */
    uint64_t slot = f->obj_role == GT_OBJ_PINS ? rp_trim_state_key(r, m, f) : 0;
    unhold(o, slot);
    int cls = f->obj_where == GT_WHERE_PARAM ? rp_param_class(f, m, f->obj_param) : f->obj_class;
    uint32_t name = 0;
    if (f->obj_where == GT_WHERE_PARAM) {
        name = rp_name(r, rp_class_of_state(cls), (uint32_t)rp_arg_i(m, f->obj_param));
    } else if (f->obj_where == GT_WHERE_BOUND) {
        name = rp_trim_bound((uint32_t)rp_arg_i(m, f->obj_param), &cls);
    } else if (f->obj_where == GT_WHERE_BOUND_TO) {
        name = rp_trim_bound(f->obj_target, &cls);
    } else if (f->obj_where == GT_WHERE_ACTIVE) { /* an end: the query its begin named */
        uint32_t target = untargeted ? UINT32_MAX : (uint32_t)rp_arg_i(m, f->obj_param);
        uint64_t k = (uint64_t)(uint32_t)r->cur_ctx << 32 | target, v = 0;
        if (rp_map_get(&o->active, k, &v))
            rp_map_put(&o->active, k, 0);
        name = (uint32_t)v;
    } else {
        GLint prog = 0;
        glGetIntegerv(GL_CURRENT_PROGRAM, &prog);
        name = (uint32_t)prog;
    }
    if (!name)
        return 0;
    life *l = life_of(o, r, key_of(r, cls, name));
    if (!l)
        return -1;
    /* A begin: the query active on its target (none, UINT32_MAX: conditional rendering's) until its end. */
    if (cls == GT_STATE_QUERY_NAME && f->obj_where == GT_WHERE_PARAM &&
        rp_map_put(&o->active, (uint64_t)(uint32_t)r->cur_ctx << 32 | (uint32_t)rp_trim_arg(f, m, "target", UINT32_MAX),
                   name) != 0)
        return -1;
    if (f->obj_role == GT_OBJ_PINS || f->obj_role == GT_OBJ_MAPS) {
        /* A holder's state command (an attachment, an array setter) pins
         * only if it stays: step 10 leaves out a deleted holder's. */
        int state = f->nstate && !(f->state[0].flags & GT_KEY_NONE);
        mark_add(o, l, f->obj_role == GT_OBJ_MAPS ? KEEP : PIN, f->obj_role == GT_OBJ_PINS && state ? seq : ALWAYS);
        if (state)
            hold(o, r, slot, l, f, m);
        if (f->obj_role == GT_OBJ_MAPS)
            map_begin(o, r, f, m, l, name, seq);
        return 0;
    }
    if (f->obj_role == GT_OBJ_UNMAPS)
        return map_end(o, r, l, name, seq);
    if (f->obj_role == GT_OBJ_FLUSHES) {
        mapping *mp = mapping_of(o, r->cur_ctx, name);
        if (mp)
            map_part(mp, seq);
        return 0;
    }
    if (f->obj_role == GT_OBJ_READS) {
        mark_add(o, l, BARRIER, ALWAYS);
        return 0;
    }
    if (f->obj_role == GT_OBJ_ASKS) {
        /* Part 0: it writes nothing a later write could replace. The same
         * query asked again, answered the same, since the object's last
         * contents that are not state (a link) adds nothing: replay mapped
         * the answer at the first (GStreamer asks every frame). */
        uint64_t h = ask_key(m, (size_t)(l - o->lives)), v = 0;
        int again = rp_map_get(&o->asked, h, &v) && v == (uint64_t)l->epoch + 1;
        if (rp_map_put(&o->asked, h, (uint64_t)l->epoch + 1) != 0)
            return -1;
        return add(l, seq, again ? ASKED : 0, NULL);
    }
    int whole = 0;
    struct box box;
    uint32_t part = write_of(r, f, m, &whole, &box);
    if (part && rp_trim_param(f, "level") >= 0) { /* from the pixel unpack buffer, when one is bound: it reads it */
        int ucls = 0;
        uint32_t unpack = rp_trim_bound(GL_PIXEL_UNPACK_BUFFER, &ucls);
        uint64_t v;
        if (unpack && rp_map_get(&o->live, key_of(r, ucls, unpack), &v) && v)
            mark_add(o, &o->lives[v - 1], BARRIER, seq); /* counts if the upload stays */
        rp_hold_errors(r); /* a GLES 2 context has no such binding */
    }
    if (add(l, seq, whole ? part | WHOLE : part, part & SUB ? &box : NULL) != 0)
        return -1;
    if (l->cls == GT_STATE_BUFFER_NAME)
        o->wrote_seq = seq, o->wrote = (uint64_t)(l - o->lives) + 1;
    if (is_pack_write(f))
        l->packed = 1, l->pack_pos = l->n - 1;
    if (!f->nstate || (f->state[0].flags & GT_KEY_NONE)) {
        l->epoch++; /* not a state command (a uniform): a link, a source, an upload */
        if (l->cls == GT_STATE_PROGRAM_NAME)
            mark_attached(o, r, name, seq);
    }
    if (!whole && !part && rp_trim_param(f, "pname") < 0)
        mark_add(o, l, BARRIER, ALWAYS); /* glGenerateMipmap, storage, an EGL image: may read what came before */
    return 0;
}

/* A life's records left out: all of a dead or untouched one's that
 * nothing held, else the writes a later whole one replaced. */
static void finish_life(const rp_trim_objs *o, life *l, rp_trim_plan *plan, size_t nbytes)
{
    resolve(o, l, plan, nbytes);
    int untouched = !l->dead && !l->touched && l->group == o->start_group;
    int all = (l->dead || untouched) && !l->pinned; /* else only its superseded writes */
    uint64_t dropped = 0, asked = 0; /* its records not left out already (a gone share group's, the first pass's) */
    for (size_t k = 0; k < l->n; k++) {
        uint64_t s = l->seq[k];
        if ((!all && l->part[k] < ASKED) || (s >> 3) >= nbytes || (plan->drop[s >> 3] >> (s & 7) & 1))
            continue;
        plan->drop[s >> 3] |= (uint8_t)(1u << (s & 7));
        if (!all && l->part[k] == ASKED)
            asked++;
        else
            dropped++;
    }
    plan->dropped_asked += asked;
    /* An untouched one's making too: nothing that stays names it (a
     * program made whose sources and link went: Skia makes some it never
     * compiles). */
    uint64_t mk = l->made;
    if (untouched && all && mk != UINT64_MAX && (mk >> 3) < nbytes && !(plan->drop[mk >> 3] >> (mk & 7) & 1))
        plan->drop[mk >> 3] |= (uint8_t)(1u << (mk & 7)), dropped++;
    for (uint32_t k = 0; all && k < l->nusers; k++) {
        uint64_t u = l->users[k];
        if ((u >> 3) < nbytes && !(plan->drop[u >> 3] >> (u & 7) & 1))
            plan->drop[u >> 3] |= (uint8_t)(1u << (u & 7)), dropped++;
    }
    if (all && l->dead && !l->ended) { /* its making and deletion: step 8 says */
        l->ended = 1;
        if (rp_trim_plan_end(plan, l->made, l->deleted) != 0)
            l->ended = 0;
    }
    if (dropped && all) {
        *(untouched ? &plan->untouched_objects : &plan->dead_objects) += !l->counted;
        *(untouched ? &plan->dropped_untouched : &plan->dropped_dead) += dropped;
    } else if (dropped) {
        plan->superseded_objects += !l->counted;
        plan->dropped_superseded += dropped;
    }
    l->counted |= dropped != 0;
}

/* Whether the last pixel read into the buffer l can go, its bytes written
 * at the start instead: read back, still in the setup, and nothing that
 * stays may have read the buffer after it (a mark that counts). */
static int pack_read_goes(const rp_trim_objs *o, const life *l, const rp_trim_plan *plan, size_t nbytes)
{
    if (!l->back || !l->packed || l->dead)
        return 0;
    uint64_t s = l->seq[l->pack_pos];
    if (l->part[l->pack_pos] == SUPERSEDED || rp_trim_dropped(plan, s))
        return 0; /* a later whole write replaced it: nothing to write back */
    for (size_t j = 0; j < l->nmarks; j++)
        if (l->marks[j].pos > l->pack_pos && mark_counts(o, l, &l->marks[j], plan, nbytes, s))
            return 0;
    return 1;
}

void rp_trim_objs_finish_buffers(rp_trim_objs *o, rp_trim_plan *plan, size_t nbytes)
{
    if (o->oom)
        return;
    for (size_t i = 0; i < o->n; i++) {
        life *l = &o->lives[i];
        if (l->cls != GT_STATE_BUFFER_NAME)
            continue;
        finish_life(o, l, plan, nbytes);
        if (pack_read_goes(o, l, plan, nbytes)) {
            uint64_t s = l->seq[l->pack_pos];
            plan->drop[s >> 3] |= (uint8_t)(1u << (s & 7));
            plan->buffers.v[l->back - 1].used = 1;
        }
    }
}

void rp_trim_objs_finish(rp_trim_objs *o, rp_trim_plan *plan, size_t nbytes)
{
    if (o->oom)
        return; /* a mark was lost: what it guarded is not known */
    /* Twice: a read that counts only if its record stays (an upload from a
     * pixel unpack buffer) may be by a record that a later whole write to
     * another object replaced, found in the first pass. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < o->n; i++)
            finish_life(o, &o->lives[i], plan, nbytes);
    syncs_finish(o, plan, nbytes);
}

/* ---------------------------------------------------------------- the start */

/* What touch does to an object: marks it touched (bound at the start,
 * named by a kept record); pinned and read (bound at a draw of the setup
 * that stays: what it drew into outlives the draw); read only (bound at a
 * read of the framebuffer that stays). */
enum { TOUCHED, PINNED_READ, READ };
static void touch(rp_trim_objs *o, const rp *r, int cls, uint32_t name, int how, uint64_t seq)
{
    uint64_t v;
    if (!name || !rp_map_get(&o->live, key_of(r, cls, name), &v) || !v)
        return;
    life *l = &o->lives[v - 1];
    if (how != TOUCHED && seq == o->wrote_seq && v == o->wrote)
        return; /* the pixel pack buffer a read writes into: not read */
    if (how == TOUCHED) {
        l->touched = 1;
    } else {
        mark_add(o, l, how == PINNED_READ ? BARRIER | PIN : BARRIER, seq);
        spoil_buffer(o, r, l);
    }
}

static int lives_class(int cls)
{
    return cls == GT_STATE_TEXTURE_NAME || cls == GT_STATE_BUFFER_NAME || cls == GT_STATE_RENDERBUFFER_NAME ||
           cls == GT_STATE_PROGRAM_NAME || cls == GT_STATE_SAMPLER_NAME || cls == GT_STATE_QUERY_NAME;
}

/* Every object of those classes bound on the current context (api/state.tsv's
 * bindings: per texture unit, per index, or one). */
static void touch_bound(rp_trim_objs *o, rp *r, int how, uint64_t seq)
{
    GLint units = 0, active = GL_TEXTURE0, v;
    glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
    if (units <= 0)
        glGetIntegerv(GL_MAX_TEXTURE_UNITS, &units); /* GLES 1 */
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    for (size_t i = 0; i < gt_api_nstates; i++) {
        const gt_api_state *s = &gt_api_states[i];
        if (s->query != GT_STATE_GET || s->type != GT_STATE_NAME || !lives_class(s->cls))
            continue;
        if (s->scope == GT_STATE_UNIT) {
            for (GLint u = 0; u < units && u < 256; u++) {
                glActiveTexture((GLenum)(GL_TEXTURE0 + u));
                v = 0;
                glGetIntegerv(s->pname, &v);
                touch(o, r, s->cls, (uint32_t)v, how, seq);
            }
            glActiveTexture((GLenum)active);
            continue;
        }
        v = 0;
        glGetIntegerv(s->pname, &v);
        touch(o, r, s->cls, (uint32_t)v, how, seq);
        GLint n = s->index_count;
        if (s->index_bound)
            glGetIntegerv(s->index_bound, &n);
        for (GLint k = 0; r->ctx[r->cur_ctx].version >= 3 && k < n && k < 1024; k++) {
            v = 0;
            glGetIntegeri_v(s->pname, (GLuint)k, &v);
            touch(o, r, s->cls, (uint32_t)v, how, seq);
        }
    }
    rp_hold_errors(r); /* pnames this context does not have were refused */
}

/* The textures and renderbuffers attached at the start to the
 * framebuffer object fb (replayed) of the current context: a kept draw,
 * clear or read through it reaches them without naming them. */
static void touch_attached(rp_trim_objs *o, rp *r, GLuint fb)
{
    uint64_t v;
    if (!fb || (rp_map_get(&o->fbos, fb, &v) && v) || rp_map_put(&o->fbos, fb, 1) != 0 || !glIsFramebuffer(fb))
        return;
    int es3 = r->ctx[r->cur_ctx].version >= 3, cls[MAX_ATTACHED];
    uint32_t name[MAX_ATTACHED];
    GLenum target = es3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
    GLint draw = 0, read = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw); /* GL_FRAMEBUFFER_BINDING on GLES 2 */
    glGetIntegerv(es3 ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING, &read);
    glBindFramebuffer(target, fb);
    int n = attachments(r, target, cls, name);
    for (int i = 0; i < n; i++) {
        touch(o, r, cls[i], name[i], TOUCHED, ALWAYS);
        if (rp_map_put(&o->reached, key_of(r, cls[i], name[i]), 1) != 0)
            o->oom = 1;
    }
    glBindFramebuffer(target, (GLuint)read);
    if (es3)
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)draw);
    rp_hold_errors(r);
}

/* The objects a kept record names through its parameters, and those
 * attached to the framebuffers it names. */
static void touch_named(rp_trim_objs *o, rp *r, const rp_msg *m)
{
    const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    for (unsigned i = 0; f && i < f->nparams && i < m->n_args; i++) {
        int cls = rp_param_class(f, m, i);
        int fbo = cls == GT_STATE_FRAMEBUFFER_NAME;
        if (!lives_class(cls) && !fbo)
            continue;
        size_t len = 0;
        int pointer = f->params[i].kind == GT_K_POINTER; /* names behind it: none when its bytes were not recorded */
        const uint8_t *b = pointer ? rp_arg_bytes(m, i, &len) : NULL;
        uint32_t rec = (uint32_t)rp_arg_i(m, i);
        for (size_t k = 0; pointer ? b && k + 4 <= len : k == 0; k += 4) {
            if (pointer)
                memcpy(&rec, b + k, 4);
            uint32_t name = rp_name(r, rp_class_of_state(cls), rec);
            if (fbo)
                touch_attached(o, r, name);
            else
                touch(o, r, cls, name, TOUCHED, ALWAYS);
        }
    }
}

/* An object deleted by name before the start but still attached to a
 * framebuffer object lives on: it is reached only through a framebuffer
 * the kept records reach (o->reached). */
int rp_trim_objs_unreached(const rp_trim_objs *o, int group, int cls, uint32_t name)
{
    uint64_t key = 1ull << 63 | (uint64_t)((uint32_t)group & 0xffffff) << 40 | (uint64_t)(cls & 0xff) << 32 | name, v;
    if (!o || o->oom || group != o->start_group || (rp_map_get(&o->reached, key, &v) && v))
        return 0;
    return !(rp_map_get(&o->live, key, &v) && v && o->lives[v - 1].touched);
}

/* The kept records, from first_kept to the end of the range. 0, or -1
 * when the trace cannot be read (nothing is then left out as untouched). */
static int touch_kept(rp_trim_objs *o, rp *r, const char *in, const gt_trim_options *opt, uint64_t first_kept,
                      int touch)
{
    char err[GT_ERRLEN];
    gt_reader *rd = gt_reader_open(in, err, sizeof err);
    if (!rd)
        return -1;
    rp_decoder dec;
    memset(&dec, 0, sizeof dec);
    gt_record rec;
    int rc;
    uint64_t frames = 0, want = opt->frame_last - opt->frame_first; /* swaps before the last kept frame's */
    while ((rc = gt_reader_next(rd, &rec)) == 1) {
        if (rec.seq < first_kept)
            continue;
        if (opt->by_calls ? rec.seq > opt->call_last : frames > want)
            break;
        rp_msg *m = NULL, *own = NULL;
        if (rp_decode(&dec, rec.data, rec.size, &m) != 1)
            m = own = gltrace__glmessage__unpack(NULL, rec.size, rec.data);
        if (!m) {
            rc = -1;
            break;
        }
        if (!GT_FN_IS_SYNTHETIC(m->function)) {
            const gt_api_fn *f = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
            if (touch)
                touch_named(o, r, m);
            if (f && !f->is_egl)
                keep_syncs(o, f, m);
            frames += f && f->cls == GT_CLASS_FRAME;
        }
        if (own)
            gltrace__glmessage__free_unpacked(own, NULL);
    }
    rp_decoder_free(&dec);
    gt_reader_close(rd);
    return rc < 0 ? -1 : 0;
}

void rp_trim_objs_draw(rp_trim_objs *o, rp *r, int draw, uint64_t seq)
{
    if (r->cur_ctx < 0 || r->cur_ctx >= RP_MAX_CTX || r->cur_ctx != r->bound_ctx)
        return;
    int g = r->ctx[r->cur_ctx].group;
    struct group_draw *d = room(o->draws, &o->capdraws, o->ndraws, sizeof *d);
    if (!d || g < 0 || g >= RP_MAX_CTX) {
        o->oom = 1;
        return;
    }
    o->draws = d;
    o->draws[o->ndraws++] = (struct group_draw){seq, g};
    o->run_after = o->group_last[g] ? o->group_last[g] - 1 : ALWAYS;
    touch_bound(o, r, draw ? PINNED_READ : READ, seq);
    barrier_group(o, r, 1, seq); /* attachments, vertex arrays' buffers: read through what holds them */
    uint64_t q = 0, v = 0; /* under conditional rendering: its query (and its begin) stays if the draw does */
    if (draw && rp_map_get(&o->active, (uint64_t)(uint32_t)r->cur_ctx << 32 | UINT32_MAX, &q) && q &&
        rp_map_get(&o->live, key_of(r, GT_STATE_QUERY_NAME, (uint32_t)q), &v) && v)
        mark_add(o, &o->lives[v - 1], BARRIER | PIN, seq);
    o->group_last[g] = seq + 1;
    o->run_after = ALWAYS;
}

/* A clear reads no pixel, but the framebuffer it clears must be complete
 * then: what is attached keeps the writes that gave it its storage (a
 * texture's glTexImage2D a later whole upload replaces, which left out
 * made the clear fail with GL_INVALID_FRAMEBUFFER_OPERATION). */
void rp_trim_objs_clear(rp_trim_objs *o, rp *r, uint64_t seq)
{
    if (r->cur_ctx < 0 || r->cur_ctx >= RP_MAX_CTX || r->cur_ctx != r->bound_ctx)
        return;
    int es3 = r->ctx[r->cur_ctx].version >= 3, cls[MAX_ATTACHED];
    uint32_t name[MAX_ATTACHED];
    GLint fb = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &fb); /* the draw framebuffer */
    int n = fb ? attachments(r, es3 ? GL_DRAW_FRAMEBUFFER : GL_FRAMEBUFFER, cls, name) : 0;
    for (int i = 0; i < n; i++) {
        life *l = held_life(o, r, cls[i], name[i]);
        if (l)
            mark_add(o, l, BARRIER | PIN, seq);
    }
    rp_hold_errors(r);
}

/* The buffers of the start's share group a pixel read wrote into, read
 * back (by a read mapping, GLES 3) into plan->buffers; a buffer the app
 * has mapped, or that cannot be mapped, is not, nor those past
 * READ_BACK_MAX bytes in all (their reads stay, as a trace may make any
 * number of large buffers). */
#define READ_BACK_MAX ((uint64_t)256 << 20)
static void read_back_buffers(rp_trim_objs *o, rp *r, rp_trim_plan *plan)
{
    if (r->ctx[r->cur_ctx].version < 3)
        return;
    int g = r->ctx[r->cur_ctx].group, bcls = rp_class_of_state(GT_STATE_BUFFER_NAME);
    rp_map rev = {0};
    rp_names_reverse(r, &rev);
    rp_hold_errors(r);
    GLint was = 0;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &was);
    struct rp_trim_buffers *b = &plan->buffers;
    uint64_t held = 0; /* bytes read back so far */
    b->copy_write = 0;
    GLint cw = 0;
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &cw);
    b->copy_write = rp_name_recorded(r, &rev, bcls, (uint32_t)cw);
    b->ctx = r->thr[0].ctx;
    for (size_t i = 0; i < r->nthr; i++)
        if (r->thr[i].tid == plan->last_tid)
            b->ctx = r->thr[i].ctx;
    for (size_t i = 0; i < o->n; i++) {
        life *l = &o->lives[i];
        if (l->cls != GT_STATE_BUFFER_NAME || !l->packed || l->dead || l->group != g)
            continue;
        GLint64 size = 0;
        GLint mapped = 1;
        glBindBuffer(GL_COPY_READ_BUFFER, l->name);
        glGetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
        glGetBufferParameteriv(GL_COPY_READ_BUFFER, GL_BUFFER_MAPPED, &mapped);
        struct rp_trim_buffer *v = realloc(b->v, (b->n + 1) * sizeof *v);
        int room = size > 0 && (uint64_t)size <= READ_BACK_MAX - held;
        uint8_t *bytes = room && !mapped ? malloc((size_t)size) : NULL;
        const void *p = bytes && v ? glMapBufferRange(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)size, GL_MAP_READ_BIT) : NULL;
        if (v)
            b->v = v;
        if (!p) {
            free(bytes);
            continue;
        }
        memcpy(bytes, p, (size_t)size);
        held += (uint64_t)size;
        glUnmapBuffer(GL_COPY_READ_BUFFER);
        b->v[b->n] = (struct rp_trim_buffer){rp_name_recorded(r, &rev, bcls, l->name), bytes, (size_t)size, 0};
        l->back = ++b->n;
    }
    glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)was);
    while (glGetError() != GL_NO_ERROR)
        ; /* what the driver refused: a buffer not read back stays as the setup made it */
    rp_map_free(&rev);
}

void rp_trim_objs_start(rp_trim_objs *o, rp *r, rp_trim_plan *plan, const char *in, const gt_trim_options *opt,
                        uint64_t first_kept, const uint8_t *destroyed)
{
    if (r->cur_ctx < 0 || r->cur_ctx >= RP_MAX_CTX || r->cur_ctx != r->bound_ctx)
        return;
    int g = r->ctx[r->cur_ctx].group, alone = 1;
    for (int i = 0; i < RP_MAX_CTX; i++)
        if (i != r->cur_ctx && r->ctx[i].used && r->ctx[i].group == g && !(destroyed && destroyed[i]))
            alone = 0; /* another live context of the group: its bindings are not asked */
    if (alone) {
        GLint fb = 0;
        touch_bound(o, r, TOUCHED, ALWAYS);
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fb);
        touch_attached(o, r, (GLuint)fb);
        if (r->ctx[r->cur_ctx].version >= 3)
            glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &fb);
        touch_attached(o, r, (GLuint)fb);
    }
    if (touch_kept(o, r, in, opt, first_kept, alone) == 0) {
        o->syncs_known = 1;
        if (alone)
            o->start_group = g;
    }
    read_back_buffers(o, r, plan);
}
