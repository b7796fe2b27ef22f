/* Probe results of many hosts merged into one source x destination matrix
 * (ibahprobe report). Pure logic: records in, ordered axes and aggregated
 * cells out; reading JSON is report_input.h's, drawing report_render.h's. */
#ifndef IBAHPROBE_REPORT_MATRIX_H
#define IBAHPROBE_REPORT_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strmap.h"

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

/* One parameter set as the prober sent it (the result's "params"); -1:
 * not in the input. What tells a pair's sets apart in findings. */
struct report_params {
	int hop_limit, traffic_class, sl;
	long flow_label;
};

/* One probe run: the records that share a run_id (probe writes one per
 * run); an input without run ids is one run per input and source. */
struct report_run {
	char *run_id;		/* NULL: the input had none */
	char *input;		/* the input it came from (unknown ids) */
	char *host;
	char *device;		/* NULL: an error record names its host only */
	char *start_time;	/* RFC 3339 as written; NULL: unknown */
	double start;		/* seconds since the epoch; -1: unknown */
	char *params_text;	/* run_params for people; NULL: unknown */
	bool interrupted;	/* its summary or a result says so */
	bool dropped;		/* --latest: an older run of its source */
	size_t order;		/* reading order, the last tie-breaker */
};

/* One probe result: one source, one destination, one parameter set. */
enum report_loss_direction {
	REPORT_LOSS_UNKNOWN,
	REPORT_LOSS_NONE,
	REPORT_LOSS_THERE,
	REPORT_LOSS_BACK,
	REPORT_LOSS_BOTH,
};

struct report_record {
	/* (pointers and 8-byte numbers first, the small ones together
	 * last: a million of them, each without holes) */
	char *host, *device;	/* the prober, as it named itself */
	char *sgid;		/* source GID text; NULL: unknown */
	char *dest_text;	/* the destination as the prober was given it */
	char *dgid;		/* ah_attr.grh.dgid; NULL: no GRH or no AH */
	char *error;		/* status error: why */
	/* The UDP source port the set's probes carried (params.
	 * wire_udp_sport: mlx5 and hns the flow label's, rxe its QP's);
	 * -1: not known. ECMP hashes it: the trace of that port is the
	 * path the probes took. */
	long wire_udp_sport;
	double rtt_median_us, rtt_max_us;	/* has_rtt */
	/* Where the lost probes were lost (probe's loss_direction, from the
	 * responder's count): REPORT_LOSS_UNKNOWN when it could not tell or
	 * did not say; lost_there and lost_back -1 when not known. */
	long lost_there, lost_back;
	struct strvec verdicts, findings;
	struct report_params params;
	size_t run;		/* index into report.runs */
	unsigned port_num;
	enum report_status status;
	uint32_t sent, received;
	int hops;		/* -1: unknown */
	enum report_loss_direction loss_direction;
	uint16_t lid;		/* source.lid; 0: unknown (RoCE, an older
				 * probe): report --groups sa asks the SA
				 * for its leaf switch */
	bool has_ah;		/* false: failed before an AH was built, so
				 * sgid is the port's first GID, not the one
				 * a probe would have used */
	/* The provider puts the flow label's UDP source port on the wire
	 * (mlx5, hns: probe(8)), so an ECMP router hashes a set's probes as
	 * trace's datagrams of that flow label; false: rxe (its QP's port),
	 * others unknown, and older probes that did not name it. */
	bool sport_follows_label;
	bool has_rtt;
	bool tclass_remarked;
	uint8_t tclass_sent, tclass_seen;
	bool interrupted;	/* the result says so, or its run's summary */
};

/* A source (row), a destination (column), or both: one responder that
 * also probed lines up on both axes, keyed by its address. */
struct report_node {
	char *key;		/* "addr:IP", "src:HOST/DEVICE" or "dst:TEXT" */
	char *addr;		/* IPv4 dotted or IPv6 text; NULL: not known */
	char *host, *device;	/* as a source */
	char *source_name, *dest_name;	/* for people; NULL: not on that axis */
	struct strvec dest_texts;	/* every text probers gave for it */
	int row, col;		/* -1: not on that axis */
	int expect_index;	/* position in --expect; -1: not expected */
	bool has_results;	/* a source of some result */
	size_t failed_runs;	/* of its host (probe's error records) */
};

struct report_remark {
	uint8_t sent, seen;	/* traffic class */
};

/* All parameter sets of one source toward one destination. */
struct report_cell {
	bool probed;		/* false: no record for this pair */
	bool run_failed;	/* not probed, and the source's run failed */
	bool interrupted;	/* a set came from an interrupted run */
	/* The worst of its sets, but partial loss whenever some probe of
	 * some set was answered and not all of them were, or another set
	 * failed: the pair works in part. */
	enum report_status status;
	size_t sets;
	/* Its sets (records owned by the report), the worst first, and
	 * what tells each apart from the others: the parameters that vary
	 * among them ("tclass 0x28", "hl 1 tclass 0"); "" for one set. */
	const struct report_record **set_records;
	char **set_labels;
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
	/* Distinct, the worst set's first. A finding or error that not every
	 * set has names the sets it comes from ("tclass 0x28: ..."); when the
	 * sets' outcomes differ, the first finding says how each fared
	 * ("tclass 0x28: 0 of 10 answered; tclass 0: 10 of 10"). */
	struct strvec verdicts, findings, errors;
	double *medians;	/* per-set medians, while building */
	size_t median_count;
};

/* A prober that could not run at all writes an error record (or, before
 * schema v1, {"error": ..., "exit_status": N}) instead of results: kept,
 * shown, counted and tied to its host, never merged. */
struct report_failed_run {
	char *where;		/* "FILE:LINE" */
	char *error;
	int exit_status;
	char *host;		/* NULL: an old record without its source */
	size_t run;		/* index into report.runs; SIZE_MAX: none */
};

/* A pair of --expect hosts that no result covers. */
struct report_path_suspects;
struct localise;
struct identifiability;
struct hop_changes;

struct report_pair {
	char *source, *destination;
};

struct report {
	/* Set before report_build: the hosts expected (--expect), in the
	 * order rows and columns follow; keep only the newest run of each
	 * source (--latest). */
	struct strvec expect;
	bool latest;
	struct report_run *runs;
	size_t run_count, run_capacity;
	struct strmap run_index;	/* run key -> index + 1 */
	struct report_failed_run *failed;
	size_t failed_count, failed_capacity;
	struct report_record **records;
	size_t record_count, record_capacity;
	struct report_node *nodes;
	size_t node_count;
	struct strmap node_index;	/* node key -> index + 1 */
	struct report_node **rows, **cols;
	size_t row_count, col_count;
	/* The cells of the probed pairs, and where each pair's is:
	 * cell_at[row * col_count + col] is its index + 1, 0 for a pair
	 * never probed, whose cell is one of unprobed[] ([1]: its source's
	 * run failed). Read them through report_cell(): a matrix of 4,096
	 * hosts probing 128 peers each costs 4 bytes a pair, not a cell. */
	struct report_cell *cells;
	size_t cell_count;
	uint32_t *cell_at;
	struct report_cell unprobed[2];
	size_t node_capacity;
	size_t status_count[REPORT_STATUS_COUNT];
	size_t pairs;		/* probed cells */
	size_t sources;		/* rows that sent results */
	/* --expect hosts that sent no result and no failed run, and the
	 * pairs of expected hosts never probed (from sources that sent
	 * results). */
	struct strvec silent_hosts;
	struct report_pair *never_probed;
	size_t never_probed_count;
	/* Two runs of one source mixed, without --latest; interrupted runs. */
	struct strvec warnings, notes;
	/* Records of multicast probes (probe mcast:GROUP's mcast_member and
	 * mcast_group) in the input: not merged into the matrix, noted. */
	size_t mcast_records;
	/* The strings of records and cells, each text once (see
	 * report_add). */
	struct strmap texts;
	/* report --traces: the suspects on the path, owned by the caller;
	 * NULL without traces. */
	const struct report_path_suspects *path_suspects;
	/* report --traces: the localisation (localise.h), owned by the
	 * caller; when set, it is the report's suspects. */
	const struct localise *localise;
	/* report --traces: the elements the traces cannot tell apart
	 * (identifiability.h), owned by the caller; NULL without traces. */
	const struct identifiability *identifiability;
	/* report --traces: results whose hop count differs from their
	 * trace's (hop_changes.h), owned by the caller; NULL without. */
	const struct hop_changes *hop_changes;
};

/* The token scripts read: "reachable", "partial_loss", "unreachable",
 * "error". */
const char *report_status_name(enum report_status status);
/* The same for people: "partial loss". */
const char *report_status_word(enum report_status status);
/* A token, or "partial loss" as probe wrote it before schema v1; -1 if
 * none. */
int report_status_parse(const char *name, enum report_status *status);

/* The run records of this run id (NULL: none, then one per input), host
 * and device (NULL: unknown, an error record) belong to, added when new;
 * SIZE_MAX when out of memory. */
size_t report_run_get(struct report *r, const char *run_id, const char *input,
		      const char *host, const char *device);
/* "2026-11-23T18:12:27Z" (fraction and offset allowed) as seconds since
 * the epoch; -1 if it is no RFC 3339 date and time. */
double report_parse_time(const char *text);

/* An IPv6 address text as the key both axes share: IPv4-mapped GIDs as
 * dotted IPv4, others in canonical IPv6 form. -1 if text is no address. */
int report_addr_normalize(const char *text, char *out, size_t len);

int strvec_add(struct strvec *v, const char *s);
/* The same for len bytes of s (no NUL among them). */
int strvec_add_len(struct strvec *v, const char *s, size_t len);
int strvec_add_unique(struct strvec *v, const char *s);
void strvec_free(struct strvec *v);

void report_init(struct report *r);
/* Takes ownership of rec (also on failure, when it frees it). */
int report_add(struct report *r, struct report_record *rec);
void report_record_free(struct report_record *rec);
/* host NULL and run SIZE_MAX: an old record without them. */
int report_add_failed_run(struct report *r, const char *where,
			  const char *error, int exit_status,
			  const char *host, size_t run);
/* Drops the older runs (--latest), names mixed runs (warnings) and
 * interrupted ones (notes), identifies, names and orders the nodes
 * (--expect first), aggregates the cells and finds what --expect misses.
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
/* Every probed pair reachable without loss, no failed run, and nothing
 * --expect misses. */
bool report_all_fine(const struct report *r);
void report_free(struct report *r);

#endif
