/* rp_trim_state.c: the state at the start of a trim against the
 * original's, as `gltrace inspect` reads it (gt_inspect_write: every piece
 * of state api/state.tsv describes, and the bound objects' contents). The
 * original's is dumped by the replay that plans the trim, after its last
 * record before the start; the trim's by the replay that checks it, after
 * its setup. They must be the same but for what a trim changes by nature:
 * the names the replay driver gave (the trace's names are compared), the
 * window's pixels (the setup leaves out what a swap discards) and the
 * dump's own fields. */
#include "rp_internal.h"
#include "rp_trim_internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt_inspect.h"

int rp_trim_state_dir(char *dir, size_t n, const char *what)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, n, "%s/gltrace-trim-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", what);
    return mkdtemp(dir) ? 0 : -1;
}

void rp_trim_state_remove(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4096];
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

int rp_trim_state_dump(rp *r, uint64_t tid, const char *dir, char *err, size_t errlen)
{
    if (rp_make_current_for(r, tid) != 0) {
        snprintf(err, errlen, "no context current on the thread at the start");
        return -1;
    }
    return gt_inspect_write(r, dir, 1, err, errlen);
}

/* What a trim changes by nature (see the top). The driver's name of an
 * attached object (glGetFramebufferAttachmentParameteriv's, as a number)
 * is one: the trace's name is the attachment's `object` beside it. */
static int ignored(const char *path)
{
    static const char object_name[] = "/GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME";
    size_t n = strlen(path), on = sizeof object_name - 1;
    return (n >= 9 && !strcmp(path + n - 9, "/replayed")) || !strcmp(path, "/trace") ||
           (n >= on && !strcmp(path + n - on, object_name)) ||
           !strncmp(path, "/framebuffers/draw/attachments/GL_BACK", 38) ||
           !strncmp(path, "/framebuffers/read/attachments/GL_BACK", 38) || !strncmp(path, "/egl/", 5);
}

static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        same = ca == cb;
        if (ca == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* The resource files of the original's dump against the trim's, by name
 * (the trace's names): the window's attachments left out. */
static int compare_files(const char *orig, const char *trim, char *first, size_t n)
{
    DIR *d = opendir(orig);
    struct dirent *e;
    int diffs = 0;
    char a[4096], b[4096];
    while (d && (e = readdir(d))) {
        const char *f = e->d_name;
        if (f[0] == '.' || !strcmp(f, "state.json") || !strncmp(f, "draw-", 5) || !strncmp(f, "read-", 5))
            continue;
        snprintf(a, sizeof a, "%s/%s", orig, f);
        snprintf(b, sizeof b, "%s/%s", trim, f);
        if (!same_file(a, b) && diffs++ == 0 && first)
            snprintf(first, n, "the contents of %s", f);
    }
    if (d)
        closedir(d);
    return diffs;
}

/* gt_inspect_diff of two files into memory (NULL on failure, err set). */
static char *diff_text(const char *a, const char *b, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int rc = gt_inspect_diff(a, b, f, err, errlen);
    fclose(f);
    if (rc != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Whether attribute i reads client memory in the trim's dump (`leaves`:
 * its state.json flattened, one change per leaf): no buffer bound. Its
 * pointer is then an address of replay's copy of the recorded bytes, which
 * differs from run to run by nature. */
static int client_array(const char *leaves, long i)
{
    char key[128];
    snprintf(key, sizeof key, "\"/vertex_attribs/%ld/GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING/recorded\", \"after\": 0}",
             i);
    return leaves && strstr(leaves, key) != NULL;
}

/* The numbers of a change's "before" or "after" array, at most n. */
static int numbers(const char *change, const char *which, long long *v, int n)
{
    const char *p = strstr(change, which);
    if (!p || !(p = strchr(p, '[')))
        return 0;
    int k = 0;
    for (char *end; k < n; p = end + 1) {
        v[k++] = strtoll(p + 1, &end, 10);
        if (*end != ',')
            break;
    }
    return k;
}

/* Whether the change (one line of the diff, path cut off at its quote)
 * matters; `leaves`: the trim's dump flattened. */
static int matters(const char *path, const char *rest, const char *leaves)
{
    long i;
    int used = 0;
    if (ignored(path))
        return 0;
    if (sscanf(path, "/vertex_attribs/%ld/GL_VERTEX_ATTRIB_ARRAY_POINTER%n", &i, &used) == 1 && !path[used])
        return !client_array(leaves, i);
    if (!strcmp(path, "/indexed/GL_VERTEX_BINDING_OFFSET")) {
        long long a[64], b[64];
        int na = numbers(rest, "\"before\"", a, 64), nb = numbers(rest, "\"after\"", b, 64);
        if (na != nb)
            return 1;
        for (int k = 0; k < na; k++)
            if (a[k] != b[k] && !client_array(leaves, k))
                return 1;
        return 0;
    }
    return 1;
}

int rp_trim_state_compare(const char *orig, const char *trim, char *first, size_t n)
{
    char a[4096], b[4096], empty[4096], err[256];
    snprintf(a, sizeof a, "%s/state.json", orig);
    snprintf(b, sizeof b, "%s/state.json", trim);
    snprintf(empty, sizeof empty, "%s/empty.json", trim);
    FILE *e = fopen(empty, "w");
    if (e) {
        fputs("{\"trim\": 0}\n", e); /* a leaf: an empty document gives the diff nothing to sort */
        fclose(e);
    }
    char *buf = diff_text(a, b, err, sizeof err);
    char *leaves = e ? diff_text(empty, b, err, sizeof err) : NULL;
    remove(empty);
    if (!buf) {
        snprintf(first, n, "%s", err);
        free(leaves);
        return -1;
    }
    int diffs = 0;
    /* One change runs to the next one's start (its values may span lines). */
    for (char *p = strstr(buf, "{\"path\": \""); p;) {
        p += 10;
        char *next = strstr(p, "{\"path\": \"");
        if (next)
            next[-1] = 0;
        char *q = strchr(p, '"');
        if (!q)
            break;
        *q = 0;
        if (matters(p, q + 1, leaves) && diffs++ == 0)
            snprintf(first, n, "%s", p);
        p = next;
    }
    free(buf);
    free(leaves);
    return diffs + compare_files(orig, trim, diffs ? NULL : first, n);
}
