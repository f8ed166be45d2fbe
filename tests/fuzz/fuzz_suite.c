/* fuzz_suite: the suite file parser (suite/st_yaml.c, st_suite.c) on any
 * bytes, as `gltrace suite run` reads a suite file for a device; then the
 * positions `gltrace suite update` edits the text at (suite/st_edit.c),
 * taken from libyaml's marks on every node of the tree: they must stay
 * inside the text whatever the file holds.
 * Input: one selector byte (the device: % the names below), then the file. */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_mem.h"
#include "st_edit.h"

/* Devices of suite/README.md's examples and Mesa's traces files. */
static const char *const devices[] = {"llvmpipe", "softpipe", "valgrind", "gl-vmware-llvmpipe", "zink"};

static void positions(st_doc *d)
{
    volatile size_t sink = 0;
    for (yaml_node_t *n = d->doc.nodes.start; n < d->doc.nodes.top; n++) {
        if (n->type == YAML_SCALAR_NODE) {
            char *q = st_yaml_quote((const char *)n->data.scalar.value);
            free(q);
            continue;
        }
        size_t end = st_line_end_after(d, n);
        if (end > d->len) {
            fprintf(stderr, "st_line_end_after: %zu past the text's %zu bytes\n", end, d->len);
            abort();
        }
        sink += end + st_key_column(d, n) + (size_t)st_is_flow(d, n);
    }
    (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *device = devices[data[0] % (sizeof devices / sizeof *devices)];
    char path[64];
    int fd = fuzz_mem_file(data + 1, size - 1, path, sizeof path);
    if (fd < 0)
        return 0;
    st_suite s;
    if (st_suite_load(&s, path, device) == 0)
        positions(&s.doc);
    st_suite_free(&s);
    close(fd);
    return 0;
}
