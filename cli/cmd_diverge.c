/* cmd_diverge.c: `gltrace diverge TRACE --a ENV --b ENV|recorded`: the
 * first call where two replays disagree (gt_diverge.h does the work). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_compare_args.h"
#include "gt_cli.h"
#include "gt_diverge.h"

static const char usage_text[] =
    "usage: gltrace diverge TRACE --a 'NAME=VALUE ...' --b 'NAME=VALUE ...' [options]\n"
    "       gltrace diverge TRACE [--a 'NAME=VALUE ...'] --b recorded [options]\n"
    "       gltrace diverge TRACE --trace-b TRACE2 [--a ...] [--b ...] [options]\n"
    "\n"
    "Replays TRACE twice side by side, each in a process of its own with the\n"
    "variables given set (GALLIUM_DRIVER=softpipe, LD_LIBRARY_PATH=... for\n"
    "another Mesa build), and finds the first call where the two draw different\n"
    "pictures: the frame ends first, then the draws of the first frame that\n"
    "differs. With --b recorded, side A is held against the snapshots the trace\n"
    "recorded (record with --fb=draw for a snapshot after every draw); with\n"
    "--trace-b, side B replays another trace (an altered copy of TRACE).\n"
    "\n"
    "  --a VARS           side A's variables, space-separated NAME=VALUE (default:\n"
    "                     none: the current environment)\n"
    "  --b VARS|recorded  side B's variables, or the recorded snapshots\n"
    "  --trace-b TRACE2   side B replays TRACE2\n"
    "  --out DIR          the pictures of both sides and of their differences,\n"
    "                     and the state at the call from both sides (gltrace\n"
    "                     inspect)\n"
    "  --json FILE        JSON report ('-' for standard output)\n"
    "  -q                 no replay warnings\n"
    "\n"
    "comparison of pictures whose hashes differ (differences within it are\n"
    "stepped over), the options of gltrace diff:\n" CLI_COMPARE_USAGE "\n"
    "Exit status: 0 the sides agree, 1 a divergence found, 2 the trace or the\n"
    "arguments are unusable.\n";

#define MAX_VARS 64

typedef struct diverge_args {
    gt_diverge_options o;
    cli_compare_args c;
    const char *json;
    const char *vars_a, *vars_b;
    char *buf[2];                 /* the split copies of --a and --b */
    const char *env[2][MAX_VARS + 1];
    char label_b[512];
} diverge_args;

static int bad_arg(const char *fmt, const char *arg)
{
    fputs("gltrace diverge: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    fputs(usage_text, stderr);
    return 2;
}

/* "NAME=VALUE NAME=VALUE" into env (NULL-terminated). 0, or 2. */
static int split_vars(diverge_args *a, int side, const char *opt, const char *v)
{
    char *s = a->buf[side] = strdup(v);
    size_t n = 0;
    if (!s)
        return bad_arg("%s", "out of memory");
    for (char *tok = strtok(s, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
        const char *eq = strchr(tok, '=');
        int ok = eq && eq > tok && (isalpha((unsigned char)tok[0]) || tok[0] == '_');
        for (const char *c = tok; ok && c < eq; c++)
            ok = isalnum((unsigned char)*c) || *c == '_';
        if (!ok) {
            fprintf(stderr, "gltrace diverge: %s '%s': '%s' is not NAME=VALUE\n", opt, v, tok);
            return 2;
        }
        if (n == MAX_VARS)
            return bad_arg("%s: too many variables", opt);
        a->env[side][n++] = tok;
    }
    a->env[side][n] = NULL;
    return 0;
}

static int take_value(diverge_args *a, const char *opt, const char *v)
{
    char err[512];
    if (cli_compare_takes_value(opt)) {
        if (cli_compare_value(&a->c, opt, v, err, sizeof err) != 0)
            return bad_arg("%s", err);
    } else if (!strcmp(opt, "--a")) {
        a->vars_a = v;
        return split_vars(a, 0, opt, v);
    } else if (!strcmp(opt, "--b")) {
        a->vars_b = v;
        if (!strcmp(v, "recorded"))
            a->o.b_recorded = 1;
        else
            return split_vars(a, 1, opt, v);
    } else if (!strcmp(opt, "--trace-b")) {
        a->o.trace_b = v;
    } else if (!strcmp(opt, "--out")) {
        a->o.out_dir = v;
    } else {
        a->json = v;
    }
    return 0;
}

static int takes_value(const char *opt)
{
    static const char *const valued[] = {"--a", "--b", "--trace-b", "--out", "--json"};
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++)
        if (!strcmp(opt, valued[i]))
            return 1;
    return cli_compare_takes_value(opt);
}

/* -1 to run; else the exit status (2, or 0 for --help). */
static int parse_args(int argc, char **argv, diverge_args *a)
{
    for (int i = 1; i < argc; i++) {
        char opt[32];
        const char *s = argv[i], *v = NULL, *eq = strchr(s, '=');
        if (s[0] != '-' || !s[1]) {
            if (a->o.trace_a)
                return bad_arg("unexpected argument '%s' (give one TRACE)", s);
            a->o.trace_a = s;
            continue;
        }
        snprintf(opt, sizeof opt, "%.*s", eq && s[1] == '-' ? (int)(eq - s) : (int)strlen(s), s);
        if (eq && s[1] == '-')
            v = eq + 1;
        if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        }
        int rc = 0;
        if (takes_value(opt)) {
            if (!v && i + 1 == argc)
                return bad_arg("option '%s' needs a value", s);
            rc = take_value(a, opt, v ? v : argv[++i]);
        } else if (v) {
            return bad_arg("option '%s' takes no value", s);
        } else if (!strcmp(opt, "-q") || !strcmp(opt, "--quiet")) {
            a->o.quiet = 1;
        } else if (!cli_compare_flag(&a->c, opt)) {
            return bad_arg("unknown option '%s'", s);
        }
        if (rc)
            return rc;
    }
    return -1;
}

static int check_args(diverge_args *a)
{
    char err[512];
    if (!a->o.trace_a)
        return bad_arg("%s", "missing TRACE");
    if (!a->vars_b && !a->o.trace_b)
        return bad_arg("%s", "give side B: --b 'NAME=VALUE ...', --b recorded, or --trace-b TRACE2");
    if (a->o.b_recorded && a->o.trace_b)
        return bad_arg("%s", "--b recorded compares with TRACE's own snapshots: no --trace-b with it");
    if (cli_compare_finish(&a->c, err, sizeof err) != 0)
        return bad_arg("%s", err);
    if (a->c.given)
        a->o.compare = &a->c.o;
    a->o.env_a = a->env[0], a->o.env_b = a->vars_b && !a->o.b_recorded ? a->env[1] : a->env[0];
    a->o.label_a = a->vars_a;
    if (a->o.trace_b)
        snprintf(a->label_b, sizeof a->label_b, "%s%s%s", a->o.trace_b, a->vars_b ? " with " : "",
                 a->vars_b ? a->vars_b : "");
    else
        snprintf(a->label_b, sizeof a->label_b, "%s", a->vars_b ? a->vars_b : "");
    a->o.label_b = a->label_b;
    return -1;
}

static int run(diverge_args *a)
{
    gt_diverge_result res;
    int rc = gt_diverge_run(&a->o, &res);
    int json_out = a->json && !strcmp(a->json, "-");
    gt_diverge_report_text(json_out || rc == 2 ? stderr : stdout, &a->o, &res);
    if (a->json) {
        FILE *f = json_out ? stdout : fopen(a->json, "w");
        if (!f || gt_diverge_report_json(f, &a->o, &res, rc) != 0 || (f != stdout && fclose(f) != 0)) {
            fprintf(stderr, "gltrace diverge: cannot write %s\n", a->json);
            rc = 2;
        }
        if (f == stdout)
            fflush(stdout);
    }
    return rc;
}

int gt_cmd_diverge(int argc, char **argv)
{
    diverge_args a;
    memset(&a, 0, sizeof a);
    gt_diverge_options_init(&a.o);
    cli_compare_args_init(&a.c);
    a.env[0][0] = a.env[1][0] = NULL;
    int rc = parse_args(argc, argv, &a);
    if (rc < 0)
        rc = check_args(&a);
    if (rc < 0)
        rc = run(&a);
    free(a.buf[0]);
    free(a.buf[1]);
    return rc;
}
