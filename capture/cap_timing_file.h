/* cap_timing_file.h: the frame of the timing mode's file (GLTRACE=timing),
 * Chrome's trace-event JSON as capture/cap_timing.c writes it: the opening
 * line, one slice (or metadata event) per line, each ending in a newline,
 * and the closing line. The library writes it; `gltrace record` closes a
 * file whose process died before the library could.
 *
 * No GL, no capture state: both the capture library and the command line
 * link it. */
#ifndef CAP_TIMING_FILE_H
#define CAP_TIMING_FILE_H

#define CAP_TIMING_FILE_BEGIN "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
#define CAP_TIMING_FILE_END "]}\n"

/* What cap_timing_file_close found. */
enum {
    CAP_TIMING_FILE_WHOLE,  /* closed already (or unreadable: left alone) */
    CAP_TIMING_FILE_CLOSED, /* cut short after a whole line: closed now */
    CAP_TIMING_FILE_TORN,   /* cut short inside a line: that line dropped, closed now */
};

/* Closes the JSON of a timing file whose process was killed (SIGKILL,
 * _exit): what follows the last newline is a slice torn by the kill; it
 * goes, and the closing line ends the list. Call only once no process
 * writes the file any more. */
int cap_timing_file_close(const char *path);

#endif
