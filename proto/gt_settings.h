/* gt_settings.h: the GLTRACE_* environment variables, once, as a table:
 * the variable, what it accepts, the `gltrace record` flag that writes it,
 * and its help text. `gltrace record` (cli/cmd_record.c) checks its flags
 * and sets the variables from it; the capture library (capture/cap_init.c)
 * reads them through it, with the same check. Neither side spells a
 * variable or a value list of its own.
 *
 * No allocation and no state: the capture library reads its settings at
 * init, and may read them from any thread. */
#ifndef GT_SETTINGS_H
#define GT_SETTINGS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values of the word settings. */
enum { GT_MODE_OFF, GT_MODE_FULL, GT_MODE_ERROR, GT_MODE_TIMING };  /* GLTRACE */
enum { GT_FB_NONE, GT_FB_SWAP, GT_FB_DRAW };                        /* GLTRACE_FB */
enum { GT_TIMING_CALLS, GT_TIMING_DRAWS };                          /* GLTRACE_TIMING */

/* The rows, in the order `gltrace record --help` shows them. */
typedef enum gt_setting_id {
    GT_SET_OUT,
    GT_SET_MODE,
    GT_SET_TIMING,
    GT_SET_PROC,
    GT_SET_FB,
    GT_SET_FB_DEPTH,
    GT_SET_TEXTURES,
    GT_SET_THREADTIME,
    GT_SET_NO_COMPACT,
    GT_SET_LINGER,
    GT_SET_LEVEL,
    GT_SET_LISTEN,
    GT_SET_SPOOL,
    GT_SET_BUFFER_MB,
    GT_SET_SNAPSHOT_DELTA,
    GT_SET_RECORD_LIST,
    GT_SET_START_FRAME,
    GT_SET_COALESCE,
    GT_SET_STOP_FRAME,
    GT_NSETTINGS
} gt_setting_id;

enum gt_setting_kind {
    GT_SK_WORD,   /* one of `choices` */
    GT_SK_SWITCH, /* 0 or 1; the flag takes no value and means 1 */
    GT_SK_NUMBER, /* a whole number from lo to hi */
    GT_SK_TEXT,   /* anything (a path, a name, a target): checked where it is used */
};

/* What `gltrace record` does with a variable whose flag was not given. */
enum gt_setting_absent {
    GT_ABSENT_KEEP,    /* leaves the environment's value */
    GT_ABSENT_DEFAULT, /* sets the default: the first choice, or 0 */
    GT_ABSENT_UNSET,   /* unsets it: the flag alone decides */
};

typedef struct gt_choice {
    const char *word;
    int value;
    int offered; /* `gltrace record`'s flag takes it (else the variable only) */
} gt_choice;

typedef struct gt_setting {
    const char *var;  /* NULL: a flag of `gltrace record` alone */
    enum gt_setting_kind kind;
    const gt_choice *choices; /* GT_SK_WORD, ended by a NULL word */
    long lo, hi;              /* GT_SK_NUMBER */
    const char *noun;         /* GT_SK_NUMBER: "a zstd level" (from lo to hi) */
    long unset;               /* the value when unset or empty */
    const char *accepts;      /* GT_SK_WORD: what the library's message says it accepts */
    const char *stops;        /* what an unknown value turns off: "tracing", "timing" */
    const char *flag;         /* `gltrace record`'s flag, NULL: none */
    const char *arg;          /* the flag's value in the help ("WHEN"); NULL: a switch */
    enum gt_setting_absent absent;
    const char *help;         /* lines after the first are indented as they are written */
} gt_setting;

extern const gt_setting gt_settings[GT_NSETTINGS];

/* text as a value of the setting: 0 and *value, or -1. NULL and "" are the
 * unset value. GT_SK_TEXT is never parsed (-1). */
int gt_setting_parse(gt_setting_id id, const char *text, long *value);
/* The variable's text in the environment, or NULL. */
const char *gt_setting_env(gt_setting_id id);
/* The variable from the environment: 0 and *value, or -1 with the one line
 * the library logs in why ("GLTRACE_FB=x is not one of ...; tracing is off"). */
int gt_setting_get(gt_setting_id id, long *value, char *why, size_t len);
/* 1 when `gltrace record`'s flag takes text: a word it offers, a number
 * in range, any text for a text setting. */
int gt_setting_flag_ok(gt_setting_id id, const char *text);
/* The line `gltrace record` prints for a bad flag value ("--fb takes swap,
 * draw or none, not 'x'"). */
void gt_setting_flag_error(gt_setting_id id, const char *text, char *out, size_t len);
/* The setting's default as `gltrace record` writes it: the first choice,
 * or "0" for a switch; NULL for others. */
const char *gt_setting_default(gt_setting_id id);
/* The row whose flag is `flag`, or -1. */
int gt_setting_by_flag(const char *flag);

#ifdef __cplusplus
}
#endif
#endif
