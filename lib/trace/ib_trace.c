/* The SA-record walk of a switch path; see ib_trace.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ib_trace.h"

#define NODE_TYPE_SWITCH 2

void trace_store_init(struct trace_store *s)
{
	memset(s, 0, sizeof(*s));
}

void trace_store_free(struct trace_store *s)
{
	free(s->slots);
	memset(s, 0, sizeof(*s));
}

static size_t key_hash(const struct trace_key *k)
{
	uint64_t h = (uint64_t)k->kind << 32 | (uint64_t)k->lid << 16 | k->arg;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (size_t)h;
}

static bool key_equal(const struct trace_key *a, const struct trace_key *b)
{
	return a->kind == b->kind && a->lid == b->lid && a->arg == b->arg;
}

/* The slot of key, or the empty slot where it would go. */
static struct trace_record *slot_for(const struct trace_store *s,
				     const struct trace_key *key)
{
	size_t mask = s->capacity - 1;

	for (size_t i = key_hash(key) & mask;; i = (i + 1) & mask) {
		struct trace_record *r = &s->slots[i];

		if (r->state == TRACE_REC_UNKNOWN || key_equal(&r->key, key))
			return r;
	}
}

const struct trace_record *trace_store_find(const struct trace_store *s,
					    const struct trace_key *key)
{
	const struct trace_record *r;

	if (!s->capacity)
		return NULL;
	r = slot_for(s, key);
	return r->state == TRACE_REC_UNKNOWN ? NULL : r;
}

static int grow(struct trace_store *s)
{
	struct trace_store bigger = { 0 };

	bigger.capacity = s->capacity ? s->capacity * 2 : 64;
	bigger.slots = calloc(bigger.capacity, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < s->capacity; i++)
		if (s->slots[i].state != TRACE_REC_UNKNOWN)
			*slot_for(&bigger, &s->slots[i].key) = s->slots[i];
	bigger.count = s->count;
	free(s->slots);
	*s = bigger;
	return 0;
}

int trace_store_put(struct trace_store *s, const struct trace_record *rec)
{
	struct trace_record *r;

	if (rec->state == TRACE_REC_UNKNOWN)
		return 0;
	/* At most half full: probes stay short. */
	if ((s->count + 1) * 2 > s->capacity && grow(s))
		return -1;
	r = slot_for(s, &rec->key);
	if (r->state == TRACE_REC_UNKNOWN)
		s->count++;
	*r = *rec;
	return 0;
}

/* The layout of a GetTableResp of kind, and whether it is cut: a table is
 * trusted only as a whole. An RMPP message as the kernel reassembles it
 * keeps its first segment's header, whose FIRST flag and payload length
 * the sender set (the kernel's send_next_seg() in mad_rmpp.c). An active
 * message without them is a first packet that no one reassembled (ibsim's
 * umad2sim), however well its records happen to fit it. */
static int table_open(enum trace_record_kind kind, const uint8_t *msg,
		      size_t len, struct sa_table *t, bool *cut, char *err,
		      size_t errlen)
{
	size_t bytes = kind == TRACE_REC_LINK ? LINK_RECORD_BYTES
					      : LFT_RECORD_BYTES;
	struct sa_rmpp rmpp;

	if (kind != TRACE_REC_LINK && kind != TRACE_REC_LFT) {
		snprintf(err, errlen, "no table of that kind is read");
		return -1;
	}
	if (sa_table_layout(msg, len, bytes, t, err, errlen))
		return -1;
	sa_decode_rmpp(msg, &rmpp);
	*cut = t->truncated || ((rmpp.flags & SA_RMPP_FLAG_ACTIVE) &&
				(!(rmpp.flags & SA_RMPP_FLAG_FIRST) ||
				 !rmpp.payload_length));
	return 0;
}

/* Puts the records of a GetTableResp of kind into the store; 0 with
 * *truncated when the message is a cut first packet (nothing put). */
static int put_records(struct trace_store *s, enum trace_record_kind kind,
		       const uint8_t *msg, size_t len, bool *truncated,
		       char *err, size_t errlen)
{
	struct sa_table t;

	*truncated = false;
	if (table_open(kind, msg, len, &t, truncated, err, errlen))
		return -1;
	if (*truncated)
		return 0;
	for (size_t i = 0; i < t.count; i++) {
		const uint8_t *d = msg + SA_HEADER_BYTES + i * t.stride;
		struct trace_record r = { .state = TRACE_REC_PRESENT };

		r.key.kind = kind;
		if (kind == TRACE_REC_LINK) {
			linkrec_decode(d, &r.u.link);
			r.key.lid = r.u.link.from_lid;
			r.key.arg = r.u.link.from_port;
		} else {
			lftrec_decode(d, &r.u.lft);
			r.key.lid = r.u.lft.lid;
			r.key.arg = r.u.lft.block;
		}
		if (trace_store_put(s, &r)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

bool trace_link_get_answerable(uint16_t lid, uint8_t lmc)
{
	return lmc == 0 || lmc > 7 || (lid & ((1u << lmc) - 1)) == 0;
}

int trace_link_from_table(const uint8_t *msg, size_t len, uint16_t from_lid,
			  uint8_t from_port, struct link_record *link,
			  bool *found, bool *cut, char *err, size_t errlen)
{
	struct sa_table t;

	*found = false;
	*cut = false;
	if (table_open(TRACE_REC_LINK, msg, len, &t, cut, err, errlen))
		return -1;
	/* Whatever arrived of a cut table is still the SA's word. */
	for (size_t i = 0; i < t.count && !*found; i++) {
		linkrec_decode(msg + SA_HEADER_BYTES + i * t.stride, link);
		*found = link->from_lid == from_lid &&
			 link->from_port == from_port;
	}
	return 0;
}

int trace_store_put_table(struct trace_store *s, enum trace_record_kind kind,
			  const uint8_t *msg, size_t len, bool *truncated,
			  char *err, size_t errlen)
{
	if (put_records(s, kind, msg, len, truncated, err, errlen))
		return -1;
	if (!*truncated)
		s->complete[kind] = true;
	return 0;
}

int trace_store_put_lft_block(struct trace_store *s, uint16_t block,
			      const uint8_t *msg, size_t len, bool *truncated,
			      char *err, size_t errlen)
{
	if (block >= TRACE_LFT_BLOCKS) {
		snprintf(err, errlen, "LFT block %u is past the unicast LIDs",
			 block);
		return -1;
	}
	if (put_records(s, TRACE_REC_LFT, msg, len, truncated, err, errlen))
		return -1;
	if (!*truncated)
		s->lft_block_complete[block / 64] |= 1ull << (block % 64);
	return 0;
}

bool trace_store_covers(const struct trace_store *s,
			const struct trace_key *key)
{
	if (s->complete[key->kind])
		return true;
	return key->kind == TRACE_REC_LFT && key->arg < TRACE_LFT_BLOCKS &&
	       (s->lft_block_complete[key->arg / 64] >> (key->arg % 64)) & 1;
}

/* One walk's state. */
struct walk {
	const struct trace_store *store;
	struct trace_result *res;
};

static const char *const kind_words[] = {
	[TRACE_REC_NODE] = "NodeRecord",
	[TRACE_REC_LINK] = "LinkRecord",
	[TRACE_REC_LFT] = "LFTRecord",
	[TRACE_REC_PORTINFO] = "PortInfoRecord",
};

static void need(struct trace_result *res, struct trace_key key)
{
	for (size_t i = 0; i < res->need_count; i++)
		if (key_equal(&res->need[i], &key))
			return;
	if (res->need_count < sizeof(res->need) / sizeof(res->need[0]))
		res->need[res->need_count++] = key;
}

/* The record of key, or NULL: then the walk is PENDING (not asked yet)
 * or broken (the SA failed it); absent records come back, for the caller
 * to tell what absence means where it looked. */
static const struct trace_record *lookup(struct walk *w,
					 enum trace_record_kind kind,
					 uint16_t lid, uint16_t arg)
{
	static const struct trace_record absent = { .state = TRACE_REC_ABSENT };
	struct trace_key key = { kind, lid, arg };
	const struct trace_record *r = trace_store_find(w->store, &key);

	if (!r && trace_store_covers(w->store, &key))
		return &absent;	/* not in the SA's whole table */
	if (!r) {
		w->res->status = TRACE_PENDING;
		need(w->res, key);
		return NULL;
	}
	if (r->state == TRACE_REC_FAILED) {
		w->res->status = TRACE_SA_FAILED;
		snprintf(w->res->reason, sizeof(w->res->reason),
			 "the %s of LID %u %s %u could not be read: %s",
			 kind_words[kind], lid,
			 kind == TRACE_REC_LFT ? "block" : "port", arg,
			 r->error);
		return NULL;
	}
	return r;
}

/* The PortInfo of a link already followed describes it; it does not
 * decide the way, so a missing one is asked in the same batch as
 * whatever the walk asks next. Returns false when it says the port
 * passes no data (then the walk ends in a dead end). */
static bool describe_link(struct walk *w, struct trace_hop *hop)
{
	struct trace_key key = { TRACE_REC_PORTINFO, hop->lid, hop->out_port };
	const struct trace_record *r = trace_store_find(w->store, &key);

	if (!r && !w->store->complete[TRACE_REC_PORTINFO]) {
		need(w->res, key);
		return true;
	}
	if (!r)
		return true;
	if (r->state != TRACE_REC_PRESENT)
		return true;
	hop->has_portinfo = true;
	hop->portinfo = r->u.portinfo;
	/* Only an ACTIVE port forwards data packets (IBA 7.2, 14.2.5.6). */
	return r->u.portinfo.port_state == PORT_STATE_ACTIVE ||
	       r->u.portinfo.port_state == 5 /* ActiveDefer: still forwards */;
}

static void broken(struct walk *w, enum trace_status status,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void broken(struct walk *w, enum trace_status status, const char *fmt,
		   ...)
{
	va_list ap;

	w->res->status = status;
	w->res->where = w->res->hop_count ? w->res->hop_count - 1 : 0;
	va_start(ap, fmt);
	vsnprintf(w->res->reason, sizeof(w->res->reason), fmt, ap);
	va_end(ap);
}

/* Appends the node at lid, entered by in_port; NULL when its record is
 * not there (PENDING, failed, or no node: a dead end). */
static struct trace_hop *enter(struct walk *w, uint16_t lid, uint8_t in_port,
			       uint16_t from_lid, uint8_t from_port)
{
	const struct trace_record *r = lookup(w, TRACE_REC_NODE, lid, 0);
	struct trace_hop *hop;

	if (!r)
		return NULL;
	if (r->state == TRACE_REC_ABSENT) {
		if (w->res->hop_count == 0)
			broken(w, TRACE_UNKNOWN_SOURCE, "the SA has no node "
			       "with the source LID %u", lid);
		else
			/* The LinkRecord into it says the port is there: its
			 * NodeRecord is hidden (osm_sa_node_record.c answers
			 * only ports that share a P_Key with the
			 * requester), not missing. */
			broken(w, TRACE_HIDDEN, "the link out of LID %u "
			       "port %u leads to LID %u, whose NodeRecord the "
			       "SA does not give: hidden by the SA (no shared "
			       "partition with this port)", from_lid,
			       from_port, lid);
		return NULL;
	}
	hop = &w->res->hops[w->res->hop_count++];
	memset(hop, 0, sizeof(*hop));
	hop->lid = lid;
	hop->node_type = r->u.node.node_type;
	hop->node_guid = r->u.node.node_guid;
	hop->port_guid = r->u.node.port_guid;
	memcpy(hop->description, r->u.node.description,
	       sizeof(hop->description));
	hop->in_port = in_port;
	return hop;
}

/* No LinkRecord out of hop's out port. opensm answers a LinkRecord only
 * when the requester and both ends share a P_Key (osm_sa_link_record.c
 * lr_rcv_get_physp_link, osm_physp_share_pkey), silently: absence alone
 * is no cable fault. An Active PortInfoRecord of the port says the link
 * is up, so the record is hidden; without any record the port is not
 * called down. Always false (the walk stops, or waits for the
 * PortInfoRecord that decides). */
static bool no_link(struct walk *w, const struct trace_hop *hop)
{
	struct trace_key key = { TRACE_REC_PORTINFO, hop->lid, hop->out_port };
	const struct trace_record *pi = trace_store_find(w->store, &key);

	if (!pi && !w->store->complete[TRACE_REC_PORTINFO]) {
		w->res->status = TRACE_PENDING;
		need(w->res, key);
		return false;
	}
	if (pi && pi->state == TRACE_REC_PRESENT)
		/* describe_link let only a forwarding state through. */
		broken(w, TRACE_HIDDEN, "%s (LID %u) port %u is %s (its "
		       "PortInfoRecord) but the SA gives no LinkRecord out of "
		       "it: hidden by the SA (no shared partition with this "
		       "port)", hop->description, hop->lid, hop->out_port,
		       portinfo_state_str(pi->u.portinfo.port_state));
	else
		broken(w, TRACE_DEAD_END, "no link out of %s (LID %u) port %u: "
		       "the SA gives neither a LinkRecord nor a PortInfoRecord "
		       "of it (down, not cabled, or hidden by the SA: no "
		       "shared partition with this port)", hop->description,
		       hop->lid, hop->out_port);
	return false;
}

/* Leaves hop by its out port: the link's far end, or false when there
 * is none (a dead end) or its records are not there yet. */
static bool leave(struct walk *w, struct trace_hop *hop, uint16_t *to_lid,
		  uint8_t *to_port)
{
	const struct trace_record *r;
	bool passes = describe_link(w, hop);

	if (!passes) {
		broken(w, TRACE_DEAD_END, "%s (LID %u) port %u is %s: it "
		       "forwards nothing", hop->description, hop->lid,
		       hop->out_port,
		       portinfo_state_str(hop->portinfo.port_state));
		return false;
	}
	r = lookup(w, TRACE_REC_LINK, hop->lid, hop->out_port);
	if (!r)
		return false;
	if (r->state == TRACE_REC_ABSENT)
		return no_link(w, hop);
	*to_lid = r->u.link.to_lid;
	*to_port = r->u.link.to_port;
	return true;
}

/* An end port (CA or router) reached: does it own the DLID? Its LIDs are
 * base .. base + 2^LMC - 1 (PortInfo.LMC of the port entered). */
static void arrive(struct walk *w, struct trace_hop *hop, uint16_t dlid)
{
	const struct trace_record *r;
	uint32_t top = hop->lid;

	if (hop->lid != dlid) {
		r = lookup(w, TRACE_REC_PORTINFO, hop->lid, hop->in_port);
		if (!r)
			return;
		if (r->state == TRACE_REC_PRESENT)
			top = hop->lid + (1u << r->u.portinfo.lmc) - 1;
	}
	if (dlid < hop->lid || dlid > top) {
		broken(w, TRACE_WRONG_END, "the path ends at %s (LID %u), "
		       "which does not own DLID %u", hop->description,
		       hop->lid, dlid);
		return;
	}
	w->res->status = TRACE_COMPLETE;
}

/* At a switch that is not the destination: the DLID's LFT entry. */
static bool forward(struct walk *w, struct trace_hop *hop, uint16_t dlid,
		    uint8_t num_ports)
{
	uint16_t block = dlid / LFT_BLOCK_LIDS;
	const struct trace_record *r =
		lookup(w, TRACE_REC_LFT, hop->lid, block);
	uint8_t port;

	if (!r)
		return false;
	if (r->state == TRACE_REC_ABSENT) {
		/* A routed switch has block 0 (its own LID's entries): with
		 * none at all its LFTRecords are hidden (osm_sa_lft_record.c
		 * answers only switches whose port 0 shares a P_Key with the
		 * requester); with block 0 there, the DLID is beyond the
		 * table. */
		const struct trace_record *first =
			block ? lookup(w, TRACE_REC_LFT, hop->lid, 0) : r;

		if (!first)
			return false;
		if (first->state == TRACE_REC_ABSENT)
			broken(w, TRACE_HIDDEN, "%s (LID %u): the SA gives no "
			       "LFT block of it: hidden by the SA (no shared "
			       "partition with this port)", hop->description,
			       hop->lid);
		else
			broken(w, TRACE_HOLE, "routing hole at %s (LID %u): "
			       "the SA has no LFT block %u (DLIDs %u-%u), so "
			       "DLID %u is beyond its forwarding table",
			       hop->description, hop->lid, block,
			       block * LFT_BLOCK_LIDS,
			       block * LFT_BLOCK_LIDS + LFT_BLOCK_LIDS - 1,
			       dlid);
		return false;
	}
	port = r->u.lft.ports[dlid % LFT_BLOCK_LIDS];
	if (port == LFT_NO_ROUTE) {
		broken(w, TRACE_HOLE, "routing hole at %s (LID %u): its LFT "
		       "entry for DLID %u is 255 (no route)", hop->description,
		       hop->lid, dlid);
		return false;
	}
	if (port == 0 || (num_ports && port > num_ports)) {
		broken(w, TRACE_HOLE, "routing hole at %s (LID %u): its LFT "
		       "sends DLID %u to port %u, %s", hop->description,
		       hop->lid, dlid, port,
		       port == 0 ? "itself, whose LID it is not"
				 : "which the switch does not have");
		return false;
	}
	hop->out_port = port;
	return true;
}

static uint8_t num_ports_of(const struct trace_store *s, uint16_t lid)
{
	struct trace_key key = { TRACE_REC_NODE, lid, 0 };
	const struct trace_record *r = trace_store_find(s, &key);

	return r && r->state == TRACE_REC_PRESENT ? r->u.node.num_ports : 0;
}

void ib_trace_walk(const struct trace_store *store, uint16_t slid,
		   uint8_t src_port, uint16_t dlid, struct trace_result *res)
{
	struct walk w = { store, res };
	struct trace_hop *hop;
	uint16_t lid = slid, from_lid = 0;
	uint8_t in_port = 0, from_port = 0;

	memset(res, 0, sizeof(*res));
	res->status = TRACE_PENDING;
	for (;;) {
		hop = enter(&w, lid, in_port, from_lid, from_port);
		if (!hop)
			break;
		if (hop->node_type != NODE_TYPE_SWITCH) {
			if (res->hop_count > 1 || dlid == slid) {
				arrive(&w, hop, dlid);
				break;
			}
			hop->out_port = src_port;
		} else {
			if (hop->lid == dlid) {
				res->status = TRACE_COMPLETE;
				break;
			}
			for (size_t i = 0; i + 1 < res->hop_count; i++)
				if (res->hops[i].node_guid == hop->node_guid) {
					broken(&w, TRACE_LOOP, "loop: %s (GUID "
					       "%#018" PRIx64 ") is reached "
					       "again at hop %zu, first seen "
					       "at hop %zu", hop->description,
					       hop->node_guid,
					       res->hop_count - 1, i);
					return;
				}
			if (res->hop_count > IB_TRACE_MAX_HOPS) {
				broken(&w, TRACE_LOOP, "loop: more than %d "
				       "hops without reaching DLID %u",
				       IB_TRACE_MAX_HOPS, dlid);
				return;
			}
			if (!forward(&w, hop, dlid,
				     num_ports_of(store, hop->lid)))
				break;
		}
		from_lid = hop->lid;
		from_port = hop->out_port;
		if (!leave(&w, hop, &lid, &in_port))
			break;
	}
	/* A complete or broken walk may still name PortInfoRecords: the
	 * descriptions of links it followed, for the caller to ask. */
}

const char *trace_record_kind_str(enum trace_record_kind kind)
{
	return kind < TRACE_REC_KINDS ? kind_words[kind] : "record";
}

const char *trace_status_str(enum trace_status s)
{
	switch (s) {
	case TRACE_PENDING: return "incomplete";
	case TRACE_COMPLETE: return "complete";
	case TRACE_HOLE: return "routing hole";
	case TRACE_LOOP: return "loop";
	case TRACE_DEAD_END: return "dead end";
	case TRACE_WRONG_END: return "wrong end";
	case TRACE_UNKNOWN_SOURCE: return "unknown source";
	case TRACE_SA_FAILED: return "SA failed";
	case TRACE_HIDDEN: return "hidden by the SA";
	}
	return "?";
}

const char *trace_status_key(enum trace_status s)
{
	switch (s) {
	case TRACE_PENDING: return "incomplete";
	case TRACE_COMPLETE: return "complete";
	case TRACE_HOLE: return "hole";
	case TRACE_LOOP: return "loop";
	case TRACE_DEAD_END: return "dead_end";
	case TRACE_WRONG_END: return "wrong_end";
	case TRACE_UNKNOWN_SOURCE: return "unknown_source";
	case TRACE_SA_FAILED: return "sa_failed";
	case TRACE_HIDDEN: return "hidden";
	}
	return "?";
}

unsigned trace_hop_out_port(const struct trace_result *r, size_t i)
{
	if (i + 1 == r->hop_count && r->status == TRACE_COMPLETE)
		return 0;
	return r->hops[i].out_port;
}

const char *trace_result_error(const struct trace_result *r)
{
	if (r->status == TRACE_COMPLETE)
		return NULL;
	if (r->reason[0])
		return r->reason;
	return r->status == TRACE_PENDING ? "the walk did not end" : NULL;
}
