/* Unit tests of naming what rewrites the traffic class from the traces'
 * changes (localise_remark.c): hosts a0-a3 behind leaf T1 (10.1.0.1)
 * and b0-b3 behind leaf T2 (10.1.0.2) reach each other over spine S1
 * (10.2.0.1), core C (10.3.0.1) and spine S2 (10.2.0.2), every flow
 * traced, each way.
 *
 * Silent S2 rewrites what it forwards: traces from a see the class
 * change after C and before T2, traces from b after T2 and before C, so
 * C and T2 each see every change, in one role one way and in the other
 * the other way. A router rewrites at one place, so neither is named:
 * the hop between them, which no trace shows, is (one suspect for
 * both ways, the traces whose leaf did not answer either with it).
 *
 * S1 rewrites what it forwards and answers one query in two: the
 * traces where it did not answer see the change between T1 and C,
 * where traces show S1. S1 is named for all of them, and T1 not.
 *
 * Silent T2 rewrites what it forwards: traces from a see the class
 * change between S2 and the destination, traces from b between the
 * tracing host and S2. S2 sees every change, but the edge of b's hosts
 * is named, the hosts its elements. Answering one query in two, T2 is
 * named, with the changes between S2 and b's hosts (or b's hosts and
 * S2) where it did not answer, and those between C and b's hosts where
 * S2 did not answer either (flow label 4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

#define T1 "10.1.0.1"
#define T2 "10.1.0.2"
#define S1 "10.2.0.1"
#define C "10.3.0.1"
#define S2 "10.2.0.2"
#define FLOWS 4		/* per pair */

enum remarker { SILENT_S2, LIMITED_S1, SILENT_T2, LIMITED_T2 };

static void address(int side, int h, char *out, size_t len)
{
	snprintf(out, len, "10.0.%d.%d", side + 1, h + 1);
}

/* The trace from host h of side (0: a, 1: b) to host d of the other,
 * flow label fl; its hops in order (NULL: no answer), then the change:
 * after (NULL: this host) at hop after_hop, before at hop before_hop
 * (NULL: none). */
static void trace(FILE *f, int side, int h, int d, int fl,
		  const char *const hops[5], const char *after, int after_hop,
		  const char *before, int before_hop)
{
	char src[32], host[16], dest[32];

	address(side, h, src, sizeof(src));
	address(!side, d, dest, sizeof(dest));
	snprintf(host, sizeof(host), "%c%d", side ? 'b' : 'a', h);
	world_trace_start(f, host, src, dest, fl, "reached");
	for (int i = 0; i < 5; i++)
		world_hop(f, i + 1, hops[i], "time_exceeded");
	world_hop(f, 6, dest, "responder");
	if (!before) {
		world_trace_end(f);
		return;
	}
	fprintf(f, "],\"traffic_class_changes\":[{\"field\":\"dscp\","
		"\"sent\":26,\"seen\":0,\"after_hop\":%d,", after_hop);
	if (after)
		fprintf(f, "\"after\":\"%s\",", after);
	else
		fprintf(f, "\"after\":null,");
	fprintf(f, "\"before_hop\":%d,\"before\":\"%s\","
		"\"before_is_responder\":false}]}\n", before_hop, before);
}

/* T2 rewrites what it forwards either way and answers flow labels 1 to
 * 3: the change after it. On flow label 4 it does not: the change
 * between S2 and the destination, or this host and S2; from a0 and a1
 * S2 and C (a1) did not answer either. */
static void limited_t2(FILE *tf, int side, int h, int d, int fl)
{
	char dest[32];
	bool quiet = fl == 4;
	const char *last = quiet && h == 0 ? C : quiet && h == 1 ? S1 : S2;
	int last_hop = quiet && h == 0 ? 3 : quiet && h == 1 ? 2 : 4;

	address(!side, d, dest, sizeof(dest));
	if (!side)
		trace(tf, side, h, d, fl,
		      (const char *const[]){ T1, S1, last_hop > 2 ? C : NULL,
					     last_hop > 3 ? S2 : NULL,
					     quiet ? NULL : T2 },
		      quiet ? last : T2, quiet ? last_hop : 5, dest, 6);
	else
		trace(tf, side, h, d, fl,
		      (const char *const[]){ quiet ? NULL : T2, S2, C, S1,
					     T1 },
		      quiet ? NULL : T2, !quiet, S2, 2);
}

static void write_world(FILE *rf, FILE *tf, const void *arg)
{
	enum remarker which = *(const enum remarker *)arg;

	for (int side = 0; side < 2; side++)
		for (int h = 0; h < 4; h++)
			for (int d = 0; d < 4; d++)
				for (int fl = 1; fl <= FLOWS; fl++) {
					char src[32], dest[32], host[16];
					/* (the leaf of b0 answers one query
					 * in two: not these) */
					bool quiet = side && h == 0 && fl == 1;
					bool skip = which == LIMITED_S1 &&
						    fl % 2 == 0;

					address(side, h, src, sizeof(src));
					address(!side, d, dest, sizeof(dest));
					snprintf(host, sizeof(host), "%c%d",
						 side ? 'b' : 'a', h);
					world_result(rf, host, src, dest, fl, 0,
						     5);
					if (which == LIMITED_T2)
						limited_t2(tf, side, h, d, fl);
					else if (which == SILENT_T2 && !side)
						trace(tf, side, h, d, fl,
						      (const char *const[]){
							      T1, S1, C, S2,
							      NULL },
						      S2, 4, dest, 6);
					else if (which == SILENT_T2)
						trace(tf, side, h, d, fl,
						      (const char *const[]){
							      NULL, S2, C, S1,
							      T1 },
						      NULL, 0, S2, 2);
					else if (which == SILENT_S2 && !side)
						trace(tf, side, h, d, fl,
						      (const char *const[]){
							      T1, S1, C, NULL,
							      T2 },
						      C, 3, T2, 5);
					else if (which == SILENT_S2)
						trace(tf, side, h, d, fl,
						      (const char *const[]){
							      quiet ? NULL : T2,
							      NULL, C, S1, T1 },
						      quiet ? NULL : T2,
						      quiet ? 0 : 1, C, 3);
					else if (!side)
						trace(tf, side, h, d, fl,
						      (const char *const[]){
							      T1,
							      skip ? NULL : S1,
							      C, S2, T2 },
						      skip ? T1 : S1,
						      skip ? 1 : 2, C, 3);
					else	/* b to a: S1 rewrites nothing */
						trace(tf, side, h, d, fl,
						      (const char *const[]){
							      T2, S2, C, S1,
							      T1 },
						      NULL, 0, NULL, 0);
				}
}

static void test_silent_remarker(void)
{
	enum remarker which = SILENT_S2;
	const struct localise_suspect *s;
	struct world w;

	if (world_make(&w, "silent S2", write_world, &which))
		return;
	s = w.l.count ? &w.l.items[0] : NULL;
	is_int(w.l.remarked, 2 * 4 * 4 * FLOWS,
	       "silent S2: every trace remarked");
	ok(s && s->cause == LOCALISE_REMARK && strcmp(s->kind, "hop") == 0 &&
		   (strcmp(s->name, "after " C) == 0 ||
		    strcmp(s->name, "after " T2) == 0),
	   "silent S2: the hop between C and T2 named (%s)",
	   s ? s->name : "none");
	is_int(w.l.count, 1, "silent S2: neither C nor T2 named");
	ok(s && s->failing == 2 * 4 * 4 * FLOWS,
	   "silent S2: every remarked trace its evidence, those whose leaf "
	   "did not answer too (%zu)", s ? s->failing : 0);
	world_free(&w);
}

/* World which localised: one suspect, router for remarking, with every
 * one of failing remarked traces its evidence (label: the world's). */
static void one_remarking_router(enum remarker which, const char *label,
				 const char *router, size_t failing)
{
	const struct localise_suspect *s;
	struct world w;

	if (world_make(&w, label, write_world, &which))
		return;
	s = w.l.count ? &w.l.items[0] : NULL;
	ok(s && s->cause == LOCALISE_REMARK &&
		   strcmp(s->kind, "router") == 0 && strcmp(s->name, router) == 0,
	   "%s: %s named (%s)", label, router, s ? s->name : "none");
	is_int(w.l.count, 1, "%s: nothing else named", label);
	ok(s && s->failing == failing,
	   "%s: its remarked traces its evidence, those where it did not "
	   "answer too (%zu of %zu)", label, s ? s->failing : 0, failing);
	world_free(&w);
}

/* S1 named, T1 not. */
static void test_limited_remarker(void)
{
	one_remarking_router(LIMITED_S1, "limited S1", S1, 4 * 4 * FLOWS);
}

static void test_silent_edge(void)
{
	enum remarker which = SILENT_T2;
	const struct localise_suspect *s;
	struct world w;

	if (world_make(&w, "silent T2", write_world, &which))
		return;
	s = w.l.count ? &w.l.items[0] : NULL;
	ok(s && s->cause == LOCALISE_REMARK && strcmp(s->kind, "hop") == 0 &&
		   strcmp(s->name, "edge of 10.0.2.1") == 0,
	   "silent T2: the edge of b's hosts named (%s)",
	   s ? s->name : "none");
	is_int(w.l.count, 1, "silent T2: S2 not named");
	ok(s && s->member_count == 4 && strcmp(s->members[3], "10.0.2.4") == 0,
	   "silent T2: b's four hosts its elements (%zu)",
	   s ? s->member_count : 0);
	ok(s && s->failing == 2 * 4 * 4 * FLOWS,
	   "silent T2: every remarked trace its evidence, both ways (%zu)",
	   s ? s->failing : 0);
	world_free(&w);
}

/* T2 named, no edge of b's hosts beside it. */
static void test_limited_edge(void)
{
	one_remarking_router(LIMITED_T2, "limited T2", T2, 2 * 4 * 4 * FLOWS);
}

int main(void)
{
	test_silent_remarker();
	test_limited_remarker();
	test_silent_edge();
	test_limited_edge();
	return tap_done();
}
