/* Checklist expectations judged: see check_expect.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/gid.h"
#include "base/parse.h"
#include "probe/check_expect.h"

void check_text_fit(char *buf, size_t len, const char *text)
{
	static const char ellipsis[] = "...";
	size_t n = strlen(text), cut;

	if (len == 0)
		return;
	if (n < len) {
		memcpy(buf, text, n + 1);
		return;
	}
	if (len <= sizeof(ellipsis)) {
		buf[0] = '\0';
		return;
	}
	/* The longest prefix that ends a word and leaves room for "...":
	 * text[cut] is a blank, so text[0..cut) ends with a whole word. */
	cut = len - sizeof(ellipsis);
	while (cut > 0 && text[cut] != ' ')
		cut--;
	while (cut > 0 && text[cut - 1] == ' ')
		cut--;
	memcpy(buf, text, cut);
	memcpy(buf + cut, ellipsis, sizeof(ellipsis));
}

static bool within(const struct expectation *e, uint64_t value)
{
	return value >= e->low && value <= e->high;
}

/* The expectation's bounds as numbers with their unit; low 0 with an
 * open top ("at least 0") never happens, so 0 means "no lower bound" only
 * for the at-most forms. */
static void expect_bounds(const struct expectation *e, const char *unit,
			  struct check_expected *x)
{
	x->unit = unit;
	x->has_min = e->low != 0 || e->high == e->low;
	x->min = (double)e->low;
	x->has_max = e->high != UINT64_MAX;
	x->max = (double)e->high;
}

/* "2", "1-2", "at most 20", "at least 2048". */
static void describe_bounds(const struct expectation *e, const char *unit,
			    const char *json_unit, struct check_outcome *out)
{
	char *buf = out->expected;
	size_t len = sizeof(out->expected);

	expect_bounds(e, json_unit, &out->expected_value);
	if (e->low == e->high)
		snprintf(buf, len, "%llu%s", (unsigned long long)e->low, unit);
	else if (e->low == 0)
		snprintf(buf, len, "at most %llu%s",
			 (unsigned long long)e->high, unit);
	else if (e->high == UINT64_MAX)
		snprintf(buf, len, "at least %llu%s",
			 (unsigned long long)e->low, unit);
	else
		snprintf(buf, len, "%llu-%llu%s", (unsigned long long)e->low,
			 (unsigned long long)e->high, unit);
}

/* No value: the words say why (a reply that never came, an error). */
static void got_nothing(struct check_outcome *out, const char *why)
{
	check_text_fit(out->got, sizeof(out->got), why);
	out->got_value.known = false;
	out->got_value.reason = out->got;
}

static void got_number(struct check_outcome *out, double value)
{
	out->got_value.known = true;
	out->got_value.value = value;
	out->got_value.unit = out->expected_value.unit;
}

/* The reason nothing could be measured, or NULL when something was. */
static const char *missing(const struct expectation *e,
			   const struct check_measured *m)
{
	switch (expect_need_of(e->kind)) {
	case NEED_PROBE:
		if (m->probe_error)
			return m->probe_error;
		return m->probed ? NULL : "not probed";
	case NEED_PATH:
		if (m->path_error)
			return m->path_error;
		return m->path_valid ? NULL : "no path known";
	case NEED_AH:
		if (m->ah_error)
			return m->ah_error;
		return m->ah_known ? NULL : "no address handle built";
	case NEED_MCAST_SA:
		if (m->mcast_sa_error)
			return m->mcast_sa_error;
		return m->mcast_joinable_known ? NULL : "the SA was not asked";
	case NEED_MCAST_PROBE:
		if (m->mcast_error)
			return m->mcast_error;
		return m->mcast_probed ? NULL : "not probed";
	}
	return "nothing measured";
}

/* Judges the expectations that look at what the responder saw. */
static void judge_observed(const struct expectation *e,
			   const struct check_measured *m,
			   struct check_outcome *out)
{
	bool tclass = e->kind != EXPECT_FLOW_LABEL_PRESERVED;
	uint32_t want = e->kind == EXPECT_TCLASS_SEEN ? (uint32_t)e->low
		      : tclass ? m->asked.traffic_class
			       : m->asked.flow_label;
	uint32_t seen = tclass ? m->tclass_seen : m->flow_label_seen;

	snprintf(out->expected, sizeof(out->expected),
		 tclass ? "0x%02x" : "0x%05x", want);
	out->expected_value = (struct check_expected){
		.has_min = true, .has_max = true, .min = want, .max = want,
	};
	if (!m->observed_valid || !m->grh_present) {
		got_nothing(out, m->observed_valid ? "no GRH at the responder"
						   : "no reply");
		return;
	}
	snprintf(out->got, sizeof(out->got), tclass ? "0x%02x" : "0x%05x",
		 seen);
	got_number(out, seen);
	out->ok = seen == want;
}

/* Where the lost probes went, when the responder's counts say it. */
static const char *loss_where(enum oneway_direction d)
{
	switch (d) {
	case ONEWAY_THERE: return " on the way there";
	case ONEWAY_BACK: return " on the way back";
	case ONEWAY_BOTH: return " both ways";
	case ONEWAY_AT_RESPONDER: return ", not answered by the responder";
	case ONEWAY_RQ_FULL: return ", dropped in the responder's receive queue";
	case ONEWAY_NO_LOSS:
	case ONEWAY_UNKNOWN:
		break;
	}
	return "";
}

static void judge_rtt(const struct expectation *e, double us,
		      const struct check_measured *m,
		      struct check_outcome *out)
{
	(void)e;
	if (!m->rtt_valid) {
		got_nothing(out, "no reply");
		return;
	}
	/* The number JSON gives is the one the text shows. */
	us = round(us * 10) / 10;
	snprintf(out->got, sizeof(out->got), "%.1f us", us);
	got_number(out, us);
	out->ok = us <= out->expected_value.max;
}

/* isolated: the responder is up (its rendezvous answered) and no probe
 * reached it. Passes only on what was measured: its count of 0; a reply,
 * a count above 0 or no count at all fails, with the reason. */
static void judge_isolated(const struct check_measured *m,
			   struct check_outcome *out)
{
	char why[CHECK_TEXT_MAX];

	if (m->probe_error) {
		snprintf(why, sizeof(why), "no responder to ask: %s",
			 m->probe_error);
		got_nothing(out, why);
		return;
	}
	if (!m->probed) {
		got_nothing(out, "not probed");
		return;
	}
	if (!m->via_rendezvous) {
		got_nothing(out, "not known: qpn= skips the rendezvous, so the "
			    "responder's count cannot be asked");
		return;
	}
	out->got_value.has_counts = true;
	out->got_value.sent = m->sent;
	out->got_value.received = m->received;
	if (m->received > 0) {
		snprintf(out->got, sizeof(out->got), "%u of %u answered: the "
			 "datagrams arrive", m->received, m->sent);
		got_number(out, m->received);
		return;
	}
	if (m->responder_received < 0) {
		got_nothing(out, "no reply, but whether the probes arrived is "
			    "not known: the responder's count could not be "
			    "had");
		out->got_value.has_counts = true;
		return;
	}
	if (m->responder_received > 0) {
		snprintf(out->got, sizeof(out->got), "the responder saw %lld "
			 "of %u: the datagrams arrive (its replies were lost "
			 "on the way back)", (long long)m->responder_received,
			 m->sent);
		got_number(out, (double)m->responder_received);
		return;
	}
	snprintf(out->got, sizeof(out->got), "the responder is up and saw 0 "
		 "of %u", m->sent);
	got_number(out, 0);
	out->ok = true;
}

/* What is expected, in words and numbers, before anything is judged. */
/* mcast_member=HOST: HOST's GID among the members that answered. */
static void judge_member(const struct expectation *e,
			 const struct check_measured *m,
			 struct check_outcome *out)
{
	const char *host = expectation_name_value(e);
	char why[DIAG_MSG_MAX], gid_text[GID_TEXT_MAX];
	union ibv_gid gid;
	int n;

	if (parse_gid(host, &gid, why, sizeof(why)) &&
	    (!m->resolve_host ||
	     m->resolve_host(host, &gid, why, sizeof(why)))) {
		got_nothing(out, why);
		return;
	}
	out->got_value.known = true;
	out->got_value.is_bool = true;
	for (size_t i = 0; i < m->mcast_answered; i++)
		if (memcmp(&m->mcast_member_gids[i], &gid, sizeof(gid)) == 0) {
			snprintf(out->got, sizeof(out->got), "%s answered",
				 gid_format_address(&gid, gid_text,
						    sizeof(gid_text)));
			out->got_value.value = true;
			out->ok = true;
			return;
		}
	n = snprintf(out->got, sizeof(out->got), "%s not among the %zu "
		     "member%s that answered",
		     gid_format_address(&gid, gid_text, sizeof(gid_text)),
		     m->mcast_answered, m->mcast_answered == 1 ? "" : "s");
	for (size_t i = 0; i < m->mcast_answered && n > 0 &&
			   (size_t)n < sizeof(out->got); i++)
		n += snprintf(out->got + n, sizeof(out->got) - (size_t)n,
			      "%s%s", i ? ", " : " (",
			      gid_format_address(&m->mcast_member_gids[i],
						 gid_text, sizeof(gid_text)));
	if (m->mcast_answered && n > 0 && (size_t)n < sizeof(out->got))
		n += snprintf(out->got + n, sizeof(out->got) - (size_t)n, ")");
	for (size_t i = 0; i < m->mcast_boundary_count; i++)
		if (n > 0 && (size_t)n < sizeof(out->got) &&
		    memcmp(&m->mcast_boundaries[i].gid, &gid,
			   sizeof(gid)) == 0)
			n += snprintf(out->got + n,
				      sizeof(out->got) - (size_t)n, "; %s",
				      m->mcast_boundaries[i].words);
}

static void describe_expected(const struct expectation *e,
			      struct check_outcome *out)
{
	struct check_expected *x = &out->expected_value;

	switch (e->kind) {
	case EXPECT_REACHABLE:
	case EXPECT_UNREACHABLE:
		snprintf(out->expected, sizeof(out->expected), "%s",
			 e->kind == EXPECT_REACHABLE ? "reachable"
						     : "unreachable");
		/* As counts of replies: at least one, or none. */
		*x = (struct check_expected){
			.unit = "replies", .has_min = true,
			.min = e->kind == EXPECT_REACHABLE,
			.has_max = e->kind == EXPECT_UNREACHABLE, .max = 0,
		};
		break;
	case EXPECT_HOPS:
		describe_bounds(e, "", "hops", out);
		break;
	case EXPECT_LOSS:
		describe_bounds(e, "%", "percent", out);
		break;
	case EXPECT_RTT_MEDIAN:
	case EXPECT_RTT_P99:
	case EXPECT_NETWORK_RTT_MEDIAN:
	case EXPECT_NETWORK_RTT_P99:
		describe_bounds(e, " us", "us", out);
		break;
	case EXPECT_ISOLATED:
		snprintf(out->expected, sizeof(out->expected), "the responder "
			 "up, 0 probes arriving");
		/* As the responder's count of the probes it received. */
		*x = (struct check_expected){ .unit = "requests",
					      .has_min = true, .has_max = true };
		break;
	case EXPECT_PATH_MTU:
		describe_bounds(e, " bytes", "bytes", out);
		break;
	case EXPECT_PATH_SL:
	case EXPECT_PCP_SEEN:
		describe_bounds(e, "", NULL, out);
		break;
	case EXPECT_PATHS_OK:
		snprintf(out->expected, sizeof(out->expected),
			 "every path fine");
		/* As the count of paths that were not fine. */
		*x = (struct check_expected){ .unit = "paths",
					      .has_max = true, .max = 0 };
		break;
	case EXPECT_GRH_REQUIRED:
		snprintf(out->expected, sizeof(out->expected), "%s",
			 e->low ? "a GRH" : "no GRH");
		*x = (struct check_expected){ .is_bool = true,
					      .value = e->low == 1 };
		break;
	case EXPECT_MCAST_JOINABLE:
		snprintf(out->expected, sizeof(out->expected), "joinable");
		*x = (struct check_expected){ .is_bool = true, .value = true };
		break;
	case EXPECT_MCAST_MEMBERS:
		describe_bounds(e, " members", "members", out);
		break;
	case EXPECT_MCAST_MEMBER:
		snprintf(out->expected, sizeof(out->expected), "%.40s answering",
			 expectation_name_value(e));
		*x = (struct check_expected){ .is_bool = true, .value = true };
		break;
	default:
		break;
	}
}

/* paths_ok=all: the destination's closing line (probe_paths_summary) and
 * the count of paths that were not fine. */
static void judge_paths(const struct check_measured *m,
			struct check_outcome *out)
{
	size_t bad = 0;

	for (size_t i = 0; i < m->path_count; i++)
		bad += !probe_path_fine(&m->paths[i]);
	probe_paths_summary(m->paths, m->path_count, out->got,
			    sizeof(out->got));
	got_number(out, (double)bad);
	out->ok = bad == 0;
}

void check_expect_judge(const struct expectation *e,
			const struct check_measured *m,
			struct check_outcome *out)
{
	const char *why = missing(e, m);
	uint64_t loss_pct;

	memset(out, 0, sizeof(*out));
	describe_expected(e, out);
	out->got_value.unit = out->expected_value.unit;
	if (e->kind == EXPECT_ISOLATED) {
		judge_isolated(m, out);
		return;
	}
	/* Each path is judged on its own, also where the first one's AH
	 * failed (that is then its finding). */
	if (e->kind == EXPECT_PATHS_OK && m->path_count) {
		judge_paths(m, out);
		return;
	}
	if (why) {
		got_nothing(out, why);
		return;
	}
	switch (e->kind) {
	case EXPECT_REACHABLE:
	case EXPECT_UNREACHABLE:
		snprintf(out->got, sizeof(out->got), "%u of %u answered",
			 m->received, m->sent);
		got_number(out, m->received);
		out->got_value.has_counts = true;
		out->got_value.sent = m->sent;
		out->got_value.received = m->received;
		out->ok = (m->received > 0) == (e->kind == EXPECT_REACHABLE);
		break;
	case EXPECT_HOPS:
		if (m->hops < 0) {
			got_nothing(out, m->received ? "hops unknown"
						     : "no reply");
			break;
		}
		snprintf(out->got, sizeof(out->got), "%d", m->hops);
		got_number(out, m->hops);
		out->ok = within(e, (uint64_t)m->hops);
		break;
	case EXPECT_LOSS:
		if (m->sent == 0) {
			got_nothing(out, "nothing sent");
			break;
		}
		/* Rounded up: 1 lost of 1000 is not 0%. */
		loss_pct = ((uint64_t)(m->sent - m->received) * 100 + m->sent - 1) /
			   m->sent;
		snprintf(out->got, sizeof(out->got), "%llu%% (%u of %u lost%s)",
			 (unsigned long long)loss_pct, m->sent - m->received,
			 m->sent, loss_where(m->loss_direction));
		got_number(out, (double)loss_pct);
		out->got_value.has_counts = true;
		out->got_value.sent = m->sent;
		out->got_value.received = m->received;
		out->ok = within(e, loss_pct);
		break;
	case EXPECT_RTT_MEDIAN:
		judge_rtt(e, m->rtt_median_us, m, out);
		break;
	case EXPECT_RTT_P99:
		judge_rtt(e, m->rtt_p99_us, m, out);
		break;
	case EXPECT_NETWORK_RTT_MEDIAN:
	case EXPECT_NETWORK_RTT_P99:
		if (m->rtt_valid && !m->network_rtt_valid) {
			got_nothing(out, "the responder did not say how long "
				    "it held the probes (an older serve)");
			break;
		}
		judge_rtt(e, e->kind == EXPECT_NETWORK_RTT_MEDIAN
				     ? m->network_rtt_median_us
				     : m->network_rtt_p99_us,
			  m, out);
		break;
	case EXPECT_TCLASS_PRESERVED:
	case EXPECT_TCLASS_SEEN:
	case EXPECT_FLOW_LABEL_PRESERVED:
		judge_observed(e, m, out);
		break;
	case EXPECT_PATH_MTU:
		if (m->path_mtu_unmeasured) {
			got_nothing(out, m->path_mtu_unmeasured);
			break;
		}
		snprintf(out->got, sizeof(out->got), "%u bytes", m->path_mtu);
		got_number(out, m->path_mtu);
		out->ok = within(e, m->path_mtu);
		break;
	case EXPECT_PATH_SL:
		if (!m->has_path_sl) {
			got_nothing(out, "no SL: RoCE has no SA path record");
			break;
		}
		snprintf(out->got, sizeof(out->got), "%u", m->path_sl);
		got_number(out, m->path_sl);
		out->ok = within(e, m->path_sl);
		break;
	case EXPECT_GRH_REQUIRED:
		snprintf(out->got, sizeof(out->got), "%s",
			 m->ah_is_global ? "a GRH" : "no GRH");
		out->got_value.known = true;
		out->got_value.is_bool = true;
		out->got_value.value = m->ah_is_global;
		out->ok = m->ah_is_global == (e->low == 1);
		break;
	case EXPECT_PCP_SEEN:
		/* Unknown fails with its reason: a device that cannot see
		 * the tag (rxe) never passes on what was not measured. */
		if (!m->pcp_seen_known) {
			got_nothing(out, m->pcp_unknown && m->pcp_unknown[0]
						 ? m->pcp_unknown
						 : "not known");
			break;
		}
		snprintf(out->got, sizeof(out->got), "%u", m->pcp_seen);
		got_number(out, m->pcp_seen);
		out->ok = within(e, m->pcp_seen);
		break;
	case EXPECT_MCAST_JOINABLE:
		check_text_fit(out->got, sizeof(out->got),
			       m->mcast_joinable_words &&
					       m->mcast_joinable_words[0]
				       ? m->mcast_joinable_words
				       : m->mcast_joinable ? "joinable"
							   : "not joinable");
		out->got_value.known = true;
		out->got_value.is_bool = true;
		out->got_value.value = m->mcast_joinable;
		out->ok = m->mcast_joinable;
		break;
	case EXPECT_MCAST_MEMBERS:
		snprintf(out->got, sizeof(out->got), "%zu member%s answered",
			 m->mcast_answered, m->mcast_answered == 1 ? "" : "s");
		got_number(out, (double)m->mcast_answered);
		out->ok = within(e, m->mcast_answered);
		break;
	case EXPECT_MCAST_MEMBER:
		judge_member(e, m, out);
		break;
	case EXPECT_PATHS_OK:
		got_nothing(out, "its LMC paths were not probed (InfiniBand "
			    "only, with a PathRecord)");
		break;
	case EXPECT_ISOLATED:
	case EXPECT_KIND_COUNT:
		break;
	}
}
