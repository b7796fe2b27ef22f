/* The DLIDs of a port under LMC: its LMC from the SA's NodeRecord and
 * PortInfoRecord, asked in turn, and the count of its DLIDs. */
#include <stdio.h>
#include <string.h>

#include "trace/lid_paths.h"
#include "tap.h"

static void put(struct trace_store *s, enum trace_record_kind kind,
		uint16_t lid, uint16_t arg, enum trace_record_state state,
		struct trace_record *r)
{
	r->key = (struct trace_key){ kind, lid, arg };
	r->state = state;
	trace_store_put(s, r);
}

static void test_lmc_from_the_sa(void)
{
	struct trace_store s;
	struct trace_record r;
	struct trace_key need;
	char why[160] = "";
	uint8_t lmc = 9;

	trace_store_init(&s);
	is_int(lid_paths_lmc(&s, 28, &lmc, &need, why, sizeof(why)),
	       LID_PATHS_NEED, "nothing known: ask");
	ok(need.kind == TRACE_REC_NODE && need.lid == 28, "its NodeRecord first");
	memset(&r, 0, sizeof(r));
	r.u.node.node_type = 1;
	r.u.node.local_port = 2;
	put(&s, TRACE_REC_NODE, 28, 0, TRACE_REC_PRESENT, &r);
	is_int(lid_paths_lmc(&s, 28, &lmc, &need, why, sizeof(why)),
	       LID_PATHS_NEED, "a CA: then its port");
	ok(need.kind == TRACE_REC_PORTINFO && need.lid == 28 && need.arg == 2,
	   "the PortInfoRecord of the port the LID is on (2)");
	memset(&r, 0, sizeof(r));
	r.u.portinfo.lmc = 2;
	put(&s, TRACE_REC_PORTINFO, 28, 2, TRACE_REC_PRESENT, &r);
	is_int(lid_paths_lmc(&s, 28, &lmc, &need, why, sizeof(why)),
	       LID_PATHS_KNOWN, "known");
	is_int(lmc, 2, "LMC 2");

	/* A switch: port 0's PortInfo (LMC 0 unless lmc_esp0). */
	memset(&r, 0, sizeof(r));
	r.u.node.node_type = 2;
	r.u.node.local_port = 5;
	put(&s, TRACE_REC_NODE, 9, 0, TRACE_REC_PRESENT, &r);
	lid_paths_lmc(&s, 9, &lmc, &need, why, sizeof(why));
	ok(need.kind == TRACE_REC_PORTINFO && need.arg == 0,
	   "a switch: port 0, whatever port the MAD came in on");
	memset(&r, 0, sizeof(r));
	put(&s, TRACE_REC_PORTINFO, 9, 0, TRACE_REC_PRESENT, &r);
	is_int(lid_paths_lmc(&s, 9, &lmc, &need, why, sizeof(why)),
	       LID_PATHS_KNOWN, "switch known");
	is_int(lmc, 0, "LMC 0");

	/* The SA hides or has no record: the base DLID alone, said why. */
	memset(&r, 0, sizeof(r));
	put(&s, TRACE_REC_NODE, 40, 0, TRACE_REC_ABSENT, &r);
	is_int(lid_paths_lmc(&s, 40, &lmc, &need, why, sizeof(why)),
	       LID_PATHS_UNKNOWN, "no NodeRecord: unknown");
	ok(strstr(why, "no NodeRecord of LID 40") != NULL, "why: %s", why);
	memset(&r, 0, sizeof(r));
	r.u.node.node_type = 1;
	r.u.node.local_port = 1;
	put(&s, TRACE_REC_NODE, 44, 0, TRACE_REC_PRESENT, &r);
	memset(&r, 0, sizeof(r));
	snprintf(r.error, sizeof(r.error), "timed out");
	put(&s, TRACE_REC_PORTINFO, 44, 1, TRACE_REC_FAILED, &r);
	is_int(lid_paths_lmc(&s, 44, &lmc, &need, why, sizeof(why)),
	       LID_PATHS_UNKNOWN, "PortInfoRecord failed: unknown");
	ok(strstr(why, "PortInfoRecord of LID 44 port 1: timed out") != NULL,
	   "why: %s", why);
	trace_store_free(&s);
}

static void test_counts(void)
{
	is_int(lid_paths_base(30, 2), 28, "LID 30 under LMC 2: base 28");
	is_int(lid_paths_base(31, 0), 31, "LMC 0: the LID itself");
	is_int(lid_paths_base(0x1ff, 7), 0x180, "LMC 7: 128 apart");
	is_int((int)lid_paths_count(28, 2), 4, "LMC 2: four DLIDs");
	is_int((int)lid_paths_count(28, 0), 1, "LMC 0: one");
	is_int((int)lid_paths_count(0xbf80, 7), 128, "LMC 7 below the top: 128");
	is_int((int)lid_paths_count(0xbffe, 2), 2,
	       "cut at 0xBFFF, the last unicast LID");
	is_int((int)lid_paths_count(0xc000, 2), 1, "a multicast LID: itself");
	is_int((int)lid_paths_count(0, 2), 1, "LID 0: itself");
}

int main(void)
{
	test_lmc_from_the_sa();
	test_counts();
	return tap_done();
}
