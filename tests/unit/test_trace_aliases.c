/* Unit tests of trace_aliases_fold: routers that answer traces from the
 * address of each interface folded into one element each, from the
 * traces alone (by one next hop in common where the traces read per
 * interface clearly); routers in parallel, or answering from one
 * address, left as they are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_traces.h"
#include "report/trace_aliases.h"
#include "tap.h"

/* One trace from source src over the hops (the last the responder);
 * remark: the hop after which the traffic class changed, or NULL. */
static void trace(FILE *f, const char *src, const char *const *hops,
		  const char *remark_after, const char *remark_before)
{
	fprintf(f, "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"%s\","
		"\"device\":\"mlx5_0\",\"sgid\":\"::ffff:%s\","
		"\"source_address\":\"%s\",\"dest\":\"d\",\"dest_address\":"
		"\"10.0.9.9\",\"qpn\":17,\"flow_label\":7,\"udp_sport\":49153,"
		"\"traffic_class\":0,\"status\":\"reached\",\"error\":null,"
		"\"hops\":[", src, src, src);
	for (int i = 0; hops[i]; i++)
		fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[{\"from\":\"%s\","
			"\"kind\":\"%s\",\"rtt_us\":1.0}]}", i ? "," : "",
			i + 1, hops[i], hops[i + 1] ? "time_exceeded"
						    : "responder");
	fprintf(f, "],\"traffic_class_changes\":[");
	if (remark_after)
		fprintf(f, "{\"after\":\"%s\",\"before\":\"%s\",\"sent\":0,"
			"\"seen\":32}", remark_after, remark_before);
	fprintf(f, "]}\n");
}

struct world {
	struct report_traces t;
	struct trace_aliases a;
};

/* The traces written by add folded; 0, or -1 with the error printed. */
static int fold(struct world *w, void (*add)(FILE *))
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	add(f);
	fclose(f);
	memset(w, 0, sizeof(*w));
	rc = report_traces_read_buffer(&w->t, "traces", buf, len, err,
				       sizeof(err));
	if (rc)
		printf("# %s\n", err);
	else if ((rc = trace_aliases_fold(&w->t, &w->a)))
		printf("# out of memory\n");
	free(buf);
	return rc;
}

static size_t find(const struct report_traces *t, enum report_path_kind kind,
		   const char *name)
{
	return report_traces_element_find(t, kind, name);
}

static bool has_alias(const struct report_traces *t, size_t e,
		      const char *name)
{
	for (size_t i = 0; e != SIZE_MAX && i < t->elements[e].alias_count; i++)
		if (strcmp(t->elements[e].aliases[i], name) == 0)
			return true;
	return false;
}

/* Leaf L answers hosts 10.0.0.1 and 10.0.0.2 from its interfaces
 * towards them (10.9.0.1, 10.9.0.2), spines S1 and S2 answer from their
 * interfaces towards L (10.9.1.1, 10.9.1.2), the destination's leaf from
 * its interface towards each spine (10.9.2.1, 10.9.2.2); from a third
 * host L answers as 10.9.0.3, twice over each spine. */
static void per_interface(FILE *f)
{
	static const char *const spines[] = { "10.9.1.1", "10.9.1.2" };
	static const char *const last[] = { "10.9.2.1", "10.9.2.2" };

	for (int s = 0; s < 2; s++) {
		trace(f, "10.0.0.1", (const char *[]){ "10.9.0.1", spines[s],
						       last[s], "10.0.9.9",
						       NULL }, NULL, NULL);
		trace(f, "10.0.0.2", (const char *[]){ "10.9.0.2", spines[s],
						       last[s], "10.0.9.9",
						       NULL },
		      s ? NULL : "10.9.0.2", s ? NULL : "10.9.1.1");
		for (int i = 0; i < 2; i++)
			trace(f, "10.0.0.3", (const char *[]){ "10.9.0.3",
							       spines[s],
							       last[s],
							       "10.0.9.9",
							       NULL },
			      NULL, NULL);
	}
}

/* The same, each host over one spine only: one next hop in common is
 * as likely two routers that the spine answers from one address. */
static void one_next_hop(FILE *f)
{
	trace(f, "10.0.0.1", (const char *[]){ "10.9.0.1", "10.9.1.1",
					       "10.0.9.9", NULL }, NULL, NULL);
	trace(f, "10.0.0.2", (const char *[]){ "10.9.0.2", "10.9.1.1",
					       "10.0.9.9", NULL }, NULL, NULL);
}

/* A leaf that drops most of what it forwards, answering each of 18
 * hosts from its interface towards it (10.6.0.1 ...): few traces go on
 * past it, so each two of its addresses share one next hop (10.6.1.N,
 * each a router's interface towards the leaf), no reading disagreeing. */
static void dropping_leaf(FILE *f)
{
	char leaf[18][16], next[18][16], dest[18][16], src[18][16];

	for (int i = 0; i < 18; i++) {
		snprintf(leaf[i], sizeof(leaf[i]), "10.6.0.%d", i + 1);
		snprintf(next[i], sizeof(next[i]), "10.6.1.%d", i + 1);
		snprintf(dest[i], sizeof(dest[i]), "10.0.8.%d", i + 1);
		snprintf(src[i], sizeof(src[i]), "10.0.0.%d", i + 1);
	}
	for (int i = 0; i < 17; i++) {
		trace(f, src[i], (const char *[]){ leaf[i], next[i], dest[i],
						   NULL }, NULL, NULL);
		trace(f, src[i + 1], (const char *[]){ leaf[i + 1], next[i],
						       dest[i], NULL },
		      NULL, NULL);
	}
}

/* Two leaves that each answer a rack of hosts from one address (a LAN,
 * or one address per router), both over two spines: no interface
 * facing one neighbour, and a reading that disagrees. */
static void racks(FILE *f)
{
	static const char *const spines[] = { "10.9.1.1", "10.9.1.2" };
	static const char *const hosts[] = { "10.0.0.1", "10.0.0.2",
					     "10.0.1.1", "10.0.1.2" };

	for (int h = 0; h < 4; h++)
		for (int s = 0; s < 2; s++)
			trace(f, hosts[h], (const char *[]){
				      h < 2 ? "10.9.0.1" : "10.9.0.2",
				      spines[s], "10.0.9.9", NULL },
			      NULL, NULL);
}

static void test_per_interface(void)
{
	struct world w;
	size_t l, link, s;

	ok(fold(&w, per_interface) == 0, "per-interface traces read");
	ok(w.a.routers == 1 && w.a.addresses == 3 &&
	   w.t.folded_routers == 1 && w.t.folded_addresses == 3,
	   "one router under three addresses (%zu, %zu)", w.a.routers,
	   w.a.addresses);
	/* Named by the address most traces show: 10.9.0.3 (four). */
	l = find(&w.t, REPORT_PATH_ROUTER, "10.9.0.3");
	ok(l != SIZE_MAX && w.t.elements[l].alias_count == 2 &&
	   has_alias(&w.t, l, "10.9.0.1") && has_alias(&w.t, l, "10.9.0.2"),
	   "the leaf is 10.9.0.3, also 10.9.0.1 and 10.9.0.2");
	ok(find(&w.t, REPORT_PATH_ROUTER, "10.9.0.1") == SIZE_MAX,
	   "10.9.0.1 is no router of its own");
	link = find(&w.t, REPORT_PATH_LINK, "10.9.0.3 -> 10.9.1.1");
	ok(link != SIZE_MAX && has_alias(&w.t, link, "10.9.0.1 -> 10.9.1.1") &&
	   has_alias(&w.t, link, "10.9.0.2 -> 10.9.1.1"),
	   "one link from the leaf to the spine, its other texts aliases");
	/* Each host's access link keeps the leaf's interface towards it. */
	s = find(&w.t, REPORT_PATH_LINK, "10.0.0.1 -> 10.9.0.1");
	ok(s != SIZE_MAX && strcmp(w.t.elements[s].to, "10.9.0.3") == 0 &&
	   find(&w.t, REPORT_PATH_LINK, "10.0.0.1 -> 10.9.0.3") == s,
	   "an access link keeps its far interface, found by the leaf's name "
	   "too");
	ok(w.t.flows[0].elements[2] == link && w.t.flows[1].elements[2] == link,
	   "both hosts' traces cross that link");
	ok(find(&w.t, REPORT_PATH_LINK, "10.9.0.3 -> 10.9.1.2") != SIZE_MAX &&
	   w.t.element_count == 14,
	   "five routers (the leaf once), three access links, six onward "
	   "(%zu elements)", w.t.element_count);
	ok(w.t.flows[1].remark_after &&
	   strcmp(w.t.flows[1].remark_after, "10.9.0.3") == 0 &&
	   strcmp(w.t.flows[1].remark_before, "10.9.1.1") == 0,
	   "a remark's end under the leaf's name");
	report_traces_free(&w.t);
}

static void test_one_next_hop_when_clear(void)
{
	struct world w = { 0 };
	size_t l;

	ok(fold(&w, dropping_leaf) == 0 && w.a.next_hops == 17 &&
	   w.a.disagreeing == 0,
	   "a dropping leaf's traces read per interface, clearly (%zu of "
	   "%zu disagree)", w.a.disagreeing, w.a.next_hops);
	ok(w.a.routers == 1 && w.a.addresses == 18,
	   "its 18 addresses, each sharing one next hop with another, are "
	   "one router (%zu routers, %zu addresses)", w.a.routers,
	   w.a.addresses);
	/* (two traces show 10.6.0.2 to 10.6.0.17; the first by name) */
	l = find(&w.t, REPORT_PATH_ROUTER, "10.6.0.10");
	ok(l != SIZE_MAX && w.t.elements[l].alias_count == 17 &&
	   has_alias(&w.t, l, "10.6.0.18"),
	   "named by an address two traces show, the others its aliases");
	report_traces_free(&w.t);
}

/* The VM fabric's two branches, R2 answering from one address: R3 and
 * R4 sit before R2 and after R1 alike, routers in parallel. */
static void diamond(FILE *f)
{
	trace(f, "198.18.1.2", (const char *[]){ "198.18.1.1", "198.18.13.3",
						 "198.18.12.2", "198.18.10.4",
						 NULL }, NULL, NULL);
	trace(f, "198.18.1.2", (const char *[]){ "198.18.1.1", "198.18.14.4",
						 "198.18.12.2", "198.18.10.4",
						 NULL }, NULL, NULL);
}

/* Two leaves under two spines, traced both ways: the spines answer
 * from one address each, the leaves follow both spines. */
static void clos_both_ways(FILE *f)
{
	static const char *const spines[] = { "10.8.1.1", "10.8.1.2" };

	for (int s = 0; s < 2; s++) {
		trace(f, "10.0.0.1", (const char *[]){ "10.8.0.1", spines[s],
						       "10.8.0.2", "10.0.0.2",
						       NULL }, NULL, NULL);
		trace(f, "10.0.0.2", (const char *[]){ "10.8.0.2", spines[s],
						       "10.8.0.1", "10.0.0.1",
						       NULL }, NULL, NULL);
	}
}

/* X and Y sit before Z1 and Z2 from different hosts, but one trace
 * shows both: a route visits a router once, so they are two. */
static void on_one_trace(FILE *f)
{
	static const char *const z[] = { "10.7.0.8", "10.7.0.9" };
	static const char *const d[] = { "10.0.9.8", "10.0.9.9" };

	for (int i = 0; i < 2; i++) {
		trace(f, "10.0.0.1", (const char *[]){ "10.7.0.1", z[i],
						       d[i], NULL },
		      NULL, NULL);
		trace(f, "10.0.0.2", (const char *[]){ "10.7.0.2", z[i],
						       d[i], NULL },
		      NULL, NULL);
	}
	trace(f, "10.0.0.1", (const char *[]){ "10.7.0.1", "10.7.0.2",
					       "10.0.8.8", NULL }, NULL, NULL);
}

static void test_left_alone(void)
{
	struct world w;
	int rc;

	ok(fold(&w, diamond) == 0 && w.a.routers == 0 &&
	   w.a.next_hops == 1 && w.a.disagreeing == 1 &&
	   find(&w.t, REPORT_PATH_ROUTER, "198.18.13.3") != SIZE_MAX &&
	   find(&w.t, REPORT_PATH_ROUTER, "198.18.14.4") != SIZE_MAX,
	   "routers in parallel after one router are not folded");
	report_traces_free(&w.t);
	rc = fold(&w, clos_both_ways);
	ok(rc == 0 && w.a.routers == 0 &&
	   w.a.disagreeing == w.a.next_hops && w.a.next_hops > 0 &&
	   w.t.element_count > 0 && w.t.elements[0].alias_count == 0,
	   "leaves of routers answering from one address are not folded "
	   "(%zu of %zu readings disagree)", w.a.disagreeing,
	   w.a.next_hops);
	report_traces_free(&w.t);
	rc = fold(&w, on_one_trace);
	ok(rc == 0 && w.a.routers == 0 &&
	   w.a.next_hops == 2 && w.a.disagreeing == 0 &&
	   find(&w.t, REPORT_PATH_ROUTER, "10.7.0.2") != SIZE_MAX,
	   "two addresses on one trace are two routers (%zu, %zu of %zu)",
	   w.a.routers, w.a.disagreeing, w.a.next_hops);
	report_traces_free(&w.t);
	rc = fold(&w, one_next_hop);
	ok(rc == 0 && w.a.routers == 0 && w.a.next_hops == 1 &&
	   w.a.disagreeing == 0 &&
	   find(&w.t, REPORT_PATH_ROUTER, "10.9.0.2") != SIZE_MAX,
	   "one next hop in common is not enough");
	report_traces_free(&w.t);
	rc = fold(&w, racks);
	ok(rc == 0 && w.a.routers == 0 && w.a.next_hops == 3 &&
	   w.a.disagreeing == 3,
	   "leaves that answer several hosts from one address are not "
	   "folded (%zu of %zu readings disagree)", w.a.disagreeing,
	   w.a.next_hops);
	report_traces_free(&w.t);
}

int main(void)
{
	test_per_interface();
	test_one_next_hop_when_clear();
	test_left_alone();
	return tap_done();
}
