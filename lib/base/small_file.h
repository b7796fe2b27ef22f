/* Reading a small text file whole: a sysctl under /proc/sys, an attribute
 * under /sys. */
#ifndef IBAHPROBE_SMALL_FILE_H
#define IBAHPROBE_SMALL_FILE_H

#include <stddef.h>

/* The file's first len - 1 bytes, NUL-terminated, one trailing newline
 * cut; the length, or -1 with errno (absent, unreadable). */
long small_file_read(const char *path, char *buf, size_t len);

#endif
