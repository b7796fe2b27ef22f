/* libFuzzer target: a checklist file (`ibahprobe check FILE`) is whatever
 * its author, or a generator, wrote. Any bytes are parsed whole or refused
 * with FILE:LINE:COL, never half-kept; every expectation parsed is judged
 * the way its words say: a value inside its bounds holds, one outside
 * does not, and nothing measured never holds. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "probe/check_expect.h"
#include "probe/checklist.h"
#include "base/diag.h"

#define LABEL "fuzz.check"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void judged(const struct expectation *e, const struct check_measured *m,
		   bool want_ok)
{
	struct check_outcome out;

	check_expect_judge(e, m, &out);
	if (out.ok != want_ok || !memchr(out.got, '\0', sizeof(out.got)) ||
	    !memchr(out.expected, '\0', sizeof(out.expected)) || !out.got[0])
		__builtin_trap();
}

/* Measurements that put the expectation's own value v in front of it. */
static bool measure(const struct expectation *e, uint64_t v,
		    const struct check_entry *entry, struct check_measured *m)
{
	memset(m, 0, sizeof(*m));
	m->probed = m->path_valid = m->ah_known = true;
	m->hops = -1;
	m->sent = m->received = 1;
	switch (e->kind) {
	case EXPECT_HOPS:
		if (v > 255)
			return false;
		m->hops = (int)v;
		return true;
	case EXPECT_LOSS:
		if (v > 100)
			return false;
		m->sent = 100;
		m->received = (uint32_t)(100 - v);
		return true;
	case EXPECT_RTT_MEDIAN:
	case EXPECT_RTT_P99:
		if (v > (1ull << 52))
			return false;	/* exact as a double */
		m->rtt_valid = true;
		m->rtt_median_us = m->rtt_p99_us = (double)v;
		return true;
	case EXPECT_PATH_MTU:
		if (v > 0xffff)
			return false;
		m->path_mtu = (uint16_t)v;
		return true;
	case EXPECT_PATH_SL:
		if (v > 255)
			return false;
		m->has_path_sl = true;
		m->path_sl = (uint8_t)v;
		return true;
	case EXPECT_PCP_SEEN:
		if (v > 7)
			return false;
		m->observed_valid = true;
		m->pcp_seen_known = true;
		m->pcp_seen = (uint8_t)v;
		return true;
	case EXPECT_TCLASS_SEEN:
		if (v > 255)
			return false;
		m->observed_valid = m->grh_present = true;
		m->tclass_seen = (uint8_t)v;
		return true;
	default:
		(void)entry;
		return false;
	}
}

static void judge_entry(const struct check_entry *entry)
{
	struct check_measured m;

	if (entry->expect_count == 0 || !entry->expects)
		__builtin_trap();	/* no expectation written: reachable */
	for (size_t i = 0; i < entry->expect_count; i++) {
		const struct expectation *e = &entry->expects[i];

		if ((unsigned)e->kind >= EXPECT_KIND_COUNT || e->low > e->high ||
		    e->column == 0 || !memchr(e->text, '\0', sizeof(e->text)) ||
		    !expect_kind_name(e->kind))
			__builtin_trap();
		memset(&m, 0, sizeof(m));
		m.hops = -1;
		judged(e, &m, false);	/* nothing measured never holds */
		switch (e->kind) {
		case EXPECT_REACHABLE:
		case EXPECT_UNREACHABLE:
			m.probed = true;
			m.sent = 3;
			m.received = 1;
			judged(e, &m, e->kind == EXPECT_REACHABLE);
			m.received = 0;
			judged(e, &m, e->kind == EXPECT_UNREACHABLE);
			break;
		case EXPECT_GRH_REQUIRED:
			m.ah_known = true;
			m.ah_is_global = e->low == 1;
			judged(e, &m, true);
			m.ah_is_global = !m.ah_is_global;
			judged(e, &m, false);
			break;
		case EXPECT_TCLASS_PRESERVED:
		case EXPECT_FLOW_LABEL_PRESERVED:
			m.probed = m.observed_valid = m.grh_present = true;
			m.asked = entry->send;
			m.tclass_seen = entry->send.traffic_class;
			m.flow_label_seen = entry->send.flow_label;
			judged(e, &m, true);
			m.tclass_seen ^= 1;
			m.flow_label_seen ^= 1;
			judged(e, &m, false);
			break;
		default:
			if (measure(e, e->low, entry, &m))
				judged(e, &m, true);
			if (measure(e, e->high, entry, &m))
				judged(e, &m, true);
			/* At-most forms (loss, RTT) hold below their low
			 * bound too: only above the high one do they fail. */
			if (e->high < UINT64_MAX &&
			    measure(e, e->high + 1, entry, &m))
				judged(e, &m, false);
			if (e->kind != EXPECT_LOSS &&
			    e->kind != EXPECT_RTT_MEDIAN &&
			    e->kind != EXPECT_RTT_P99 && e->low > 0 &&
			    measure(e, e->low - 1, entry, &m))
				judged(e, &m, false);
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct checklist list = { 0 };
	char err[DIAG_MSG_MAX * 2];
	FILE *in;

	/* fmemopen refuses an empty buffer on older C libraries. */
	in = size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
	if (!in)
		return 0;
	err[0] = '\0';
	if (checklist_read(&list, in, LABEL, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < list.count; i++) {
			if (list.entries[i].line == 0)
				__builtin_trap();
			judge_entry(&list.entries[i]);
		}
	} else if (strncmp(err, LABEL ":", strlen(LABEL) + 1) != 0 ||
		   list.count != 0) {
		__builtin_trap();	/* FILE:LINE[:COL], nothing kept */
	}
	checklist_free(&list);
	fclose(in);
	return 0;
}
