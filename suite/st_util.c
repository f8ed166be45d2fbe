/* st_util.c: strings, folders and files the suite library needs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "st_internal.h"

char *st_strdup(const char *s)
{
    char *d = s ? strdup(s) : NULL;
    if (s && !d)
        abort(); /* out of memory for a file name: nothing sensible is left */
    return d;
}

char *st_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        abort();
    va_end(ap);
    return s;
}

void st_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gltrace suite: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int st_mkdirs(const char *dir)
{
    char *p = st_strdup(dir);
    for (char *s = p + 1; *s; s++) {
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0777);
            *s = '/';
        }
    }
    int rc = mkdir(p, 0777) == 0 || errno == EEXIST ? 0 : -1;
    free(p);
    return rc;
}

char *st_trace_dirname(const char *trace)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char *s = trace; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    const char *base = strrchr(trace, '/');
    base = base ? base + 1 : trace;
    char *name = st_fmt("%.80s-%08x", base, (unsigned)(h ^ (h >> 32)));
    for (char *s = name; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.' ||
              *s == '-' || *s == '_'))
            *s = '_';
    return name;
}

static int copy_file(const char *src, const char *dst)
{
    if (link(src, dst) == 0)
        return 0;
    int in = open(src, O_RDONLY), out = in < 0 ? -1 : open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    char buf[65536];
    ssize_t n = 0;
    while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) {
            n = -1;
            break;
        }
    int rc = in >= 0 && out >= 0 && n == 0 ? 0 : -1;
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    return rc;
}

int st_copy_tree(const char *src, const char *dst)
{
    DIR *d = opendir(src);
    if (!d)
        return -1;
    st_mkdirs(dst);
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *s = st_fmt("%s/%s", src, e->d_name), *t = st_fmt("%s/%s", dst, e->d_name);
        struct stat st;
        unlink(t);
        if (stat(s, &st) == 0)
            rc |= S_ISDIR(st.st_mode) ? st_copy_tree(s, t) : copy_file(s, t);
        free(s);
        free(t);
    }
    closedir(d);
    return rc;
}

void st_csv_field(FILE *f, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    fputc('"', f);
}

void st_strs_push(st_strs *s, const char *v)
{
    char **n = realloc(s->v, (s->n + 2) * sizeof *n);
    if (!n)
        abort();
    s->v = n;
    s->v[s->n++] = st_strdup(v);
    s->v[s->n] = NULL;
}

void st_strs_free(st_strs *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    s->v = NULL, s->n = 0;
}
