/* Reading probe results for ibahprobe report: JSON Lines (probe --jsonl),
 * one JSON array per file (probe -j), or any concatenation of both. The
 * input is read as a stream within bounds (below), so /dev/zero or an
 * endless pipe ends with a message, and a stream of any length is read.
 * Every error names the input and the line (and column, for a byte or a
 * character) where the bad value starts. */
#ifndef IBAHPROBE_REPORT_INPUT_H
#define IBAHPROBE_REPORT_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/report_matrix.h"

/* What report reads at most (documented in ibahprobe-report(8), LIMITS). */
struct report_limits {
	/* Bytes of one JSON value (a line of probe --jsonl, an element of
	 * the array of probe -j), and of a line that holds no value. */
	size_t value_bytes;
	/* Results and failed runs in all inputs together: each is kept in
	 * memory (a few hundred bytes) until the matrix is built. */
	size_t results;
	/* Failed runs among them: a fabric has one per host at most, and
	 * a stream of nothing else is no fabric. */
	size_t failed_runs;
	/* Not a bound: the size of the pieces the input is read in (0:
	 * 1 MiB). Tests make it small, to put a piece's end at every byte
	 * of a value; what is read must not depend on it. */
	size_t chunk_bytes;
};

#define REPORT_VALUE_BYTES_MAX ((size_t)1 << 20)
/* A full mesh of 4,096 hosts, one parameter set. */
#define REPORT_RESULTS_MAX ((size_t)4096 * 4096)
#define REPORT_FAILED_RUNS_MAX ((size_t)1000000)

/* Adds every result of f (named label in messages) to r, reading it to
 * its end. limits NULL: the ones above. 0, or -1 with "LABEL:LINE: what
 * is wrong" (or "cannot read LABEL: why") in err. An input without any
 * result (or failed run) is an error too. Strings from the input are
 * refused when they hold a \u0000 (json-c would cut them there), a
 * control character unescaped, or anything that is no UTF-8 (json-c lets
 * overlong forms, surrogates and code points past U+10FFFF through). */
int report_read_stream(struct report *r, const char *label, FILE *f,
		       const struct report_limits *limits, char *err,
		       size_t errlen);
/* The same for len bytes in memory. */
int report_read_buffer(struct report *r, const char *label, const char *buf,
		       size_t len, const struct report_limits *limits,
		       char *err, size_t errlen);

/* Which reader takes the values of the common shape: the scanner of
 * lib/report/result_scan.h (the default, several times faster) or json-c, which
 * reads every other value. Both must read any input to the same records
 * and messages; tests switch the scanner off to hold them to that. */
void report_input_use_scanner(bool on);

#endif
