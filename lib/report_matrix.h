/* Probe results of many hosts merged into one source x destination matrix
 * (ibahprobe report). Pure logic: records in, ordered axes and aggregated
 * cells out; reading JSON is report_input.h's, drawing report_render.h's. */
#ifndef IBAHPROBE_REPORT_MATRIX_H
#define IBAHPROBE_REPORT_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Worst last: a cell takes the worst status of its parameter sets. */
enum report_status {
	REPORT_REACHABLE,
	REPORT_PARTIAL,
	REPORT_UNREACHABLE,
	REPORT_ERROR,
	REPORT_STATUS_COUNT,
};

struct strvec {
	char **items;
	size_t count, capacity;
};

/* One probe result: one source, one destination, one parameter set. */
struct report_record {
	char *host, *device;	/* the prober, as it named itself */
	unsigned port_num;
	char *sgid;		/* source GID text; NULL: unknown */
	bool has_ah;		/* false: failed before an AH was built, so
				 * sgid is the port's first GID, not the one
				 * a probe would have used */
	char *dest_text;	/* the destination as the prober was given it */
	char *dgid;		/* ah_attr.grh.dgid; NULL: no GRH or no AH */
	enum report_status status;
	char *error;		/* status error: why */
	uint32_t sent, received;
	bool has_rtt;
	double rtt_median_us, rtt_max_us;
	int hops;		/* -1: unknown */
	bool tclass_remarked;
	uint8_t tclass_sent, tclass_seen;
	struct strvec verdicts, findings;
};

/* A source (row), a destination (column), or both: one responder that
 * also probed lines up on both axes, keyed by its address. */
struct report_node {
	char *key;		/* "addr:IP", "src:HOST/DEVICE" or "dst:TEXT" */
	char *addr;		/* IPv4 dotted or IPv6 text; NULL: not known */
	char *host, *device;	/* as a source */
	char *source_name, *dest_name;	/* for people; NULL: not on that axis */
	int row, col;		/* -1: not on that axis */
};

struct report_remark {
	uint8_t sent, seen;	/* traffic class */
};

/* All parameter sets of one source toward one destination. */
struct report_cell {
	bool probed;		/* false: no record for this pair */
	enum report_status status;	/* the worst of its sets */
	size_t sets;
	uint64_t sent, received;
	int *hops;		/* distinct known hop counts, ascending */
	size_t hop_count;
	/* Median of the per-set medians (one slow set does not hide the
	 * others, several do show), and the largest per-set maximum. */
	bool has_rtt;
	double rtt_median_us, rtt_max_us;
	bool tclass_remarked;
	struct report_remark *remarks;	/* distinct sent/seen pairs */
	size_t remark_count;
	struct strvec verdicts, findings, errors;	/* distinct, first seen first */
	double *medians;	/* per-set medians, while building */
	size_t median_count;
};

/* A prober that could not run at all writes {"error": ..., "exit_status":
 * N} instead of results: kept, shown and counted, never merged. */
struct report_failed_run {
	char *where;		/* "FILE:LINE" */
	char *error;
	int exit_status;
};

struct report {
	struct report_failed_run *failed;
	size_t failed_count, failed_capacity;
	struct report_record **records;
	size_t record_count, record_capacity;
	struct report_node *nodes;
	size_t node_count;
	struct report_node **rows, **cols;
	size_t row_count, col_count;
	struct report_cell *cells;	/* row_count x col_count, row-major */
	size_t status_count[REPORT_STATUS_COUNT];
	size_t pairs;		/* probed cells */
};

const char *report_status_name(enum report_status status);
/* "reachable", "partial loss", "unreachable", "error"; -1 if none. */
int report_status_parse(const char *name, enum report_status *status);

/* An IPv6 address text as the key both axes share: IPv4-mapped GIDs as
 * dotted IPv4, others in canonical IPv6 form. -1 if text is no address. */
int report_addr_normalize(const char *text, char *out, size_t len);

int strvec_add(struct strvec *v, const char *s);
int strvec_add_unique(struct strvec *v, const char *s);
void strvec_free(struct strvec *v);

void report_init(struct report *r);
/* Takes ownership of rec (also on failure, when it frees it). */
int report_add(struct report *r, struct report_record *rec);
void report_record_free(struct report_record *rec);
int report_add_failed_run(struct report *r, const char *where,
			  const char *error, int exit_status);
/* Identifies, names and orders the nodes and aggregates the cells.
 * -1 with a message when there is no record or memory ran out. */
int report_build(struct report *r, char *err, size_t errlen);
struct report_cell *report_cell(const struct report *r, size_t row,
				size_t col);
/* Does this pair have something to say beyond "reachable"? */
bool report_cell_noteworthy(const struct report_cell *c);
/* The noteworthy cells row by row: start with *at = 0; false at the end,
 * else *row and *col name the next one. */
bool report_next_noteworthy(const struct report *r, size_t *at, size_t *row,
			    size_t *col);
/* Every probed pair reachable without loss, and no failed run. */
bool report_all_fine(const struct report *r);
void report_free(struct report *r);

#endif
