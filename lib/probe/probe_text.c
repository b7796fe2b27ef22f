/* probe's table for people: see probe_text.h. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/gid.h"
#include "probe/probe_text.h"
#include "wire/roce_packet.h"
#include "out/term_color.h"
#include "out/text_layout.h"

#define GAP "  "
#define STATUS_WIDTH 11		/* "unreachable" */
#define RTT_WIDTH 6
#define HOPS_WIDTH 4
#define TC_WIDTH 9		/* "0x28>0x00" */
#define FL_WIDTH 15		/* "0x12345>0x54321" */
#define ROUND_LOSS_WIDTH 5	/* "LAST%": "100%" */
#define FINDING_INDENT 4

/* The AH's DGID is IPv4-mapped: RoCE v2 over IPv4. */
static bool cell_dgid_ipv4(const struct probe_cell *c)
{
	static const uint8_t v4_mapped[12] = { [10] = 0xff, [11] = 0xff };

	return c->attr.is_global &&
	       memcmp(c->attr.grh.dgid.raw, v4_mapped, sizeof(v4_mapped)) == 0;
}

/* IPv4 (an IPv4-mapped GID) has no flow label to carry. */
static bool cell_may_carry_flow_label(const struct probe_session *s,
				      const struct probe_cell *c)
{
	if (s->facts.link_layer == LINK_LAYER_IB)
		return c->attr.is_global || c->asked.flow_label;
	if (c->asked.flow_label)
		return true;
	return c->attr.is_global && !cell_dgid_ipv4(c);
}

/* The width of everything right of the destination column. */
static int rest_width(const struct probe_text_layout *l)
{
	int w = (int)strlen(GAP);

	if (l->show_hop_limit)
		w += 3 + (int)strlen(GAP);
	if (l->show_sl)
		w += 2 + (int)strlen(GAP);
	w += STATUS_WIDTH + (int)strlen(GAP);
	w += l->lost_width + (int)strlen(GAP);
	w += RTT_WIDTH + (int)strlen(GAP);
	if (l->show_p99)
		w += RTT_WIDTH + (int)strlen(GAP);
	if (l->continuous)
		w += ROUND_LOSS_WIDTH + RTT_WIDTH + 2 * (int)strlen(GAP);
	w += HOPS_WIDTH + (int)strlen(GAP);
	w += TC_WIDTH;
	if (l->show_flow_label)
		w += (int)strlen(GAP) + FL_WIDTH;
	return w;
}

void probe_text_layout_init(struct probe_text_layout *l,
			    const struct probe_session *s, bool show_hop_limit,
			    bool show_sl, bool continuous, bool color)
{
	uint32_t most = s->settings.count;
	int longest = 4, room;

	memset(l, 0, sizeof(*l));
	l->color = color;
	l->show_hop_limit = show_hop_limit;
	l->show_sl = show_sl;
	l->continuous = continuous;
	l->cells = s->cells;
	l->cell_count = s->cell_count;
	l->show_p99 = continuous || s->settings.count >= 20;
	for (size_t i = 0; i < s->cell_count; i++) {
		const struct probe_cell *c = &s->cells[i];
		int n = (int)strlen(c->target->dest->text);

		if (n > longest)
			longest = n;
		if (c->count > most)
			most = c->count;
		if (c->ah && cell_may_carry_flow_label(s, c))
			l->show_flow_label = true;
	}
	/* A run until interrupted counts on: room for 5 digits (a day at
	 * one probe per second) beside the round's columns within the
	 * width; more pushes the rest of its row. */
	l->lost_width = continuous ? 11 : 2 * text_digits(most) + 1;
	if (l->lost_width < 4)
		l->lost_width = 4;
	/* However crowded the row, a name keeps 8 columns. */
	room = PROBE_TEXT_WIDTH - rest_width(l);
	if (room < 8)
		room = 8;
	l->dest_width = longest < room ? longest : room;
}

void probe_text_rtt(double us, char *out, size_t len)
{
	if (us < 9.995)
		snprintf(out, len, "%.2fus", us);
	else if (us < 99.95)
		snprintf(out, len, "%.1fus", us);
	else if (us < 999.5)
		snprintf(out, len, "%.0fus", us);
	else if (us < 9995)
		snprintf(out, len, "%.2fms", us / 1e3);
	else if (us < 99950)
		snprintf(out, len, "%.1fms", us / 1e3);
	else if (us < 999500)
		snprintf(out, len, "%.0fms", us / 1e3);
	else
		snprintf(out, len, "%.1fs", us / 1e6);
}

/* A name longer than its column keeps its start and its end. */
static void fit_name(const char *name, int width, char *out, size_t len)
{
	int n = (int)strlen(name), head, tail;

	if (n <= width) {
		snprintf(out, len, "%s", name);
		return;
	}
	head = (width - 2 + 1) / 2;
	tail = width - 2 - head;
	snprintf(out, len, "%.*s..%s", head, name, name + n - tail);
}

/* The facts of c's AH and our QP that its UDP source port follows from
 * (provider_sends_udp and the provider's rules). */
static void cell_udp_sport_facts(const struct probe_session *s,
				 const struct probe_cell *c,
				 struct udp_sport_facts *f)
{
	const struct gid_info *sgid = NULL;

	if (c->attr.is_global)
		sgid = ah_facts_gid(&s->facts, c->attr.grh.sgid_index);
	*f = (struct udp_sport_facts){
		.provider = s->provider,
		.link_layer = s->facts.link_layer,
		.grh = c->attr.is_global,
		.sgid_roce_v2 = sgid && sgid->kind == GID_KIND_ROCE_V2,
		.flow_label = c->attr.grh.flow_label,
		.qp_known = s->ep.qp != NULL,
		.qpn = s->ep.qp ? s->ep.qp->qp_num : 0,
	};
}

int32_t probe_udp_sport(const struct probe_session *s,
			const struct probe_cell *c)
{
	struct udp_sport_facts f;

	cell_udp_sport_facts(s, c, &f);
	return provider_label_udp_sport(&f);
}

int32_t probe_wire_udp_sport(const struct probe_session *s,
			     const struct probe_cell *c)
{
	struct udp_sport_facts f;

	cell_udp_sport_facts(s, c, &f);
	return provider_probe_udp_sport(&f);
}

void probe_text_udp_sport(const struct probe_session *s,
			  const struct probe_cell *c, char *buf, size_t len)
{
	int32_t port = probe_udp_sport(s, c);
	int32_t wire = probe_wire_udp_sport(s, c);
	unsigned fl = c->attr.grh.flow_label & ROCE_FLOW_LABEL_MASK;

	if (len)
		buf[0] = '\0';
	if (port < 0 && wire < 0)
		return;
	/* rxe: the QP's port, the flow label's aside. */
	if (provider_sport_follows_qp(s->provider) && wire >= 0) {
		int n = snprintf(buf, len, "    UDP source port 0x%04x (%d): "
				 "rxe's own for QP 0x%x", (unsigned)wire,
				 wire, s->ep.qp->qp_num);

		if (port >= 0 && n >= 0 && (size_t)n < len)
			snprintf(buf + n, len - (size_t)n, " (flow label "
				 "0x%05x asks 0x%04x)", fl, (unsigned)port);
		if (strlen(buf) + 1 < len)
			strcat(buf, "\n");
		return;
	}
	if (port < 0)
		return;
	snprintf(buf, len, "    UDP source port 0x%04x (%d) for flow label "
		 "0x%05x: %s\n", (unsigned)port, port, fl,
		 wire == port ? "the port this provider sends"
			      : "whether this provider sends it is not known");
}

/* The status column: a short word, and its colour on a terminal. */
static const struct {
	const char *word;
	enum color color;
} status_looks[PROBE_STATUS_COUNT] = {
	[PROBE_STATUS_REACHABLE] = { "ok", COLOR_GOOD },
	[PROBE_STATUS_PARTIAL] = { "loss", COLOR_WARN },
	[PROBE_STATUS_UNREACHABLE] = { "unreachable", COLOR_BAD },
	[PROBE_STATUS_ERROR] = { "error", COLOR_FAIL },
	[PROBE_STATUS_PENDING] = { "-", COLOR_NONE },
};

static void column(char *buf, size_t len, size_t *used, const char *text,
		   int width, bool right)
{
	char cell[128];

	color_pad(cell, sizeof(cell), text, width, right, COLOR_NONE, false);
	text_append(buf, len, used, "%s" GAP, cell);
}

/* The start of a row, up to the status word (the same for rows with a
 * result and for errors). */
/* word: the status in other words (NULL: the status's own). */
static void row_start(const struct probe_text_layout *l,
		      const struct probe_cell *c, enum probe_status status,
		      const char *word_instead, int status_width, char *buf,
		      size_t len, size_t *used)
{
	char name[PROBE_TEXT_WIDTH + 1], num[16], word[64];

	fit_name(c->target->dest->text, l->dest_width, name, sizeof(name));
	column(buf, len, used, name, l->dest_width, false);
	if (l->show_hop_limit) {
		snprintf(num, sizeof(num), "%u", c->asked.hop_limit);
		column(buf, len, used, num, 3, true);
	}
	if (l->show_sl) {
		snprintf(num, sizeof(num), "%u", c->asked.sl);
		column(buf, len, used, num, 2, true);
	}
	color_pad(word, sizeof(word),
		  word_instead ? word_instead : status_looks[status].word,
		  status_width, false, status_looks[status].color, l->color);
	text_append(buf, len, used, "%s", word);
}

static void trim_trailing_spaces(char *buf, size_t *used)
{
	while (*used && buf[*used - 1] == ' ')
		buf[--*used] = '\0';
}

/* "0x28" when it arrived as sent, "0x28>0x00" when not, the sent value
 * alone when nothing came back, "-" without a GRH. */
static void sent_seen(char *out, size_t len, int hex_digits, uint32_t sent,
		      bool seen_known, uint32_t seen)
{
	char a[16], b[16];

	snprintf(a, sizeof(a), "0x%0*x", hex_digits, sent);
	if (!seen_known || seen == sent) {
		snprintf(out, len, "%s", a);
		return;
	}
	snprintf(b, sizeof(b), "0x%0*x", hex_digits, seen);
	snprintf(out, len, "%s>%s", a, b);
}

void probe_text_timing(const struct probe_cell *c, char *buf, size_t len)
{
	struct rtt_summary rtt, net, dwell;
	char line[512], a[16], b[16], m[16], w[16];
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	if (rtt_summarize(&c->rtt, &rtt))
		return;
	probe_text_rtt(rtt.median_us, a, sizeof(a));
	if (rtt_summarize(&c->network, &net) ||
	    rtt_summarize(&c->dwell, &dwell)) {
		snprintf(line, sizeof(line), "RTT median %s end to end; the "
			 "network's share is not known: the responder did not "
			 "say how long it held the probes (an older ibahprobe "
			 "serve)", a);
		text_wrap_append(buf, len, &used, line, 4, 6,
				 PROBE_TEXT_WIDTH);
		return;
	}
	probe_text_rtt(net.median_us, b, sizeof(b));
	probe_text_rtt(dwell.median_us, m, sizeof(m));
	probe_text_rtt(dwell.max_us, w, sizeof(w));
	/* Medians of three sets of samples: they need not add up. */
	used = (size_t)snprintf(line, sizeof(line), "RTT medians: %s end to "
				"end, network %s (%s stamps), responder %s "
				"(max %s", a, b, stamp_source_name(c->stamps),
				m, w);
	if (c->reply_ah_wait_max_ns && used < sizeof(line)) {
		probe_text_rtt((double)c->reply_ah_wait_max_ns / 1e3, w,
			       sizeof(w));
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 ", of which %s waiting for its reply "
					 "AH: first contact", w);
	}
	if (used < sizeof(line))
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 ")");
	if (c->clock_errors && used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "; %u responder "
			 "time%s longer than the round trip (clocks): network "
			 "counted 0", c->clock_errors,
			 c->clock_errors == 1 ? "" : "s");
	used = 0;
	text_wrap_append(buf, len, &used, line, 4, 6, PROBE_TEXT_WIDTH);
}

void probe_text_timing_note(const struct probe_session *s, char *buf,
			    size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	if (s->ep.clock.hw) {
		text_wrap_append(buf, len, &used, "timing: this device stamps "
				 "completions (hw); the network's share is "
				 "exact where the responder's device does too",
				 0, 4, PROBE_TEXT_WIDTH);
		return;
	}
	text_wrap_append(buf, len, &used, s->settings.busy_poll
			 ? "timing: software stamps while busy polling (this "
			   "device has no completion timestamps); a responder "
			   "that sleeps still adds its wake-up to the network"
			   "'s share: serve --busy-poll removes it"
			 : "timing: software stamps after completion events "
			   "(this device has no completion timestamps): both "
			   "hosts' wake-ups before they poll are in the network"
			   "'s share; --busy-poll here and serve --busy-poll "
			   "there remove them",
			 0, 4, PROBE_TEXT_WIDTH);
}

/* The sentence that repeats the row's loss count is left out. */
static bool finding_repeats_row(const struct verdict *v, size_t i)
{
	return i < v->text_detail_start;
}

/* A rewrite (finding i of c's verdict v) that the row above, of the same
 * destination, says in the same words: a sweep says it once. */
static bool rewrite_said_above(const struct probe_text_layout *l,
			       const struct probe_cell *c,
			       const struct verdict *v, size_t i)
{
	size_t at = (size_t)(c - l->cells);
	const struct verdict *above;

	if (i < v->text_rewrite_start || i >= v->text_rewrite_end ||
	    !l->cells || c < l->cells || at == 0 || at >= l->cell_count ||
	    l->cells[at - 1].target != c->target || !l->cells[at - 1].judged)
		return false;
	above = &l->cells[at - 1].verdict;
	for (size_t k = above->text_rewrite_start; k < above->text_rewrite_end;
	     k++)
		if (strcmp(above->text[k], v->text[i]) == 0)
			return true;
	return false;
}

bool probe_text_round_silence(const struct probe_round_cell *round,
			      char *buf, size_t len)
{
	time_t when;
	struct tm tm;
	char hms[16];

	buf[0] = '\0';
	if (!round || round->sent == 0 || round->received > 0)
		return false;
	when = (time_t)round->last_success_unix;
	if (round->last_success_unix <= 0 || !localtime_r(&when, &tm) ||
	    !strftime(hms, sizeof(hms), "%H:%M:%S", &tm))
		snprintf(buf, len, "no reply yet");
	else
		snprintf(buf, len, "no reply since %s", hms);
	return true;
}

/* This round's loss and median RTT ("-" when it has none). */
static void round_columns(const struct probe_round_cell *round, char *buf,
			  size_t len, size_t *used)
{
	char text[16];
	double ratio;

	if (round && probe_round_loss_ratio(round, &ratio))
		snprintf(text, sizeof(text), "%.0f%%", ratio * 100);
	else
		snprintf(text, sizeof(text), "-");
	column(buf, len, used, text, ROUND_LOSS_WIDTH, true);
	if (round && round->has_rtt)
		probe_text_rtt(round->rtt.median_us, text, sizeof(text));
	else
		snprintf(text, sizeof(text), "-");
	column(buf, len, used, text, RTT_WIDTH, true);
}

void probe_text_row(const struct probe_text_layout *l,
		    const struct probe_cell *c, const struct verdict *v,
		    uint32_t resolved, bool findings, char *buf, size_t len)
{
	probe_text_round_row(l, c, v, resolved, findings, NULL, buf, len);
}

void probe_text_round_row(const struct probe_text_layout *l,
			  const struct probe_cell *c, const struct verdict *v,
			  uint32_t resolved, bool findings,
			  const struct probe_round_cell *round, char *buf,
			  size_t len)
{
	char silence[48];
	bool silent = l->continuous &&
		      probe_text_round_silence(round, silence, sizeof(silence));
	const struct probe_observed *o = &c->last_reply.observed;
	bool grh_seen = c->observed_valid && o->grh_present;
	enum probe_status status = probe_cell_status(c, resolved);
	struct rtt_summary rtt;
	char text[64];
	size_t used = 0;

	buf[0] = '\0';
	if (status == PROBE_STATUS_ERROR) {
		row_start(l, c, status, NULL, 0, buf, len, &used);
		text_append(buf, len, &used, GAP);
		/* The message goes on the row; what does not fit wraps
		 * under it, indented like a finding. */
		text_wrap_append(buf, len, &used,
				 c->target->ready ? c->error : c->target->error,
				 0, FINDING_INDENT,
				 PROBE_TEXT_WIDTH - (int)used);
		return;
	}
	row_start(l, c, status, silent ? "no reply" : NULL, STATUS_WIDTH, buf,
		  len, &used);
	text_append(buf, len, &used, GAP);
	snprintf(text, sizeof(text), "%u/%u", resolved - c->received > resolved
					       ? 0 : resolved - c->received,
		 resolved);
	column(buf, len, &used, text, l->lost_width, true);
	if (rtt_summarize(&c->rtt, &rtt) == 0) {
		probe_text_rtt(rtt.median_us, text, sizeof(text));
		column(buf, len, &used, text, RTT_WIDTH, true);
		if (l->show_p99) {
			probe_text_rtt(rtt.p99_us, text, sizeof(text));
			column(buf, len, &used, text, RTT_WIDTH, true);
		}
	} else {
		column(buf, len, &used, "-", RTT_WIDTH, true);
		if (l->show_p99)
			column(buf, len, &used, "-", RTT_WIDTH, true);
	}
	if (l->continuous)
		round_columns(round, buf, len, &used);
	if (v && v->hops >= 0)
		snprintf(text, sizeof(text), "%d", v->hops);
	else
		snprintf(text, sizeof(text), "-");
	column(buf, len, &used, text, HOPS_WIDTH, true);
	if (c->attr.is_global)
		sent_seen(text, sizeof(text), 2, c->asked.traffic_class,
			  grh_seen, o->traffic_class);
	else
		snprintf(text, sizeof(text), "-");
	column(buf, len, &used, text, TC_WIDTH, false);
	if (l->show_flow_label) {
		/* "-" wherever no flow label can be carried: an IPv4
		 * destination, answered or not, unless one was asked. */
		if (c->attr.is_global &&
		    (c->asked.flow_label || !cell_dgid_ipv4(c)) &&
		    !(grh_seen && o->grh_ipv4))
			sent_seen(text, sizeof(text), 1,
				  c->asked.flow_label, grh_seen,
				  o->flow_label);
		else
			snprintf(text, sizeof(text), "-");
		text_append(buf, len, &used, "%s", text);
	}
	trim_trailing_spaces(buf, &used);
	text_append(buf, len, &used, "\n");
	if (silent)
		text_append(buf, len, &used, "%*s%s\n", FINDING_INDENT, "",
			    silence);
	if (!findings || !v)
		return;
	for (size_t i = 0; i < v->text_count; i++)
		if (!finding_repeats_row(v, i) &&
		    !rewrite_said_above(l, c, v, i))
			text_wrap_append(buf, len, &used, v->text[i],
					 FINDING_INDENT, FINDING_INDENT + 2,
					 PROBE_TEXT_WIDTH);
}

void probe_text_titles(const struct probe_text_layout *l, char *buf,
		       size_t len)
{
	size_t used = 0;

	column(buf, len, &used, "DEST", l->dest_width, false);
	if (l->show_hop_limit)
		column(buf, len, &used, "HL", 3, true);
	if (l->show_sl)
		column(buf, len, &used, "SL", 2, true);
	column(buf, len, &used, "STATUS", STATUS_WIDTH, false);
	column(buf, len, &used, "LOST", l->lost_width, true);
	column(buf, len, &used, "RTT", RTT_WIDTH, true);
	if (l->show_p99)
		column(buf, len, &used, "P99", RTT_WIDTH, true);
	if (l->continuous) {
		column(buf, len, &used, "LAST%", ROUND_LOSS_WIDTH, true);
		column(buf, len, &used, "LAST", RTT_WIDTH, true);
	}
	column(buf, len, &used, "HOPS", HOPS_WIDTH, true);
	column(buf, len, &used, "TC", TC_WIDTH, false);
	if (l->show_flow_label)
		text_append(buf, len, &used, "FL");
	trim_trailing_spaces(buf, &used);
	text_append(buf, len, &used, "\n");
}

void probe_text_header(const struct probe_text_layout *l,
		       const struct probe_session *s, size_t dest_count,
		       size_t set_count, const char *note, char *buf,
		       size_t len)
{
	const struct gid_info *sgid = NULL;
	char line[1024], gid[GID_TEXT_MAX], lid[32] = "", each[48];
	char chosen[GID_TEXT_MAX + 16];
	size_t used = 0;

	if (s->settings.gid_index >= 0)
		sgid = ah_facts_gid(&s->facts, (uint32_t)s->settings.gid_index);
	else if (s->facts.link_layer == LINK_LAYER_IB && s->facts.gid_count)
		sgid = &s->facts.gids[0];
	if (s->facts.link_layer == LINK_LAYER_IB)
		snprintf(lid, sizeof(lid), ", lid %u", s->facts.lid);
	if (l->continuous)
		snprintf(each, sizeof(each), "until interrupted");
	else
		snprintf(each, sizeof(each), "%u probe%s each",
			 s->settings.count, s->settings.count == 1 ? "" : "s");
	/* The index given names no GID (a dry run on an assumed port):
	 * it is what the AHs carry, so the header says it, never "auto". */
	if (sgid)
		snprintf(chosen, sizeof(chosen), "sgid %s",
			 gid_format(&sgid->gid, gid, sizeof(gid)));
	else if (s->settings.gid_index >= 0)
		snprintf(chosen, sizeof(chosen), "sgid_index %d (-g)",
			 s->settings.gid_index);
	else
		snprintf(chosen, sizeof(chosen),
			 "sgid per destination (-g auto)");
	snprintf(line, sizeof(line), "probe from %s: %s port %u, %s%s, %s",
		 s->hostname, s->device, s->facts.port_num,
		 link_layer_name(s->facts.link_layer), lid, chosen);
	text_wrap_append(buf, len, &used, line, 0, 4, PROBE_TEXT_WIDTH);
	/* What the RTT column holds and how this host waited for it; a
	 * dry run measures nothing. */
	snprintf(line, sizeof(line), "%zu destination%s x %zu set%s, %s, "
		 "%u bytes, timeout %u ms%s%s", dest_count,
		 dest_count == 1 ? "" : "s", set_count,
		 set_count == 1 ? "" : "s", each, s->settings.size,
		 s->settings.timeout_ms,
		 s->settings.dry_run ? "" : "; RTT end to end, ",
		 s->settings.dry_run ? ""
		 : s->settings.busy_poll ? "busy poll" : "events");
	text_wrap_append(buf, len, &used, line, 0, 4, PROBE_TEXT_WIDTH);
	if (note && note[0])
		text_wrap_append(buf, len, &used, note, 0, 4,
				 PROBE_TEXT_WIDTH);
}

/* Short names of the findings for the summary, in flag order. */
static const char *flag_summary_name(enum verdict_flag flag)
{
	switch (flag) {
	case VERDICT_HOP_LIMIT_NOT_HONOURED: return "hop limit not honoured";
	case VERDICT_HOP_LIMIT_EXPIRED: return "hop limit expired";
	case VERDICT_TCLASS_REMARKED: return "tc remarked";
	case VERDICT_ECN_CHANGED: return "ECN changed";
	case VERDICT_FLOW_LABEL_NOT_CARRIED: return "flow label not carried";
	case VERDICT_FLOW_LABEL_CHANGED: return "flow label changed";
	case VERDICT_NO_GRH: return "no GRH";
	case VERDICT_SL_CHANGED: return "SL changed";
	case VERDICT_RESPONDER_RESTARTED: return "responder restarted";
	case VERDICT_DATA_PATH_BLOCKED: return "data path blocked";
	case VERDICT_SIZE_SUSPECT: return "size suspect";
	case VERDICT_LOST_THERE: return "lost on the way there";
	case VERDICT_LOST_BACK: return "lost on the way back";
	case VERDICT_ASYMMETRIC_HOPS: return "asymmetric hops";
	case VERDICT_FIRST_CONTACT: return "first contact";
	case VERDICT_RESPONDER_QUEUE: return "responder queue full";
	}
	return "?";
}

void probe_text_summary(const struct probe_session *s, size_t dest_count,
			size_t set_count, char *buf, size_t len)
{
	size_t ok = 0, loss = 0, unreachable = 0, errors = 0, used = 0;
	char line[1024];
	size_t n;

	for (size_t i = 0; i < s->cell_count; i++) {
		if (s->cells[i].target->local_port)
			continue;
		switch (probe_cell_status(&s->cells[i], s->cells[i].sent)) {
		case PROBE_STATUS_REACHABLE:
			ok++;
			break;
		case PROBE_STATUS_PARTIAL:
			loss++;
			break;
		case PROBE_STATUS_ERROR:
			errors++;
			break;
		case PROBE_STATUS_UNREACHABLE:
		case PROBE_STATUS_PENDING:	/* none answered */
			unreachable++;
			break;
		}
	}
	n = (size_t)snprintf(line, sizeof(line), "%zu destination%s, %zu "
			     "set%s: %zu ok, %zu loss, %zu unreachable, %zu "
			     "error%s", dest_count, dest_count == 1 ? "" : "s",
			     set_count, set_count == 1 ? "" : "s", ok, loss,
			     unreachable, errors, errors == 1 ? "" : "s");
	for (unsigned flag = 1; flag <= VERDICT_FLAG_LAST; flag <<= 1) {
		size_t count = 0;

		for (size_t i = 0; i < s->cell_count; i++)
			count += s->cells[i].judged &&
				 (s->cells[i].verdict.flags & flag);
		if (count && n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n,
					      "; %s %zu",
					      flag_summary_name(
						      (enum verdict_flag)flag),
					      count);
	}
	text_wrap_append(buf, len, &used, line, 0, 4, PROBE_TEXT_WIDTH);
}

bool probe_text_sgid_choice_repeats(const struct probe_session *s,
				    const struct probe_cell *c)
{
	return probe_cell_sgid_choice_repeats(s, c);
}

/* "priority 3 on VLAN 100", "priority 0, no VLAN", "VLAN 100",
 * "unknown". */
static void vlan_seen_words(const struct probe_vlan_judgement *j, char *out,
			    size_t len)
{
	char where[32];

	if (!j->vlan_seen_known) {
		snprintf(out, len, "unknown");
		return;
	}
	if (j->vlan_seen)
		snprintf(where, sizeof(where), "on VLAN %u", j->vlan_seen);
	else
		snprintf(where, sizeof(where), ", no VLAN");
	if (j->pcp_seen_known)
		snprintf(out, len, "priority %u%s%s", j->pcp_seen,
			 j->vlan_seen ? " " : "", where);
	else
		snprintf(out, len, "%s", j->vlan_seen ? where + 3 : "no VLAN");
}

void probe_text_vlan(const struct probe_session *s,
		     const struct probe_vlans *pv, const struct probe_cell *c,
		     bool verbose, char *buf, size_t len)
{
	struct probe_vlan_judgement j;
	char line[640], sent[64], seen[64];
	size_t used = 0;

	buf[0] = '\0';
	probe_vlan_of_cell(s, pv, c, c->judged ? c->verdict.hops : -1, &j);
	if (j.mismatch)
		text_wrap_append(buf, len, &used, j.mismatch_text, 4, 6,
				 PROBE_TEXT_WIDTH);
	if (!verbose || s->facts.link_layer != LINK_LAYER_ETHERNET)
		return;
	if (j.sent.known)
		snprintf(sent, sizeof(sent), "%u on VLAN %u", j.sent.pcp,
			 j.sent.vid);
	else
		snprintf(sent, sizeof(sent), "unknown");
	vlan_seen_words(&j, seen, sizeof(seen));
	snprintf(line, sizeof(line), "priority: sent %s (%s); arrived %s%s%s",
		 sent, j.sent.why, seen, j.seen_why[0] ? ": " : "",
		 j.seen_why);
	text_wrap_append(buf, len, &used, line, 4, 6, PROBE_TEXT_WIDTH);
}
