/* Unit test of localisation of a dead ToR uplink whose replies are
 * hashed apart from the requests (asymmetric ECMP): the results whose
 * replies died on it, untraced (the admins trace most failing flows, not
 * every one), explained by the dead link as the traced ones are (their
 * hosts' edge routers, loc_obs edges), not left to name a host's access
 * link that they all cross. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

/* Hosts h0..h7 at 10.0.0.(k+1), two a ToR: T0 10.1.0.1, T1 10.1.0.2 in
 * pod 0, T2 10.1.0.3, T3 10.1.0.4 in pod 1. Each pod has one spine a
 * plane, 10.2.0.(2 * pod + plane + 1); the spines of plane p meet core
 * 10.3.0.(p + 1), and no other. */
#define HOSTS 8

static int pod(int h)
{
	return h / 4;
}

static int tor(int h)
{
	return h / 2;
}

/* The routers of h's datagrams to d over plane plane, as addresses;
 * their count. */
static int route(int h, int d, int plane, char out[5][24])
{
	int n = 0;

	snprintf(out[n++], sizeof out[0], "10.1.0.%d", tor(h) + 1);
	if (tor(h) == tor(d))
		return n;
	snprintf(out[n++], sizeof out[0], "10.2.0.%d", 2 * pod(h) + plane + 1);
	if (pod(h) != pod(d)) {
		snprintf(out[n++], sizeof out[0], "10.3.0.%d", plane + 1);
		snprintf(out[n++], sizeof out[0], "10.2.0.%d", 2 * pod(d) + plane + 1);
	}
	snprintf(out[n++], sizeof out[0], "10.1.0.%d", tor(d) + 1);
	return n;
}

/* A result of h to d with flow label fl: lost datagrams of 20 each way
 * (-1 there: all lost, the direction unknown). */
static void result(FILE *f, int h, int d, int fl, int there, int back)
{
	int lost = there < 0 ? 20 : there + back;

	fprintf(f, "{\"dest\":\"10.0.0.%d\",\"source\":{\"host\":\"h%d\","
		"\"device\":\"mlx5_0\",\"port_num\":1,\"provider\":\"mlx5\","
		"\"lid\":0,\"sgid\":\"::ffff:10.0.0.%d\"},\"params\":"
		"{\"hop_limit\":64,\"traffic_class\":104,\"flow_label\":%d,"
		"\"sl\":null},\"status\":\"%s\",\"sent\":20,\"received\":%d,"
		"\"hops\":3,\"verdicts\":[],\"findings\":[],\"rtt_us\":"
		"{\"median\":40.0,\"max\":50.0},\"ah_attr\":{\"is_global\":1,"
		"\"grh\":{\"dgid\":\"::ffff:10.0.0.%d\"}},"
		"\"loss_direction\":\"%s\",\"lost_there\":%d,"
		"\"lost_back\":%d}\n",
		d + 1, h, h + 1, fl,
		lost == 0 ? "reachable" : lost >= 20 ? "unreachable"
						     : "partial_loss",
		20 - lost, d + 1,
		there < 0 ? "unknown" : lost ? (there && back ? "both" : there ? "there" : "back")
		     : "none",
		there < 0 ? 0 : there, back);
}

/* The trace of that flow, nothing answering from hop index stop on
 * (-1: reached), nor router quiet (NULL: none) anywhere. */
static void trace(FILE *f, int h, int d, int fl, int plane, int stop,
		  const char *quiet)
{
	char r[5][24];
	int n = route(h, d, plane, r);

	fprintf(f, "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"h%d\","
		"\"device\":\"mlx5_0\",\"sgid\":\"::ffff:10.0.0.%d\","
		"\"source_address\":\"10.0.0.%d\",\"dest\":\"10.0.0.%d\","
		"\"dest_address\":\"10.0.0.%d\",\"qpn\":17,\"flow_label\":%d,"
		"\"udp_sport\":1,\"traffic_class\":104,\"status\":\"%s\","
		"\"error\":null,\"hops\":[", h, h + 1, h + 1, d + 1, d + 1, fl,
		stop >= 0 ? "silent" : "reached");
	for (int i = 0; i <= n; i++) {
		bool silent = (stop >= 0 && i >= stop) ||
			      (quiet && i < n && strcmp(r[i], quiet) == 0);

		fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[", i ? "," : "",
			i + 1);
		if (silent)
			fprintf(f, "{\"kind\":\"silent\",\"from\":null,"
				"\"rtt_us\":null}");
		else if (i < n)
			fprintf(f, "{\"from\":\"%s\",\"kind\":\"time_exceeded\","
				"\"rtt_us\":1.0}", r[i]);
		else
			fprintf(f, "{\"from\":\"10.0.0.%d\",\"kind\":"
				"\"responder\",\"rtt_us\":1.0}", d + 1);
		fprintf(f, "]}");
	}
	fprintf(f, "],\"traffic_class_changes\":[]}\n");
}

/* The hop index (0: the first router) from which a datagram of h to d
 * over plane plane dies on the dead link T3 10.1.0.4 - spine 10.2.0.4;
 * -1 when it does not cross it. */
static int dead_at(int h, int d, int plane)
{
	char r[5][24];
	int n = route(h, d, plane, r);

	for (int i = 0; i + 1 < n; i++)
		if ((strcmp(r[i], "10.1.0.4") == 0 &&
		     strcmp(r[i + 1], "10.2.0.4") == 0) ||
		    (strcmp(r[i], "10.2.0.4") == 0 &&
		     strcmp(r[i + 1], "10.1.0.4") == 0))
			return i + 1;
	return -1;
}

/* Every host to every other, flow labels 1 to 8. A request takes plane
 * fl % 2 (T3's hosts' own hash: d % 2, one plane a pair), its reply
 * plane (fl + h + d) % 2. A flow whose request or reply dies loses all
 * it sends, of unknown direction; its trace follows the request. Every
 * flow is traced but the failing ones of T3's hosts (h6, h7) whose
 * requests went through over plane 0: their replies died, no trace
 * says which way they came back, and their pairs' traced flows all
 * took T3's other uplink. */
static int build(struct world *w)
{
	char *rbuf = NULL, *tbuf = NULL;
	size_t rlen = 0, tlen = 0;
	FILE *rf = open_memstream(&rbuf, &rlen), *tf = open_memstream(&tbuf, &tlen);

	for (int h = 0; h < HOSTS; h++)
		for (int d = 0; d < HOSTS; d++)
			for (int fl = 1; h != d && fl <= 8; fl++) {
				int plane = tor(h) == 3 ? d % 2 : fl % 2;
				int stop = dead_at(h, d, plane);
				bool reply_dies = stop < 0 &&
						  dead_at(d, h, (fl + h + d) % 2) >= 0;

				result(rf, h, d, fl,
				       stop >= 0 || reply_dies ? -1 : 0, 0);
				if (reply_dies && tor(h) == 3)
					continue;
				trace(tf, h, d, fl, plane, stop, NULL);
			}
	fclose(rf);
	fclose(tf);
	return world_localise(w, rbuf, rlen, tbuf, tlen);
}

static void test_untraced_replies(void)
{
	struct world w;

	is_int(build(&w), 0, "untraced replies: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "link") == 0 &&
		   (strcmp(w.l.items[0].name, "10.1.0.4 -> 10.2.0.4") == 0 ||
		    strcmp(w.l.items[0].name, "10.2.0.4 -> 10.1.0.4") == 0),
	   "untraced replies: the dead link named first (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	/* (without the untraced results' edges, T3's other uplink
	 * 10.1.0.4 -> 10.2.0.3, which their pairs' traces took, was named
	 * second) */
	is_int(w.l.count, 1,
	       "untraced replies: nothing else named, not T3's other uplink");
	world_free(&w);
}

int main(void)
{
	test_untraced_replies();
	return tap_done();
}
