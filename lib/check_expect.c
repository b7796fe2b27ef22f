/* Checklist expectations judged: see check_expect.h. */
#include <stdio.h>
#include <string.h>

#include "check_expect.h"

static bool within(const struct expectation *e, uint64_t value)
{
	return value >= e->low && value <= e->high;
}

/* "2", "1-2", "at most 20", "at least 2048". */
static void describe_bounds(const struct expectation *e, const char *unit,
			    char *buf, size_t len)
{
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
	if (!m->observed_valid || !m->grh_present) {
		snprintf(out->got, sizeof(out->got), "%s",
			 m->observed_valid ? "no GRH at the responder"
					   : "no reply");
		return;
	}
	snprintf(out->got, sizeof(out->got), tclass ? "0x%02x" : "0x%05x",
		 seen);
	out->ok = seen == want;
}

static void judge_rtt(const struct expectation *e, double us,
		      const struct check_measured *m,
		      struct check_outcome *out)
{
	describe_bounds(e, " us", out->expected, sizeof(out->expected));
	if (!m->rtt_valid) {
		snprintf(out->got, sizeof(out->got), "no reply");
		return;
	}
	snprintf(out->got, sizeof(out->got), "%.1f us", us);
	out->ok = us <= (double)e->high;
}

void check_expect_judge(const struct expectation *e,
			const struct check_measured *m,
			struct check_outcome *out)
{
	const char *why = missing(e, m);
	uint64_t loss_pct;

	memset(out, 0, sizeof(*out));
	switch (e->kind) {
	case EXPECT_REACHABLE:
	case EXPECT_UNREACHABLE:
		snprintf(out->expected, sizeof(out->expected), "%s",
			 e->kind == EXPECT_REACHABLE ? "reachable"
						     : "unreachable");
		break;
	case EXPECT_HOPS:
		describe_bounds(e, "", out->expected, sizeof(out->expected));
		break;
	case EXPECT_LOSS:
		describe_bounds(e, "%", out->expected, sizeof(out->expected));
		break;
	case EXPECT_PATH_MTU:
		describe_bounds(e, " bytes", out->expected,
				sizeof(out->expected));
		break;
	case EXPECT_PATH_SL:
		describe_bounds(e, "", out->expected, sizeof(out->expected));
		break;
	case EXPECT_GRH_REQUIRED:
		snprintf(out->expected, sizeof(out->expected), "%s",
			 e->low ? "a GRH" : "no GRH");
		break;
	default:
		break;
	}
	if (why) {
		snprintf(out->got, sizeof(out->got), "%s", why);
		return;
	}
	switch (e->kind) {
	case EXPECT_REACHABLE:
	case EXPECT_UNREACHABLE:
		snprintf(out->got, sizeof(out->got), "%u of %u answered",
			 m->received, m->sent);
		out->ok = (m->received > 0) == (e->kind == EXPECT_REACHABLE);
		break;
	case EXPECT_HOPS:
		if (m->hops < 0) {
			snprintf(out->got, sizeof(out->got), "%s",
				 m->received ? "hops unknown" : "no reply");
			break;
		}
		snprintf(out->got, sizeof(out->got), "%d", m->hops);
		out->ok = within(e, (uint64_t)m->hops);
		break;
	case EXPECT_LOSS:
		if (m->sent == 0) {
			snprintf(out->got, sizeof(out->got), "nothing sent");
			break;
		}
		/* Rounded up: 1 lost of 1000 is not 0%. */
		loss_pct = ((uint64_t)(m->sent - m->received) * 100 + m->sent - 1) /
			   m->sent;
		snprintf(out->got, sizeof(out->got), "%llu%% (%u of %u lost)",
			 (unsigned long long)loss_pct, m->sent - m->received,
			 m->sent);
		out->ok = within(e, loss_pct);
		break;
	case EXPECT_RTT_MEDIAN:
		judge_rtt(e, m->rtt_median_us, m, out);
		break;
	case EXPECT_RTT_P99:
		judge_rtt(e, m->rtt_p99_us, m, out);
		break;
	case EXPECT_TCLASS_PRESERVED:
	case EXPECT_TCLASS_SEEN:
	case EXPECT_FLOW_LABEL_PRESERVED:
		judge_observed(e, m, out);
		break;
	case EXPECT_PATH_MTU:
		snprintf(out->got, sizeof(out->got), "%u bytes", m->path_mtu);
		out->ok = within(e, m->path_mtu);
		break;
	case EXPECT_PATH_SL:
		if (!m->has_path_sl) {
			snprintf(out->got, sizeof(out->got),
				 "no SL: RoCE has no SA path record");
			break;
		}
		snprintf(out->got, sizeof(out->got), "%u", m->path_sl);
		out->ok = within(e, m->path_sl);
		break;
	case EXPECT_GRH_REQUIRED:
		snprintf(out->got, sizeof(out->got), "%s",
			 m->ah_is_global ? "a GRH" : "no GRH");
		out->ok = m->ah_is_global == (e->low == 1);
		break;
	case EXPECT_KIND_COUNT:
		break;
	}
}
