/* Reading probe results for ibahprobe report: JSON Lines (probe --jsonl),
 * one JSON array per file (probe -j), or any concatenation of both. Every
 * error names the input and the line where the bad value starts. */
#ifndef IBAHPROBE_REPORT_INPUT_H
#define IBAHPROBE_REPORT_INPUT_H

#include <stddef.h>
#include <stdio.h>

#include "report_matrix.h"

/* Adds every result in buf (len bytes, as read from label) to r.
 * 0, or -1 with "LABEL:LINE: what is wrong" in err. An input without any
 * result (or failed run) is an error too. */
int report_read_buffer(struct report *r, const char *label,
		       const char *buf, size_t len, char *err, size_t errlen);
/* The same for a stream read to its end; "cannot read" errors say why. */
int report_read_stream(struct report *r, const char *label, FILE *f,
		       char *err, size_t errlen);

#endif
