/* gt_cli.h: the subcommands of `gltrace`. Each takes argv[0] = its name and
 * returns the process exit status: 0 success, 1 a finding (differences),
 * 2 an error (bad arguments, unreadable input). */
#ifndef GT_CLI_H
#define GT_CLI_H

#include <stddef.h>
#include <stdint.h>

int gt_cmd_record(int argc, char **argv);
int gt_cmd_dump(int argc, char **argv);
int gt_cmd_info(int argc, char **argv);
int gt_cmd_diff(int argc, char **argv);
int gt_cmd_inspect(int argc, char **argv);
int gt_cmd_compact(int argc, char **argv);
int gt_cmd_extract(int argc, char **argv);
int gt_cmd_replay(int argc, char **argv);
int gt_cmd_connect(int argc, char **argv);
int gt_cmd_suite(int argc, char **argv);
int gt_cmd_diverge(int argc, char **argv);
int gt_cmd_trim(int argc, char **argv);
int gt_cmd_view(int argc, char **argv);

/* The numbers of the functions that end a frame (eglSwapBuffers and kin);
 * returns how many were written to out (cmd_compact.c). */
size_t gt_frame_functions(int32_t *out, size_t max);

/* Rewrites the trace at `path` in large chunks (cmd_compact.c). 0, or -1
 * with a message in err (-2: the trace has no seek index, so its capture
 * did not finish); the trace is then left as it was. */
int gt_compact_in_place(const char *path, int level, char *err, size_t errlen);

#endif
