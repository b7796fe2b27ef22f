/* The InfiniBand switch path of SLID -> DLID from SA records alone (no
 * SMPs, so no privileges), as infiniband-diags' ibtracert finds it with
 * SMPs (find_route(): the source port's neighbour, then at each switch
 * the LFT entry of the DLID and the neighbour of that port): the source
 * port's LinkRecord to its switch; at each switch the LFTRecord block
 * holding the DLID (its out port) and the LinkRecord out of that port;
 * until a CA port whose LIDs hold the DLID, or a switch whose LID it is
 * (port 0). Each hop is named from its NodeRecord, and the link it
 * leaves by from its out port's PortInfoRecord.
 *
 * Pure over the records: the walk runs against a store of what the SA
 * answered, and where a record is not there yet it stops and names it, so
 * a caller can ask for the records that every destination needs next in
 * one windowed batch (the same LFT block serves many destinations) and
 * walk again. */
#ifndef IBAHPROBE_IB_TRACE_H
#define IBAHPROBE_IB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/pathrec.h"
#include "wire/sa_records.h"

/* A path never crosses more switches than a directed route can name
 * (IBA 14.2.2: 64 hops); a walk that goes on is looping. */
#define IB_TRACE_MAX_HOPS 64

enum trace_record_kind {
	TRACE_REC_NODE,		/* NodeRecord by LID */
	TRACE_REC_LINK,		/* LinkRecord by from LID and port */
	TRACE_REC_LFT,		/* LFTRecord by switch LID and block */
	TRACE_REC_PORTINFO,	/* PortInfoRecord by LID and port */
};
#define TRACE_REC_KINDS 4

/* Which record: (kind, lid, arg) with arg the port or the block. */
struct trace_key {
	enum trace_record_kind kind;
	uint16_t lid;
	uint16_t arg;
};

enum trace_record_state {
	TRACE_REC_UNKNOWN,	/* not asked yet */
	TRACE_REC_PRESENT,
	TRACE_REC_ABSENT,	/* the SA answered "no records" */
	TRACE_REC_FAILED,	/* the SA did not answer, or answered an error */
};

struct trace_record {
	struct trace_key key;
	enum trace_record_state state;
	char error[160];	/* FAILED: why */
	union {
		struct node_record node;
		struct link_record link;
		struct lft_record lft;
		struct portinfo_record portinfo;
	} u;
};

/* LFT blocks of the unicast LID space (0x0001-0xBFFF, IBA 4.1.3). */
#define TRACE_LFT_BLOCKS (0xC000 / LFT_BLOCK_LIDS)

/* What the SA answered, by key (open addressing; grows). complete[kind]:
 * the SA's whole table of that kind is in the store (a GetTable of every
 * record arrived whole), so a key of that kind not in it is absent;
 * lft_block_complete: the same for one LFT block of every switch. */
struct trace_store {
	struct trace_record *slots;
	size_t capacity, count;
	bool complete[TRACE_REC_KINDS];
	uint64_t lft_block_complete[TRACE_LFT_BLOCKS / 64];
};

void trace_store_init(struct trace_store *s);
void trace_store_free(struct trace_store *s);
const struct trace_record *trace_store_find(const struct trace_store *s,
					    const struct trace_key *key);
/* Adds or replaces the record of rec->key; -1 when out of memory. */
int trace_store_put(struct trace_store *s, const struct trace_record *rec);
/* Puts every record of a GetTableResp message of kind (TRACE_REC_LINK or
 * TRACE_REC_LFT; one MAD, or a whole RMPP message as the kernel
 * reassembles it) into the store and marks the kind complete. A message
 * cut short (a MAD stack without RMPP) is not trusted at all: nothing is
 * put, *truncated says so, and the records are asked one by one. Returns
 * 0, or -1 with err set (malformed, out of memory). */
int trace_store_put_table(struct trace_store *s, enum trace_record_kind kind,
			  const uint8_t *msg, size_t len, bool *truncated,
			  char *err, size_t errlen);
/* The same for the GetTableResp of one LFT block of every switch
 * (sa_encode_lft_block_table()): marks that block complete. */
int trace_store_put_lft_block(struct trace_store *s, uint16_t block,
			      const uint8_t *msg, size_t len, bool *truncated,
			      char *err, size_t errlen);
/* Whether opensm answers a LinkRecord Get by FromLID for a node of LID
 * lid, lmc being this (CA) port's LMC, which opensm gives every CA port
 * (its opt.lmc). With an LMC above 0 opensm masks the FromLID with the
 * subnet's LMC and compares it with the node's base LID
 * (osm_sa_link_record.c lr_rcv_get_physp_link(): lmc_mask from opt.lmc),
 * though a switch's port 0 has LMC 0 (unless lmc_esp0) and its LID need
 * not be aligned: the link out of a switch of LID 9 under LMC 2 is never
 * found by FromLID 9 (9 & ~3 is 8, another node's). Such links are asked
 * by FromPort alone and picked out of the table. */
bool trace_link_get_answerable(uint16_t lid, uint8_t lmc);
/* Looks for the LinkRecord out of (from_lid, from_port) in a
 * GetTableResp of LinkRecords (one MAD, or a whole RMPP message): *found,
 * with *link filled; *cut when the table arrived cut, so that a record not
 * found may still exist. Returns 0, or -1 with err set (malformed). */
int trace_link_from_table(const uint8_t *msg, size_t len, uint16_t from_lid,
			  uint8_t from_port, struct link_record *link,
			  bool *found, bool *cut, char *err, size_t errlen);
/* Whether a record of key not in the store is known absent: its kind's
 * whole table, or (LFTRecord) its block's table, arrived whole. */
bool trace_store_covers(const struct trace_store *s,
			const struct trace_key *key);

struct trace_hop {
	uint16_t lid;
	uint8_t node_type;	/* 1 CA, 2 switch, 3 router */
	uint64_t node_guid;
	uint64_t port_guid;
	char description[65];
	uint8_t in_port;	/* 0: the source */
	uint8_t out_port;	/* 0: the destination */
	/* The link out of out_port: its PortInfoRecord. */
	bool has_portinfo;
	struct portinfo_record portinfo;
};

enum trace_status {
	TRACE_PENDING,		/* needs the record in trace_result.need */
	TRACE_COMPLETE,
	TRACE_HOLE,		/* LFT entry 255, beyond the top, or block missing */
	TRACE_LOOP,		/* a switch seen twice */
	TRACE_DEAD_END,		/* no link out of the port, or not ACTIVE */
	TRACE_WRONG_END,	/* arrived at a CA that does not own the DLID */
	TRACE_UNKNOWN_SOURCE,	/* the SA has no node with the SLID */
	TRACE_SA_FAILED,	/* a record could not be read */
	/* A record the walk needs is absent while another says the port is
	 * there (an Active PortInfoRecord, a LinkRecord into it, the
	 * switch's other LFT blocks): the SA hides records of ports that
	 * share no partition with the requester (opensm
	 * osm_physp_share_pkey), so the way on is not known, not broken. */
	TRACE_HIDDEN,
};

struct trace_result {
	enum trace_status status;
	struct trace_hop hops[IB_TRACE_MAX_HOPS + 2];
	size_t hop_count;
	/* PENDING: the records to ask for next. The first blocks the
	 * walk; the others (a PortInfo of a link already followed) only
	 * its description, so they are asked in the same batch. */
	struct trace_key need[4];
	size_t need_count;
	/* Why it broke, in words (empty when complete); where: the hop it
	 * broke at (an index into hops). */
	char reason[256];
	size_t where;
};

/* Walks slid (the source port, port number src_port) to dlid over the
 * store. PENDING with result->need[] set when records are missing. */
void ib_trace_walk(const struct trace_store *store, uint16_t slid,
		   uint8_t src_port, uint16_t dlid,
		   struct trace_result *result);

/* "NodeRecord", "LinkRecord", "LFTRecord", "PortInfoRecord". */
const char *trace_record_kind_str(enum trace_record_kind kind);
/* "complete", "routing hole", "loop", "dead end", ... */
const char *trace_status_str(enum trace_status s);
/* The JSON word: "complete", "hole", "loop", "dead_end", ... */
const char *trace_status_key(enum trace_status s);
/* The port hop i was left by as a trace shows it: the source's and a
 * switch's out port; 0 (none) at the end of a complete walk, which the
 * walk entered only. */
unsigned trace_hop_out_port(const struct trace_result *r, size_t i);
/* Why the walk is not complete (its reason; "the walk did not end" when
 * it stopped pending with none), NULL when it is complete. */
const char *trace_result_error(const struct trace_result *r);

#endif
