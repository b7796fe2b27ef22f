/* Diagnostics and exit status: the one place that decides how ibahprobe
 * reports a failure, so every command words and numbers them alike. */
#ifndef IBAHPROBE_DIAG_H
#define IBAHPROBE_DIAG_H

#include <stdarg.h>
#include <stdbool.h>

/* Documented in ibahprobe(8); these numbers never change. */
enum exit_status {
	EXIT_FINE = 0,		/* every destination fine */
	EXIT_PROBLEM = 1,	/* ran; a destination failed or missed an expectation */
	EXIT_USAGE = 2,		/* usage or bad input */
	EXIT_ENVIRONMENT = 3,	/* no device/port, no SM, permission, no responder */
};

/* Verbosity: -q lowers it to -1, each -v raises it. */
extern int diag_verbosity;

/* "ibahprobe: error: ..." on stderr; lowercase, no full stop, the failure
 * first, then the cause, then what to do. */
void diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Printed only with -v (level 1) or -vv (level 2). */
void diag_verbose(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Size of the message buffers that parsers and rule checks fill. */
#define DIAG_MSG_MAX 256

#endif
