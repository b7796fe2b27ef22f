/* A made-up two-pod fabric for the localisation's unit tests: eight
 * hosts, two a ToR, one spine a plane per pod, one core a plane; its
 * routes, results and traces as probe -j and trace write them. */
#ifndef IBAHPROBE_LOCALISE_PODS_H
#define IBAHPROBE_LOCALISE_PODS_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Hosts h0..h7 at 10.0.0.(k+1), two a ToR: T0 10.1.0.1, T1 10.1.0.2 in
 * pod 0, T2 10.1.0.3, T3 10.1.0.4 in pod 1. Each pod has one spine a
 * plane, 10.2.0.(2 * pod + plane + 1); the spines of plane p meet core
 * 10.3.0.(p + 1), and no other. */
#define HOSTS 8

static inline int pod(int h)
{
	return h / 4;
}

static inline int tor(int h)
{
	return h / 2;
}

/* The routers of h's datagrams to d over plane plane, as addresses;
 * their count. */
static inline int route(int h, int d, int plane, char out[5][24])
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
static inline void result(FILE *f, int h, int d, int fl, int there, int back)
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
static inline void trace(FILE *f, int h, int d, int fl, int plane, int stop,
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

#endif
