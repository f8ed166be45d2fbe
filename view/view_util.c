/* view_util.c: the small things the viewer's files share: a growing
 * buffer for answers, function names, folders. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gt_api.h"
#include "view_internal.h"

static int reserve(view_buf *b, size_t n)
{
    if (b->failed)
        return -1;
    if (b->len + n + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
        b->failed = 1;
        return -1;
    }
    b->data = d;
    b->cap = cap;
    return 0;
}

void view_buf_put(view_buf *b, const void *p, size_t n)
{
    if (reserve(b, n) != 0)
        return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
}

void view_buf_printf(view_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        view_buf_put(b, small, (size_t)n);
        return;
    }
    if (reserve(b, (size_t)n) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void view_buf_strn(view_buf *b, const char *s, size_t n)
{
    view_buf_put(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            view_buf_put(b, e, 2);
        } else if (c == '\n') {
            view_buf_put(b, "\\n", 2);
        } else if (c < 0x20 || c >= 0x7f || c == '<') { /* '<': no "</script>" inside an export chunk */
            view_buf_printf(b, "\\u%04x", c);
        } else {
            view_buf_put(b, &s[i], 1);
        }
    }
    view_buf_put(b, "\"", 1);
}

void view_buf_str(view_buf *b, const char *s)
{
    view_buf_strn(b, s, strlen(s));
}

void view_buf_free(view_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

const char *view_fn_name(uint16_t fn, uint8_t alias, char *buf, size_t len)
{
    const char *n = gt_api_number_name(fn, alias);
    if (n)
        return n;
    snprintf(buf, len, "function%u", fn);
    return buf;
}

int view_mkdirs(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int view_cache_dir(const gt_view_index *ix, char *out, size_t len, char *err, size_t errlen)
{
    snprintf(out, len, "%s.d", ix->path);
    if (view_mkdirs(out) != 0) {
        snprintf(err, errlen, "cannot make %s: %s", out, strerror(errno));
        return -1;
    }
    return 0;
}

const view_asset *view_asset_find(const char *name)
{
    for (size_t i = 0; i < view_nassets; i++)
        if (strcmp(view_assets[i].name, name) == 0)
            return &view_assets[i];
    return NULL;
}
