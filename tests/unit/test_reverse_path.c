/* Unit tests of the responder's reverse path: the reply AH's finishing
 * (hop limit 255, the asked SL on Ethernet), the key that lets one AH
 * serve a sender, and the cache's pending and negative entries. */
#include <string.h>

#include <linux/neighbour.h>

#include "peer/reverse_ah.h"
#include "peer/responder_rules.h"
#include "peer/reverse_cache.h"
#include "tap.h"

/* What libibverbs' ibv_init_ah_from_wc builds from an IPv4 RoCE v2 probe
 * that crossed two routers: hop limit 62 copied from the TTL, sl from
 * wc.sl, which mlx5 fills with the L3 header type (3: IPv4). */
static void init_ah_like_libibverbs(struct ibv_ah_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->is_global = 1;
	attr->sl = 3;
	attr->port_num = 1;
	attr->grh.hop_limit = 62;
	attr->grh.traffic_class = 0x28;
	attr->grh.sgid_index = 3;
	attr->grh.dgid.raw[10] = attr->grh.dgid.raw[11] = 0xff;
	attr->grh.dgid.raw[12] = 10;
	attr->grh.dgid.raw[15] = 11;
}

static void test_finish(void)
{
	struct ibv_ah_attr attr;

	init_ah_like_libibverbs(&attr);
	reverse_ah_finish(&attr, LINK_LAYER_ETHERNET, 5);
	is_int(attr.grh.hop_limit, REVERSE_HOP_LIMIT,
	       "hop limit 255, not the received 62 (the kernel's "
	       "ib_init_ah_attr_from_wc)");
	is_int(attr.sl, 5, "RoCE: the SL the probe was sent with, not wc.sl");
	is_int(attr.grh.traffic_class, 0x28, "traffic class kept");
	is_int(attr.grh.sgid_index, 3, "sgid_index kept");

	/* A probe marked CE (0x28 | 3) on the way: libibverbs'
	 * set_ah_attr_by_ipv4 copies the whole TOS byte. */
	for (uint8_t ecn = 1; ecn <= 3; ecn++) {
		init_ah_like_libibverbs(&attr);
		attr.grh.traffic_class = 0x28 | ecn;
		reverse_ah_finish(&attr, LINK_LAYER_ETHERNET, 5);
		is_int(attr.grh.traffic_class, 0x28,
		       "RoCE: the reply keeps the DSCP, not ECN %u", ecn);
	}
	init_ah_like_libibverbs(&attr);
	attr.grh.traffic_class = 0x2b;
	reverse_ah_finish(&attr, LINK_LAYER_IB, 5);
	is_int(attr.grh.traffic_class, 0x2b,
	       "IB with GRH: the traffic class kept whole (no ECN there)");

	/* InfiniBand without a GRH: SL and LID from the wc stay. */
	memset(&attr, 0, sizeof(attr));
	attr.dlid = 7;
	attr.sl = 2;
	attr.src_path_bits = 1;
	reverse_ah_finish(&attr, LINK_LAYER_IB, 5);
	ok(attr.dlid == 7 && attr.sl == 2 && attr.src_path_bits == 1,
	   "IB: dlid, wc.sl and path bits as received");
	is_int(attr.grh.hop_limit, 0, "no GRH: no hop limit set");

	/* IB through a router: GRH, hop limit 255 too. */
	attr.is_global = 1;
	attr.grh.hop_limit = 1;
	reverse_ah_finish(&attr, LINK_LAYER_IB, 5);
	is_int(attr.grh.hop_limit, 255, "IB with GRH: 255");
	is_int(attr.sl, 2, "IB: wc.sl kept");
}

static struct grh_fields grh_from(uint8_t last, uint8_t hop_limit)
{
	struct grh_fields g;

	memset(&g, 0, sizeof(g));
	g.present = true;
	g.form = GRH_FORM_IPV4;
	g.hop_limit = hop_limit;
	g.traffic_class = 0x28;
	g.sgid.raw[15] = last;
	g.dgid.raw[15] = 2;
	return g;
}

static void test_key(void)
{
	struct ibv_wc wc = { .slid = 0, .sl = 3, .src_qp = 17 };
	struct grh_fields g1 = grh_from(1, 62), g2 = grh_from(1, 61);
	struct grh_fields g3 = grh_from(9, 62);
	struct reverse_key a, b;

	reverse_key_build(&wc, &g1, LINK_LAYER_ETHERNET, 0, &a);
	reverse_key_build(&wc, &g2, LINK_LAYER_ETHERNET, 0, &b);
	ok(reverse_key_equal(&a, &b), "hop limit is no part of the key: "
	   "the reply takes 255 anyway");
	reverse_key_build(&wc, &g3, LINK_LAYER_ETHERNET, 0, &b);
	ok(!reverse_key_equal(&a, &b), "another sender GID: another key");
	reverse_key_build(&wc, &g1, LINK_LAYER_ETHERNET, 4, &b);
	ok(!reverse_key_equal(&a, &b), "RoCE: another asked SL, another "
	   "reply AH");
	is_int(a.sl, 0, "RoCE: the key takes the asked SL, not wc.sl 3");
	g2 = g1;
	g2.traffic_class = 0;
	reverse_key_build(&wc, &g2, LINK_LAYER_ETHERNET, 0, &b);
	ok(!reverse_key_equal(&a, &b), "another traffic class: another key");
	for (uint8_t ecn = 1; ecn <= 3; ecn++) {
		g2 = g1;
		g2.traffic_class = 0x28 | ecn;
		reverse_key_build(&wc, &g2, LINK_LAYER_ETHERNET, 0, &b);
		ok(reverse_key_equal(&a, &b),
		   "RoCE: ECN %u is no part of the key (one AH per DSCP)", ecn);
		is_int(b.traffic_class, 0x28, "RoCE: key holds DSCP only");
	}
	g2 = g1;
	g2.traffic_class = 0x2b;
	reverse_key_build(&wc, &g1, LINK_LAYER_IB, 0, &a);
	reverse_key_build(&wc, &g2, LINK_LAYER_IB, 0, &b);
	ok(!reverse_key_equal(&a, &b), "IB: the whole traffic class keys");
	reverse_key_build(&wc, NULL, LINK_LAYER_IB, 0, &a);
	is_int(a.sl, 3, "IB: wc.sl is the key's SL");
	ok(!a.global, "no GRH: not global");
}

static void test_cache(void)
{
	struct reverse_cache cache;
	struct reverse_key k1 = { .slid = 1 }, k2 = { .slid = 2 };
	struct reverse_key k3 = { .slid = 3 };
	struct reverse_entry *e, *e2;
	struct ibv_ah *evicted, *fake = (struct ibv_ah *)&cache;
	struct ibv_ah_attr attr = { .dlid = 1 };
	struct reverse_parked parked = { .remote_qpn = 17 };
	struct reverse_retired out[4];
	uint64_t now = 1000000000000ull;
	size_t idx;
	uint32_t gen;

	is_int(reverse_cache_init(&cache, 2), 0, "cache of 2");
	ok(reverse_cache_find(&cache, &k1) == NULL, "empty: miss");
	e = reverse_cache_claim(&cache, &k1, 0, &evicted);
	ok(e && e->state == REVERSE_PENDING && !evicted, "claimed: pending");
	idx = reverse_cache_index(&cache, e);
	gen = e->generation;
	for (int i = 0; i < REVERSE_PARK_MAX; i++)
		reverse_entry_park(e, &parked);
	ok(!reverse_entry_park(e, &parked), "parking is bounded");
	ok(reverse_cache_find(&cache, &k1) == e, "pending is found");
	ok(reverse_cache_pending(&cache, idx, gen) == e,
	   "a worker's result finds its entry");

	/* The creation failed: tried again after a back-off that doubles
	 * from 250 ms up to 5 s, by the same entry. */
	reverse_entry_failed(e, 113, false, now);
	e2 = reverse_cache_find(&cache, &k1);
	ok(e2 == e && e2->state == REVERSE_FAILED, "a failed sender is found");
	ok(!reverse_entry_due(e, now + 1), "and not tried again at once");
	ok(reverse_entry_due(e, now + REVERSE_RETRY_FIRST_NS),
	   "but after 250 ms (first contact: the neighbour may answer now)");
	reverse_entry_retry(e);
	ok(e->state == REVERSE_PENDING && e->failures == 1,
	   "retried: pending again, the failure remembered");
	ok(reverse_cache_pending(&cache, idx, gen) == NULL,
	   "a stale result no longer finds the entry");
	reverse_entry_failed(e, 113, false, now);
	ok(!reverse_entry_due(e, now + REVERSE_RETRY_FIRST_NS) &&
		   reverse_entry_due(e, now + 2 * REVERSE_RETRY_FIRST_NS),
	   "the second failure waits twice as long");
	is_int(reverse_backoff_ns(1) / 1000000, 250, "back-off 1: 250 ms");
	is_int(reverse_backoff_ns(3) / 1000000, 1000, "back-off 3: 1 s");
	is_int(reverse_backoff_ns(50) / 1000000, 5000, "at most 5 s");
	reverse_entry_retry(e);
	gen = e->generation;
	ok(reverse_cache_ready(&cache, idx, gen) == NULL,
	   "pending: not ready for a stamps message");
	reverse_entry_ready(e, fake, &attr);
	is_int(e->failures, 0, "a success forgets the failures");
	ok(reverse_cache_ready(&cache, idx, gen) == e,
	   "ready: a stamps message finds its reply's AH");
	ok(reverse_cache_ready(&cache, idx, gen + 1) == NULL,
	   "another generation (the slot reused): not found");
	reverse_entry_forget(e);
	ok(reverse_cache_ready(&cache, idx, gen) == NULL,
	   "forgotten: no AH to send on");
	ok(reverse_cache_find(&cache, &k1) == NULL, "forgotten: a miss");

	/* Eviction: never an AH with a send in flight. */
	e = reverse_cache_claim(&cache, &k1, 0, &evicted);
	reverse_entry_ready(e, fake, &attr);
	e->last_send = 10;
	e2 = reverse_cache_claim(&cache, &k2, 0, &evicted);
	reverse_entry_ready(e2, fake, &attr);
	e2->last_send = 10;
	ok(reverse_cache_claim(&cache, &k3, 9, &evicted) == NULL,
	   "every AH has sends in flight: no slot, nothing destroyed");
	e2->last_send = 9;
	e = reverse_cache_claim(&cache, &k3, 9, &evicted);
	ok(e && evicted == fake, "the AH whose sends completed is evicted "
	   "and handed back for destroying");
	reverse_entry_failed(e, 113, false, now);
	e = reverse_cache_claim(&cache, &k2, 0, &evicted);
	ok(e && !evicted && e->key.slid == 2,
	   "a failed entry goes before a ready one");
	is_int(reverse_cache_drop_ready(&cache, out, 4), 1,
	   "a port change takes the ready AH out");
	is_int(out[0].last_send, 10, "with the sends it must wait for");
	ok(reverse_cache_find(&cache, &k2) == e,
	   "a pending entry survives the drop (its result is discarded "
	   "by epoch)");
	reverse_cache_free(&cache);
}

/* The age bound and the neighbour watch of reply AHs: a RoCE AH keeps
 * the MAC it was made with (mlx5_create_ah), so it is made again when
 * old or when its next hop moves. */
static void test_refresh(void)
{
	static const uint8_t gw[16] = { [10] = 0xff, [11] = 0xff, [12] = 10,
					[13] = 0, [14] = 1, [15] = 1 };
	static const uint8_t other[16] = { [10] = 0xff, [11] = 0xff,
					   [12] = 10, [13] = 0, [14] = 1,
					   [15] = 9 };
	static const uint8_t mac_a[6] = { 2, 0, 0, 0, 0, 0xa };
	static const uint8_t mac_b[6] = { 2, 0, 0, 0, 0, 0xb };
	struct reverse_cache cache;
	struct reverse_key k1 = { .slid = 1 }, k2 = { .slid = 2 };
	struct reverse_entry *e, *e2;
	struct ibv_ah *evicted, *fake = (struct ibv_ah *)&cache;
	struct ibv_ah_attr attr = { .dlid = 1 };
	struct neigh_change c = { .state = NUD_REACHABLE, .lladdr_len = 6 };
	uint64_t s = 1000000000ull, now = 1000 * s, age = 30 * s;

	reverse_cache_init(&cache, 4);
	e = reverse_cache_claim(&cache, &k1, 0, &evicted);
	ok(!reverse_entry_refresh_due(e, now + age, age),
	   "pending: nothing to make again");
	reverse_entry_ready(e, fake, &attr);
	e->made_ns = now;
	e->next_hop_known = true;
	memcpy(e->next_hop, gw, 16);
	e2 = reverse_cache_claim(&cache, &k2, 0, &evicted);
	reverse_entry_ready(e2, fake, &attr);
	e2->made_ns = now;
	e2->next_hop_known = true;
	memcpy(e2->next_hop, other, 16);

	ok(!reverse_entry_refresh_due(e, now + age - 1, age), "younger: no");
	ok(reverse_entry_refresh_due(e, now + age, age), "at the bound: due");
	ok(!reverse_entry_refresh_due(e, now + 1000 * age, 0), "no bound: no");
	e->refreshing = true;
	ok(!reverse_entry_refresh_due(e, now + age, age),
	   "a successor being made: not twice");
	e->refreshing = false;

	/* The first MAC told for a next hop is not known to be the AH's. */
	memcpy(c.addr, gw, 16);
	memcpy(c.lladdr, mac_a, 6);
	is_int(reverse_cache_neigh_changed(&cache, &c), 1,
	       "first word of the gateway: its AH marked");
	ok(e->moved && !e2->moved, "only the AH through that gateway");
	ok(reverse_entry_refresh_due(e, now + 1, age), "moved: due at once");
	e->moved = false;
	c.state = NUD_STALE;
	is_int(reverse_cache_neigh_changed(&cache, &c), 0,
	       "reachable to stale, same MAC: nothing");
	memcpy(c.lladdr, mac_b, 6);
	c.state = NUD_REACHABLE;
	is_int(reverse_cache_neigh_changed(&cache, &c), 1,
	       "failover: another MAC for the gateway");
	ok(e->moved && memcmp(e->next_hop_mac, mac_b, 6) == 0,
	   "marked, the new MAC remembered");
	e->moved = false;
	c.deleted = true;
	c.lladdr_len = 0;
	is_int(reverse_cache_neigh_changed(&cache, &c), 1, "deleted: marked");
	is_int(e->next_hop_mac_len, 0, "its MAC no longer known");
	e->moved = false;
	e->next_hop_known = false;
	is_int(reverse_cache_neigh_changed(&cache, &c), 0,
	   "an AH whose next hop is not known is left to the age bound");
	is_int(reverse_cache_all_moved(&cache), 2,
	       "events lost: every ready AH marked");

	/* What a successor's result does. */
	e->refreshing = true;
	is_int(ah_refresh_fate_of(e, 3, 3, true), AH_REFRESH_SWAP,
	       "made: swapped in");
	is_int(ah_refresh_fate_of(e, 3, 3, false), AH_REFRESH_KEEP_OLD,
	       "not made: the old one goes on");
	is_int(ah_refresh_fate_of(e, 2, 3, true), AH_REFRESH_STALE,
	       "the port changed meanwhile: discarded");
	is_int(ah_refresh_fate_of(NULL, 3, 3, true), AH_REFRESH_STALE,
	       "the entry was reused: discarded");
	e->refreshing = false;
	is_int(ah_refresh_fate_of(e, 3, 3, true), AH_REFRESH_STALE,
	       "an entry not waiting for one: discarded");
	reverse_cache_free(&cache);
}

/* The hop limit a reply leaves with: what the prober subtracts from.
 * The rules per provider come from provider_hop_limit_rule; here, what
 * each means for the reply. */
static void test_hop_limit_sent(void)
{
	struct reverse_hop_limit_input in = {
		.rule = HOP_LIMIT_RULE_AH, .is_global = true,
		.ah_hop_limit = REVERSE_HOP_LIMIT, .route_known = true,
		.route_hop_limit = 64,
	};
	uint8_t sent = 0;

	ok(reverse_hop_limit_sent(&in, &sent) && sent == 255,
	   "mlx5-like (AV in user space): the AH's 255 leaves");
	in.rule = HOP_LIMIT_RULE_ROUTE;
	ok(reverse_hop_limit_sent(&in, &sent) && sent == 64,
	   "rxe-like (kernel AH): the route's 64 leaves, not the AH's 255");
	in.route_known = false;
	ok(!reverse_hop_limit_sent(&in, &sent),
	   "kernel AH, route not found: unknown");
	in.route_known = true;
	in.rule = HOP_LIMIT_RULE_UNKNOWN;
	ok(!reverse_hop_limit_sent(&in, &sent),
	   "unknown provider: either may leave, so unknown");
	in.rule = HOP_LIMIT_RULE_AH;
	in.is_global = false;
	ok(!reverse_hop_limit_sent(&in, &sent),
	   "no GRH on the reply (IB in the subnet): no hop limit at all");
}

int main(void)
{
	test_finish();
	test_key();
	test_cache();
	test_refresh();
	test_hop_limit_sent();
	return tap_done();
}
