/* Feeds the SA-record walk of ib_trace.h from a live SA: many
 * destinations walk side by side, and each round asks, in one windowed
 * batch of SubnAdmGets, for every record any of them needs next, each
 * record once (a switch's LFT block, a link, serves every destination
 * behind it). Rounds go on until no walk needs anything. */
#ifndef IBAHPROBE_IB_TRACE_FETCH_H
#define IBAHPROBE_IB_TRACE_FETCH_H

#include "trace/ib_trace.h"
#include "sa/sa_client.h"

/* From this many destinations on, the SA's whole LinkRecord table and the
 * LFTRecord tables of the destinations' DLID blocks are asked first
 * (GetTables), as a trace to many nodes crosses most switches anyway;
 * where an answer arrives cut (no RMPP), its records are asked one by one
 * instead. */
#define TRACE_PREFETCH_MIN_DESTS 32

struct trace_job {
	uint16_t slid, dlid;
	uint8_t src_port;
	bool active;		/* false: nothing to walk (no DLID) */
	struct trace_result result;
	unsigned rounds;	/* rounds the walk took */
};

/* What a run cost: for -v, and the many-destination tests. */
struct trace_fetch_stats {
	unsigned rounds;
	size_t queries;		/* SubnAdmGets sent (each record once) */
	bool tables_asked;	/* the tables were asked */
	bool links_whole, lfts_whole;	/* ... and arrived whole */
	unsigned lft_blocks_asked;	/* LFT block tables asked */
	unsigned lft_blocks_whole;	/* ... of them arrived whole */
};

/* Walks every active job to its end; with TRACE_PREFETCH_MIN_DESTS
 * active jobs or more, after asking for the tables. Returns 0; -1 with err set when the
 * port failed or the SA redirects to where the client cannot follow
 * (records the SA does not answer end their walks as TRACE_SA_FAILED). */
int ib_trace_fetch_all(struct sa_client *sa, struct trace_job *jobs,
		       size_t n, struct trace_store *store, unsigned window,
		       uint32_t timeout_ms, unsigned retries,
		       struct trace_fetch_stats *stats, char *err,
		       size_t errlen);

/* Asks for each of keys (n) that the store does not hold yet, in one
 * windowed batch, adding to stats. Returns 0; -1 with err set as
 * ib_trace_fetch_all. */
int ib_trace_fetch_records(struct sa_client *sa, const struct trace_key *keys,
			   size_t n, struct trace_store *store,
			   unsigned window, uint32_t timeout_ms,
			   unsigned retries, struct trace_fetch_stats *stats,
			   char *err, size_t errlen);

#endif
