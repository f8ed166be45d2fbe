/* rp_snapshot.c: at each recorded snapshot, the same pixels read back from
 * the replay and compared byte for byte (llvmpipe is deterministic on one
 * machine). The replayed app's GL state is saved and restored around the
 * read, as capture does. PNGs of differing snapshots (or all, --save-all)
 * go to the output folder. */
#include "rp_internal.h"

#include <GLES3/gl32.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gt_diff.h"

static void to_png(rp *r, const char *what, const uint8_t *px, int w, int h)
{
    if (!r->opt->out_dir)
        return;
    gt_diff_image img = {0};
    if (gt_diff_image_alloc(&img, (uint32_t)w, (uint32_t)h) != 0)
        return;
    for (int y = 0; y < h; y++) /* recorded rows are bottom first */
        memcpy(img.rgba + (size_t)y * w * 4, px + (size_t)(h - 1 - y) * w * 4, (size_t)w * 4);
    char path[4096], err[GT_DIFF_ERR_MAX];
    snprintf(path, sizeof path, "%s/frame%06" PRIu64 "-call%09" PRIu64 "-%s.png", r->opt->out_dir, r->frame, r->seq,
             what);
    if (gt_diff_png_write(path, &img, err) != 0)
        rp_warn_once(r, -1, "%s", err);
    gt_diff_image_free(&img);
}

void rp_snapshot_compare(rp *r, const rp_msg *m)
{
    const Gltrace__GLMessage__FrameBuffer *fb = m->fb;
    r->sum->snapshots++;
    uint32_t source = fb && fb->has_source ? fb->source : 0;
    uint32_t type = fb && fb->has_type ? fb->type : GL_UNSIGNED_BYTE;
    if (!fb || !fb->n_contents || fb->width <= 0 || fb->height <= 0 || source == 2 || type != GL_UNSIGNED_BYTE) {
        /* Texture snapshots and float/integer formats: not compared yet. */
        r->sum->not_compared++;
        return;
    }
    int w = fb->width, h = fb->height, es3 = r->ctx[r->cur_ctx].version >= 3;
    size_t n = (size_t)w * (size_t)h * 4;
    if (fb->contents[0].len != n) {
        snprintf(r->sum->error, sizeof r->sum->error, "%s: record %" PRIu64 ": a %dx%d snapshot of %zu bytes",
                 r->path, r->seq, w, h, fb->contents[0].len);
        return;
    }
    uint8_t *px = malloc(n);
    if (!px)
        return;
    GLint align = 0, row = 0, sr = 0, sp = 0, pbuf = 0, rfb = 0, rbuf = 0, fbo = 0;
    glGetIntegerv(GL_PACK_ALIGNMENT, &align);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    GLenum target = es3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
    if (es3) {
        glGetIntegerv(GL_PACK_ROW_LENGTH, &row);
        glGetIntegerv(GL_PACK_SKIP_ROWS, &sr);
        glGetIntegerv(GL_PACK_SKIP_PIXELS, &sp);
        glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pbuf);
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &rfb);
        glGetIntegerv(GL_READ_BUFFER, &rbuf);
        glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        glPixelStorei(GL_PACK_SKIP_ROWS, 0);
        glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    } else if (r->ctx[r->cur_ctx].version == 2) {
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &rfb);
    }
    rp_ctx *cx = &r->ctx[r->cur_ctx];
    if (cx->version == 2 && !cx->pack_subimage) {
        const char *ext = (const char *)glGetString(GL_EXTENSIONS);
        cx->pack_subimage = ext && strstr(ext, "GL_NV_pack_subimage") ? 1 : 2;
    }
    int subimage = cx->version == 2 && cx->pack_subimage == 1; /* GLES 3's pack state on GLES 2 */
    if (subimage) {
        glGetIntegerv(GL_PACK_ROW_LENGTH, &row);
        glGetIntegerv(GL_PACK_SKIP_ROWS, &sr);
        glGetIntegerv(GL_PACK_SKIP_PIXELS, &sp);
        glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        glPixelStorei(GL_PACK_SKIP_ROWS, 0);
        glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
    }
    GLint fbo_rbuf = 0; /* each framebuffer keeps its own read buffer */
    if (r->ctx[r->cur_ctx].version >= 2) {
        fbo = source == 1 ? (GLint)rp_name(r, RP_FRAMEBUFFER, fb->object) : 0;
        glBindFramebuffer(target, (GLuint)fbo);
        if (es3) {
            glGetIntegerv(GL_READ_BUFFER, &fbo_rbuf);
            glReadBuffer(source == 1 ? fb->attachment : GL_BACK);
        }
    }
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glPixelStorei(GL_PACK_ALIGNMENT, align);
    if (es3) {
        glPixelStorei(GL_PACK_ROW_LENGTH, row);
        glPixelStorei(GL_PACK_SKIP_ROWS, sr);
        glPixelStorei(GL_PACK_SKIP_PIXELS, sp);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pbuf);
        if (fbo != rfb)
            glReadBuffer((GLenum)fbo_rbuf);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)rfb);
        glReadBuffer((GLenum)rbuf);
    } else if (r->ctx[r->cur_ctx].version == 2) {
        glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)rfb);
    }
    if (subimage) {
        glPixelStorei(GL_PACK_ROW_LENGTH, row);
        glPixelStorei(GL_PACK_SKIP_ROWS, sr);
        glPixelStorei(GL_PACK_SKIP_PIXELS, sp);
    }
    int same = memcmp(px, fb->contents[0].data, n) == 0;
    char what[48];
    snprintf(what, sizeof what, "%s", source == 1 ? "attachment" : "surface");
    if (same) {
        r->sum->matched++;
    } else {
        if (!r->sum->differing) {
            r->sum->first_diff_seq = r->seq;
            r->sum->first_diff_frame = r->frame;
        }
        r->sum->differing++;
    }
    if (!same || r->opt->save_all) {
        char e[64], a[64];
        snprintf(e, sizeof e, "%s-expected", what);
        snprintf(a, sizeof a, "%s-actual", what);
        to_png(r, e, fb->contents[0].data, w, h);
        to_png(r, a, px, w, h);
    }
    free(px);
}
