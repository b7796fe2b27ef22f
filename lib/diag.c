/* Diagnostics on stderr, with one prefix and one verbosity knob. */
#include <stdio.h>

#include "diag.h"

int diag_verbosity;

static void diag_vprint(const char *kind, const char *fmt, va_list ap)
{
	fputs("ibahprobe: ", stderr);
	if (kind)
		fprintf(stderr, "%s: ", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void diag_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vprint("error", fmt, ap);
	va_end(ap);
}

void diag_warn(const char *fmt, ...)
{
	va_list ap;

	if (diag_verbosity < 0)
		return;
	va_start(ap, fmt);
	diag_vprint("warning", fmt, ap);
	va_end(ap);
}

void diag_verbose(int level, const char *fmt, ...)
{
	va_list ap;

	if (diag_verbosity < level)
		return;
	va_start(ap, fmt);
	diag_vprint(NULL, fmt, ap);
	va_end(ap);
}
