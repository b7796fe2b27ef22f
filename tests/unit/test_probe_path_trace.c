/* probe --paths all: which paths are traced after the run (those whose
 * AH was made and that lost probes), from which SLID to which DLID, and
 * that every cell of a traced path points at its path's walk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out/output.h"
#include "probe/probe_path_trace.h"
#include "capture.h"
#include "tap.h"

/* Our port LID 0x10 under LMC 1, a destination of two DLIDs (0x20,
 * 0x21): four paths, two parameter sets (cells) each. */
static void fill(struct probe_cell *cells, struct probe_target *t)
{
	struct ibv_ah *made = (struct ibv_ah *)t;

	for (unsigned i = 0; i < 8; i++) {
		unsigned p = i / 2;

		cells[i].target = t;
		cells[i].ah = made;
		cells[i].dlid_path = (struct probe_dlid_path){
			.index = p + 1, .of = 4, .dlids = 2,
			.dlid = (uint16_t)(0x20 + p / 2),
			.src_path_bits = (uint8_t)(p % 2),
			.has_path = true,
		};
		cells[i].dlid_path.record.slid = (uint16_t)(0x10 | (p % 2));
		cells[i].sent = 5;
		cells[i].received = 5;
	}
}

static void test_plan(void)
{
	struct probe_target t = { .ready = true };
	struct probe_target local = { .ready = true, .local_port = true };
	struct probe_target plain = { .ready = true };
	struct probe_cell cells[11] = { 0 };
	struct probe_session s = { .cells = cells, .cell_count = 11 };
	struct probe_path_traces tr;

	s.facts.lid = 0x10;
	s.facts.lmc = 1;
	s.facts.port_num = 2;
	fill(cells, &t);
	cells[3].received = 2;		/* path 2: 3 of 10 lost */
	cells[4].ah = NULL;		/* path 3: no AH, nothing sent */
	cells[4].sent = cells[4].received = 0;
	cells[5].received = 0;
	cells[6].received = 0;		/* path 4: all lost, no record */
	cells[7].received = 0;
	cells[6].dlid_path.has_path = cells[7].dlid_path.has_path = false;
	cells[8] = cells[6];		/* this port itself: never */
	cells[8].target = &local;
	cells[9] = (struct probe_cell){ .target = &plain, .sent = 5 };
	cells[10] = cells[9];		/* not expanded: no path to trace */

	ok(probe_path_traces_plan(&s, &tr) == 0, "planned");
	is_int(tr.count, 2, "paths 2 and 4: the two that lost probes");
	ok(tr.jobs[0].slid == 0x11 && tr.jobs[0].dlid == 0x20,
	   "path 2: SLID of its record (path bits 1) to DLID 0x20");
	ok(tr.jobs[1].slid == 0x11 && tr.jobs[1].dlid == 0x21,
	   "path 4, no record: our base LID with its path bits, to 0x21");
	ok(tr.jobs[0].active && tr.jobs[0].src_port == 2 &&
	   tr.jobs[1].active && tr.jobs[1].src_port == 2,
	   "walked from our port");
	ok(cells[2].dlid_path.trace == &tr.jobs[0] &&
	   cells[3].dlid_path.trace == &tr.jobs[0] &&
	   cells[6].dlid_path.trace == &tr.jobs[1] &&
	   cells[7].dlid_path.trace == &tr.jobs[1],
	   "every cell of a traced path points at its walk");
	ok(!cells[0].dlid_path.trace && !cells[1].dlid_path.trace &&
	   !cells[4].dlid_path.trace && !cells[5].dlid_path.trace &&
	   !cells[8].dlid_path.trace && !cells[9].dlid_path.trace,
	   "fine, unprobed, own and unexpanded paths are not traced");
	probe_path_traces_free(&s, &tr);
	ok(!tr.jobs && tr.count == 0 && !cells[2].dlid_path.trace &&
	   !cells[7].dlid_path.trace, "freed, the cells' pointers cleared");

	fill(cells, &t);
	s.cell_count = 8;
	ok(probe_path_traces_plan(&s, &tr) == 0 && tr.count == 0,
	   "every path fine: nothing to trace");
	probe_path_traces_free(&s, &tr);
}

static void test_needs_trace(void)
{
	struct probe_path_count p = { .index = 1, .of = 2, .probed = true,
				      .sent = 10, .received = 10 };

	ok(!probe_path_needs_trace(&p), "all answered: not traced");
	p.received = 9;
	ok(probe_path_needs_trace(&p), "one lost: traced");
	p.received = 0;
	ok(probe_path_needs_trace(&p), "all lost: traced");
	p.probed = false;
	ok(!probe_path_needs_trace(&p), "no AH: its error says why instead");
	p.probed = true;
	p.sent = 0;
	ok(!probe_path_needs_trace(&p), "nothing sent (interrupted): not traced");
}

static void test_slid(void)
{
	struct probe_dlid_path dp = { .src_path_bits = 3 };

	is_int(probe_path_slid(&dp, 0x13, 2), 0x13,
	       "LMC 2: base 0x10 with path bits 3");
	dp.src_path_bits = 1;
	is_int(probe_path_slid(&dp, 0x13, 2), 0x11, "path bits 1: 0x11");
	is_int(probe_path_slid(&dp, 0x13, 0), 0x13,
	       "LMC 0: our LID, whatever the bits");
	dp.has_path = true;
	dp.record.slid = 0x42;
	is_int(probe_path_slid(&dp, 0x13, 2), 0x42, "the record's SLID first");
}

/* What printing dp wrote to stdout in format (malloc'ed). */
static const struct probe_dlid_path *printing;

static void print_text(void)
{
	probe_path_trace_print_text(printing);
}

static void print_json(void)
{
	out_open_object(NULL);
	probe_path_trace_print_json(printing);
	out_close_object();
}

static char *printed(const struct probe_dlid_path *dp, enum out_format format)
{
	printing = dp;
	return strdup(capture_out(format, format == OUT_TEXT ? print_text
							     : print_json));
}

/* A walk that ends where the SA has no link out of S2's port 8. */
static void test_print(void)
{
	struct trace_job job = { .slid = 17, .dlid = 32, .active = true };
	struct probe_dlid_path dp = { .index = 2, .of = 4, .trace = &job };
	struct trace_result *r = &job.result;
	char *out;

	r->status = TRACE_DEAD_END;
	r->hop_count = 2;
	r->where = 1;
	r->hops[0] = (struct trace_hop){ .lid = 17, .node_type = 1,
					 .description = "H11", .out_port = 1 };
	r->hops[1] = (struct trace_hop){ .lid = 2, .node_type = 2,
					 .description = "S2", .in_port = 3,
					 .out_port = 8 };
	snprintf(r->reason, sizeof(r->reason), "no link out of S2 (LID 2) "
		 "port 8: the SA has no LinkRecord");
	out = printed(&dp, OUT_TEXT);
	is_str(out, "  path 2 traced, SLID 17 -> DLID 32, dead end:\n"
	       "    H11 (LID 17) port 1 > S2 (LID 2) 3>8\n"
	       "    no link out of S2 (LID 2) port 8: the SA has no LinkRecord\n",
	       "text: the hops to where it broke, and why");
	free(out);
	out = printed(&dp, OUT_JSON);
	is_str(out, "{\"trace\":{\"status\":\"dead_end\",\"slid\":17,"
	       "\"dlid\":32,\"hops\":[{\"hop\":0,\"node_description\":"
	       "\"H11\",\"lid\":17,\"in_port\":null,\"out_port\":1},"
	       "{\"hop\":1,\"node_description\":\"S2\",\"lid\":2,"
	       "\"in_port\":3,\"out_port\":8}],\"broken_at\":1,"
	       "\"error\":\"no link out of S2 (LID 2) port 8: the SA has no "
	       "LinkRecord\"}}\n", "JSON: trace's keys");
	free(out);
	dp.trace = NULL;
	out = printed(&dp, OUT_TEXT);
	is_str(out, "", "a path not traced: nothing");
	free(out);
}

int main(void)
{
	test_print();
	test_plan();
	test_needs_trace();
	test_slid();
	return tap_done();
}
