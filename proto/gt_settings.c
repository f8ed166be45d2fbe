/* gt_settings.c: the GLTRACE_* table (gt_settings.h) and its one check. */
#include "gt_settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gt_choice modes[] = {
    {"full", GT_MODE_FULL, 1},  {"error", GT_MODE_ERROR, 1}, {"timing", GT_MODE_TIMING, 1},
    {"0", GT_MODE_OFF, 0},      {"1", GT_MODE_FULL, 0},      {NULL, 0, 0},
};
static const gt_choice timings[] = {
    {"calls", GT_TIMING_CALLS, 1}, {"draws", GT_TIMING_DRAWS, 1}, {NULL, 0, 0},
};
static const gt_choice fbs[] = {
    {"swap", GT_FB_SWAP, 1}, {"draw", GT_FB_DRAW, 1}, {"none", GT_FB_NONE, 1}, {NULL, 0, 0},
};

const gt_setting gt_settings[GT_NSETTINGS] = {
    [GT_SET_OUT] = {
        .var = "GLTRACE_OUT", .kind = GT_SK_TEXT, .flag = "-o", .arg = "OUT", .absent = GT_ABSENT_KEEP,
        .help = "where the trace goes (default: PROGRAM's name + .gltrace, or\n"
                ".json with --mode=timing, in the current folder; an existing\n"
                "file is replaced). OUT may also be\n"
                "  a folder (an existing one, or a path ending in '/', created):\n"
                "  each process that uses GL writes NAME.PID.gltrace there\n"
                "  (NAME.PID.json when timing), NAME being its argv[0]'s last\n"
                "  part; processes that never call GL or EGL leave no file\n"
                "a pattern: %p is the pid, %n the process name, %% a '%',\n"
                "  as in -o 'traces/%n-%p.gltrace'\n"
                "One file per process either way, so `gltrace record -o traces/\n"
                "-- ctest` leaves a trace of every test program that used GL.",
    },
    [GT_SET_MODE] = {
        .var = "GLTRACE", .kind = GT_SK_WORD, .choices = modes, .unset = GT_MODE_OFF,
        .accepts = "a mode this version knows (0, 1, full, error, timing)", .stops = "tracing",
        .flag = "--mode", .arg = "MODE", .absent = GT_ABSENT_DEFAULT,
        .help = "full: record every call into a trace (the default)\n"
                "error: no trace; after each GL call, glGetError: each error\n"
                "is one line on stderr (the call and its arguments, the error,\n"
                "the app's backtrace) and a summary per function at exit; the\n"
                "app's own glGetError still sees its errors\n"
                "timing: Chrome trace-event JSON (Perfetto, chrome://tracing),\n"
                "a slice per frame (swap to swap, per thread) and per call",
    },
    [GT_SET_TIMING] = {
        .var = "GLTRACE_TIMING", .kind = GT_SK_WORD, .choices = timings, .unset = GT_TIMING_CALLS,
        .accepts = "calls or draws", .stops = "timing",
        .flag = "--timing", .arg = "WHAT", .absent = GT_ABSENT_KEEP,
        .help = "with --mode=timing: a slice per GL/EGL call (calls, the\n"
                "default) or per draw and compute dispatch only (draws)",
    },
    [GT_SET_PROC] = {
        .var = "GLTRACE_PROC", .kind = GT_SK_TEXT, .flag = "--proc", .arg = "NAME", .absent = GT_ABSENT_UNSET,
        .help = "trace only the processes named NAME (the last part of their\n"
                "argv[0]); the others run untouched",
    },
    [GT_SET_FB] = {
        .var = "GLTRACE_FB", .kind = GT_SK_WORD, .choices = fbs, .unset = GT_FB_SWAP,
        .accepts = "one of none, swap, draw", .stops = "tracing",
        .flag = "--fb", .arg = "WHEN", .absent = GT_ABSENT_DEFAULT,
        .help = "framebuffer snapshots: at each eglSwapBuffers (swap, the\n"
                "default; a context that never swapped is taken at glFinish and\n"
                "where it is let go of, eglMakeCurrent away, eglDestroyContext,\n"
                "eglReleaseThread, eglTerminate, when it drew since; the app's\n"
                "own glReadPixels are compared by replay in every mode), also\n"
                "after every draw call (draw), or none",
    },
    [GT_SET_FB_DEPTH] = {
        .var = "GLTRACE_FB_DEPTH", .kind = GT_SK_SWITCH, .stops = "tracing",
        .flag = "--fb-depth", .absent = GT_ABSENT_DEFAULT,
        .help = "with each framebuffer snapshot, its depth (32-bit integers) and\n"
                "stencil (bytes) too, where the driver can read them",
    },
    [GT_SET_TEXTURES] = {
        .var = "GLTRACE_TEXTURES", .kind = GT_SK_SWITCH, .stops = "tracing",
        .flag = "--textures", .absent = GT_ABSENT_DEFAULT,
        .help = "at each swap, also the textures drawn into since the last\n"
                "one (needs GLES 3.1)",
    },
    [GT_SET_THREADTIME] = {
        .var = "GLTRACE_THREADTIME", .kind = GT_SK_SWITCH, .stops = "tracing",
        .flag = "--threadtime", .absent = GT_ABSENT_KEEP,
        .help = "also record each call's thread CPU time (costs a syscall per call;\n"
                "with --mode=timing: tts/tdur on call slices, frames always have them)",
    },
    [GT_SET_NO_COMPACT] = {
        .kind = GT_SK_SWITCH, .flag = "--no-compact", .absent = GT_ABSENT_KEEP,
        .help = "keep the trace as capture wrote it (a chunk per swap and per\n"
                "100 ms) instead of rewriting it in large chunks at the end",
    },
    [GT_SET_LINGER] = {
        .kind = GT_SK_NUMBER, .lo = 0, .hi = 3600, .noun = "a number of seconds", .unset = 10,
        .flag = "--linger", .arg = "S", .absent = GT_ABSENT_KEEP,
        .help = "wait up to S seconds (default 10) for processes of the run that\n"
                "outlive the program (a browser's GPU process) to finish their\n"
                "traces before compacting them; a trace still written after\n"
                "that is left as it is",
    },
    [GT_SET_LEVEL] = {
        .var = "GLTRACE_ZSTD_LEVEL", .kind = GT_SK_NUMBER, .lo = -7, .hi = 19, .noun = "a zstd level", .unset = 3,
        .stops = "tracing", .flag = "--level", .arg = "N", .absent = GT_ABSENT_KEEP,
        .help = "zstd level for the trace (default 3)",
    },
    [GT_SET_LISTEN] = {
        .var = "GLTRACE_LISTEN", .kind = GT_SK_TEXT, .flag = "--listen", .arg = "TARGET", .absent = GT_ABSENT_UNSET,
        .help = "the app serves a host (`gltrace connect TARGET`), which\n"
                "starts and stops tracing; TARGET is unix:PATH, abstract:NAME\n"
                "or tcp:PORT (127.0.0.1; a token is printed). The app records\n"
                "every call into a spool file (GLTRACE_SPOOL) and the host\n"
                "gets the started frames as a trace that replays on its own;\n"
                "',keep' after TARGET keeps the spool at exit, ',stream'\n"
                "streams instead from the start on (cheap, but it lacks what\n"
                "was made before), ',wait' streams and makes the app wait\n"
                "for a host's start at its first GL call",
    },
    [GT_SET_SPOOL] = {
        .var = "GLTRACE_SPOOL", .kind = GT_SK_TEXT,
        .help = "GLTRACE_LISTEN: the directory of the spool file (default\n"
                "$TMPDIR, else /tmp); the file is the user's alone (0600)",
    },
    [GT_SET_BUFFER_MB] = {
        .var = "GLTRACE_BUFFER_MB", .kind = GT_SK_NUMBER, .lo = 4, .hi = 65536, .noun = "a number of MiB",
        .unset = 512, .stops = "tracing",
        .help = "memory for trace buffers in flight; a thread that would take more waits for the writer",
    },
    [GT_SET_SNAPSHOT_DELTA] = {
        .var = "GLTRACE_SNAPSHOT_DELTA", .kind = GT_SK_SWITCH, .unset = 1, .stops = "tracing",
        .help = "1 (default): each snapshot's pixels coded against the previous snapshot of its\n"
                "target (FORMAT.md); 0: raw, as trace format 1 wrote them",
    },
    [GT_SET_RECORD_LIST] = {
        .var = "GLTRACE_RECORD_LIST", .kind = GT_SK_TEXT,
        .help = "set by gltrace record: a file where each traced process adds the name of the file it wrote",
    },
    [GT_SET_START_FRAME] = {
        .var = "GLTRACE_START_FRAME", .kind = GT_SK_NUMBER, .lo = 0, .hi = 1L << 40, .noun = "a frame number",
        .stops = "tracing",
        .help = "set by gltrace record --start-frame N: no snapshots at the swaps\n"
                "(nor, with --fb=draw, after the draws) of frames before N - 1 (the\n"
                "trim of the run leaves them out)",
    },
    [GT_SET_COALESCE] = {
        .var = "GLTRACE_COALESCE", .kind = GT_SK_SWITCH, .unset = 1, .stops = "tracing",
        .help = "1 (default): before the start of a mid-run capture (GLTRACE_START_FRAME,\n"
                "the spool before a host's start), a command that only sets state is\n"
                "written only once something reads it, and not when a later one of the\n"
                "same piece replaced it first (one thread making calls); 0: every call",
    },
    [GT_SET_STOP_FRAME] = {
        .var = "GLTRACE_STOP_FRAME", .kind = GT_SK_NUMBER, .lo = 0, .hi = 1L << 40, .noun = "a frame number",
        .stops = "tracing",
        .help = "set by gltrace record --start-frame N --frames K to N + K: tracing stops\n"
                "after that frame's end (one frame more than the trim keeps, as threads'\n"
                "swaps may be counted in another order); the app runs on untraced",
    },
};

int gt_setting_parse(gt_setting_id id, const char *text, long *value)
{
    const gt_setting *s = &gt_settings[id];
    if (s->kind == GT_SK_TEXT)
        return -1;
    if (!text || !*text) {
        *value = s->unset;
        return 0;
    }
    if (s->kind == GT_SK_WORD) {
        for (const gt_choice *c = s->choices; c->word; c++) {
            if (!strcmp(text, c->word)) {
                *value = c->value;
                return 0;
            }
        }
        return -1;
    }
    if (s->kind == GT_SK_SWITCH) {
        if ((text[0] != '0' && text[0] != '1') || text[1])
            return -1;
        *value = text[0] - '0';
        return 0;
    }
    char *end;
    long v = strtol(text, &end, 10);
    if (*end || v < s->lo || v > s->hi)
        return -1;
    *value = v;
    return 0;
}

int gt_setting_flag_ok(gt_setting_id id, const char *text)
{
    const gt_setting *s = &gt_settings[id];
    long v;
    if (s->kind == GT_SK_TEXT)
        return 1;
    if (!*text || gt_setting_parse(id, text, &v) != 0)
        return 0;
    if (s->kind == GT_SK_WORD) {
        for (const gt_choice *c = s->choices; c->word; c++) {
            if (!strcmp(text, c->word))
                return c->offered;
        }
    }
    return 1;
}

const char *gt_setting_env(gt_setting_id id)
{
    return gt_settings[id].var ? getenv(gt_settings[id].var) : NULL;
}

/* What the setting accepts, as the library's message says it. */
static void accepts(const gt_setting *s, char *out, size_t len)
{
    if (s->kind == GT_SK_NUMBER)
        snprintf(out, len, "%s from %ld to %ld", s->noun, s->lo, s->hi);
    else
        snprintf(out, len, "%s", s->kind == GT_SK_SWITCH ? "0 or 1" : s->accepts);
}

int gt_setting_get(gt_setting_id id, long *value, char *why, size_t len)
{
    const gt_setting *s = &gt_settings[id];
    const char *text = gt_setting_env(id);
    if (gt_setting_parse(id, text, value) == 0)
        return 0;
    char a[128];
    accepts(s, a, sizeof a);
    snprintf(why, len, "%s=%s is not %s; %s is off", s->var, text, a, s->stops);
    return -1;
}

void gt_setting_flag_error(gt_setting_id id, const char *text, char *out, size_t len)
{
    const gt_setting *s = &gt_settings[id];
    char a[128] = "";
    if (s->kind == GT_SK_WORD) {
        /* The words the flag offers: "a, b or c". */
        size_t n = 0, k = 0;
        for (const gt_choice *c = s->choices; c->word; c++)
            n += c->offered != 0;
        for (const gt_choice *c = s->choices; c->word; c++) {
            if (!c->offered)
                continue;
            size_t used = strlen(a);
            snprintf(a + used, sizeof a - used, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ", c->word);
            k++;
        }
    } else {
        accepts(s, a, sizeof a);
    }
    snprintf(out, len, "%s takes %s, not '%s'", s->flag, a, text);
}

const char *gt_setting_default(gt_setting_id id)
{
    const gt_setting *s = &gt_settings[id];
    if (s->kind == GT_SK_WORD)
        return s->choices[0].word;
    return s->kind == GT_SK_SWITCH ? "0" : NULL;
}

int gt_setting_by_flag(const char *flag)
{
    for (int i = 0; i < GT_NSETTINGS; i++) {
        if (gt_settings[i].flag && !strcmp(gt_settings[i].flag, flag))
            return i;
    }
    return -1;
}
