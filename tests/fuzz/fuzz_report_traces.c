/* libFuzzer target: `ibahprobe report --traces` reads trace -j documents
 * that anyone on a host can write. Any input is read or refused with its
 * label first ("LABEL: ..."), in bounded memory and time. Oracles: the
 * splitter (lib/report/report_trace_split.h) finds the same values and
 * ends alike whether the input comes whole or in pieces of any size
 * (chosen by the input's first byte), as report_traces_read() feeds it;
 * the reader ends alike from memory and from a FILE; and what is read is
 * consistent: each path's elements exist, and each element is the one
 * its kind and name find (kinds apart, names unique per kind); and a
 * trace the scanner reads (result_scan_plain) is read as json-c reads
 * its twin with an escape in a member nobody reads. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "report/report_trace_split.h"
#include "report/report_traces.h"
#include "report/trace_aliases.h"
#include "report/result_scan.h"

#define LABEL "fuzz.traces"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The values seen, as one FNV-1a hash over their bytes and ends. */
static int fold(void *ctx, const char *value, size_t len)
{
	uint64_t *h = ctx;

	if (value[len] != '\0')
		__builtin_trap();
	for (size_t i = 0; i < len; i++)
		*h = (*h ^ (uint8_t)value[i]) * 0x100000001b3ULL;
	*h = (*h ^ 0x1ff) * 0x100000001b3ULL;
	return 0;
}

static enum trace_split_status split(const char *buf, size_t len,
				     size_t piece, uint64_t *h)
{
	struct trace_split s;
	enum trace_split_status rc = TRACE_SPLIT_OK;

	*h = 0xcbf29ce484222325ULL;
	trace_split_init(&s, REPORT_TRACE_VALUE_BYTES_MAX);
	for (size_t at = 0; rc == TRACE_SPLIT_OK && at < len; at += piece)
		rc = trace_split_feed(&s, buf + at,
				      len - at < piece ? len - at : piece,
				      fold, h);
	if (rc == TRACE_SPLIT_OK)
		rc = trace_split_end(&s, fold, h);
	trace_split_free(&s);
	return rc;
}

static void check_consistent(const struct report_traces *t)
{
	for (size_t f = 0; f < t->count; f++)
		for (size_t k = 0; k < t->flows[f].element_count; k++)
			if (t->flows[f].elements[k] >= t->element_count)
				__builtin_trap();
	for (size_t e = 0; e < t->element_count; e++)
		if (report_traces_element_find(t, t->elements[e].kind,
					       t->elements[e].name) != e)
			__builtin_trap();
}

static bool same_string(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Two readings alike: what they said, and every flow and element. */
static bool same_reading(const struct report_traces *a, const char *err_a,
			 const struct report_traces *b, const char *err_b)
{
	if (strcmp(err_a, err_b) != 0 || a->count != b->count ||
	    a->element_count != b->element_count)
		return false;
	for (size_t e = 0; e < a->element_count; e++)
		if (a->elements[e].kind != b->elements[e].kind ||
		    strcmp(a->elements[e].name, b->elements[e].name) != 0)
			return false;
	for (size_t f = 0; f < a->count; f++) {
		const struct report_trace_flow *x = &a->flows[f],
					       *y = &b->flows[f];

		if (strcmp(x->host, y->host) != 0 ||
		    strcmp(x->dest, y->dest) != 0 ||
		    !same_string(x->source, y->source) ||
		    !same_string(x->dest_address, y->dest_address) ||
		    !same_string(x->remark_after, y->remark_after) ||
		    !same_string(x->remark_before, y->remark_before) ||
		    x->flow_label != y->flow_label ||
		    x->udp_sport != y->udp_sport ||
		    x->traffic_class != y->traffic_class ||
		    x->element_count != y->element_count)
			return false;
		if (x->element_count &&
		    (memcmp(x->elements, y->elements,
			   x->element_count * sizeof(*x->elements)) != 0 ||
		     memcmp(x->answered, y->answered, x->element_count) != 0))
			return false;
	}
	return true;
}

/* buf, one object the scanner reads, read again by json-c: its twin with
 * a member holding an escape first. */
static void check_scanner_as_json_c(const char *buf, size_t size,
				    const struct report_traces *t,
				    const char *err)
{
	struct report_traces twin = { 0 };
	char twin_err[DIAG_MSG_MAX * 2] = "";
	size_t used = size && buf[0] == '{' ? result_scan_plain(buf, size) : 0;
	size_t first = 1;
	char *doc;
	size_t len;

	if (!used || memchr(buf, '\0', size))
		return;
	while (used < size && strchr(" \t\r\n", buf[used]))
		used++;
	if (used < size)
		return;
	len = size + 10;
	doc = malloc(len + 1);
	if (!doc)
		return;
	memcpy(doc, "{\"zz\":\"\\n\"", 10);
	while (strchr(" \t\r\n", buf[first]))
		first++;
	doc[10] = buf[first] == '}' ? ' ' : ',';
	memcpy(doc + 11, buf + 1, size - 1);
	doc[len] = '\0';
	report_traces_read_buffer(&twin, LABEL, doc, len, twin_err,
				  sizeof(twin_err));
	if (!same_reading(t, err, &twin, twin_err))
		__builtin_trap();
	report_traces_free(&twin);
	free(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_traces mem = { 0 }, file = { 0 };
	char err_mem[DIAG_MSG_MAX * 2] = "", err_file[DIAG_MSG_MAX * 2] = "";
	const char *buf = (const char *)data;
	uint64_t whole, pieces;
	size_t piece;
	struct trace_aliases aliases;
	int rc_mem, rc_file;
	FILE *f;

	if (size < 1)
		return 0;
	piece = (size_t)data[0] % 7 + 1;
	buf++;
	size--;
	if (split(buf, size, size ? size : 1, &whole) !=
		    split(buf, size, piece, &pieces) ||
	    whole != pieces)
		__builtin_trap();
	rc_mem = report_traces_read_buffer(&mem, LABEL, buf, size, err_mem,
					   sizeof(err_mem));
	if (rc_mem && strncmp(err_mem, LABEL ":", strlen(LABEL) + 1) != 0)
		__builtin_trap();
	if (rc_mem == 0)
		check_consistent(&mem);
	check_scanner_as_json_c(buf, size, &mem, err_mem);
	/* fmemopen refuses a size of 0 on some C libraries. */
	f = size ? fmemopen((void *)buf, size, "r") : NULL;
	if (f) {
		rc_file = report_traces_read(&file, LABEL, f, err_file,
					     sizeof(err_file));
		fclose(f);
		if (rc_file != rc_mem || strcmp(err_file, err_mem) != 0 ||
		    file.count != mem.count ||
		    file.element_count != mem.element_count)
			__builtin_trap();
	}
	/* Folding a router's addresses keeps every path and name
	 * consistent, whatever the traces said. */
	if (rc_mem == 0 && trace_aliases_fold(&mem, &aliases) == 0)
		check_consistent(&mem);
	report_traces_free(&mem);
	report_traces_free(&file);
	return 0;
}
