/* gltrace dump: every record of a trace, one line each, in call order. */
#include <stdio.h>
#include <string.h>

#include "gt_cli.h"
#include "gt_show.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: gltrace dump [--json] [--full] TRACE\n"
               "  --json   JSON Lines, one object per call\n"
               "  --full   show all data behind pointers (default: shortened)\n");
}

int gt_cmd_dump(int argc, char **argv)
{
    int json = 0, full = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--full") == 0)
            full = 1;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "gltrace dump: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (!path)
            path = argv[i];
        else {
            fprintf(stderr, "gltrace dump: one trace at a time ('%s' is extra)\n", argv[i]);
            return 2;
        }
    }
    if (!path) {
        usage(stderr);
        return 2;
    }
    char err[GT_ERRLEN];
    gt_reader *r = gt_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "gltrace dump: %s\n", err);
        return 2;
    }
    gt_record rec;
    int rc, status = 0;
    gt_snap_chain *chain = gt_snap_chain_new(); /* coded snapshots shown by their pixels */
    while ((rc = gt_reader_next(r, &rec)) == 1) {
        Gltrace__GLMessage *m = gltrace__glmessage__unpack(NULL, rec.size, rec.data);
        if (!m) {
            fflush(stdout);
            fprintf(stderr, "gltrace dump: %s: record %llu (chunk at byte %llu) is not a valid GLMessage\n",
                    path, (unsigned long long)rec.seq, (unsigned long long)rec.offset);
            status = 2;
            break;
        }
        if (!json)
            gt_show_trim_part(stdout, m);
        gt_show_record(stdout, m, &rec, json, full, chain);
        gltrace__glmessage__free_unpacked(m, NULL);
    }
    if (rc < 0) {
        fflush(stdout);
        fprintf(stderr, "gltrace dump: %s\n", gt_reader_error(r));
        status = 2;
    }
    gt_reader_close(r);
    gt_snap_chain_free(chain);
    if (fflush(stdout) != 0)
        status = 2;
    return status;
}
