/* A made-up fabric's probe results and traces run through report and its
 * localisation, for the localisation's unit tests: the world a test
 * writes into two memory streams, read and localised, its suspects
 * printed as TAP comments, and freed. */
#ifndef IBAHPROBE_LOCALISE_WORLD_H
#define IBAHPROBE_LOCALISE_WORLD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/localise.h"
#include "report/report_input.h"
#include "report/report_matrix.h"
#include "report/report_traces.h"
#include "report/trace_aliases.h"
#include "tap.h"

struct world {
	struct report r;
	struct report_traces t;
	struct localise l;
	struct trace_aliases aliases;
	char err[512];
};

/* The results rbuf and the traces tbuf (their streams closed) read, the
 * report built and localised, the buffers freed. 0, or -1 with the
 * error printed. */
static inline int world_localise(struct world *w, char *rbuf, size_t rlen,
				 char *tbuf, size_t tlen)
{
	int rc;

	report_init(&w->r);
	memset(&w->t, 0, sizeof(w->t));
	rc = report_read_buffer(&w->r, "probe", rbuf, rlen, NULL, w->err,
				sizeof(w->err)) ||
	     report_build(&w->r, w->err, sizeof(w->err)) ||
	     report_traces_read_buffer(&w->t, "traces", tbuf, tlen, w->err,
				       sizeof(w->err)) ||
	     trace_aliases_fold(&w->t, &w->aliases) ||
	     localise_run(&w->l, &w->r, &w->t);
	if (rc)
		printf("# %s\n", w->err);
	free(rbuf);
	free(tbuf);
	return rc ? -1 : 0;
}

static inline void world_free(struct world *w)
{
	localise_free(&w->l);
	report_traces_free(&w->t);
	report_free(&w->r);
}

static inline void print_suspects(const struct localise *l)
{
	for (size_t k = 0; k < l->count; k++)
		printf("# %zu. %s %s: %s\n", k + 1, l->items[k].kind,
		       l->items[k].name,
		       l->items[k].reason ? l->items[k].reason : "");
}

/* Writes a world: its probe results into results, its traces into
 * traces. */
typedef void world_writer(FILE *results, FILE *traces, const void *arg);

/* The world write writes (given arg) localised into w, checked as
 * "<label>: world built" and its suspects printed as TAP comments. 0,
 * or -1: nothing to free in w. */
static inline int world_make(struct world *w, const char *label,
			     world_writer *write, const void *arg)
{
	char *rbuf = NULL, *tbuf = NULL;
	size_t rlen = 0, tlen = 0;
	FILE *results = open_memstream(&rbuf, &rlen);
	FILE *traces = open_memstream(&tbuf, &tlen);
	int rc = -1;

	if (results && traces) {
		write(results, traces, arg);
		fclose(results);
		fclose(traces);
		results = traces = NULL;
		rc = world_localise(w, rbuf, rlen, tbuf, tlen);
		rbuf = tbuf = NULL;
	}
	if (results)
		fclose(results);
	if (traces)
		fclose(traces);
	free(rbuf);
	free(tbuf);
	ok(rc == 0, "%s: world built", label);
	if (rc == 0)
		print_suspects(&w->l);
	return rc;
}

/* One probe result (mlx5, 20 datagrams each way) of host from address
 * src to address dest with flow label fl, lost_there of its datagrams
 * lost on the way there, hops router hops. */
static inline void world_result(FILE *f, const char *host, const char *src,
				const char *dest, int fl, int lost_there,
				int hops)
{
	fprintf(f, "{\"dest\":\"%s\",\"source\":{\"host\":\"%s\","
		"\"device\":\"mlx5_0\",\"port_num\":1,\"provider\":\"mlx5\","
		"\"lid\":0,\"sgid\":\"::ffff:%s\"},\"params\":"
		"{\"hop_limit\":64,\"traffic_class\":104,\"flow_label\":%d,"
		"\"sl\":null},\"status\":\"%s\",\"sent\":20,\"received\":%d,"
		"\"hops\":%d,\"verdicts\":[],\"findings\":[],\"rtt_us\":"
		"{\"median\":40.0,\"max\":50.0},\"ah_attr\":{\"is_global\":1,"
		"\"grh\":{\"dgid\":\"::ffff:%s\"}},\"loss_direction\":\"%s\","
		"\"lost_there\":%d,\"lost_back\":0}\n",
		dest, host, src, fl,
		lost_there ? "partial_loss" : "reachable", 20 - lost_there,
		hops, dest, lost_there ? "there" : "none", lost_there);
}

/* A trace of that flow, up to its hops (world_hop, then
 * world_trace_end). */
static inline void world_trace_start(FILE *f, const char *host,
				     const char *src, const char *dest, int fl,
				     const char *status)
{
	fprintf(f, "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"%s\","
		"\"device\":\"mlx5_0\",\"sgid\":\"::ffff:%s\","
		"\"source_address\":\"%s\",\"dest\":\"%s\","
		"\"dest_address\":\"%s\",\"qpn\":17,\"flow_label\":%d,"
		"\"udp_sport\":1,\"traffic_class\":104,\"status\":\"%s\","
		"\"error\":null,\"hops\":[", host, src, src, dest, dest, fl,
		status);
}

/* Hop i (1: the first) of a trace: answered from from with kind
 * ("time_exceeded", "responder"), or no answer (from NULL). */
static inline void world_hop(FILE *f, int i, const char *from,
			     const char *kind)
{
	fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[", i > 1 ? "," : "", i);
	if (from)
		fprintf(f, "{\"from\":\"%s\",\"kind\":\"%s\",\"rtt_us\":1.0}",
			from, kind);
	else
		fprintf(f, "{\"kind\":\"silent\",\"from\":null,"
			"\"rtt_us\":null}");
	fprintf(f, "]}");
}

static inline void world_trace_end(FILE *f)
{
	fprintf(f, "],\"traffic_class_changes\":[]}\n");
}

#endif
