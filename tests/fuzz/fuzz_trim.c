/* fuzz_trim: gltrace trim (replay/gt_trim.h) of a fuzzed trace on llvmpipe
 * (EGL surfaceless): the plan (a replay up to the start, with every step's
 * bookkeeping: contexts, objects and their writes, state commands), the
 * writing of the result, and its check with the ladder of retries when the
 * result's replay differs or stops. Trim must refuse what replay refuses,
 * and never crash, whatever the records say.
 *
 * The range is calls, from a start taken from the input's last byte (1 to
 * 40) for 40 calls, so the replays stay short; the trim is written to a
 * file of this process's own in /tmp (trim writes by path), removed after.
 * Slow per input, as fuzz_replay is: a display and contexts are made and
 * torn down by each of trim's replays. */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_gl.h"
#include "fuzz_mem.h"
#include "gt_trim.h"

static int verbose; /* FUZZ_VERBOSE: a line per input on stderr */
static char out[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    verbose = getenv("FUZZ_VERBOSE") != NULL;
    fuzz_gl_init();
    snprintf(out, sizeof out, "/tmp/fuzz_trim_%d.gltrace", (int)getpid());
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_mem_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    gt_trim_options o;
    gt_trim_options_init(&o);
    o.by_calls = 1;
    o.call_first = 1 + (size ? data[size - 1] % 40 : 0);
    o.call_last = o.call_first + 40;
    o.level = 1;
    gt_trim_summary s;
    int rc = gt_trim_run(path, out, &o, &s);
    if (verbose)
        fprintf(stderr, "fuzz_trim: calls %llu-%llu: status %d, %llu of %llu matched%s%s\n",
                (unsigned long long)o.call_first, (unsigned long long)o.call_last, rc,
                (unsigned long long)s.matched, (unsigned long long)s.snapshots, s.error[0] ? ": " : "", s.error);
    remove(out);
    close(fd);
    return 0;
}
