/* gt_show.c: records as text or JSON, for dump, info and a viewer. Values
 * are shown by the kind the API description gives each parameter (enum
 * names, hex handles, booleans); records of functions we do not know are
 * shown from what the message itself says. */
#include "gt_show.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "gt_api.h"
#include "gt_enums.h"
#include "gt_texel.h"
#include "gt_trace.h"

void gt_show_json_string(FILE *f, const char *s, size_t len)
{
    fputc('"', f);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void show_float(FILE *f, double v, int json)
{
    if (isnan(v))
        fputs(json ? "\"NaN\"" : "NaN", f);
    else if (isinf(v))
        fputs(v > 0 ? (json ? "\"Infinity\"" : "Infinity") : (json ? "\"-Infinity\"" : "-Infinity"), f);
    else
        fprintf(f, "%.9g", v);
}

/* One scalar element i of a DataType, shown by `kind`. */
static void show_elem(FILE *f, const Gltrace__GLMessage__DataType *d, size_t i, int kind,
                      uint16_t group, int is_egl, int json)
{
    switch (kind) {
    case GT_K_ENUM:
        if (i < d->n_intvalue) {
            const char *n = gt_api_enum_name((uint32_t)d->intvalue[i], group, is_egl);
            if (n)
                fprintf(f, json ? "\"%s\"" : "%s", n);
            else
                fprintf(f, json ? "%" PRIu32 : "0x%" PRIx32, (uint32_t)d->intvalue[i]);
            return;
        }
        break;
    case GT_K_UINT:
    case GT_K_BITS:
        if (i < d->n_intvalue) {
            fprintf(f, "%" PRIu32, (uint32_t)d->intvalue[i]);
            return;
        }
        break;
    case GT_K_BOOL:
        if (i < d->n_boolvalue) {
            fputs(d->boolvalue[i] ? "true" : "false", f);
            return;
        }
        break;
    case GT_K_DOUBLE:
        if (i < d->n_int64value) {
            double v;
            memcpy(&v, &d->int64value[i], sizeof v);
            show_float(f, v, json);
            return;
        }
        break;
    case GT_K_UINT64:
        if (i < d->n_int64value) {
            fprintf(f, "%" PRIu64, (uint64_t)d->int64value[i]);
            return;
        }
        break;
    case GT_K_HANDLE:
    case GT_K_POINTER:
    case GT_K_FUNCPTR:
        if (i < d->n_int64value) {
            fprintf(f, json ? "\"0x%" PRIx64 "\"" : "0x%" PRIx64, (uint64_t)d->int64value[i]);
            return;
        }
        if (i < d->n_intvalue) { /* Android before 5 recorded pointers as INT */
            fprintf(f, json ? "\"0x%" PRIx32 "\"" : "0x%" PRIx32, (uint32_t)d->intvalue[i]);
            return;
        }
        break;
    default:
        break;
    }
    /* Whatever the message holds, in the order of its fields; an ENUM by
     * name (the records gltrace adds have no parameter list to say so). */
    const char *en = d->type == GLTRACE__GLMESSAGE__DATA_TYPE__TYPE__ENUM && i < d->n_intvalue
                         ? gt_api_enum_name((uint32_t)d->intvalue[i], 0, is_egl) : NULL;
    if (en)
        fprintf(f, json ? "\"%s\"" : "%s", en);
    else if (i < d->n_intvalue)
        fprintf(f, "%" PRId32, d->intvalue[i]);
    else if (i < d->n_floatvalue)
        show_float(f, d->floatvalue[i], json);
    else if (i < d->n_boolvalue)
        fputs(d->boolvalue[i] ? "true" : "false", f);
    else if (i < d->n_int64value)
        fprintf(f, "%" PRId64, d->int64value[i]);
    else
        fputs("null", f);
}

static void show_bytes(FILE *f, const ProtobufCBinaryData *b, int json, int full)
{
    size_t n = full || b->len <= 32 ? b->len : 32;
    if (json)
        fprintf(f, "{\"bytes\":%zu,\"hex\":\"", b->len);
    else
        fprintf(f, "<%zu bytes: ", b->len);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02x", b->data[i]);
    if (n < b->len)
        fputs("...", f);
    fputs(json ? "\"}" : ">", f);
}

/* How the elements behind a pointer of C type `ctype` are shown. */
typedef enum elem { E_BYTES, E_CHARS, E_I16, E_U16, E_I32, E_U32, E_F32, E_I64, E_H64 } elem;

static elem elem_of(const char *ctype)
{
    char base[64] = "";
    const char *star = ctype ? strrchr(ctype, '*') : NULL;
    if (!star)
        return E_BYTES;
    size_t n = 0;
    for (const char *c = ctype; c < star && n + 1 < sizeof base; c++)
        base[n++] = *c;
    base[n] = 0;
    if (strchr(base, '*'))
        return E_H64; /* pointers to pointers: addresses */
    static const struct { const char *name; elem e; } map[] = {
        {"GLchar", E_CHARS}, {"char", E_CHARS}, {"GLfloat", E_F32}, {"GLclampf", E_F32},
        {"GLshort", E_I16}, {"GLushort", E_U16}, {"GLhalf", E_U16}, {"GLuint64", E_I64},
        {"GLint64", E_I64}, {"EGLAttrib", E_I64}, {"EGLuint64KHR", E_I64}, {"EGLnsecsANDROID", E_I64},
        {"EGLTime", E_I64}, {"GLintptr", E_I64}, {"GLsizeiptr", E_I64}, {"GLuint", E_U32},
        {"GLenum", E_U32}, {"GLbitfield", E_U32}, {"GLint", E_I32}, {"GLsizei", E_I32},
        {"GLfixed", E_I32}, {"EGLint", E_I32}, {"EGLenum", E_U32}, {"int", E_I32},
        {"EGLConfig", E_H64}, {"EGLDeviceEXT", E_H64}, {"EGLOutputLayerEXT", E_H64},
        {"EGLOutputPortEXT", E_H64}, {"EGLImage", E_H64}, {"void", E_BYTES}, {"GLubyte", E_BYTES},
        {"GLbyte", E_BYTES}, {"GLboolean", E_BYTES}, {"EGLBoolean", E_U32},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        const char *w = strstr(base, map[i].name);
        size_t l = strlen(map[i].name);
        if (w && (w == base || w[-1] == ' ') && (w[l] == 0 || w[l] == ' '))
            return map[i].e;
    }
    return E_BYTES;
}

/* Raw data behind a pointer, as elements of its type. */
static void show_elems(FILE *f, const ProtobufCBinaryData *b, elem e, int json, int full)
{
    static const size_t width[] = {1, 1, 2, 2, 4, 4, 4, 8, 8};
    if (e == E_BYTES || e == E_CHARS) {
        if (e == E_CHARS) {
            size_t len = full || b->len <= 200 ? b->len : 200;
            gt_show_json_string(f, (const char *)b->data, len);
            return;
        }
        show_bytes(f, b, json, full);
        return;
    }
    size_t n = b->len / width[e], shown = full || n <= 16 ? n : 16;
    fputc('[', f);
    for (size_t i = 0; i < shown; i++) {
        const uint8_t *p = b->data + i * width[e];
        if (i)
            fputs(", ", f);
        switch (e) {
        case E_I16: { int16_t v; memcpy(&v, p, 2); fprintf(f, "%d", v); break; }
        case E_U16: { uint16_t v; memcpy(&v, p, 2); fprintf(f, "%u", v); break; }
        case E_I32: { int32_t v; memcpy(&v, p, 4); fprintf(f, "%" PRId32, v); break; }
        case E_U32: { uint32_t v; memcpy(&v, p, 4); fprintf(f, "%" PRIu32, v); break; }
        case E_F32: { float v; memcpy(&v, p, 4); show_float(f, v, json); break; }
        case E_I64: { int64_t v; memcpy(&v, p, 8); fprintf(f, "%" PRId64, v); break; }
        default: { uint64_t v; memcpy(&v, p, 8); fprintf(f, json ? "\"0x%" PRIx64 "\"" : "0x%" PRIx64, v); break; }
        }
    }
    if (shown < n)
        fprintf(f, json ? ", \"...%zu more\"" : ", ...%zu more", n - shown);
    fputc(']', f);
}

static void show_value(FILE *f, const Gltrace__GLMessage__DataType *d, int kind, uint16_t group,
                       int is_egl, int json, int full);

/* A pointer argument with the data behind it: {"ptr": "0x..", "data": ...}
 * in JSON, `0x.. -> data` in text. */
static int show_pointer(FILE *f, const Gltrace__GLMessage__DataType *d, const char *ctype, int json, int full)
{
    if (!d || !d->isarray || !d->n_int64value || (!d->n_rawbytes && !d->n_charvalue))
        return 0;
    fprintf(f, json ? "{\"ptr\":\"0x%" PRIx64 "\",\"data\":" : "0x%" PRIx64 " -> ", (uint64_t)d->int64value[0]);
    if (d->n_rawbytes) {
        show_elems(f, &d->rawbytes[0], elem_of(ctype), json, full);
    } else {
        Gltrace__GLMessage__DataType only = *d;
        only.n_int64value = 0;
        show_value(f, &only, -1, 0, 0, json, full);
    }
    if (json)
        fputc('}', f);
    return 1;
}

static void show_value(FILE *f, const Gltrace__GLMessage__DataType *d, int kind, uint16_t group,
                       int is_egl, int json, int full)
{
    if (!d) {
        fputs("null", f);
        return;
    }
    /* Strings and raw data behind pointers. */
    if (d->n_charvalue) {
        if (d->n_charvalue > 1)
            fputc('[', f);
        for (size_t i = 0; i < d->n_charvalue; i++) {
            size_t len = d->charvalue[i].len;
            if (!full && len > 200)
                len = 200;
            if (i)
                fputs(", ", f);
            gt_show_json_string(f, (const char *)d->charvalue[i].data, len);
        }
        if (d->n_charvalue > 1)
            fputc(']', f);
        return;
    }
    if (d->n_rawbytes) {
        if (d->n_rawbytes > 1)
            fputc('[', f);
        for (size_t i = 0; i < d->n_rawbytes; i++) {
            if (i)
                fputs(", ", f);
            show_bytes(f, &d->rawbytes[i], json, full);
        }
        if (d->n_rawbytes > 1)
            fputc(']', f);
        return;
    }
    size_t n = d->n_intvalue + d->n_floatvalue + d->n_boolvalue + d->n_int64value;
    if (!d->isarray && n <= 1) {
        show_elem(f, d, 0, kind, group, is_egl, json);
        return;
    }
    size_t shown = full || n <= 16 ? n : 16;
    fputc('[', f);
    for (size_t i = 0; i < shown; i++) {
        if (i)
            fputs(", ", f);
        /* arrays behind pointers hold elements, not addresses */
        show_elem(f, d, i, kind == GT_K_POINTER ? -1 : kind, group, is_egl, json);
    }
    if (shown < n)
        fprintf(f, json ? ", \"...%zu more\"" : ", ...%zu more", n - shown);
    fputc(']', f);
}

static void show_metadata(FILE *f, const Gltrace__TraceMetadata *m)
{
    int first = 1;
#define KEY(k) fprintf(f, "%s\"%s\":", first ? "" : ",", k), first = 0
#define STR(k, v) if (v) { KEY(k); gt_show_json_string(f, v, strlen(v)); }
    fputc('{', f);
    if (m->has_format_version) { KEY("format_version"); fprintf(f, "%" PRIu32, m->format_version); }
    STR("tool_version", m->tool_version);
    if (m->n_command_line) {
        KEY("command_line");
        fputc('[', f);
        for (size_t i = 0; i < m->n_command_line; i++) {
            if (i)
                fputc(',', f);
            gt_show_json_string(f, m->command_line[i], strlen(m->command_line[i]));
        }
        fputc(']', f);
    }
    STR("process_name", m->process_name);
    if (m->has_pid) { KEY("pid"); fprintf(f, "%" PRId64, m->pid); }
    STR("gl_vendor", m->gl_vendor);
    STR("gl_renderer", m->gl_renderer);
    STR("gl_version", m->gl_version);
    STR("gl_shading_language_version", m->gl_shading_language_version);
    STR("gl_extensions", m->gl_extensions);
    STR("egl_vendor", m->egl_vendor);
    STR("egl_version", m->egl_version);
    STR("egl_client_apis", m->egl_client_apis);
    STR("egl_extensions", m->egl_extensions);
    if (m->n_options) {
        KEY("options");
        fputc('{', f);
        for (size_t i = 0; i < m->n_options; i++) {
            if (i)
                fputc(',', f);
            gt_show_json_string(f, m->options[i]->key, strlen(m->options[i]->key));
            fputc(':', f);
            gt_show_json_string(f, m->options[i]->value, strlen(m->options[i]->value));
        }
        fputc('}', f);
    }
    if (m->has_start_time_realtime_ns) { KEY("start_time_realtime_ns"); fprintf(f, "%" PRId64, m->start_time_realtime_ns); }
    if (m->has_start_time_monotonic_ns) { KEY("start_time_monotonic_ns"); fprintf(f, "%" PRId64, m->start_time_monotonic_ns); }
    fputc('}', f);
#undef STR
#undef KEY
}

void gt_show_trim_part(FILE *f, const Gltrace__GLMessage *m)
{
    if (m->function != GT_FN_METADATA || !m->metadata)
        return;
    for (size_t i = 0; i < m->metadata->n_options; i++) {
        const Gltrace__TraceMetadata__Option *o = m->metadata->options[i];
        if (o && o->key && o->value && !strcmp(o->key, "trim"))
            fprintf(f, "---- %s ----\n", o->value);
    }
}

void gt_show_metadata_json(FILE *f, const Gltrace__TraceMetadata *m)
{
    show_metadata(f, m);
}

const char *gt_show_name(const Gltrace__GLMessage *m, char *buf, size_t len)
{
    uint32_t alias = m->has_alias ? m->alias : 0;
    const char *n = gt_api_number_name(m->function, alias);
    if (n)
        return n;
    snprintf(buf, len, "function%" PRId32, m->function);
    return buf;
}

/* Argument names of the records gltrace adds (proto/FORMAT.md). */
static const struct {
    int32_t fn;
    const char *names[10];
} synthetic[] = {
    {GT_FN_VERTEX_ATTRIB_POINTER_DATA,
     {"indx", "size", "type", "normalized", "stride", "data", "minIndex", "maxIndex", "setter", "unit"}},
    {GT_FN_MAPPED_DATA, {"target", "buffer", "offset", "data"}},
    {GT_FN_SURFACE, {"dpy", "surface", "width", "height", "config_attribs", "call"}},
    {GT_FN_CONTEXT, {"dpy", "context", "id", "share_id", "client_version", "config_attribs"}},
    {GT_FN_CURRENT, {"dpy", "draw", "read", "ctx"}},
};

/* EGL handles among them print as addresses, as in the calls they match. */
static int synthetic_kind(int32_t fn, size_t i)
{
    if ((fn == GT_FN_SURFACE || fn == GT_FN_CONTEXT) && i < 2)
        return GT_K_HANDLE;
    if (fn == GT_FN_CURRENT && i < 4)
        return GT_K_HANDLE;
    return -1;
}

static const char *synthetic_arg(int32_t fn, size_t i)
{
    for (size_t k = 0; k < sizeof synthetic / sizeof synthetic[0]; k++)
        if (synthetic[k].fn == fn)
            return i < 10 ? synthetic[k].names[i] : NULL;
    return NULL;
}

int gt_show_snapshot_pixels(gt_snap_chain *chain, const Gltrace__GLMessage__FrameBuffer *fb, uint64_t tid,
                            const uint8_t **px, size_t *n, char *err, size_t errlen)
{
    if (!fb->has_coding || fb->coding == GT_SNAP_RAW) {
        if (!px)
            return 0;
        *px = fb->n_contents ? fb->contents[0].data : NULL;
        *n = fb->n_contents ? fb->contents[0].len : 0;
        return 0;
    }
    long bpp = gt_texel_bytes(fb->has_format ? fb->format : GL_RGBA, fb->has_type ? fb->type : GL_UNSIGNED_BYTE);
    if (bpp <= 0 || fb->width <= 0 || fb->height <= 0 || fb->width > GT_SNAP_MAX_SIDE ||
        fb->height > GT_SNAP_MAX_SIDE || !fb->has_hash || !fb->has_slot || fb->n_contents > 1 ||
        (fb->coding != GT_SNAP_KEY && fb->coding != GT_SNAP_DELTA)) {
        snprintf(err, errlen, "a coded snapshot without its size, format, hash or slot");
        return -1;
    }
    gt_snap_coded c = {.hash = fb->hash, .coding = fb->coding, .slot = fb->slot, .bpp = (size_t)bpp,
                       .size = (size_t)fb->width * (size_t)fb->height * (size_t)bpp,
                       .data = fb->n_contents ? fb->contents[0].data : NULL,
                       .len = fb->n_contents ? fb->contents[0].len : 0};
    if (gt_snap_chain_add(chain, tid, &c) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (!px)
        return 0; /* kept in the chain, decoded when asked */
    *n = c.size;
    return (*px = gt_snap_chain_pixels(chain, tid, c.slot, err, errlen)) ? 0 : -1;
}

static void show_fb(FILE *f, const Gltrace__GLMessage__FrameBuffer *fb, uint64_t tid, gt_snap_chain *chain, int json)
{
    static const char *const sources[] = {"surface", "attachment", "texture"};
    static const char *const codings[] = {"raw", "key", "delta"};
    const char *src = fb->has_source && fb->source < 3 ? sources[fb->source] : "surface";
    const char *coding = fb->has_coding && fb->coding < 3 ? codings[fb->coding] : fb->has_coding ? "?" : "raw";
    size_t coded = fb->n_contents ? fb->contents[0].len : 0, bytes = coded;
    const uint8_t *px = fb->n_contents ? fb->contents[0].data : NULL;
    char why[GT_ERRLEN] = "";
    if (strcmp(coding, "raw") != 0 && (!chain || gt_show_snapshot_pixels(chain, fb, tid, &px, &bytes, why,
                                                                         sizeof why) != 0))
        px = NULL, bytes = 0;
    /* FNV-1a of the pixels: a fingerprint to compare with an app's own. */
    uint32_t h = 2166136261u;
    for (size_t i = 0; px && i < bytes; i++)
        h = (h ^ px[i]) * 16777619u;
    const char *fmt = gt_api_enum_name(fb->has_format ? fb->format : GL_RGBA, 0, 0);
    const char *type = gt_api_enum_name(fb->has_type ? fb->type : GL_UNSIGNED_BYTE, 0, 0);
    const char *att = gt_api_enum_name(fb->has_attachment ? fb->attachment : GL_BACK, 0, 0);
    if (json)
        fprintf(f, ",\"fb\":{\"width\":%d,\"height\":%d,\"format\":\"%s\",\"type\":\"%s\",\"source\":\"%s\","
                   "\"attachment\":\"%s\",\"object\":%u,\"level\":%d,\"layer\":%d,\"surface\":\"0x%" PRIx64
                   "\",\"bytes\":%zu,\"fnv1a\":\"%08x\"",
                fb->width, fb->height, fmt ? fmt : "?", type ? type : "?", src, att ? att : "?", fb->object,
                fb->level, fb->layer, fb->surface, bytes, h);
    else
        fprintf(f, " fb %dx%d %s %s %s %s object %u level %d layer %d, %zu bytes fnv1a %08x", fb->width, fb->height,
                fmt ? fmt : "?", type ? type : "?", src, att ? att : "?", fb->object, fb->level, fb->layer, bytes, h);
    if (strcmp(coding, "raw") != 0 && json)
        fprintf(f, ",\"coding\":\"%s\",\"slot\":%u,\"coded_bytes\":%zu,\"xxh3\":\"%016" PRIx64 "\"", coding,
                fb->slot, coded, fb->hash);
    else if (strcmp(coding, "raw") != 0)
        fprintf(f, " (%s, slot %u, %zu bytes coded, xxh3 %016" PRIx64 ")", coding, fb->slot, coded, fb->hash);
    if (why[0] && json) {
        fputs(",\"pixels_error\":", f);
        gt_show_json_string(f, why, strlen(why));
    } else if (why[0]) {
        fprintf(f, " (pixels: %s)", why);
    }
    if (json)
        fputc('}', f);
}

void gt_show_record(FILE *f, const Gltrace__GLMessage *m, const gt_record *rec, int json, int full,
                    gt_snap_chain *chain)
{
    char nbuf[32];
    const char *name = gt_show_name(m, nbuf, sizeof nbuf);
    const gt_api_fn *fn = gt_api_find_number(m->function, m->has_alias ? m->alias : 0);
    int is_egl = fn ? fn->is_egl : strncmp(name, "egl", 3) == 0;
    if (json) {
        fprintf(f, "{\"seq\":%" PRIu64 ",\"tid\":%" PRIu64 ",\"ctx\":%" PRId32 ",\"t\":%" PRId64
                   ",\"dur\":%" PRId64 ",\"fn\":",
                rec->seq, m->has_thread_id ? m->thread_id : rec->thread_id, m->context_id,
                m->start_time, m->has_duration64 ? m->duration64 : (int64_t)m->duration);
        gt_show_json_string(f, name, strlen(name));
        if (m->has_threadtime)
            fprintf(f, ",\"cpu\":%" PRId32, m->threadtime);
        if (m->n_args || fn) {
            fputs(",\"args\":{", f);
            for (size_t i = 0; i < m->n_args; i++) {
                char pbuf[32];
                const gt_api_param *p = fn && i < fn->nparams ? &fn->params[i] : NULL;
                const char *sname = synthetic_arg(m->function, i);
                const char *pname = p ? p->name : sname ? sname : (snprintf(pbuf, sizeof pbuf, "arg%zu", i), pbuf);
                fprintf(f, "%s\"%s\":", i ? "," : "", pname);
                if (!show_pointer(f, m->args[i], p ? p->ctype : NULL, 1, full))
                    show_value(f, m->args[i], p ? p->kind : synthetic_kind(m->function, i), p ? p->group : 0, is_egl, 1,
                               full);
            }
            fputc('}', f);
        }
        if (m->returnvalue) {
            fputs(",\"ret\":", f);
            if (!show_pointer(f, m->returnvalue, fn ? fn->ret_ctype : NULL, 1, full))
                show_value(f, m->returnvalue, fn ? fn->ret_kind : -1, fn ? fn->ret_group : 0, is_egl, 1, full);
        }
        if (m->metadata) {
            fputs(",\"metadata\":", f);
            show_metadata(f, m->metadata);
        }
        if (m->fb)
            show_fb(f, m->fb, rec->thread_id, chain, 1);
        if (m->marker) {
            fputs(",\"marker\":", f);
            gt_show_json_string(f, m->marker, strlen(m->marker));
        }
        fputs("}\n", f);
        return;
    }
    fprintf(f, "%" PRIu64 " %s(", rec->seq, name);
    for (size_t i = 0; i < m->n_args; i++) {
        const gt_api_param *p = fn && i < fn->nparams ? &fn->params[i] : NULL;
        const char *sname = synthetic_arg(m->function, i);
        if (p || sname)
            fprintf(f, "%s%s = ", i ? ", " : "", p ? p->name : sname);
        else if (i)
            fputs(", ", f);
        if (!show_pointer(f, m->args[i], p ? p->ctype : NULL, 0, full))
            show_value(f, m->args[i], p ? p->kind : synthetic_kind(m->function, i), p ? p->group : 0, is_egl, 0,
                       full);
    }
    fputc(')', f);
    if (m->returnvalue) {
        fputs(" = ", f);
        if (!show_pointer(f, m->returnvalue, fn ? fn->ret_ctype : NULL, 0, full))
            show_value(f, m->returnvalue, fn ? fn->ret_kind : -1, fn ? fn->ret_group : 0, is_egl, 0, full);
    }
    if (m->fb)
        show_fb(f, m->fb, rec->thread_id, chain, 0);
    if (m->marker)
        fprintf(f, " \"%s\"", m->marker);
    if (m->metadata) {
        fputs(" ", f);
        show_metadata(f, m->metadata);
    }
    fputc('\n', f);
}
