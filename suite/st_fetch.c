/* st_fetch.c: traces given by URL, fetched by curl (a child process: its
 * protocols, proxies and certificates are the user's) with retries, and
 * checked against their SHA-256 before use. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "st_internal.h"

static int checks_out(const char *path, const char *sha256)
{
    char hex[65];
    st_sha256_file_hex(path, hex);
    return hex[0] && (!sha256 || !strcasecmp(hex, sha256));
}

static int curl_once(const char *url, const char *tmp)
{
    char *argv[] = {"curl", "-fsSL", "--retry", "2", "--connect-timeout", "20", "-o", (char *)tmp, (char *)url, NULL};
    st_child c, *v = &c;
    st_strs env = {0};
    if (st_child_start(&c, argv, &env, NULL, 600) != 0)
        return -1;
    while (!st_child_wait(&v, 1))
        ;
    return !c.timed_out && c.status == 0 ? 0 : -1;
}

int st_fetch(const char *url, const char *sha256, const char *dest, char *err)
{
    struct stat st;
    if (stat(dest, &st) == 0 && sha256 && checks_out(dest, sha256))
        return 0;
    char *tmp = st_fmt("%s.part", dest);
    int ok = 0;
    for (int attempt = 0; attempt < 3 && !ok; attempt++) {
        unlink(tmp);
        if (curl_once(url, tmp) != 0) {
            snprintf(err, ST_ERR_MAX, "%s: download failed (curl, 3 attempts)", url);
            continue;
        }
        if (!checks_out(tmp, sha256)) {
            snprintf(err, ST_ERR_MAX, "%s: the download's SHA-256 is not the suite file's %s", url, sha256);
            continue;
        }
        ok = rename(tmp, dest) == 0;
        if (!ok)
            snprintf(err, ST_ERR_MAX, "%s: cannot be written", dest);
    }
    unlink(tmp);
    free(tmp);
    return ok ? 0 : -1;
}
