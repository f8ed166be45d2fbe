/* rp_client_guard.c: a draw that would read the app's own memory.
 *
 * glVertexAttribPointer with no buffer bound hands the driver an address
 * in the recorded process; replay passes it on, and the array's data record
 * (gltraceVertexAttribPointerData, written before each draw that reads it)
 * puts replay's copy in its place. A trace whose data record is missing or
 * damaged (a fuzzed one: tests/fuzz/crashes/replay) would have the driver
 * read that foreign address at the draw. So a client pointer is noted when
 * set and forgotten when its data comes; a draw with a noted attribute
 * still enabled, unbound and at that address is refused. Nothing is asked
 * of the driver unless a pointer is still noted at a draw. */
#include "rp_internal.h"

#include <GLES3/gl3.h>
#include <inttypes.h>
#include <stdio.h>

/* After a `class arrays` call: its pointer noted when it is client memory. */
void rp_client_noted(rp *r, const rp_msg *m)
{
    const rp_array_setter *set = rp_array_setter_of(m->function);
    if (!set || !set->attrib || m->n_args < 1)
        return; /* GLES 1's arrays: not guarded (see the note in the README of replay) */
    uint64_t addr = (uint64_t)(uintptr_t)rp_arg_addr(m, m->n_args - 1);
    GLint buffer = 0;
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &buffer);
    GLuint index = (GLuint)rp_map_attrib(r, m, rp_arg_i(m, 0));
    if (index >= 32)
        return;
    if (buffer || !addr) {
        r->client_unfed &= ~(1u << index);
        return;
    }
    r->client_unfed |= 1u << index;
    r->client_addr[index] = addr;
}

/* A data record set attribute `index` to replay's copy. */
void rp_client_fed(rp *r, unsigned index)
{
    if (index < 32)
        r->client_unfed &= ~(1u << index);
}

int rp_client_draw_refused(rp *r, const char *name)
{
    for (GLuint i = 0; i < 32; i++) {
        if (!(r->client_unfed & (1u << i)))
            continue;
        GLint enabled = 0, buffer = 0;
        void *p = NULL;
        glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
        glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buffer);
        glGetVertexAttribPointerv(i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &p);
        if (enabled && !buffer && (uint64_t)(uintptr_t)p == r->client_addr[i]) {
            snprintf(r->sum->error, sizeof r->sum->error,
                     "%s: call %" PRIu64 " (%s): vertex attribute %u reads the app's memory at 0x%" PRIx64
                     " and the trace has no data for it there: refused",
                     r->path, r->seq, name, i, r->client_addr[i]);
            return 1;
        }
    }
    return 0;
}
