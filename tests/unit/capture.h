/* Unit tests' view of stdout: what a function printed, as a string, for
 * printers whose output is the thing under test. */
#ifndef IBAHPROBE_TEST_CAPTURE_H
#define IBAHPROBE_TEST_CAPTURE_H

#include <stdio.h>
#include <unistd.h>

#include "out/output.h"

/* Runs fn with stdout going to a file; returns what it wrote (a static
 * buffer of 8 KiB, the next call's). */
static inline char *capture(void (*fn)(void))
{
	static char text[8192];
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO);
	size_t n;

	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	fn();
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(text, 1, sizeof(text) - 1, tmp);
	text[n] = '\0';
	fclose(tmp);
	return text;
}

/* What print writes through the output layer in the given form. */
static void (*capture_print_fn)(void);
static enum out_format capture_print_format;

static inline void capture_print_run(void)
{
	out_init(capture_print_format, false);
	capture_print_fn();
	out_finish();
}

static inline char *capture_out(enum out_format format, void (*print)(void))
{
	capture_print_fn = print;
	capture_print_format = format;
	return capture(capture_print_run);
}

#endif
