/* The names of probe's statuses (lib/out/probe_schema.c) and the one
 * place a cell's status is decided (probe_cell_status): what the text
 * table, JSON and report's reader all go by. */
#include <string.h>

#include "out/probe_schema.h"
#include "probe/probe_engine.h"
#include "tap.h"

static int fake_ah;

static void test_names(void)
{
	enum probe_status st;

	is_str(probe_status_name(PROBE_STATUS_REACHABLE), "reachable",
	       "reachable");
	is_str(probe_status_name(PROBE_STATUS_PARTIAL), "partial_loss",
	       "partial_loss");
	is_str(probe_status_name(PROBE_STATUS_UNREACHABLE), "unreachable",
	       "unreachable");
	is_str(probe_status_name(PROBE_STATUS_ERROR), "error", "error");
	is_str(probe_status_name(PROBE_STATUS_PENDING), "unreachable",
	       "nothing resolved yet: unreachable in JSON");
	for (int s = 0; s < PROBE_STATUS_PENDING; s++) {
		const char *name = probe_status_name((enum probe_status)s);

		ok(probe_status_parse(name, strlen(name), &st) == 0 &&
		   st == (enum probe_status)s, "%s reads back", name);
	}
	is_int(probe_status_parse("partial", 7, &st), -1,
	       "a prefix is no status");
	is_int(probe_status_parse("reachablex", 10, &st), -1,
	       "nor a longer word");
}

static void test_cell_status(void)
{
	struct probe_target t = { .ready = true };
	struct probe_cell c = { .target = &t, .ah = (struct ibv_ah *)&fake_ah };

	is_int(probe_cell_status(&c, 0), PROBE_STATUS_PENDING,
	       "none resolved: pending");
	c.received = 5;
	is_int(probe_cell_status(&c, 5), PROBE_STATUS_REACHABLE,
	       "all answered: reachable");
	c.received = 2;
	is_int(probe_cell_status(&c, 5), PROBE_STATUS_PARTIAL,
	       "some answered: partial");
	c.received = 0;
	is_int(probe_cell_status(&c, 5), PROBE_STATUS_UNREACHABLE,
	       "none answered: unreachable");
	c.ah = NULL;
	is_int(probe_cell_status(&c, 5), PROBE_STATUS_ERROR, "no AH: error");
	c.ah = (struct ibv_ah *)&fake_ah;
	t.ready = false;
	is_int(probe_cell_status(&c, 0), PROBE_STATUS_ERROR,
	       "no responder: error, even before a probe");
}

int main(void)
{
	test_names();
	test_cell_status();
	return tap_done();
}
