/* A RoCE v2 trace on the page: see roce_trace_print.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/gid.h"
#include "out/output.h"
#include "out/text_layout.h"
#include "trace/roce_trace_print.h"
#include "trace/tclass_locate.h"
#include "wire/roce_packet.h"

static const char *end_key(enum roce_trace_end end)
{
	switch (end) {
	case ROCE_TRACE_REACHED: return "reached";
	case ROCE_TRACE_REFUSED: return "no_roce_listener";
	case ROCE_TRACE_UNREACHABLE: return "unreachable";
	case ROCE_TRACE_MAX_HOPS_END: return "max_hops";
	case ROCE_TRACE_SILENT_END: return "silent";
	case ROCE_TRACE_ANSWERS_LOST: return "answers_lost";
	case ROCE_TRACE_RUNNING: break;
	}
	return "error";
}

/* How a trace that did not reach ended, under its hops; and the
 * responder's count of the silent hops' datagrams (null: not asked, or
 * it did not answer). */
static void print_silent_end(const struct roce_trace *t)
{
	unsigned first = 0, last = 0;
	bool tail = roce_trace_silent_tail(t, &first, &last);

	if (t->responder_count_known)
		out_uint("responder_received", NULL, t->responder_received);
	else
		out_null("responder_received", NULL);
	switch (t->end) {
	case ROCE_TRACE_MAX_HOPS_END:
		out_text("  not reached within %u hops", t->hop_count);
		break;
	case ROCE_TRACE_SILENT_END:
		out_text("  not reached: nothing answered after hop %u "
			 "(stopped there; --max-hops goes further)",
			 t->last_answered_hop);
		break;
	case ROCE_TRACE_ANSWERS_LOST:
		out_text("  reached the responder: it received %u datagrams "
			 "of hops %u-%u; its answers were lost on the way "
			 "back\n", t->responder_received, first, last);
		return;
	default:
		return;
	}
	if (tail && t->responder_count_known)
		out_text(" (the responder received none of hops %u-%u)", first,
			 last);
	out_text("\n");
}

static const char *answer_key(enum roce_answer_kind kind)
{
	switch (kind) {
	case ROCE_ANSWER_TIME_EXCEEDED: return "time_exceeded";
	case ROCE_ANSWER_REPLY: return "responder";
	case ROCE_ANSWER_PORT_UNREACHABLE: return "port_unreachable";
	case ROCE_ANSWER_UNREACHABLE: return "unreachable";
	case ROCE_ANSWER_TOO_BIG: return "too_big";
	}
	return "unknown";
}

/* How the hop that ended the trace answered, after its RTTs: what the
 * responder saw, or why the destination refused. */
static void hop_end_words(const struct roce_answer *final, uint8_t tclass,
			  char *buf, size_t len)
{
	if (final->kind == ROCE_ANSWER_REPLY && final->seen_tclass != tclass)
		snprintf(buf, len, "  responder: tclass 0x%02x remarked on the "
			 "way to 0x%02x, hop limit %d left", tclass,
			 (unsigned)final->seen_tclass, final->seen_hop_limit);
	else if (final->kind == ROCE_ANSWER_REPLY)
		snprintf(buf, len, "  responder: tclass kept, hop limit %d left",
			 final->seen_hop_limit);
	else if (final->kind == ROCE_ANSWER_PORT_UNREACHABLE)
		snprintf(buf, len, "  no RoCE listener (UDP 4791 closed)");
	else if (final->kind == ROCE_ANSWER_TOO_BIG)
		snprintf(buf, len, "  too big (MTU %u)", final->mtu);
	else
		snprintf(buf, len, "  unreachable (ICMP %u/%u)",
			 final->icmp_type, final->icmp_code);
}

/* One hop: "  2  198.18.3.2       0.41 ms  *  0.38 ms". Each address that
 * answered is named once, before its first RTT, as traceroute does. */
static void print_hop(const struct roce_trace_hop *h,
		      const struct tclass_seen *quoted, unsigned queries,
		      uint8_t tclass)
{
	char line[512], prev[46] = "";
	size_t used;
	int other_tclass = -1;	/* a router saw another traffic class */
	const struct roce_answer *final = roce_trace_hop_final(h, queries);

	out_open_object(NULL);
	out_uint("hop_limit", NULL, h->hop_limit);
	used = (size_t)snprintf(line, sizeof(line), "  %2u", h->hop_limit);
	out_open_array("answers");
	for (unsigned q = 0; q < h->sent; q++) {
		const struct roce_answer *a = &h->answers[q];

		if (!h->answered[q]) {
			out_open_object(NULL);
			out_string("kind", NULL, "silent");
			out_null("from", NULL);
			out_null("rtt_us", NULL);
			out_close_object();
			used += (size_t)snprintf(line + used, sizeof(line) - used,
						 "  *");
			continue;
		}
		out_open_object(NULL);
		out_string("from", NULL, a->from);
		out_string("kind", NULL, answer_key(a->kind));
		out_double("rtt_us", NULL, (double)a->rtt_ns / 1000.0);
		if (a->reply_ttl >= 0)
			out_int("reply_ttl", NULL, a->reply_ttl);
		else
			out_null("reply_ttl", NULL);
		if (a->kind == ROCE_ANSWER_UNREACHABLE) {
			out_uint("icmp_type", NULL, a->icmp_type);
			out_uint("icmp_code", NULL, a->icmp_code);
		}
		if (a->kind == ROCE_ANSWER_TOO_BIG)
			out_uint("mtu", NULL, a->mtu);
		if (a->kind == ROCE_ANSWER_REPLY) {
			out_uint("seen_traffic_class", NULL,
				 (unsigned)a->seen_tclass);
			out_uint("seen_hop_limit", NULL,
				 (unsigned)a->seen_hop_limit);
		} else if (quoted[q].known) {
			/* As the answering router received it. */
			out_uint("seen_traffic_class", NULL, quoted[q].tclass);
			if (quoted[q].tclass != tclass)
				other_tclass = quoted[q].tclass;
		} else {
			out_null("seen_traffic_class", NULL);
		}
		out_close_object();
		if (strcmp(prev, a->from) != 0) {
			used += (size_t)snprintf(line + used, sizeof(line) - used,
						 "  %-15s", a->from);
			snprintf(prev, sizeof(prev), "%s", a->from);
		}
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "  %.3f ms", (double)a->rtt_ns / 1e6);
		if (used >= sizeof(line))
			used = sizeof(line) - 1;
	}
	out_close_array();
	out_close_object();
	if (other_tclass >= 0)
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "  saw tclass 0x%02x", other_tclass);
	if (used >= sizeof(line))
		used = sizeof(line) - 1;
	if (final)
		hop_end_words(final, tclass, line + used, sizeof(line) - used);
	out_text("%s\n", line);
}

/* The flow's path as JSON: per hop the address, null where silent. */
static void print_path(const struct roce_flow *f)
{
	out_open_array("path");
	for (size_t h = 0; h < f->path_len; h++)
		if (f->path[h])
			out_element_string(NULL, f->path[h]);
		else
			out_element_null(NULL);
	out_close_array();
	if (f->path_index && f->path_index != TRACE_PATH_AMBIGUOUS)
		out_uint("path_index", NULL, f->path_index);
	else
		out_null("path_index", NULL);
	out_bool("path_ambiguous", NULL,
		 f->path_index == TRACE_PATH_AMBIGUOUS);
}

/* What hop h saw of the traffic class: the responder's GRH, else the
 * first router quote of an answered query; who that was. */
static struct tclass_seen hop_point(const struct roce_trace_hop *h,
				    const struct tclass_seen *quoted,
				    const char **from, bool *responder)
{
	*from = NULL;
	*responder = false;
	for (unsigned q = 0; q < h->sent; q++) {
		const struct roce_answer *a = &h->answers[q];

		if (!h->answered[q])
			continue;
		if (!*from)
			*from = a->from;
		if (a->kind == ROCE_ANSWER_REPLY) {
			*from = a->from;
			*responder = true;
			if (a->seen_tclass >= 0)
				return (struct tclass_seen){
					.known = true,
					.tclass = (uint8_t)a->seen_tclass };
		}
	}
	for (unsigned q = 0; q < h->sent; q++)
		if (h->answered[q] && quoted[q].known)
			return quoted[q];
	return (struct tclass_seen){ .known = false };
}

static const char *ecn_name(unsigned ecn)
{
	static const char *const names[] = { "Not-ECT", "ECT(1)", "ECT(0)",
					      "CE" };

	return names[ecn & 3];
}

/* "hop 2 (198.18.12.2)", "hop 3 (the responder, 198.18.4.4)", "this
 * host" for point -1. */
static void point_name(int point, const char *const *from,
		       const bool *responder, char *buf, size_t len)
{
	if (point < 0)
		snprintf(buf, len, "this host");
	else if (responder[point])
		snprintf(buf, len, "hop %d (the responder, %s)", point + 1,
			 from[point] ? from[point] : "?");
	else
		snprintf(buf, len, "hop %d (%s)", point + 1,
			 from[point] ? from[point] : "*");
}

/* Where the DSCP and the ECN bits changed on the way
 * (lib/trace/tclass_locate.h) from the routers' quotes and the responder's
 * GRH: JSON "traffic_class_changes", a line each in text. */
static void print_tclass_changes(const struct roce_flow *f, uint8_t tclass)
{
	static const struct {
		const char *field, *name;
		uint8_t mask;
		unsigned shift;
	} parts[] = {
		{ "dscp", "DSCP", TCLASS_MASK_DSCP, 2 },
		{ "ecn", "ECN", TCLASS_MASK_ECN, 0 },
	};
	struct tclass_seen points[ROCE_TRACE_MAX_HOPS];
	const char *from[ROCE_TRACE_MAX_HOPS];
	bool responder[ROCE_TRACE_MAX_HOPS];
	unsigned n = f->trace.hop_count;

	for (unsigned i = 0; i < n; i++)
		points[i] = hop_point(&f->trace.hops[i], f->quoted[i], &from[i],
				      &responder[i]);
	out_bool("per_hop_traffic_class", NULL, f->per_hop);
	out_open_array("traffic_class_changes");
	for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
		struct tclass_change c;
		char after[96], before[96], sent[16], seen[16];

		tclass_locate(tclass, points, n, parts[k].mask, &c);
		if (!c.changed)
			continue;
		point_name(c.after, from, responder, after, sizeof(after));
		point_name(c.before, from, responder, before, sizeof(before));
		out_open_object(NULL);
		out_string("field", NULL, parts[k].field);
		out_uint("sent", NULL, c.sent >> parts[k].shift);
		out_uint("seen", NULL, c.seen >> parts[k].shift);
		out_uint("after_hop", NULL, (unsigned)(c.after + 1));
		if (c.after >= 0 && from[c.after])
			out_string("after", NULL, from[c.after]);
		else
			out_null("after", NULL);
		out_uint("before_hop", NULL, (unsigned)(c.before + 1));
		out_string("before", NULL, from[c.before] ? from[c.before] : "?");
		out_bool("before_is_responder", NULL, responder[c.before]);
		out_close_object();
		if (parts[k].mask == TCLASS_MASK_ECN) {
			snprintf(sent, sizeof(sent), "%s", ecn_name(c.sent));
			snprintf(seen, sizeof(seen), "%s", ecn_name(c.seen));
		} else {
			snprintf(sent, sizeof(sent), "%u", c.sent >> 2);
			snprintf(seen, sizeof(seen), "%u", c.seen >> 2);
		}
		out_text("  %s %s became %s between %s and %s%s\n",
			 parts[k].name, sent, seen, after, before,
			 f->per_hop ? ""
				    : " (per hop: needs CAP_NET_RAW)");
	}
	out_close_array();
}

/* Who traced, as probe's results name their source (source.host,
 * source.sgid), so report --traces joins a flow with the probe results of
 * the same host, source GID and destination; null before a GID was
 * chosen (the destination failed first). */
static void print_source(const struct roce_trace_printer *p,
			 const struct roce_flow *f)
{
	const struct gid_info *sgid = f->has_grh ? f->sgid : NULL;
	char text[64];

	out_string("host", NULL, p->host);
	out_string("device", NULL, p->device);
	if (sgid) {
		out_string("sgid", NULL, gid_format(&sgid->gid, text,
						    sizeof(text)));
		out_string("source_address", NULL,
			   gid_format_address(&sgid->gid, text, sizeof(text)));
	} else {
		out_null("sgid", NULL);
		out_null("source_address", NULL);
	}
}

bool roce_trace_label_followed(enum provider p, bool port_given,
			       uint32_t flow_label, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (port_given || flow_label || !provider_sport_follows_flow_label(p))
		return true;
	snprintf(buf, len, "flow label 0: %s sends the probes from a random "
		 "UDP source port, so this trace (port %u) does not show the "
		 "probes' path; give a nonzero --flow-label to both",
		 provider_name(p), roce_flow_label_to_udp_sport(0));
	return false;
}

/* How the flow was traced (JSON always, text with -v) and what of the
 * NIC's packets it could not reproduce (a note line each). A flow that
 * failed before its socket was set up reproduced nothing, claims no gap. */
static void print_fidelity(const struct trace_fidelity *fi, bool failed)
{
	enum trace_gap gaps[TRACE_GAP_COUNT];
	size_t n = failed ? 0 : trace_fidelity_gaps(fi, gaps);
	bool socket = fi->method == TRACE_METHOD_SOCKET;

	out_string("method", NULL, trace_method_key(fi->method));
	out_open_array("not_reproduced");
	for (size_t i = 0; i < n; i++)
		out_element_string(NULL, trace_gap_key(gaps[i]));
	out_close_array();
	if (!failed && socket && fi->flow_label_applies)
		out_uint("ip_flow_label", NULL, fi->flow_label);
	else
		out_null("ip_flow_label", NULL);
	if (!failed && socket && fi->priority >= 0)
		out_uint("socket_priority", NULL, (unsigned)fi->priority);
	else
		out_null("socket_priority", NULL);
	if (diag_verbosity >= 1 && !out_is_json()) {
		if (!socket)
			out_text("  method: nic (UD sends from our QP, the AH's "
				 "hop limit per hop)\n");
		else if (failed)
			out_text("  method: socket (kernel UDP socket)\n");
		else {
			out_text("  method: socket (kernel UDP socket, queue "
				 "priority %d", fi->priority);
			if (fi->flow_label_applies)
				out_text(", IPv6 flow label 0x%05x",
					 fi->flow_label);
			out_text(")\n");
		}
	}
	for (size_t i = 0; i < n; i++)
		if (gaps[i] == TRACE_GAP_FLOW_LABEL)
			out_text("  note: flow label not reproduced: %s\n",
				 fi->flow_label_why);
		else
			out_text("  note: LAG member may differ: %s aggregates "
				 "links; the socket's datagrams take its hash, "
				 "the QP's packets the member the NIC gave the "
				 "QP (trace --nic sends those)\n",
				 fi->lag_netdev);
}

static void print_flow(const struct roce_trace_printer *p,
		       const struct roce_flow *f)
{
	char note[200];
	uint8_t tclass = f->asked.traffic_class;
	char dgid[64];

	out_open_object(NULL);
	out_string("schema", NULL, ROCE_TRACE_SCHEMA);
	print_source(p, f);
	out_string("dest", "%s", f->dest);
	/* What a destination that failed first never told is named as
	 * unknown, not shown as "::" and QPN 0. */
	if (f->dgid_known) {
		gid_format_address(&f->dgid, dgid, sizeof(dgid));
		out_string("dest_address", " (%s", dgid);
	} else {
		out_null("dest_address", NULL);
		out_text(" (address unknown");
	}
	if (f->qpn_known) {
		out_uint("qpn", ", QPN %" PRIu64 ")", f->dest_qpn);
	} else {
		out_null("qpn", NULL);
		out_text(", QPN unknown)");
	}
	if (f->port_given) {
		out_null("flow_label", NULL);
		out_uint("udp_sport", ": UDP source port %" PRIu64,
			 f->udp_sport);
	} else {
		out_uint("flow_label", ": flow label 0x%05" PRIx64,
			 f->flow_label);
		out_uint("udp_sport", " (UDP source port %" PRIu64 ")",
			 f->udp_sport);
	}
	out_string("flow_label_source", NULL,
		   p->flow_label_source ? p->flow_label_source : "default");
	out_uint("traffic_class", ", tclass 0x%02" PRIx64, tclass);
	out_newline();
	if (roce_trace_label_followed(p->provider, f->port_given,
				      f->flow_label, note, sizeof(note)))
		;
	else if (f->fidelity.method == TRACE_METHOD_NIC)
		out_text("  note: flow label 0: %s picks a random UDP source "
			 "port per AH, and --nic makes one AH per hop limit, "
			 "so hops may take different ECMP paths; give a "
			 "nonzero --flow-label\n", provider_name(p->provider));
	else
		out_text("  note: %s\n", note);
	print_fidelity(&f->fidelity, f->error[0] != 0);
	if (f->error[0]) {
		out_string("status", NULL, "error");
		out_string("error", "  %s\n", f->error);
		out_open_array("hops");
		out_close_array();
		out_null("per_hop_traffic_class", NULL);
		out_open_array("traffic_class_changes");
		out_close_array();
		out_null("responder_received", NULL);
	} else {
		out_string("status", NULL, end_key(f->trace.end));
		out_null("error", NULL);
		out_open_array("hops");
		for (unsigned i = 0; i < f->trace.hop_count; i++)
			print_hop(&f->trace.hops[i], f->quoted[i], p->queries,
				  tclass);
		out_close_array();
		print_tclass_changes(f, tclass);
		print_silent_end(&f->trace);
	}
	print_path(f);
	out_close_object();
}

static const char *end_words(enum roce_trace_end end)
{
	switch (end) {
	case ROCE_TRACE_REACHED: return "responder";
	case ROCE_TRACE_REFUSED: return "no RoCE listener";
	case ROCE_TRACE_UNREACHABLE: return "unreachable";
	case ROCE_TRACE_MAX_HOPS_END:
	case ROCE_TRACE_SILENT_END: return "not reached";
	case ROCE_TRACE_ANSWERS_LOST:
		return "responder (its answers lost on the way back)";
	case ROCE_TRACE_RUNNING: break;
	}
	return "error";
}

/* After a destination's flows (text): how many distinct router paths,
 * then per path its routers ("*" where every flow of it was silent), how
 * it ends, and the flow labels that took it, wrapped under 100 columns. */
static void print_paths(const struct roce_flow *flows, size_t n, size_t paths,
			const struct trace_path_flow *pf,
			const unsigned *index, uint32_t *labels)
{
	/* A label list of ROCE_TRACE_MAX_FLOWS scattered labels, wrapped. */
	enum { LIST_MAX = ROCE_TRACE_MAX_FLOWS * 12 + 64 };
	char words[LIST_MAX], text[LIST_MAX + LIST_MAX / 80 * 8];
	size_t traced = 0, untraced = 0, ambiguous = 0;
	const struct roce_flow *failed = NULL;

	for (size_t i = 0; i < n; i++) {
		traced += flows[i].path_index != 0;
		ambiguous += flows[i].path_index == TRACE_PATH_AMBIGUOUS;
		if (!flows[i].path_index) {
			untraced++;
			failed = failed ? failed : &flows[i];
		}
	}
	out_text("%s: %zu distinct path%s over %zu flow%s\n",
		 flows[0].dest, paths,
		 paths == 1 ? "" : "s", traced, traced == 1 ? "" : "s");
	for (unsigned p = 1; p <= paths; p++) {
		const struct roce_flow *first = NULL;
		size_t used = 0, wused = 0, nl = 0, hops, distinct;
		char list[LIST_MAX - 32];

		for (size_t i = 0; i < n; i++)
			if (flows[i].path_index == p) {
				first = first ? first : &flows[i];
				labels[nl++] = flows[i].port_given
						       ? flows[i].udp_sport
						       : flows[i].flow_label;
			}
		if (!first)
			continue;
		hops = first->path_len;
		if (first->trace.end == ROCE_TRACE_REACHED && hops)
			hops--;	/* the last is the responder itself */
		text_append(words, sizeof(words), &wused, "path %u:", p);
		for (size_t h = 0; h < hops; h++) {
			const char *a = trace_paths_address(pf, n, index, p, h);

			text_append(words, sizeof(words), &wused, " %s",
				    a ? a : "*");
		}
		text_append(words, sizeof(words), &wused, " -> %s",
			    end_words(first->trace.end));
		text_wrap_append(text, sizeof(text), &used, words, 2, 10, 99);
		distinct = trace_paths_format_labels(labels, nl, list,
						     sizeof(list));
		wused = 0;
		text_append(words, sizeof(words), &wused, "%s%s %s (%zu)",
			    first->port_given ? "UDP source port" : "flow label",
			    distinct == 1 ? "" : "s", list, distinct);
		text_wrap_append(text, sizeof(text), &used, words, 4, 6, 99);
		out_text("%s", text);
	}
	if (ambiguous) {
		size_t used = 0, wused = 0, nl = 0;
		char list[LIST_MAX - 96];

		for (size_t i = 0; i < n; i++)
			if (flows[i].path_index == TRACE_PATH_AMBIGUOUS)
				labels[nl++] = flows[i].port_given
						       ? flows[i].udp_sport
						       : flows[i].flow_label;
		trace_paths_format_labels(labels, nl, list, sizeof(list));
		text_append(words, sizeof(words), &wused,
			    "ambiguous: %zu flow%s whose silent hops fit more "
			    "than one path, counted for none: %s%s %s",
			    ambiguous, ambiguous == 1 ? "" : "s",
			    flows[0].port_given ? "UDP source port"
						: "flow label",
			    nl == 1 ? "" : "s", list);
		text_wrap_append(text, sizeof(text), &used, words, 2, 4, 99);
		out_text("%s", text);
	}
	if (untraced)
		out_text("  %zu flow%s not traced: %s\n", untraced,
			 untraced == 1 ? "" : "s", failed->error);
}

int roce_trace_printer_init(struct roce_trace_printer *p, const char *host,
			    const char *device, unsigned queries, bool sweep,
			    size_t flows_max)
{
	*p = (struct roce_trace_printer){
		.host = host, .device = device, .queries = queries,
		.sweep = sweep,
	};
	p->pf = calloc(flows_max, sizeof(*p->pf));
	p->index = calloc(flows_max, sizeof(*p->index));
	p->labels = calloc(flows_max, sizeof(*p->labels));
	return p->pf && p->index && p->labels ? 0 : -1;
}

void roce_trace_printer_free(struct roce_trace_printer *p)
{
	free(p->pf);
	free(p->index);
	free(p->labels);
	p->pf = NULL;
	p->index = NULL;
	p->labels = NULL;
}

/* The flows (each with its hops; in text, with a sweep, only with -v),
 * then for a sweep the path summary. */
int roce_trace_print_destination(struct roce_trace_printer *p,
				 struct roce_flow *flows, size_t n)
{
	bool show_flows = out_is_json() || !p->sweep || diag_verbosity >= 1;
	long paths = roce_flows_number_paths(flows, n, p->pf, p->index);

	if (paths < 0)
		return -1;
	for (size_t i = 0; i < n && show_flows; i++) {
		if (p->printed)
			out_text("\n");
		print_flow(p, &flows[i]);
		p->printed = true;
	}
	if (p->sweep) {
		if (p->printed)
			out_text("\n");
		print_paths(flows, n, (size_t)paths, p->pf, p->index,
			    p->labels);
		p->printed = true;
	}
	return 0;
}
