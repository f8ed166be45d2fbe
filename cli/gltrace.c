/* gltrace: the command-line front end. One subcommand per file
 * (cmd_NAME.c); this file only dispatches. */
#include <stdio.h>
#include <string.h>

#include "gt_cli.h"

typedef struct cmd {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} cmd;

static const cmd cmds[] = {
    {"record", gt_cmd_record, "run a program with its GLES/EGL calls recorded"},
    {"dump", gt_cmd_dump, "print a trace call by call (text or --json)"},
    {"info", gt_cmd_info, "print a summary of a trace as JSON"},
    {"replay", gt_cmd_replay, "replay a trace headless and compare its snapshots"},
    {"inspect", gt_cmd_inspect, "the GL state and resources after chosen calls, as JSON and files"},
    {"diverge", gt_cmd_diverge, "find the first draw where two drivers (or builds) disagree"},
    {"diff", gt_cmd_diff, "compare PNG images or folders of them"},
    {"extract", gt_cmd_extract, "write the recorded snapshots of a trace as PNG files"},
    {"compact", gt_cmd_compact, "rewrite a trace in large chunks (record does it itself)"},
    {"trim", gt_cmd_trim, "a standalone trace of some frames of a longer one"},
    {"connect", gt_cmd_connect, "drive a running app's trace server (GLTRACE_LISTEN)"},
    {"suite", gt_cmd_suite, "replay a corpus of traces against expectations per device"},
    {"view", gt_cmd_view, "browse a trace in a web page (local server, or --export DIR)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: gltrace COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
    fprintf(f, "\n'gltrace COMMAND --help' describes each command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("gltrace %s\n", GT_TOOL_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (strcmp(argv[1], cmds[i].name) == 0)
            return cmds[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "gltrace: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
