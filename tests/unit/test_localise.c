/* Unit tests of localisation over made-up results and traces (localise.h):
 * a remarking router named from the traces' traffic class changes (and
 * none from changes no router shares); a dead host whose traces stop at
 * its edge named as the host, with the reason; a dead link seen from both
 * ends named as that link although no trace crosses it; loss_direction,
 * lost_there and lost_back read from the results; nothing named from
 * background loss alone; an edge router that forwards nothing named, not
 * its rack; a lossy edge router named, not its rack, over untraced
 * results too; a lossy link whose far end goes unanswered named once; a
 * dead link into an edge that never answers named as the hop before it,
 * "cannot localise"; a remarking spine that never answers named by the
 * hops around it; a rate-limited spine's skipped answers no suspect; a
 * silent lossy router's hops not filled with its neighbour, which answers
 * every query; traces that stop one hop before a router named for loss
 * its evidence, not a second suspect. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

/* Hosts h0..h7 at 10.0.0.(k+1): h0-h3 behind T1 (10.1.0.1), h4-h7
 * behind T2 (10.1.0.2); the two ToRs reach each other over S1
 * (10.2.0.1) or S2 (10.2.0.2) by flow label parity. */
#define HOSTS 8

static const char *tor(int h)
{
	return h < 4 ? "10.1.0.1" : "10.1.0.2";
}

/* A result of h to d with flow label fl: lost datagrams of 20 each way
 * (-1 there: the direction unknown). */
static void result(FILE *f, int h, int d, int fl, int there, int back)
{
	int lost = there < 0 ? back : there + back;

	fprintf(f, "{\"dest\":\"10.0.0.%d\",\"source\":{\"host\":\"h%d\","
		"\"device\":\"mlx5_0\",\"port_num\":1,\"provider\":\"mlx5\","
		"\"lid\":0,\"sgid\":\"::ffff:10.0.0.%d\"},\"params\":"
		"{\"hop_limit\":64,\"traffic_class\":104,\"flow_label\":%d,"
		"\"sl\":null},\"status\":\"%s\",\"sent\":20,\"received\":%d,"
		"\"hops\":%d,\"verdicts\":[],\"findings\":[],\"rtt_us\":"
		"{\"median\":40.0,\"max\":50.0},\"ah_attr\":{\"is_global\":1,"
		"\"grh\":{\"dgid\":\"::ffff:10.0.0.%d\"}},"
		"\"loss_direction\":\"%s\",\"lost_there\":%s%d,"
		"\"lost_back\":%d}\n",
		d + 1, h, h + 1, fl,
		lost == 0 ? "reachable" : lost >= 20 ? "unreachable"
						     : "partial_loss",
		20 - (lost > 20 ? 20 : lost), (h < 4) == (d < 4) ? 1 : 3, d + 1,
		there < 0 ? "unknown" : lost ? (there && back ? "both" : there ? "there" : "back") : "none",
		"", there < 0 ? 0 : there, back);
}

/* half: a second query of the hop went unanswered (a rate limit). */
static void answer_half(FILE *f, int hop, const char *from, const char *kind,
			bool first, bool half)
{
	fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[", first ? "" : ",", hop);
	if (from)
		fprintf(f, "{\"from\":\"%s\",\"kind\":\"%s\",\"rtt_us\":1.0}%s",
			from, kind, half ? ",{\"kind\":\"silent\",\"from\":null,"
					   "\"rtt_us\":null}" : "");
	else
		fprintf(f, "{\"kind\":\"silent\",\"from\":null,"
			"\"rtt_us\":null}");
	fprintf(f, "]}");
}

/* The trace of that flow; stop: the hop index from which nothing
 * answers (0: none); gap: the one hop index that does not answer (0:
 * none); remark: the change after hop 2 (the spine). */
/* remark: 1 the spine changes the class (seen after hop 2, the spine,
 * before hop 3); 2 a spine that never answers does (seen after hop 1,
 * before hop 3). quiet: the hop indices that never answer, a bit each;
 * those that answer one query of two, a bit each from bit 8. */
static void trace_quiet(FILE *f, int h, int d, int fl, int stop, int gap,
			int remark, unsigned quiet)
{
	const char *spine = fl % 2 ? "10.2.0.1" : "10.2.0.2";
	const char *path[4];
	int n = 0;
	char dest[32];

	snprintf(dest, sizeof(dest), "10.0.0.%d", d + 1);
	path[n++] = tor(h);
	if ((h < 4) != (d < 4)) {
		path[n++] = spine;
		path[n++] = tor(d);
	}
	path[n++] = dest;
	fprintf(f, "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"h%d\","
		"\"device\":\"mlx5_0\",\"sgid\":\"::ffff:10.0.0.%d\","
		"\"source_address\":\"10.0.0.%d\",\"dest\":\"%s\","
		"\"dest_address\":\"%s\",\"qpn\":17,\"flow_label\":%d,"
		"\"udp_sport\":1,\"traffic_class\":104,\"status\":\"%s\","
		"\"error\":null,\"hops\":[", h, h + 1, h + 1, dest, dest, fl,
		stop ? "silent" : "reached");
	for (int i = 0; i < n; i++)
		answer_half(f, i + 1, (stop && i >= stop) || (gap && i == gap) ||
					      (quiet >> i & 1)
					      ? NULL : path[i],
			    i + 1 == n ? "responder" : "time_exceeded", i == 0,
			    quiet >> (8 + i) & 1);
	fprintf(f, "],\"traffic_class_changes\":[");
	if (remark == 2 && n == 4)
		fprintf(f, "{\"field\":\"dscp\",\"sent\":26,\"seen\":0,"
			"\"after_hop\":1,\"after\":\"%s\",\"before_hop\":3,"
			"\"before\":\"%s\"}", path[0], path[2]);
	else if (remark && n == 4)
		fprintf(f, "{\"field\":\"dscp\",\"sent\":26,\"seen\":0,"
			"\"after_hop\":2,\"after\":\"%s\",\"before_hop\":3,"
			"\"before\":\"%s\"}", spine, path[2]);
	fprintf(f, "]}\n");
}

static void trace(FILE *f, int h, int d, int fl, int stop, int gap,
		  bool remark)
{
	trace_quiet(f, h, d, fl, stop, gap, remark, 0);
}

enum fault {
	NONE, REMARK_S1, DEAD_H5, DEAD_LINK, NOISE, EDGE_T2, LOSSY_UP,
	SILENT_T2_DEAD, REMARK_SILENT_S1, POLICY_S2, SILENT_S2,
	LOSSY_T1_UNTRACED, LOSSY_UP_LIMITED, LOSSY_DOWN_TIED, SHADOW_S1,
};

/* Every host to every other, flow labels 1 and 2, every flow traced. */
static int build(struct world *w, enum fault fault)
{
	char *rbuf = NULL, *tbuf = NULL;
	size_t rlen = 0, tlen = 0;
	FILE *rf = open_memstream(&rbuf, &rlen), *tf = open_memstream(&tbuf, &tlen);

	for (int h = 0; h < HOSTS; h++)
		for (int d = 0; d < HOSTS; d++)
			for (int fl = 1; h != d && fl <= 2; fl++) {
				bool cross = (h < 4) != (d < 4);
				int there = 0, back = 0, stop = 0, gap = 0;

				if (fault == DEAD_H5 && h == 5)
					continue;	/* it writes nothing */
				if (fault == DEAD_H5 && d == 5) {
					there = -1;
					back = 20;
					stop = cross ? 3 : 1;
				}
				/* T1 <-> S1 dead both ways: T1's flows over
				 * S1 stop at T1, T2's to T1 at S1. */
				if (fault == DEAD_LINK && cross && fl % 2) {
					there = -1;
					back = 20;
					stop = h < 4 ? 1 : 2;
				}
				if (fault == NOISE && (h * 7 + d * 3 + fl) % 9 == 0)
					back = 1;
				/* T2 answers traces but forwards nothing:
				 * its rack writes no results (it reaches
				 * no peer), every flow into it stops at
				 * it. */
				if (fault == EDGE_T2 && h >= 4) {
					/* (its traces: T2 answers the
					 * first hop, nothing after) */
					trace(tf, h, d, fl, 1, 0, false);
					continue;
				}
				if (fault == EDGE_T2 && d >= 4) {
					there = -1;
					back = 20;
					stop = 3;
				}
				/* T1 -> S1 loses a third of what crosses
				 * it, the trace queries to S1 too: on half
				 * of those flows S1 never answered. */
				if (fault == LOSSY_UP && cross && h < 4 &&
				    fl % 2) {
					there = 7;
					gap = d % 2 ? 1 : 0;
				}
				/* T2 never answers traces, and S1 -> T2 is
				 * dead: T1's flows over S1 stop at S1, and
				 * no trace shows T2's address. */
				if (fault == SILENT_T2_DEAD) {
					unsigned quiet = 0;

					if (h >= 4)
						quiet |= 1;	/* T2 first */
					if (cross && d >= 4)
						quiet |= 4;	/* T2 third */
					if (cross && h < 4 && fl % 2) {
						there = -1;
						back = 20;
						stop = 2;
					}
					result(rf, h, d, fl, there, back);
					trace_quiet(tf, h, d, fl, stop, 0, false,
						    quiet);
					continue;
				}
				/* S2 answers every other trace query
				 * (a rate limit: toward even hosts, on
				 * passing and failing flows alike); h0
				 * loses a quarter of all it sends (its
				 * probes and its replies), h1 and h2 of
				 * their flows to h4 over S2 (whose
				 * traces skip S2). */
				if (fault == POLICY_S2) {
					bool s2 = cross && fl % 2 == 0;

					if (h == 0 ||
					    (s2 && (h == 1 || h == 2) && d == 4))
						there = 5;
					if (d == 0)
						back = 5;
					result(rf, h, d, fl, there, back);
					trace(tf, h, d, fl, 0,
					      s2 && d % 2 == 0 ? 1 : 0, false);
					continue;
				}
				/* S1 never answers traces and rewrites
				 * the DSCP of what it forwards. */
				if (fault == REMARK_SILENT_S1) {
					bool s1 = cross && fl % 2;

					result(rf, h, d, fl, there, back);
					trace_quiet(tf, h, d, fl, 0, 0,
						    s1 ? 2 : 0, s1 ? 2 : 0);
					continue;
				}
				/* T1 -> S1 loses a third of what crosses
				 * it, as in LOSSY_UP, and T1 answers one
				 * query of two (a rate limit), S1 every
				 * one. */
				if (fault == LOSSY_UP_LIMITED) {
					if (cross && h < 4 && fl % 2)
						there = 7;
					result(rf, h, d, fl, there, back);
					trace_quiet(tf, h, d, fl, 0, 0, false,
						    h < 4    ? 1u << 8
						    : d < 4 ? 1u << 10
							     : 0);
					continue;
				}
				/* S1 -> T2 loses a third of what crosses
				 * it: T1 -> S1 carries the same flows (a
				 * tie); on two of them a query to T2 went
				 * unanswered, lost on that link. */
				if (fault == LOSSY_DOWN_TIED) {
					bool over = cross && h < 4 && fl % 2;

					if (over)
						there = 7;
					result(rf, h, d, fl, there, back);
					trace_quiet(tf, h, d, fl, 0, 0, false,
						    over && h == 0 && d < 6
							    ? 1u << 10 : 0);
					continue;
				}
				/* T1 loses a tenth of what it forwards (on
				 * every flow of its rack, the way there);
				 * each host traces one flow, to the next
				 * host; h7 writes no results (seven
				 * sources: too few to take their loss for
				 * noise). */
				if (fault == LOSSY_T1_UNTRACED) {
					if (h == 7)
						continue;
					if (h < 4 || d < 4)
						there = 2;
					result(rf, h, d, fl, there, back);
					if (d == (h + 1) % HOSTS && fl == 1)
						trace(tf, h, d, fl, 0, 0, false);
					continue;
				}
				/* S1 loses half of what crosses it and
				 * answers every trace; h0's queries to S1
				 * were lost too, its traces over S1 stop
				 * at T1. */
				if (fault == SHADOW_S1 && cross && fl % 2) {
					there = 10;
					stop = h == 0 ? 1 : 0;
				}
				/* S2 never answers a trace and loses three
				 * in five of what crosses it: S1, which
				 * answers every query, is the one router
				 * other traces show between the ToRs. */
				if (fault == SILENT_S2 && cross && fl % 2 == 0) {
					there = 12;
					gap = 1;
				}
				result(rf, h, d, fl, there, back);
				trace(tf, h, d, fl, stop, gap,
				      fault == REMARK_S1 && fl % 2);
			}
	fclose(rf);
	fclose(tf);
	return world_localise(w, rbuf, rlen, tbuf, tlen);
}

static void test_loss_direction_read(void)
{
	struct world w;
	size_t unknown = 0, back = 0;

	is_int(build(&w, DEAD_H5), 0, "input: builds");
	for (size_t k = 0; k < w.r.record_count; k++) {
		const struct report_record *rec = w.r.records[k];

		unknown += rec->loss_direction == REPORT_LOSS_UNKNOWN;
		back += rec->loss_direction != REPORT_LOSS_UNKNOWN;
	}
	is_int(unknown, 14, "input: 14 results of unknown direction");
	is_int(back, 84, "input: the other 84 with their direction");
	world_free(&w);
	is_int(build(&w, NOISE), 0, "input: builds (noise)");
	back = 0;
	for (size_t k = 0; k < w.r.record_count; k++) {
		const struct report_record *rec = w.r.records[k];

		back += rec->loss_direction == REPORT_LOSS_BACK &&
			rec->lost_back == 1 && rec->lost_there == 0;
	}
	is_int(back, 13, "input: 13 results lost a reply on the way back");
	world_free(&w);
}

static void test_remark(void)
{
	struct world w;

	is_int(build(&w, REMARK_S1), 0, "remark: builds");
	ok(w.l.count == 1 && w.l.items[0].cause == LOCALISE_REMARK &&
		   strcmp(w.l.items[0].name, "10.2.0.1") == 0,
	   "remark: S1 named, the router every remarked trace shares");
	ok(w.l.count == 1 && w.l.items[0].confidence > 0.99,
	   "remark: confident");
	is_int(w.l.remarked, 32, "remark: 32 remarked traces");
	world_free(&w);
}

static void test_dead_host(void)
{
	struct world w;

	is_int(build(&w, DEAD_H5), 0, "dead host: builds");
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "host") == 0 &&
		   strcmp(w.l.items[0].name, "10.0.0.6") == 0,
	   "dead host: h5's address named first (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	ok(w.l.count >= 1 && w.l.items[0].reason &&
		   strstr(w.l.items[0].reason, "stop after 10.1.0.2, its edge"),
	   "dead host: the reason says where the traces stop (%s)",
	   w.l.count ? w.l.items[0].reason : "");
	is_int(w.l.count, 1, "dead host: nothing else");
	world_free(&w);
}

static void test_dead_link(void)
{
	struct world w;

	is_int(build(&w, DEAD_LINK), 0, "dead link: builds");
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "link") == 0 &&
		   w.l.items[0].cause == LOCALISE_UNSEEN &&
		   (strcmp(w.l.items[0].name, "10.1.0.1 -> 10.2.0.1") == 0 ||
		    strcmp(w.l.items[0].name, "10.2.0.1 -> 10.1.0.1") == 0),
	   "dead link: T1 <-> S1 named though no trace crosses it (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	ok(w.l.count >= 1 && w.l.items[0].reason &&
		   strstr(w.l.items[0].reason, "no trace crosses"),
	   "dead link: the reason says so (%s)",
	   w.l.count ? w.l.items[0].reason : "");
	world_free(&w);
}

static void test_noise_silent(void)
{
	struct world w;

	is_int(build(&w, NOISE), 0, "noise: builds");
	is_int(w.l.count, 0, "noise: a lost reply here and there names nothing");
	ok(w.l.failing > 0, "noise: though %zu results failed", w.l.failing);
	world_free(&w);
}

/* An edge router that answers but forwards nothing (no trace shows a
 * router after it): named itself, not the hosts of its rack, nor "the
 * hop after" it. */
static void test_edge_router(void)
{
	struct world w;

	is_int(build(&w, EDGE_T2), 0, "edge router: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "router") == 0 &&
		   strcmp(w.l.items[0].name, "10.1.0.2") == 0,
	   "edge router: T2 named (%s)", w.l.count ? w.l.items[0].name : "none");
	ok(w.l.count >= 1 && w.l.items[0].reason &&
		   strstr(w.l.items[0].reason, "an edge router"),
	   "edge router: the reason says why");
	is_int(w.l.count, 1, "edge router: its rack's hosts not named");
	world_free(&w);
}

/* A lossy edge router whose rack's flows are mostly untraced (its few
 * traced ones too little evidence): its hosts' results are charged to
 * it too (every trace of a host shows it first or last), so it is
 * named and explains them, its hosts are not. */
static void test_edge_untraced(void)
{
	struct world w;

	is_int(build(&w, LOSSY_T1_UNTRACED), 0, "edge untraced: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "router") == 0 &&
		   strcmp(w.l.items[0].name, "10.1.0.1") == 0,
	   "edge untraced: T1 named (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	ok(w.l.count >= 1 && w.l.items[0].failing == 80,
	   "edge untraced: its evidence every failing result of its rack, "
	   "traced or not (%zu)", w.l.count ? w.l.items[0].failing : 0);
	is_int(w.l.count, 1, "edge untraced: none of its hosts");
	is_int(w.l.explained, w.l.failing,
	       "edge untraced: it explains every failing result, traced or "
	       "not");
	world_free(&w);
}

/* A lossy uplink whose far end sometimes does not answer (its trace
 * queries lost too): one suspect, the link, not its near end (every
 * failing result crosses T1, but leaves it over that link or the hop
 * after it that did not answer, while T1's other links pass). */
static void test_lossy_link_gaps(void)
{
	struct world w;

	is_int(build(&w, LOSSY_UP), 0, "lossy link: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "link") == 0 &&
		   strcmp(w.l.items[0].name, "10.1.0.1 -> 10.2.0.1") == 0,
	   "lossy link: T1 -> S1 named (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	is_int(w.l.count, 1, "lossy link: nothing else (no hop after T1)");
	ok(w.l.count >= 1 && w.l.items[0].failing == 16,
	   "lossy link: both picks' failing results (%zu)",
	   w.l.count ? w.l.items[0].failing : 0);
	world_free(&w);
}

/* The same lossy uplink out of a rate-limited T1: past the uplink the
 * answers rise (T1 answers half its queries, S1 all), which makes a
 * host's link into T1 look likelier by where answers drop; but the fit
 * tells that link apart from the uplink (it carries its host's passing
 * flows too): the uplink named all the same. */
static void test_lossy_link_limited(void)
{
	struct world w;

	is_int(build(&w, LOSSY_UP_LIMITED), 0, "rate-limited: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "link") == 0 &&
		   strcmp(w.l.items[0].name, "10.1.0.1 -> 10.2.0.1") == 0,
	   "rate-limited: T1 -> S1 named (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	world_free(&w);
}

/* Two links of the same failing flows, tied: the one past which the
 * answers drop is named, however little they drop (two queries in 32
 * lost past S1 -> T2, none past T1 -> S1). */
static void test_lossy_link_tied(void)
{
	struct world w;

	is_int(build(&w, LOSSY_DOWN_TIED), 0, "tied: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "link") == 0 &&
		   strcmp(w.l.items[0].name, "10.2.0.1 -> 10.1.0.2") == 0,
	   "tied: S1 -> T2 named (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	ok(w.l.count >= 1 && w.l.items[0].alternative_count == 1 &&
		   strcmp(w.l.items[0].alternatives[0], "10.1.0.1 -> 10.2.0.1") == 0,
	   "tied: T1 -> S1 its alternative");
	world_free(&w);
}

/* A dead link into an edge router that never answers traces: the
 * failing traces stop after the spine, toward hosts whose edge no trace
 * shows. Named as the hop after the spine, "cannot localise", not as
 * a router or link the traces show. */
static void test_silent_edge(void)
{
	struct world w;

	is_int(build(&w, SILENT_T2_DEAD), 0, "silent edge: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "hop") == 0 &&
		   strcmp(w.l.items[0].name, "after 10.2.0.1") == 0,
	   "silent edge: the hop after S1 named (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	ok(w.l.count >= 1 && w.l.items[0].reason &&
		   strstr(w.l.items[0].reason, "cannot localise") &&
		   strstr(w.l.items[0].reason, "edge router answers no trace"),
	   "silent edge: the reason says it cannot localise, and why");
	is_int(w.l.count, 1, "silent edge: nothing else");
	world_free(&w);
}

/* A spine that never answers traces remarks: each remarked trace sees
 * the class change between the two ToRs, which no trace shows next to
 * each other. The ToRs forward many flows unchanged, so neither is
 * named; the hop after the ToR is, with the reason. */
static void test_remark_silent(void)
{
	struct world w;

	is_int(build(&w, REMARK_SILENT_S1), 0, "silent remark: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && w.l.items[0].cause == LOCALISE_REMARK &&
		   strcmp(w.l.items[0].kind, "hop") == 0 &&
		   (strcmp(w.l.items[0].name, "after 10.1.0.1") == 0 ||
		    strcmp(w.l.items[0].name, "after 10.1.0.2") == 0),
	   "silent remark: the hop after a ToR named (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	ok(w.l.count >= 1 && w.l.items[0].reason &&
		   strstr(w.l.items[0].reason, "change between 10.1.0."),
	   "silent remark: the reason names the hops around it");
	ok(w.l.count >= 1 && w.l.items[0].failing == 32,
	   "silent remark: the 32 remarked traces of both ways (%zu)",
	   w.l.count ? w.l.items[0].failing : 0);
	is_int(w.l.count, 1, "silent remark: one suspect for both ways");
	for (size_t k = 0; k < w.l.count; k++)
		ok(strcmp(w.l.items[k].kind, "router") != 0,
		   "silent remark: no router named (%s)", w.l.items[k].name);
	world_free(&w);
}

/* The hop after T1 unanswered on failing flows, and on the passing
 * ones through T1 nearly as often: S2's rate limit, not a fault; no
 * "hop after T1" named, though the fit picks it for h1's and h2's
 * failing flows that skip S2. */
static void test_policy_silence(void)
{
	struct world w;

	is_int(build(&w, POLICY_S2), 0, "rate limit: builds");
	print_suspects(&w.l);
	for (size_t k = 0; k < w.l.count; k++)
		ok(strcmp(w.l.items[k].kind, "hop") != 0,
		   "rate limit: no hop named (%s)", w.l.items[k].name);
	is_int(w.l.count, 1, "rate limit: h0's access link only");
	world_free(&w);
}

/* A silent lossy spine: its flows' hop after the ToR never answers, and
 * S1 (the one router other traces show there) answers every query it
 * gets, so those hops are not S1: neither S1 nor its links named, the
 * unseen hops after the ToRs are. */
static void test_silent_not_neighbour(void)
{
	struct world w;
	bool s1 = false, unseen;

	is_int(build(&w, SILENT_S2), 0, "silent spine: builds");
	print_suspects(&w.l);
	unseen = w.l.count > 0;
	for (size_t k = 0; k < w.l.count; k++) {
		s1 |= strstr(w.l.items[k].name, "10.2.0.1") != NULL;
		unseen &= w.l.items[k].cause == LOCALISE_UNSEEN;
	}
	ok(!s1, "silent spine: S1, which answers all, not named for its "
	   "neighbour's loss");
	ok(unseen, "silent spine: the hops that did not answer named");
	world_free(&w);
}

/* A router named for loss, and the traces that stop one hop before it
 * (its answers lost as the rest): one suspect, not a second one where
 * they stop. */
static void test_shadow_of_named(void)
{
	struct world w;

	is_int(build(&w, SHADOW_S1), 0, "shadow: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "router") == 0 &&
		   strcmp(w.l.items[0].name, "10.2.0.1") == 0,
	   "shadow: S1 named first (%s)", w.l.count ? w.l.items[0].name : "none");
	is_int(w.l.count, 1, "shadow: the stops before it no second suspect");
	ok(w.l.count >= 1 && w.l.items[0].failing >= 32,
	   "shadow: their failing flows S1's evidence (%zu)",
	   w.l.count ? w.l.items[0].failing : 0);
	world_free(&w);
}

int main(void)
{
	test_loss_direction_read();
	test_remark();
	test_dead_host();
	test_dead_link();
	test_noise_silent();
	test_edge_router();
	test_edge_untraced();
	test_lossy_link_gaps();
	test_lossy_link_limited();
	test_lossy_link_tied();
	test_silent_edge();
	test_remark_silent();
	test_policy_silence();
	test_silent_not_neighbour();
	test_shadow_of_named();
	return tap_done();
}
