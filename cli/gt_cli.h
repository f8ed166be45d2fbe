/* gt_cli.h: the subcommands of `gltrace`. Each takes argv[0] = its name and
 * returns the process exit status: 0 success, 1 a finding (differences),
 * 2 an error (bad arguments, unreadable input). */
#ifndef GT_CLI_H
#define GT_CLI_H

int gt_cmd_record(int argc, char **argv);
int gt_cmd_dump(int argc, char **argv);
int gt_cmd_info(int argc, char **argv);
int gt_cmd_diff(int argc, char **argv);

#endif
