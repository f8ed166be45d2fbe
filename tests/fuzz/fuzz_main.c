/* fuzz_main: the plain driver of a fuzz target, for builds without
 * libFuzzer (gcc, the normal and sanitizer passes). Every argument is a
 * file or a folder of files (a corpus, saved crash inputs); each file is
 * run once through the target's LLVMFuzzerTestOneInput, so the inputs that
 * once crashed stay regression tests. A folder that does not exist is
 * skipped: a target without saved crashes has no crashes folder.
 * usage: fuzz_NAME PATH... ; exit 0 when every input ran. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static unsigned long inputs;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_main: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "fuzz_main: out of memory reading %s\n", path);
        return -1;
    }
    /* An exact-size copy, so that AddressSanitizer sees a read past the
     * input as libFuzzer would. */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    inputs++;
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "fuzz_main: cannot read folder %s\n", path);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.') {
            char full[4096];
            snprintf(full, sizeof full, "%s/%s", path, names[i]->d_name);
            if (run_path(full) != 0)
                rc = -1;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    int rc = 0;
    for (int i = 1; i < argc; i++)
        if (run_path(argv[i]) != 0)
            rc = 1;
    printf("%lu inputs run\n", inputs);
    if (inputs == 0) {
        fprintf(stderr, "fuzz_main: no input found: the corpus is missing\n");
        return 1;
    }
    return rc;
}
