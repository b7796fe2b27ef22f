/* Rounds of windowed SA Gets for the walks; see ib_trace_fetch.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "trace/ib_trace_fetch.h"
#include "wire/pathrec.h"
#include "wire/sa_records.h"

/* "No records" (IBA 15.2.1.1, SA-specific status 3). */
#define SA_STATUS_NO_RECORDS 0x0300
/* Enough for the longest walk: four records a hop. */
#define MAX_ROUNDS (4 * (IB_TRACE_MAX_HOPS + 4))

static void encode(const struct trace_key *k, uint8_t lmc, uint8_t *mad)
{
	switch (k->kind) {
	case TRACE_REC_NODE:
		sa_encode_node_get(mad, k->lid);
		break;
	case TRACE_REC_LINK:
		if (trace_link_get_answerable(k->lid, lmc))
			sa_encode_link_get(mad, k->lid, (uint8_t)k->arg);
		else
			sa_encode_link_port_table(mad, (uint8_t)k->arg);
		break;
	case TRACE_REC_LFT:
		sa_encode_lft_get(mad, k->lid, k->arg);
		break;
	case TRACE_REC_PORTINFO:
		sa_encode_portinfo_get(mad, k->lid, (uint8_t)k->arg);
		break;
	}
}

/* The link of r's key from the answer to a FromPort table (encode()). */
static void take_link_from_table(const struct sa_query *q,
				 struct trace_record *r)
{
	const uint8_t *msg;
	char why[96];
	bool found, cut;
	size_t len;

	msg = sa_query_answer(q, &len);
	if (trace_link_from_table(msg, len, r->key.lid, (uint8_t)r->key.arg,
				  &r->u.link, &found, &cut, why, sizeof(why))) {
		r->state = TRACE_REC_FAILED;
		snprintf(r->error, sizeof(r->error), "the links out of port "
			 "%u: %s", r->key.arg, why);
	} else if (found) {
		r->state = TRACE_REC_PRESENT;
	} else if (cut) {
		r->state = TRACE_REC_FAILED;
		snprintf(r->error, sizeof(r->error), "the SA answers no "
			 "LinkRecord by this switch's LID under the subnet's "
			 "LMC, and the table of links out of port %u arrived "
			 "cut (no RMPP) before it", r->key.arg);
	} else {
		r->state = TRACE_REC_ABSENT;
	}
}

/* The answer to one Get as a record of the store. A Get is answered
 * with one record right after the SA header. */
static void take(const struct sa_query *q, uint8_t lmc, uint32_t timeout_ms,
		 struct trace_record *r)
{
	const uint8_t *data = q->response + SA_HEADER_BYTES;
	char why[sizeof(r->error)];

	/* "No records" is also opensm's answer for a record it hides from
	 * this requester (no shared partition): absent, not "down"; the
	 * walk decides what the absence means. */
	if (q->result == SA_RESULT_STATUS &&
	    q->status == SA_STATUS_NO_RECORDS) {
		r->state = TRACE_REC_ABSENT;
		return;
	}
	if (q->result != SA_RESULT_OK) {
		r->state = TRACE_REC_FAILED;
		sa_query_describe(q, trace_record_kind_str(r->key.kind), timeout_ms, why,
				  sizeof(why));
		snprintf(r->error, sizeof(r->error), "%s", why);
		return;
	}
	if (r->key.kind == TRACE_REC_LINK &&
	    !trace_link_get_answerable(r->key.lid, lmc)) {
		take_link_from_table(q, r);
		return;
	}
	r->state = TRACE_REC_PRESENT;
	switch (r->key.kind) {
	case TRACE_REC_NODE:
		noderec_decode(data, &r->u.node);
		break;
	case TRACE_REC_LINK:
		linkrec_decode(data, &r->u.link);
		break;
	case TRACE_REC_LFT:
		lftrec_decode(data, &r->u.lft);
		break;
	case TRACE_REC_PORTINFO:
		portinforec_decode(data, &r->u.portinfo);
		break;
	}
}

/* The LFT blocks the walks will read: each switch on a path is asked for
 * the block of the destination's DLID (and nothing else), so these are
 * the distinct blocks of the active jobs' DLIDs, in order. Returns how
 * many were written to blocks (room for n). */
static size_t dlid_blocks(const struct trace_job *jobs, size_t n,
			  uint16_t *blocks)
{
	uint64_t seen[TRACE_LFT_BLOCKS / 64] = { 0 };
	size_t count = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned b = jobs[i].dlid / LFT_BLOCK_LIDS;

		if (jobs[i].active && b < TRACE_LFT_BLOCKS)
			seen[b / 64] |= 1ull << (b % 64);
	}
	for (unsigned b = 0; b < TRACE_LFT_BLOCKS; b++)
		if ((seen[b / 64] >> (b % 64)) & 1)
			blocks[count++] = (uint16_t)b;
	return count;
}

/* Files one prefetch answer: q[0] is the whole LinkRecord table, the
 * others one LFT block each. Returns whether it is in the store whole. */
static bool file_table(struct trace_store *store, const struct sa_query *q,
		       bool links, uint16_t block, uint32_t timeout_ms)
{
	enum trace_record_kind kind = links ? TRACE_REC_LINK : TRACE_REC_LFT;
	const uint8_t *msg;
	char what[64], why[160];
	bool cut = false;
	size_t len;
	int rc;

	if (links)
		snprintf(what, sizeof(what), "whole LinkRecord table");
	else
		snprintf(what, sizeof(what), "LFTRecord table of block %u "
			 "(LIDs %u-%u)", block, block * LFT_BLOCK_LIDS,
			 block * LFT_BLOCK_LIDS + LFT_BLOCK_LIDS - 1);
	if (q->result != SA_RESULT_OK) {
		sa_query_describe(q, trace_record_kind_str(kind), timeout_ms,
				  why, sizeof(why));
		diag_verbose(1, "trace: the %s: %s; asking record by record",
			     what, why);
		return false;
	}
	msg = sa_query_answer(q, &len);
	rc = links ? trace_store_put_table(store, kind, msg, len, &cut, why,
					   sizeof(why))
		   : trace_store_put_lft_block(store, block, msg, len, &cut,
					       why, sizeof(why));
	if (rc) {
		diag_verbose(1, "trace: the %s is unusable: %s; asking record "
			     "by record", what, why);
		return false;
	}
	if (cut)
		diag_verbose(1, "trace: the %s arrived cut to its first packet "
			     "(this port's MAD stack did not reassemble the "
			     "RMPP answer); asking record by record", what);
	return !cut;
}

/* The SA's whole LinkRecord table, and the LFTRecord tables of the blocks
 * the destinations' DLIDs fall in (GetTables: opensm's osm_lr_rcv_process()
 * and osm_lftr_rcv_process(); a block table is that block of every
 * switch, lftr_rcv_by_comp_mask() with BlockNum). Never the whole LFT
 * table: that is every block in use of every switch, a multi-MB RMPP
 * answer on a fabric of tens of thousands of LIDs, of which a trace reads
 * one block a switch; the block tables asked hold at most switches x
 * distinct DLID blocks x 72 bytes. A table that does not arrive whole is
 * left to the per-record Gets. Whole is whole for this requester: opensm
 * leaves out the records of ports that share no P_Key with it
 * (osm_physp_share_pkey), so a record missing from it is hidden or gone,
 * which ib_trace_walk tells apart by the port's PortInfoRecord. */
static int prefetch_tables(struct sa_client *sa, const struct trace_job *jobs,
			   size_t n, struct trace_store *store,
			   uint32_t timeout_ms, unsigned retries,
			   struct trace_fetch_stats *stats, char *err,
			   size_t errlen)
{
	uint8_t zero[LINK_RECORD_BYTES] = { 0 };
	uint16_t *blocks = calloc(n ? n : 1, sizeof(*blocks));
	struct sa_query *q = calloc(n + 1, sizeof(*q));
	size_t nblocks;
	int rc = 0;

	if (!blocks || !q) {
		free(blocks);
		free(q);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	nblocks = dlid_blocks(jobs, n, blocks);
	sa_encode_request(q[0].request, SA_METHOD_GET_TABLE,
			  (enum sa_attribute)SA_ATTR_LINK_RECORD_ID, 0, 0, zero,
			  sizeof(zero));
	for (size_t i = 0; i < nblocks; i++)
		sa_encode_lft_block_table(q[1 + i].request, blocks[i]);
	stats->tables_asked = true;
	stats->queries += 1 + nblocks;
	stats->lft_blocks_asked = (unsigned)nblocks;
	if (sa_client_run(sa, q, 1 + nblocks, 1 + nblocks, timeout_ms, retries,
			  err, errlen)) {
		rc = -1;
		goto out;
	}
	stats->links_whole = file_table(store, &q[0], true, 0, timeout_ms);
	for (size_t i = 0; i < nblocks; i++)
		stats->lft_blocks_whole +=
			file_table(store, &q[1 + i], false, blocks[i], timeout_ms);
	stats->lfts_whole = nblocks && stats->lft_blocks_whole == nblocks;
out:
	sa_queries_release(q, 1 + nblocks);
	free(q);
	free(blocks);
	return rc;
}

/* The keys the walks need this round, each once. */
static int collect(struct trace_job *jobs, size_t n,
		   const struct trace_store *store, struct trace_key **keys,
		   size_t *count)
{
	struct trace_store seen;
	size_t cap = 0;
	int rc = 0;

	*count = 0;
	*keys = NULL;
	trace_store_init(&seen);
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct trace_job *j = &jobs[i];

		if (!j->active)
			continue;
		ib_trace_walk(store, j->slid, j->src_port, j->dlid, &j->result);
		j->rounds += j->result.need_count > 0;
		for (size_t k = 0; k < j->result.need_count && rc == 0; k++) {
			struct trace_record mark = { .key = j->result.need[k],
						     .state = TRACE_REC_PRESENT };

			if (trace_store_find(&seen, &mark.key))
				continue;
			if (*count == cap) {
				size_t more = cap ? cap * 2 : 64;
				struct trace_key *bigger =
					realloc(*keys, more * sizeof(**keys));

				if (!bigger) {
					rc = -1;
					break;
				}
				*keys = bigger;
				cap = more;
			}
			if (trace_store_put(&seen, &mark)) {
				rc = -1;
				break;
			}
			(*keys)[(*count)++] = mark.key;
		}
	}
	trace_store_free(&seen);
	return rc;
}

/* Asks the SA for each of keys (count) in one windowed batch and files
 * the answers in the store. */
static int ask(struct sa_client *sa, const struct trace_key *keys,
	       size_t count, struct trace_store *store, unsigned window,
	       uint32_t timeout_ms, unsigned retries, char *err,
	       size_t errlen)
{
	struct sa_query *q = calloc(count ? count : 1, sizeof(*q));
	int rc = 0;

	if (!q) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < count; i++)
		encode(&keys[i], sa->lmc, q[i].request);
	if (sa_client_run(sa, q, count, window, timeout_ms, retries, err,
			  errlen))
		rc = -1;
	for (size_t i = 0; rc == 0 && i < count; i++) {
		struct trace_record r = { .key = keys[i] };

		take(&q[i], sa->lmc, timeout_ms, &r);
		if (trace_store_put(store, &r)) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
	}
	sa_queries_release(q, count);
	free(q);
	return rc;
}

int ib_trace_fetch_records(struct sa_client *sa, const struct trace_key *keys,
			   size_t n, struct trace_store *store,
			   unsigned window, uint32_t timeout_ms,
			   unsigned retries, struct trace_fetch_stats *stats,
			   char *err, size_t errlen)
{
	struct trace_key *missing = calloc(n ? n : 1, sizeof(*missing));
	struct trace_store seen;
	size_t count = 0;
	int rc = 0;

	if (!missing) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* Each key once, as collect() does: the keys asked so far. */
	trace_store_init(&seen);
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct trace_record mark = { .key = keys[i],
					     .state = TRACE_REC_PRESENT };

		if (trace_store_find(store, &mark.key) ||
		    trace_store_find(&seen, &mark.key))
			continue;
		if (trace_store_put(&seen, &mark)) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
			break;
		}
		missing[count++] = mark.key;
	}
	trace_store_free(&seen);
	if (rc == 0 && count) {
		stats->rounds++;
		stats->queries += count;
		rc = ask(sa, missing, count, store, window, timeout_ms,
			 retries, err, errlen);
	}
	free(missing);
	return rc;
}

int ib_trace_fetch_all(struct sa_client *sa, struct trace_job *jobs,
		       size_t n, struct trace_store *store, unsigned window,
		       uint32_t timeout_ms, unsigned retries,
		       struct trace_fetch_stats *stats, char *err,
		       size_t errlen)
{
	size_t active = 0;

	memset(stats, 0, sizeof(*stats));
	for (size_t i = 0; i < n; i++)
		active += jobs[i].active;
	if (active >= TRACE_PREFETCH_MIN_DESTS &&
	    prefetch_tables(sa, jobs, n, store, timeout_ms, retries, stats,
			    err, errlen))
		return -1;
	for (unsigned round = 0;; round++) {
		struct trace_key *keys;
		size_t count;
		int rc;

		if (collect(jobs, n, store, &keys, &count)) {
			free(keys);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (count == 0 || round >= MAX_ROUNDS) {
			free(keys);
			return 0;
		}
		stats->rounds++;
		stats->queries += count;
		rc = ask(sa, keys, count, store, window, timeout_ms, retries,
			 err, errlen);
		free(keys);
		if (rc)
			return -1;
	}
}
