/* A modelled RoCE fabric's probe results, traces and ground truth, for
 * the localisation benchmark (tests/bench/localise): per host the JSON
 * Lines probe --jsonl writes and the document trace -j writes, in their
 * schemas (lib/probe/probe_print.c, lib/trace/roce_trace_print.c), and
 * truth.json naming the faulty elements as report names them.
 * Deterministic: the same arguments give the same bytes.
 *
 *   fabric_model [OPTIONS] OUTDIR
 *
 * --shape clos|rail    3-tier Clos (default), or rail-optimized (4 NICs
 *                      a host, NIC r on rail ToR r, same-rail probing)
 * --hosts N            64 (default), 512, 2048 or a multiple of a rack
 * --seed N             scenario seed (default 1)
 * --fault KIND         lossy_link, dead_link, router_drop, router_remark,
 *                      dead_host, lossy_nic; at most twice; none: no fault
 * --background RATE    loss per element and datagram (default 0.001)
 * --silent SHARE       routers that never send ICMP (default 0.05)
 * --limited SHARE      routers answering 30% of queries (default 0.1)
 * --dests N            destinations per NIC (default 16, as plan's K)
 * --labels N           flow labels per destination (default 2)
 * --count N            probes per result (default 20)
 * --trace-share P      passing flows traced besides every failing one
 *                      (default 0.05)
 *
 * Files (OUTDIR made when missing): OUTDIR/HOST.probe.jsonl, OUTDIR/HOST.trace.json (none for a
 * dead host: it writes nothing), OUTDIR/truth.json:
 *   {"schema": "ibahprobe.fabric_truth.v1", "seed", "shape", "hosts",
 *    "nics", "routers", "background", "faults": [{"kind" (as --fault),
 *    "rate" (loss, 1 dead, 0 remark), "element" (link, router, host, nic),
 *    "name" (as report names it: "A -> B" in the lossy direction, a
 *    router's address, a host's name, "HOST DEVICE"), "names" (every
 *    form a suspect may take: a link both ways, a router's name, a
 *    host's NIC addresses, a NIC's host and access link), and "routers"
 *    (a link's ends by name) or "silent" (a router's ICMP) and
 *    "neighbours" (the addresses of the routers linked to it) and
 *    "hosts" (of a ToR, the addresses of the NICs behind it)}]}
 * Exit status: 0; 2 on bad arguments; 1 when OUTDIR cannot be written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fabric/fabric.h"
#include "out/probe_schema.h"
#include "trace/tclass_locate.h"

#define PROBE_TCLASS 0x68	/* DSCP 26, RoCE's usual class */

struct options {
	enum fabric_shape shape;
	unsigned hosts, dests, labels, count;
	unsigned long long seed;
	double background, silent, limited, trace_share;
	size_t fault_count;
	enum fault_kind faults[FABRIC_MAX_FAULTS];
	const char *outdir;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: fabric_model [--shape clos|rail] [--hosts N] [--seed N] "
		"[--fault KIND]... [--background RATE] [--silent SHARE] "
		"[--limited SHARE] [--dests N] [--labels N] [--count N] "
		"[--trace-share P] OUTDIR\n");
	exit(2);
}

static double share_arg(const char *opt, const char *text)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || v < 0 || v > 1) {
		fprintf(stderr, "fabric_model: %s %s: a share 0..1 expected\n",
			opt, text);
		exit(2);
	}
	return v;
}

static unsigned long long count_arg(const char *opt, const char *text,
				    unsigned long long max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text || *end || *text == '-' || v == 0 || v > max) {
		fprintf(stderr, "fabric_model: %s %s: 1..%llu expected\n", opt,
			text, max);
		exit(2);
	}
	return v;
}

static void parse(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .hosts = 64, .dests = 16, .labels = 2,
			       .count = 20, .seed = 1, .background = 0.001,
			       .silent = 0.05, .limited = 0.1,
			       .trace_share = 0.05 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (a[0] != '-') {
			if (o->outdir)
				usage();
			o->outdir = a;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (strcmp(a, "--shape") == 0) {
			if (strcmp(v, "clos") == 0)
				o->shape = FABRIC_CLOS;
			else if (strcmp(v, "rail") == 0)
				o->shape = FABRIC_RAIL;
			else
				usage();
		} else if (strcmp(a, "--hosts") == 0) {
			o->hosts = (unsigned)count_arg(a, v, 65536);
		} else if (strcmp(a, "--seed") == 0) {
			o->seed = count_arg(a, v, ~0ULL);
		} else if (strcmp(a, "--fault") == 0) {
			if (strcmp(v, "none") == 0)
				continue;
			if (o->fault_count == FABRIC_MAX_FAULTS ||
			    fault_kind_parse(v, &o->faults[o->fault_count])) {
				fprintf(stderr, "fabric_model: --fault %s: "
					"unknown or a third fault\n", v);
				exit(2);
			}
			o->fault_count++;
		} else if (strcmp(a, "--background") == 0) {
			o->background = share_arg(a, v);
		} else if (strcmp(a, "--silent") == 0) {
			o->silent = share_arg(a, v);
		} else if (strcmp(a, "--limited") == 0) {
			o->limited = share_arg(a, v);
		} else if (strcmp(a, "--trace-share") == 0) {
			o->trace_share = share_arg(a, v);
		} else if (strcmp(a, "--dests") == 0) {
			o->dests = (unsigned)count_arg(a, v, 4096);
		} else if (strcmp(a, "--labels") == 0) {
			o->labels = (unsigned)count_arg(a, v, 64);
		} else if (strcmp(a, "--count") == 0) {
			o->count = (unsigned)count_arg(a, v, 100000);
		} else {
			usage();
		}
	}
	if (!o->outdir)
		usage();
}

/* ---- probe --jsonl records (lib/probe/probe_print.c) ---- */

struct run {
	char id[40];
	unsigned nic;
	unsigned results, reachable, partial, unreachable;
	unsigned probes;
};

static const char *const start_time = "2026-11-26T04:00:00Z";

static void run_head(FILE *o, const struct options *opt, const struct run *run,
		     const char *record)
{
	fprintf(o, "{\"" PROBE_KEY_SCHEMA "\":\"" PROBE_SCHEMA "\",\""
		   PROBE_KEY_RUN_ID "\":\"%s\",\"" PROBE_KEY_START_TIME
		   "\":\"%s\",\"" PROBE_KEY_RECORD "\":\"%s\",\""
		   PROBE_KEY_RUN_PARAMS "\":{\"count\":%u,\"continuous\":false,"
		   "\"interval_ms\":10,\"size\":64,\"window\":16,"
		   "\"timeout_ms\":1000,\"gid_index\":\"auto\",\"hop_limits\":"
		   "null,\"traffic_classes\":[%u],\"flow_labels\":null,"
		   "\"flow_label_source\":\"default\",\"sls\":null}", run->id, start_time, record, opt->count,
		PROBE_TCLASS);
}

static void source(FILE *o, const struct fabric *f, unsigned nic, bool sgid)
{
	const struct fabric_nic *n = &f->nics[nic];

	fprintf(o, ",\"" PROBE_KEY_SOURCE "\":{\"" PROBE_KEY_HOST
		   "\":\"h%04u\",\"" PROBE_KEY_DEVICE "\":\"mlx5_%u\",\""
		   PROBE_KEY_PORT_NUM "\":1,\"" PROBE_KEY_PROVIDER
		   "\":\"mlx5\",\"" PROBE_KEY_LID "\":0,\"" PROBE_KEY_SGID "\":",
		n->host, n->rail);
	if (sgid)
		fprintf(o, "\"::ffff:%s\"", n->addr);
	else
		fputs("null", o);
	fputs(",\"device_note\":null}", o);
}

static void rtt(FILE *o, const char *key, double base)
{
	fprintf(o, ",\"%s\":{\"min\":%.1f,\"" PROBE_KEY_RTT_MEDIAN "\":%.1f,"
		   "\"p99\":%.1f,\"" PROBE_KEY_RTT_MAX "\":%.1f}", key, base,
		base + 1.0, base + 4.0, base + 5.0);
}

static size_t router_count(size_t path_len)
{
	return path_len - 2;
}

static void ah(FILE *o, const char *key, const char *dgid, uint32_t label,
	      uint8_t tclass)
{
	fprintf(o, ",\"%s\":{\"is_global\":1,\"dlid\":0,\"sl\":0,"
		   "\"src_path_bits\":0,\"static_rate\":0,\"port_num\":1,"
		   "\"grh\":{\"dgid\":\"::ffff:%s\",\"flow_label\":%u,"
		   "\"sgid_index\":3,\"hop_limit\":%d,\"traffic_class\":%u}}",
		key, dgid, label, FABRIC_TTL, tclass);
}

static void result(FILE *o, const struct options *opt, const struct fabric *f,
		   struct run *run, const struct fabric_result *r)
{
	const char *dst = f->nics[r->dst].addr;
	bool heard = r->received > 0;
	bool remarked = heard && (r->seen_tclass & 0xfc) != (r->tclass & 0xfc);
	const char *status = r->received == r->sent ? PROBE_STATUS_NAME_REACHABLE
			     : heard ? PROBE_STATUS_NAME_PARTIAL
				     : PROBE_STATUS_NAME_UNREACHABLE;
	/* The responder's count comes back with a reply: none, unknown. */
	const char *direction = !heard ? "unknown"
				: !r->lost_there && !r->lost_back ? "none"
				: r->lost_there && r->lost_back ? "both"
				: r->lost_there ? "there" : "back";
	double base = 4.0 + 1.5 * (double)router_count(r->path_len);

	run->results++;
	run->probes += r->sent;
	if (r->received == r->sent)
		run->reachable++;
	else if (heard)
		run->partial++;
	else
		run->unreachable++;
	run_head(o, opt, run, PROBE_RECORD_RESULT);
	fprintf(o, ",\"" PROBE_KEY_DEST "\":\"%s\"", dst);
	source(o, f, r->src, true);
	fprintf(o, ",\"" PROBE_KEY_PARAMS "\":{\"" PROBE_KEY_HOP_LIMIT "\":%d,\""
		   PROBE_KEY_TRAFFIC_CLASS "\":%u,\"" PROBE_KEY_FLOW_LABEL
		   "\":%u,\"" PROBE_KEY_UDP_SPORT "\":%u,\""
		   PROBE_KEY_WIRE_UDP_SPORT "\":%u,\"" PROBE_KEY_SL "\":0},\""
		   PROBE_KEY_INTERRUPTED "\":false",
		FABRIC_TTL, r->tclass, r->flow_label, r->sport, r->sport);
	fprintf(o, ",\"" PROBE_KEY_STATUS "\":\"%s\",\"" PROBE_KEY_SENT
		   "\":%u,\"" PROBE_KEY_RECEIVED "\":%u,\"lost\":%u,\"late\":0,"
		   "\"duplicates\":0", status, r->sent, r->received,
		r->sent - r->received);
	if (heard) {
		rtt(o, PROBE_KEY_RTT, base);
		rtt(o, PROBE_KEY_NETWORK_RTT, base - 1.0);
		fputs(",\"" PROBE_KEY_RESPONDER_US "\":{\"" PROBE_KEY_RTT_MEDIAN
		      "\":1.0,\"" PROBE_KEY_RTT_MAX "\":2.0,"
		      "\"reply_ah_wait_max\":0.0},\"" PROBE_KEY_STAMPS
		      "\":\"sw-event\"", o);
		fprintf(o, ",\"" PROBE_KEY_OBSERVED "\":{\"grh_present\":true,\""
			   PROBE_KEY_HOP_LIMIT "\":%zu,\"" PROBE_KEY_TRAFFIC_CLASS
			   "\":%u,\"" PROBE_KEY_FLOW_LABEL "\":%u,\""
			   PROBE_KEY_SGID "\":\"::ffff:%s\",\"" PROBE_KEY_DGID
			   "\":\"::ffff:%s\",\"ip_version\":4,\"" PROBE_KEY_SL
			   "\":null,\"slid\":0,\"src_qp\":17,\"pkey_index\":0}",
			FABRIC_TTL - router_count(r->path_len), r->seen_tclass,
			r->flow_label, f->nics[r->src].addr, dst);
	} else {
		fputs(",\"" PROBE_KEY_RTT "\":null,\"" PROBE_KEY_NETWORK_RTT
		      "\":null,\"" PROBE_KEY_RESPONDER_US "\":null,\""
		      PROBE_KEY_STAMPS "\":null,\"" PROBE_KEY_OBSERVED "\":null",
		      o);
	}
	fprintf(o, ",\"hop_limit_sent\":%d,\"hop_limit_source\":\"ah\","
		   "\"hop_limit_rule\":\"mlx5 sends the AH's hop limit\"",
		FABRIC_TTL);
	if (heard)
		fprintf(o, ",\"" PROBE_KEY_HOPS "\":%zu,\"hops_back\":%zu",
			router_count(r->path_len), router_count(r->back_len));
	else
		fputs(",\"" PROBE_KEY_HOPS "\":null,\"hops_back\":null", o);
	fprintf(o, ",\"loss_direction\":\"%s\"", direction);
	if (heard)
		fprintf(o, ",\"responder_received\":%u,\"responder_answered\":%u,"
			   "\"lost_there\":%u,\"lost_back\":%u",
			r->responder_received, r->responder_received,
			r->lost_there, r->lost_back);
	else
		fputs(",\"responder_received\":null,\"responder_answered\":null,"
		      "\"lost_there\":null,\"lost_back\":null", o);
	fputs(",\"ah_create_usec\":40,\"" PROBE_KEY_VERDICTS "\":[", o);
	fprintf(o, "\"%s\"", status);
	if (remarked)
		fputs(",\"" PROBE_VERDICT_TCLASS_REMARKED "\"", o);
	if (heard && r->lost_there)
		fputs(",\"" PROBE_VERDICT_LOST_THERE "\"", o);
	if (heard && r->lost_back)
		fputs(",\"" PROBE_VERDICT_LOST_BACK "\"", o);
	fputs("],\"" PROBE_KEY_FINDINGS "\":[", o);
	if (remarked)
		fprintf(o, "\"traffic class remarked: sent 0x%02x (DSCP %u), "
			   "seen 0x%02x (DSCP %u)\"", r->tclass, r->tclass >> 2,
			r->seen_tclass, r->seen_tclass >> 2);
	fputc(']', o);
	ah(o, PROBE_KEY_AH_ATTR, dst, r->flow_label, r->tclass);
	if (heard)
		ah(o, "reverse_ah", f->nics[r->src].addr, r->flow_label,
		   r->tclass);
	else
		fputs(",\"reverse_ah\":null", o);
	fputs("}\n", o);
}

static void summary(FILE *o, const struct options *opt,
		    const struct fabric *f, const struct run *run)
{
	run_head(o, opt, run, PROBE_RECORD_SUMMARY);
	source(o, f, run->nic, false);
	fprintf(o, ",\"destinations\":%u,\"sets\":%u,\"counts\":{\""
		   PROBE_STATUS_NAME_REACHABLE "\":%u,\"" PROBE_STATUS_NAME_PARTIAL
		   "\":%u,\"" PROBE_STATUS_NAME_UNREACHABLE "\":%u,\""
		   PROBE_STATUS_NAME_ERROR "\":0},\"skipped\":[],"
		   "\"probes_sent\":%u,\"probing_usec\":%u,\""
		   PROBE_KEY_INTERRUPTED "\":false,\"" PROBE_KEY_EXIT_STATUS
		   "\":%d}\n",
		run->results, opt->labels, run->reachable, run->partial,
		run->unreachable, run->probes, run->probes * 10,
		run->reachable == run->results ? 0 : 1);
}

/* ---- trace -j documents (lib/trace/roce_trace_print.c) ---- */

static const char *answer_key(enum fabric_answer k)
{
	return k == FABRIC_RESPONDER ? "responder" : "time_exceeded";
}

static void trace_doc(FILE *o, const struct fabric *f,
		      const struct fabric_result *r, const struct fabric_trace *t,
		      bool first)
{
	const struct fabric_nic *src = &f->nics[r->src];
	struct tclass_seen points[FABRIC_TRACE_MAX_HOPS];
	const char *from[FABRIC_TRACE_MAX_HOPS];
	bool responder[FABRIC_TRACE_MAX_HOPS];
	struct tclass_change c;

	fprintf(o, "%s{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"h%04u\","
		   "\"device\":\"mlx5_%u\",\"sgid\":\"::ffff:%s\","
		   "\"source_address\":\"%s\",\"dest\":\"%s\","
		   "\"dest_address\":\"%s\",\"qpn\":17,\"flow_label\":%u,"
		   "\"udp_sport\":%u,\"flow_label_source\":\"%s\","
		   "\"traffic_class\":%u,\"method\":\"socket\","
		   "\"not_reproduced\":[],\"ip_flow_label\":null,"
		   "\"socket_priority\":3,\"status\":\"%s\",\"error\":null,"
		   "\"hops\":[",
		first ? "" : ",\n", src->host, src->rail, src->addr, src->addr,
		f->nics[r->dst].addr, f->nics[r->dst].addr, r->flow_label,
		r->sport,
		/* trace --failed for a failing flow, -f's list for a sampled
		 * passing one */
		r->received == r->sent ? "file" : "failed", r->tclass, t->reached ? "reached" : "silent");
	for (unsigned h = 0; h < t->hop_count; h++) {
		const struct fabric_hop *hop = &t->hops[h];
		const char *addr = fabric_node_addr(f, hop->from);

		points[h] = (struct tclass_seen){ .known = false };
		from[h] = NULL;
		responder[h] = false;
		fprintf(o, "%s{\"hop_limit\":%u,\"answers\":[", h ? "," : "",
			h + 1);
		for (unsigned q = 0; q < FABRIC_TRACE_QUERIES; q++) {
			enum fabric_answer k = hop->kind[q];

			if (q)
				fputc(',', o);
			if (k == FABRIC_SILENT) {
				fputs("{\"kind\":\"silent\",\"from\":null,"
				      "\"rtt_us\":null}", o);
				continue;
			}
			from[h] = addr;
			points[h] = (struct tclass_seen){
				.known = true, .tclass = hop->seen_tclass };
			responder[h] = k == FABRIC_RESPONDER;
			fprintf(o, "{\"from\":\"%s\",\"kind\":\"%s\","
				   "\"rtt_us\":%u.0,", addr, answer_key(k),
				100 + 10 * h);
			if (k == FABRIC_RESPONDER)
				fprintf(o, "\"reply_ttl\":null,"
					   "\"seen_traffic_class\":%u,"
					   "\"seen_hop_limit\":%d}",
					hop->seen_tclass, hop->seen_hop_limit);
			else
				fprintf(o, "\"reply_ttl\":%d,"
					   "\"seen_traffic_class\":%u}",
					FABRIC_TTL - (int)h - 1,
					hop->seen_tclass);
		}
		fputs("]}", o);
	}
	fputs("],\"per_hop_traffic_class\":true,\"traffic_class_changes\":[",
	      o);
	/* The library's rule of where the class changed, for both fields. */
	for (int field = 0; field < 2; field++) {
		uint8_t mask = field == 0 ? TCLASS_MASK_DSCP : TCLASS_MASK_ECN;
		unsigned shift = field == 0 ? 2 : 0;

		tclass_locate(r->tclass, points, t->hop_count, mask, &c);
		if (!c.changed)
			continue;
		fprintf(o, "{\"field\":\"%s\",\"sent\":%u,\"seen\":%u,"
			   "\"after_hop\":%u,", field == 0 ? "dscp" : "ecn",
			c.sent >> shift, c.seen >> shift,
			(unsigned)(c.after + 1));
		if (c.after >= 0 && from[c.after])
			fprintf(o, "\"after\":\"%s\",", from[c.after]);
		else
			fputs("\"after\":null,", o);
		fprintf(o, "\"before_hop\":%u,\"before\":\"%s\","
			   "\"before_is_responder\":%s}",
			(unsigned)(c.before + 1),
			from[c.before] ? from[c.before] : "?",
			responder[c.before] ? "true" : "false");
	}
	fputs("],\"responder_received\":null,\"path\":[", o);
	for (unsigned h = 0; h < t->hop_count; h++) {
		if (h)
			fputc(',', o);
		if (from[h])
			fprintf(o, "\"%s\"", from[h]);
		else
			fputs("null", o);
	}
	fputs("],\"path_index\":null,\"path_ambiguous\":false}", o);
}

/* ---- ground truth ---- */

static void truth_link(FILE *o, const struct fabric *f, unsigned a, unsigned b)
{
	fprintf(o, "\"element\":\"link\",\"name\":\"%s -> %s\","
		   "\"names\":[\"%s -> %s\",\"%s -> %s\"],\"routers\":[\"%s\","
		   "\"%s\"]", fabric_node_addr(f, a), fabric_node_addr(f, b),
		fabric_node_addr(f, a), fabric_node_addr(f, b),
		fabric_node_addr(f, b), fabric_node_addr(f, a),
		f->routers[a - f->nic_count].name,
		f->routers[b - f->nic_count].name);
}

/* A router's neighbours' addresses: a scorer places a suspect named by
 * where a router that never answers sits ("after A"). */
static void truth_neighbours(FILE *o, const struct fabric *f, unsigned r)
{
	unsigned *next = calloc(f->router_count, sizeof(*next));
	size_t n = next ? fabric_router_neighbours(f, r, next) : 0;

	fputs(",\"neighbours\":[", o);
	for (size_t i = 0; i < n; i++)
		fprintf(o, "%s\"%s\"", i ? "," : "", f->routers[next[i]].addr);
	fputc(']', o);
	free(next);
}

/* The addresses of the NICs behind router r (none unless a ToR). */
static void truth_behind(FILE *o, const struct fabric *f, unsigned r)
{
	bool first = true;

	fputs(",\"hosts\":[", o);
	for (unsigned n = 0; n < f->nic_count; n++) {
		if (f->nics[n].tor != r || r >= f->tors)
			continue;
		fprintf(o, "%s\"%s\"", first ? "" : ",", f->nics[n].addr);
		first = false;
	}
	fputc(']', o);
}

static void truth_host(FILE *o, const struct fabric *f, unsigned host,
		       const char *element)
{
	fprintf(o, "\"element\":\"%s\",\"name\":\"h%04u\",\"names\":[\"h%04u\"",
		element, host, host);
	for (unsigned r = 0; r < f->rails; r++)
		fprintf(o, ",\"%s\"", f->nics[host * f->rails + r].addr);
	fputc(']', o);
}

static int write_truth(const char *path, const struct options *opt,
		       const struct fabric_state *s)
{
	const struct fabric *f = s->fabric;
	FILE *o = fopen(path, "w");

	if (!o)
		return -1;
	fprintf(o, "{\"schema\":\"ibahprobe.fabric_truth.v1\",\"seed\":%llu,"
		   "\"shape\":\"%s\",\"hosts\":%u,\"nics\":%u,\"routers\":%u,"
		   "\"background\":%g,\"faults\":[",
		opt->seed, f->shape == FABRIC_RAIL ? "rail" : "clos", f->hosts,
		f->nic_count, f->router_count, s->background);
	for (size_t i = 0; i < s->fault_count; i++) {
		const struct fault *x = &s->faults[i];

		fprintf(o, "%s{\"kind\":\"%s\",\"rate\":%.3f,", i ? "," : "",
			fault_kind_name(x->kind), x->rate);
		switch (x->kind) {
		case FAULT_LOSSY_LINK:
		case FAULT_DEAD_LINK:
			truth_link(o, f, x->a, x->b);
			break;
		case FAULT_ROUTER_DROP:
		case FAULT_ROUTER_REMARK:
			fprintf(o, "\"element\":\"router\",\"name\":\"%s\","
				   "\"names\":[\"%s\",\"%s\"],\"silent\":%s",
				f->routers[x->a].addr, f->routers[x->a].addr,
				f->routers[x->a].name,
				f->routers[x->a].silent ? "true" : "false");
			truth_neighbours(o, f, x->a);
			truth_behind(o, f, x->a);
			break;
		case FAULT_DEAD_HOST:
			truth_host(o, f, x->a, "host");
			break;
		case FAULT_LOSSY_NIC: {
			const struct fabric_nic *n = &f->nics[x->a];
			const char *tor = f->routers[n->tor].addr;

			fprintf(o, "\"element\":\"nic\",\"name\":\"h%04u "
				   "mlx5_%u\",\"names\":[\"h%04u\",\"%s\","
				   "\"%s -> %s\",\"%s -> %s\"]",
				n->host, n->rail, n->host, n->addr, n->addr, tor,
				tor, n->addr);
			break;
		}
		case FAULT_KIND_COUNT:
			break;
		}
		fputc('}', o);
	}
	fputs("]}\n", o);
	return fclose(o);
}

/* ---- one host's probing and tracing ---- */

static int host_files(const struct options *opt, const struct fabric_state *s,
		      unsigned host, struct fabric_rng *rng)
{
	const struct fabric *f = s->fabric;
	char path[4096];
	FILE *probe, *trace;
	bool first = true;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/h%04u.probe.jsonl", opt->outdir, host);
	probe = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/h%04u.trace.json", opt->outdir, host);
	trace = probe ? fopen(path, "w") : NULL;
	if (!trace) {
		if (probe)
			fclose(probe);
		return -1;
	}
	fputs("[\n", trace);
	for (unsigned rail = 0; rail < f->rails; rail++) {
		struct run run = { .nic = host * f->rails + rail };
		unsigned dests = opt->dests < f->hosts - 1 ? opt->dests
							    : f->hosts - 1;

		snprintf(run.id, sizeof(run.id), "s%llu-h%04u-r%u", opt->seed,
			 host, rail);
		for (unsigned d = 0; d < dests; d++) {
			/* Distinct peers: host + 1 + a spread offset. */
			unsigned peer = (host + 1 + (unsigned)(((unsigned long long)d *
						 (f->hosts - 1)) / dests) +
					 fabric_rng_below(rng, (f->hosts - 1) / dests)) %
					f->hosts;

			if (peer == host)
				peer = (peer + 1) % f->hosts;
			for (unsigned l = 0; l < opt->labels; l++) {
				uint32_t label = 1 + fabric_rng_below(rng, 0xffffe);
				struct fabric_result r;
				struct fabric_trace t;

				fabric_probe(s, run.nic, peer * f->rails + rail,
					     label, PROBE_TCLASS, opt->count, &r,
					     rng);
				result(probe, opt, f, &run, &r);
				/* The admins' policy: every failing flow, a
				 * sample of the passing ones. */
				if (r.received == r.sent &&
				    (r.seen_tclass & 0xfc) == (r.tclass & 0xfc) &&
				    fabric_rng_unit(rng) >= opt->trace_share)
					continue;
				fabric_trace(s, &r, &t, rng);
				trace_doc(trace, f, &r, &t, first);
				first = false;
			}
		}
		summary(probe, opt, f, &run);
	}
	fputs("\n]\n", trace);
	if (fclose(probe))
		rc = -1;
	if (fclose(trace))
		rc = -1;
	return rc;
}

int main(int argc, char **argv)
{
	struct options opt;
	struct fabric f;
	struct fabric_state s;
	struct fabric_rng rng;
	char path[4096];

	parse(argc, argv, &opt);
	rng.state = opt.seed * 0x2545f4914f6cdd1dULL;
	if (fabric_build(&f, opt.shape, opt.hosts, opt.silent, opt.limited,
			 &rng)) {
		fprintf(stderr, "fabric_model: --hosts %u does not fit the "
			"shape (a multiple of %u racks of 8 or 16 hosts)\n",
			opt.hosts, opt.shape == FABRIC_RAIL ? 2 : 4);
		return 2;
	}
	s = (struct fabric_state){ .fabric = &f, .background = opt.background };
	for (size_t i = 0; i < opt.fault_count; i++)
		if (fabric_fault_place(&s, opt.faults[i], &rng)) {
			fprintf(stderr, "fabric_model: no place for fault %s\n",
				fault_kind_name(opt.faults[i]));
			fabric_free(&f);
			return 2;
		}
	snprintf(path, sizeof(path), "%s/truth.json", opt.outdir);
	if ((mkdir(opt.outdir, 0777) && errno != EEXIST) ||
	    write_truth(path, &opt, &s)) {
		fprintf(stderr, "fabric_model: cannot write %s: %s\n", path,
			strerror(errno));
		fabric_free(&f);
		return 1;
	}
	for (unsigned h = 0; h < f.hosts; h++) {
		if (fabric_host_dead(&s, h))
			continue;
		if (host_files(&opt, &s, h, &rng)) {
			fprintf(stderr, "fabric_model: cannot write in %s: %s\n",
				opt.outdir, strerror(errno));
			fabric_free(&f);
			return 1;
		}
	}
	fabric_free(&f);
	return 0;
}
