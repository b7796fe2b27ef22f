/* Unit tests of the SA-record walk: fabrics built here record by record
 * (NodeRecords, LinkRecords, LFT blocks, PortInfoRecords), answered to the
 * walk round by round as the SA would, and the hops, breaks and rounds it
 * comes back with. */
#include <stdio.h>
#include <string.h>

#include "trace/ib_trace.h"
#include "tap.h"

/* The fabric the fake SA answers from: what it has is PRESENT, what it
 * lacks ABSENT ("no records"); failing keys FAILED. */
static struct trace_record fabric[64];
static size_t fabric_count;
static struct trace_key failing;
static bool failing_set;

static struct trace_record *add(enum trace_record_kind kind, uint16_t lid,
				uint16_t arg)
{
	struct trace_record *r = &fabric[fabric_count++];

	memset(r, 0, sizeof(*r));
	r->key.kind = kind;
	r->key.lid = lid;
	r->key.arg = arg;
	r->state = TRACE_REC_PRESENT;
	return r;
}

static void node(uint16_t lid, uint8_t type, uint64_t guid, const char *name)
{
	struct trace_record *r = add(TRACE_REC_NODE, lid, 0);

	r->u.node.lid = lid;
	r->u.node.node_type = type;
	r->u.node.num_ports = type == 2 ? 8 : 1;
	r->u.node.node_guid = guid;
	r->u.node.port_guid = guid + (type == 2 ? 0 : 1);
	snprintf(r->u.node.description, sizeof(r->u.node.description), "%s",
		 name);
}

/* Both directions of a cable, each with an ACTIVE 4x QDR PortInfo. */
static void cable(uint16_t a, uint8_t pa, uint16_t b, uint8_t pb)
{
	struct trace_record *r;

	r = add(TRACE_REC_LINK, a, pa);
	r->u.link = (struct link_record){ a, pa, pb, b };
	r = add(TRACE_REC_LINK, b, pb);
	r->u.link = (struct link_record){ b, pb, pa, a };
	r = add(TRACE_REC_PORTINFO, a, pa);
	r->u.portinfo = (struct portinfo_record){ .lid = a, .port_num = pa,
		.width_active = 2, .speed_active = 4,
		.port_state = PORT_STATE_ACTIVE, .phys_state = 5 };
	r = add(TRACE_REC_PORTINFO, b, pb);
	r->u.portinfo = (struct portinfo_record){ .lid = b, .port_num = pb,
		.width_active = 2, .speed_active = 4,
		.port_state = PORT_STATE_ACTIVE, .phys_state = 5 };
}

/* An LFT block 0 for switch lid: entry i from ports[i], the rest 255. */
static struct lft_record *lft(uint16_t lid, const uint8_t *ports, size_t n)
{
	struct trace_record *r = add(TRACE_REC_LFT, lid, 0);

	r->u.lft.lid = lid;
	memset(r->u.lft.ports, LFT_NO_ROUTE, sizeof(r->u.lft.ports));
	memcpy(r->u.lft.ports, ports, n);
	return &r->u.lft;
}

static struct trace_record *find(enum trace_record_kind kind, uint16_t lid,
				 uint16_t arg)
{
	for (size_t i = 0; i < fabric_count; i++)
		if (fabric[i].key.kind == kind && fabric[i].key.lid == lid &&
		    fabric[i].key.arg == arg)
			return &fabric[i];
	return NULL;
}

/* H1 (LID 1) - S1 (2) port 1; S1 port 7 - S2 (3) port 7; S1 port 8 - S2
 * port 8; S2 port 1 - H3 (5); S1 port 2 - H2 (4). As ibsim's
 * two-switch.topo, routed as opensm routed it. */
static void two_switches(void)
{
	/* DLID:         0    1  2  3  4  5  6 */
	static const uint8_t s1[] = { 255, 1, 0, 7, 2, 7, 8 };
	static const uint8_t s2[] = { 255, 7, 7, 0, 8, 1, 2 };

	fabric_count = 0;
	failing_set = false;
	node(1, 1, 0x100000, "H1");
	node(2, 2, 0x200000, "S1");
	node(3, 2, 0x200001, "S2");
	node(4, 1, 0x100002, "H2");
	node(5, 1, 0x100004, "H3");
	cable(1, 1, 2, 1);
	cable(4, 1, 2, 2);
	cable(2, 7, 3, 7);
	cable(2, 8, 3, 8);
	cable(5, 1, 3, 1);
	lft(2, s1, sizeof(s1));
	lft(3, s2, sizeof(s2));
}

/* Walks to the end, answering each round's needs from the fabric in one
 * batch; returns the rounds it took. */
static int walk(struct trace_store *store, uint16_t slid, uint16_t dlid,
		struct trace_result *res, size_t *asked)
{
	int rounds = 0;

	*asked = 0;
	for (;;) {
		ib_trace_walk(store, slid, 1, dlid, res);
		if (res->need_count == 0 || rounds > 100)
			return rounds;
		rounds++;
		for (size_t i = 0; i < res->need_count; i++) {
			const struct trace_key *k = &res->need[i];
			struct trace_record *have = find(k->kind, k->lid, k->arg);
			struct trace_record r = { .key = *k };

			if (failing_set && failing.kind == k->kind &&
			    failing.lid == k->lid && failing.arg == k->arg) {
				r.state = TRACE_REC_FAILED;
				snprintf(r.error, sizeof(r.error), "no answer");
			} else if (have) {
				r = *have;
			} else {
				r.state = TRACE_REC_ABSENT;
			}
			trace_store_put(store, &r);
			(*asked)++;
		}
	}
}

static void hop_is(const struct trace_result *res, size_t i, uint16_t lid,
		   uint8_t in, uint8_t out, const char *what)
{
	ok(i < res->hop_count && res->hops[i].lid == lid &&
		   res->hops[i].in_port == in && res->hops[i].out_port == out,
	   "%s: hop %zu is LID %u in %u out %u (got LID %u in %u out %u)",
	   what, i, lid, in, out, i < res->hop_count ? res->hops[i].lid : 0,
	   i < res->hop_count ? res->hops[i].in_port : 0,
	   i < res->hop_count ? res->hops[i].out_port : 0);
}

static void test_two_switch_hops(void)
{
	struct trace_store store;
	struct trace_result res;
	size_t asked;
	int rounds;

	two_switches();
	trace_store_init(&store);
	rounds = walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_COMPLETE, "H1 -> H3 complete");
	is_int(res.hop_count, 4, "H1, S1, S2, H3");
	hop_is(&res, 0, 1, 0, 1, "H1 -> H3");
	hop_is(&res, 1, 2, 1, 7, "H1 -> H3");
	hop_is(&res, 2, 3, 7, 1, "H1 -> H3");
	hop_is(&res, 3, 5, 1, 0, "H1 -> H3");
	is_str(res.hops[1].description, "S1", "hop named by its NodeRecord");
	ok(res.hops[1].node_guid == 0x200000, "node GUID");
	ok(res.hops[0].has_portinfo && res.hops[1].has_portinfo &&
		   res.hops[2].has_portinfo && !res.hops[3].has_portinfo,
	   "every link described by its out port's PortInfo; none after the end");
	is_int(res.hops[2].portinfo.port_num, 1, "S2's link out is port 1's");
	is_str(res.reason, "", "no reason when complete");
	/* A PortInfo is asked with the next blocking record, not alone. */
	ok(rounds <= 9, "walked in %d rounds (<= 9: 3 per switch + ends)",
	   rounds);

	/* Another destination behind the same switches: only what is new. */
	rounds = walk(&store, 1, 4, &res, &asked);
	is_int(res.status, TRACE_COMPLETE, "H1 -> H2 complete");
	is_int(res.hop_count, 3, "H1, S1, H2");
	hop_is(&res, 1, 2, 1, 2, "H1 -> H2");
	ok(asked == 3, "the cached LFT block and links served: %zu new "
	   "records (H2's link, node and S1 port 2's PortInfo)", asked);
	trace_store_free(&store);
}

static void test_switch_destination(void)
{
	struct trace_store store;
	struct trace_result res;
	size_t asked;

	two_switches();
	trace_store_init(&store);
	walk(&store, 1, 3, &res, &asked);
	is_int(res.status, TRACE_COMPLETE, "H1 -> S2 complete");
	is_int(res.hop_count, 3, "H1, S1, S2");
	hop_is(&res, 2, 3, 7, 0, "H1 -> S2 ends at port 0");
	walk(&store, 1, 1, &res, &asked);
	is_int(res.status, TRACE_COMPLETE, "to itself: complete");
	is_int(res.hop_count, 1, "to itself: one hop");
	trace_store_free(&store);
}

static void test_holes(void)
{
	struct trace_store store;
	struct trace_result res;
	size_t asked;

	two_switches();
	trace_store_init(&store);
	find(TRACE_REC_LFT, 3, 0)->u.lft.ports[5] = LFT_NO_ROUTE;
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_HOLE, "entry 255: a routing hole");
	is_int(res.where, 2, "at S2 (hop 2)");
	ok(strstr(res.reason, "routing hole at S2 (LID 3)") &&
		   strstr(res.reason, "255"),
	   "named: %s", res.reason);
	hop_is(&res, 2, 3, 7, 0, "the hole hop has no out port");
	trace_store_free(&store);

	two_switches();
	trace_store_init(&store);
	walk(&store, 1, 77, &res, &asked);
	is_int(res.status, TRACE_HOLE, "DLID in a block the SA lacks: a hole");
	ok(strstr(res.reason, "no LFT block 1") != NULL, "named: %s",
	   res.reason);
	is_int(res.where, 1, "at S1, the first switch");
	trace_store_free(&store);

	two_switches();
	trace_store_init(&store);
	find(TRACE_REC_LFT, 2, 0)->u.lft.ports[5] = 0;
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_HOLE, "sent to port 0 of a switch not the DLID");
	find(TRACE_REC_LFT, 2, 0)->u.lft.ports[5] = 20;
	trace_store_free(&store);
	trace_store_init(&store);
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_HOLE, "sent to port 20 of an 8-port switch");
	ok(strstr(res.reason, "does not have") != NULL, "named: %s", res.reason);
	trace_store_free(&store);
}

static void test_loop(void)
{
	struct trace_store store;
	struct trace_result res;
	size_t asked;

	two_switches();
	/* DLID 9: S1 sends it to S2 over port 7, S2 back over port 8. */
	find(TRACE_REC_LFT, 2, 0)->u.lft.ports[9] = 7;
	find(TRACE_REC_LFT, 3, 0)->u.lft.ports[9] = 8;
	trace_store_init(&store);
	walk(&store, 1, 9, &res, &asked);
	is_int(res.status, TRACE_LOOP, "a switch seen twice: a loop");
	is_int(res.hop_count, 4, "H1, S1, S2, S1 again");
	hop_is(&res, 3, 2, 8, 0, "S1 entered again by port 8");
	ok(strstr(res.reason, "S1") && strstr(res.reason, "first seen at hop 1"),
	   "named: %s", res.reason);
	trace_store_free(&store);
}

static void test_dead_ends(void)
{
	struct trace_store store;
	struct trace_result res;
	size_t asked;

	/* H3 unplugged: S2 still routes to port 1, the SA has no link (and
	 * no PortInfoRecord saying the port is up). */
	trace_store_init(&store);
	two_switches();
	for (size_t i = 0; i < fabric_count; i++)
		if ((fabric[i].key.kind == TRACE_REC_LINK ||
		     fabric[i].key.kind == TRACE_REC_PORTINFO) &&
		    fabric[i].key.lid == 3 && fabric[i].key.arg == 1)
			fabric[i].key.lid = 999;
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_DEAD_END, "no LinkRecord out: a dead end");
	is_int(res.where, 2, "at S2");
	ok(strstr(res.reason, "no link out of S2 (LID 3) port 1") != NULL,
	   "named: %s", res.reason);
	hop_is(&res, 2, 3, 7, 1, "the dead end names its out port");
	trace_store_free(&store);

	two_switches();
	find(TRACE_REC_PORTINFO, 2, 7)->u.portinfo.port_state = PORT_STATE_DOWN;
	trace_store_init(&store);
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_DEAD_END, "out port DOWN: a dead end");
	ok(strstr(res.reason, "port 7 is DOWN") != NULL, "named: %s",
	   res.reason);
	trace_store_free(&store);

	two_switches();
	/* A link record pointing at a LID the SA gives no node for: the
	 * link says a port is there, so its NodeRecord is hidden (issue 25:
	 * not "no node"). */
	find(TRACE_REC_LINK, 2, 7)->u.link.to_lid = 42;
	trace_store_init(&store);
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_HIDDEN,
	       "link to a LID without a NodeRecord: hidden by the SA");
	ok(strstr(res.reason, "leads to LID 42, whose NodeRecord the SA does "
		  "not give: hidden by the SA (no shared partition") != NULL,
	   "named: %s", res.reason);
	trace_store_free(&store);
}

/* Issue 25 item 1: opensm answers LinkRecord, LFTRecord and NodeRecord
 * queries only for ports that share a P_Key with the requester
 * (lr_rcv_get_physp_link, osm_sa_lft_record.c, osm_sa_node_record.c via
 * osm_physp_share_pkey), silently. An absent record of a port known up
 * is hidden, never "down" or "not cabled". */
static void test_hidden_by_the_sa(void)
{
	struct trace_store store;
	struct trace_result res;
	size_t asked;

	/* S2 port 1 is ACTIVE (PortInfoRecord), its LinkRecord hidden. */
	two_switches();
	find(TRACE_REC_LINK, 3, 1)->key.lid = 999;
	trace_store_init(&store);
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_HIDDEN, "Active port, no LinkRecord: hidden");
	is_str(res.reason, "S2 (LID 3) port 1 is ACTIVE (its PortInfoRecord) "
	       "but the SA gives no LinkRecord out of it: hidden by the SA (no "
	       "shared partition with this port)", "named");
	ok(!strstr(res.reason, "down") && !strstr(res.reason, "cabled"),
	   "not called down or uncabled");
	is_str(trace_status_key(res.status), "hidden", "JSON word");
	trace_store_free(&store);

	/* The same with the whole LinkRecord table (a GetTable is the
	 * requester's view too). */
	two_switches();
	find(TRACE_REC_LINK, 3, 1)->key.lid = 999;
	trace_store_init(&store);
	store.complete[TRACE_REC_LINK] = true;
	for (size_t i = 0; i < fabric_count; i++)
		if (fabric[i].key.kind == TRACE_REC_LINK)
			trace_store_put(&store, &fabric[i]);
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_HIDDEN, "whole table: still hidden");
	trace_store_free(&store);

	/* No LFT block of S2 at all: its LFTRecords are hidden, not a
	 * routing hole. */
	two_switches();
	find(TRACE_REC_LFT, 3, 0)->key.lid = 999;
	trace_store_init(&store);
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_HIDDEN, "no LFT block at all: hidden");
	ok(strstr(res.reason, "S2 (LID 3): the SA gives no LFT block of it: "
		  "hidden by the SA") != NULL, "named: %s", res.reason);
	trace_store_free(&store);

	/* DLID 77 (block 1) at S1, whose block 0 is there: beyond its
	 * table, a routing hole (block 0 asked to decide). */
	two_switches();
	trace_store_init(&store);
	walk(&store, 1, 77, &res, &asked);
	is_int(res.status, TRACE_HOLE,
	       "block 1 absent at S1 whose block 0 is there: a hole");
	trace_store_free(&store);
}

static void test_ends(void)
{
	struct trace_store store;
	struct trace_result res;
	size_t asked;

	two_switches();
	trace_store_init(&store);
	walk(&store, 77, 5, &res, &asked);
	is_int(res.status, TRACE_UNKNOWN_SOURCE, "no node with the SLID");
	trace_store_free(&store);

	/* DLID 6 routed to H3's port: H3 owns it only with LMC >= 1. */
	two_switches();
	find(TRACE_REC_LFT, 2, 0)->u.lft.ports[6] = 7;
	find(TRACE_REC_LFT, 3, 0)->u.lft.ports[6] = 1;
	trace_store_init(&store);
	walk(&store, 1, 6, &res, &asked);
	is_int(res.status, TRACE_WRONG_END, "LMC 0: H3 does not own DLID 6");
	trace_store_free(&store);
	find(TRACE_REC_PORTINFO, 5, 1)->u.portinfo.lmc = 1;
	trace_store_init(&store);
	walk(&store, 1, 6, &res, &asked);
	is_int(res.status, TRACE_COMPLETE, "LMC 1: LIDs 5-6 are H3's");
	trace_store_free(&store);

	two_switches();
	failing = (struct trace_key){ TRACE_REC_LFT, 3, 0 };
	failing_set = true;
	trace_store_init(&store);
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_SA_FAILED, "an unanswered record");
	ok(strstr(res.reason, "LFTRecord of LID 3 block 0") &&
		   strstr(res.reason, "no answer"),
	   "named: %s", res.reason);
	trace_store_free(&store);
}

static void test_store(void)
{
	struct trace_store s;
	struct trace_record r = { .state = TRACE_REC_PRESENT };
	bool all = true;

	trace_store_init(&s);
	for (uint16_t i = 0; i < 1000; i++) {
		r.key = (struct trace_key){ i % 4, i, (uint16_t)(i * 7) };
		r.u.link.to_lid = i;
		all &= trace_store_put(&s, &r) == 0;
	}
	ok(all, "1000 records stored");
	is_int(s.count, 1000, "count");
	for (uint16_t i = 0; i < 1000; i++) {
		struct trace_key k = { i % 4, i, (uint16_t)(i * 7) };
		const struct trace_record *f = trace_store_find(&s, &k);

		all &= f && f->u.link.to_lid == i;
	}
	ok(all, "every one found again after the table grew");
	r.key = (struct trace_key){ TRACE_REC_LFT, 9, 9 };
	ok(trace_store_find(&s, &r.key) == NULL, "an unknown key is not found");
	r.key = (struct trace_key){ 0, 0, 0 };
	r.state = TRACE_REC_ABSENT;
	trace_store_put(&s, &r);
	is_int(s.count, 1000, "replacing keeps the count");
	is_int(trace_store_find(&s, &r.key)->state, TRACE_REC_ABSENT, "replaced");
	trace_store_free(&s);
}

/* A GetTableResp of n LinkRecords (8 bytes apart: attribute offset 1)
 * from the fabric; rmpp_total: the payload length an RMPP first segment
 * announces (0: none). */
static size_t link_table(uint8_t *msg, size_t n, uint32_t rmpp_total)
{
	size_t k = 0;

	memset(msg, 0, 256);
	msg[0] = 1;
	msg[1] = 0x03;
	msg[2] = 2;
	msg[3] = 0x92;
	msg[17] = 0x20;
	msg[45] = 1;
	if (rmpp_total) {
		msg[24] = 1;		/* RMPP version */
		msg[25] = 1;		/* DATA */
		msg[26] = 0x3;		/* active, first */
		msg[31] = 1;		/* segment 1 */
		msg[34] = (uint8_t)(rmpp_total >> 8);
		msg[35] = (uint8_t)rmpp_total;
	}
	for (size_t i = 0; i < fabric_count && k < n; i++) {
		const struct trace_record *r = &fabric[i];
		uint8_t *d = msg + 56 + k * 8;

		if (r->key.kind != TRACE_REC_LINK)
			continue;
		d[0] = (uint8_t)(r->u.link.from_lid >> 8);
		d[1] = (uint8_t)r->u.link.from_lid;
		d[2] = r->u.link.from_port;
		d[3] = r->u.link.to_port;
		d[4] = (uint8_t)(r->u.link.to_lid >> 8);
		d[5] = (uint8_t)r->u.link.to_lid;
		k++;
	}
	return 56 + k * 8;
}

static void test_whole_tables(void)
{
	struct trace_store store;
	struct trace_result res;
	struct trace_key key = { TRACE_REC_LINK, 2, 7 };
	uint8_t msg[256];
	char err[128];
	bool cut;
	size_t asked, len;

	two_switches();
	trace_store_init(&store);
	/* Every link of the fabric but H3's (the last cable), whole. */
	len = link_table(msg, 8, 0);
	is_int(trace_store_put_table(&store, TRACE_REC_LINK, msg, len, &cut,
				     err, sizeof(err)), 0, "a whole table");
	ok(!cut, "not cut");
	ok(store.complete[TRACE_REC_LINK], "links marked complete");
	is_int(trace_store_find(&store, &key)->u.link.to_lid, 3,
	       "S1 port 7 -> S2 from the table");
	find(TRACE_REC_PORTINFO, 3, 1)->key.lid = 999;	/* unplugged */
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_DEAD_END,
	       "a link not in a whole table is absent: H3's is gone");
	ok(strstr(res.reason, "no link out of S2 (LID 3) port 1") != NULL,
	   "named: %s", res.reason);
	trace_store_free(&store);

	/* An RMPP first segment announcing far more than arrived. */
	trace_store_init(&store);
	len = link_table(msg, 10, 20 + 300);
	is_int(trace_store_put_table(&store, TRACE_REC_LINK, msg, len, &cut,
				     err, sizeof(err)), 0, "a cut table");
	ok(cut, "seen as cut");
	ok(!store.complete[TRACE_REC_LINK] && store.count == 0,
	   "nothing of a cut table is trusted");
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_COMPLETE, "record by record instead");
	/* What ibsim delivers: RMPP active, no FIRST flag, no payload length,
	 * the first 200 bytes of data filled with whole records. */
	len = link_table(msg, 10, 0);
	msg[24] = 1;
	msg[25] = 1;
	msg[26] = 0x1;
	is_int(trace_store_put_table(&store, TRACE_REC_LINK, msg, len, &cut,
				     err, sizeof(err)), 0, "an unreassembled packet");
	ok(cut && !store.complete[TRACE_REC_LINK],
	   "RMPP active without FIRST and payload length: not trusted");
	msg[26] = 0x7;
	msg[35] = (uint8_t)(len - 56 + 20);
	trace_store_put_table(&store, TRACE_REC_LINK, msg, len, &cut, err,
			      sizeof(err));
	ok(!cut && store.complete[TRACE_REC_LINK],
	   "one whole segment (first and last, its payload length): trusted");
	is_int(trace_store_put_table(&store, TRACE_REC_NODE, msg, len, &cut,
				     err, sizeof(err)), -1,
	       "no NodeRecord table is read");
	trace_store_free(&store);
}

/* A GetTableResp of the fabric's LFT records of one block (72 bytes apart:
 * attribute offset 9), as opensm answers a GetTable with BlockNum alone,
 * one whole segment; skip_lid: a switch left out (0: none). */
static size_t lft_block_table(uint8_t *msg, size_t cap, uint16_t block,
			      uint16_t skip_lid)
{
	size_t k = 0;

	memset(msg, 0, cap);
	msg[0] = 1;
	msg[1] = 0x03;
	msg[2] = 2;
	msg[3] = 0x92;
	msg[17] = 0x15;
	msg[45] = 9;
	for (size_t i = 0; i < fabric_count; i++) {
		const struct trace_record *r = &fabric[i];
		uint8_t *d = msg + 56 + k * 72;

		if (r->key.kind != TRACE_REC_LFT || r->key.arg != block ||
		    r->key.lid == skip_lid || 56 + (k + 1) * 72 > cap)
			continue;
		d[0] = (uint8_t)(r->key.lid >> 8);
		d[1] = (uint8_t)r->key.lid;
		d[2] = (uint8_t)(block >> 8);
		d[3] = (uint8_t)block;
		memcpy(d + 8, r->u.lft.ports, LFT_BLOCK_LIDS);
		k++;
	}
	return 56 + k * 72;
}

static void test_lft_block_tables(void)
{
	struct trace_key s1_b0 = { TRACE_REC_LFT, 2, 0 };
	struct trace_key s1_b1 = { TRACE_REC_LFT, 2, 1 };
	struct trace_key link = { TRACE_REC_LINK, 2, 7 };
	struct trace_store store;
	struct trace_result res;
	uint8_t msg[512];
	char err[128];
	size_t asked, len;
	bool cut;

	two_switches();
	trace_store_init(&store);
	len = lft_block_table(msg, sizeof(msg), 0, 0);
	is_int(trace_store_put_lft_block(&store, 0, msg, len, &cut, err,
					 sizeof(err)), 0, "block 0 of every switch");
	ok(!cut && store.count == 2, "both switches' block 0 stored");
	ok(trace_store_covers(&store, &s1_b0), "block 0 is covered");
	ok(!trace_store_covers(&store, &s1_b1),
	   "block 1 is not: only the block asked is known whole");
	ok(!trace_store_covers(&store, &link) &&
	   !store.complete[TRACE_REC_LFT], "nor the other tables");
	walk(&store, 1, 5, &res, &asked);
	is_int(res.status, TRACE_COMPLETE, "the walk reads its LFTs from it");
	is_int((int)res.hop_count, 4, "H1 S1 S2 H3");
	trace_store_free(&store);

	/* S2 left out of the block's table: its block 0 is absent, as a
	 * record the SA hides or a switch gone (the walk tells which), and
	 * never asked again one by one. */
	trace_store_init(&store);
	len = lft_block_table(msg, sizeof(msg), 0, 3);
	trace_store_put_lft_block(&store, 0, msg, len, &cut, err, sizeof(err));
	walk(&store, 1, 5, &res, &asked);
	ok(res.status != TRACE_COMPLETE && res.status != TRACE_PENDING,
	   "a switch missing from a whole block table is absent (status %d)",
	   res.status);
	ok(find(TRACE_REC_LFT, 3, 0) != NULL, "(the fabric has it)");
	trace_store_free(&store);

	/* Cut (what ibsim delivers): nothing trusted, the block not covered. */
	trace_store_init(&store);
	len = lft_block_table(msg, sizeof(msg), 0, 0);
	msg[24] = 1;
	msg[25] = 1;
	msg[26] = 0x1;
	trace_store_put_lft_block(&store, 0, msg, len, &cut, err, sizeof(err));
	ok(cut && store.count == 0 && !trace_store_covers(&store, &s1_b0),
	   "a cut block table is not trusted");
	is_int(trace_store_put_lft_block(&store, TRACE_LFT_BLOCKS, msg, len,
					 &cut, err, sizeof(err)), -1,
	       "a block past the unicast LIDs is refused");
	trace_store_free(&store);
}

static void test_links_under_lmc(void)
{
	struct link_record link;
	uint8_t msg[256];
	char err[128];
	bool found, cut;
	size_t len;

	ok(trace_link_get_answerable(9, 0), "LMC 0: every LID by FromLID");
	ok(trace_link_get_answerable(8, 2) && trace_link_get_answerable(12, 2),
	   "LMC 2: LIDs aligned to 4 by FromLID");
	ok(!trace_link_get_answerable(9, 2) && !trace_link_get_answerable(10, 2) &&
	   !trace_link_get_answerable(9, 1),
	   "a switch LID not aligned to the subnet's LMC: not by FromLID");
	ok(trace_link_get_answerable(10, 1), "LID 10 under LMC 1: aligned");

	two_switches();
	/* The links out of every node's port 7 (here S1's, LID 2, and S2's,
	 * LID 3): whole, one MAD without RMPP. */
	len = link_table(msg, 8, 0);
	is_int(trace_link_from_table(msg, len, 3, 7, &link, &found, &cut, err,
				     sizeof(err)), 0, "a FromPort table");
	ok(found && !cut && link.to_lid == 2 && link.to_port == 7,
	   "S2 port 7 -> S1 port 7 picked out of it");
	trace_link_from_table(msg, len, 3, 5, &link, &found, &cut, err,
			      sizeof(err));
	ok(!found && !cut, "a link not in a whole table: absent");
	/* What ibsim delivers: a first packet no one reassembled. */
	msg[24] = 1;
	msg[25] = 1;
	msg[26] = 0x1;
	trace_link_from_table(msg, len, 3, 7, &link, &found, &cut, err,
			      sizeof(err));
	ok(found && cut, "found in a cut table: still the SA's word");
	trace_link_from_table(msg, len, 3, 5, &link, &found, &cut, err,
			      sizeof(err));
	ok(!found && cut, "not found in a cut table: unknown, not absent");
	is_int(trace_link_from_table(msg, 20, 3, 7, &link, &found, &cut, err,
				     sizeof(err)), -1, "a short message is malformed");
}

/* What trace and probe --paths show of a walk: the out ports (none at a
 * complete walk's end, a broken walk's last hop keeps its own) and why it
 * is not complete (its reason; a pending walk without one did not end). */
static void test_shown_out_port_and_error(void)
{
	struct trace_result res;

	memset(&res, 0, sizeof(res));
	res.hop_count = 3;
	res.hops[0].out_port = 1;
	res.hops[1].out_port = 7;
	res.hops[2].out_port = 4;
	res.status = TRACE_COMPLETE;
	is_int(trace_hop_out_port(&res, 0), 1, "the source's port");
	is_int(trace_hop_out_port(&res, 1), 7, "a switch's out port");
	is_int(trace_hop_out_port(&res, 2), 0,
	       "none at the end of a complete walk");
	ok(trace_result_error(&res) == NULL, "complete: no error");

	res.status = TRACE_HOLE;
	snprintf(res.reason, sizeof(res.reason), "no route at S2");
	is_int(trace_hop_out_port(&res, 2), 4,
	       "a broken walk's last hop keeps its out port");
	is_str(trace_result_error(&res), "no route at S2", "the reason");

	res.status = TRACE_PENDING;
	res.reason[0] = '\0';
	is_str(trace_result_error(&res), "the walk did not end",
	       "pending without a reason: it did not end");
	res.status = TRACE_LOOP;
	ok(trace_result_error(&res) == NULL,
	   "no reason and not pending: nothing to say");
}

int main(void)
{
	test_two_switch_hops();
	test_switch_destination();
	test_holes();
	test_loop();
	test_dead_ends();
	test_hidden_by_the_sa();
	test_ends();
	test_store();
	test_whole_tables();
	test_lft_block_tables();
	test_links_under_lmc();
	test_shown_out_port_and_error();
	return tap_done();
}
