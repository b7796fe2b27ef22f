/* Unit tests of probe's pre-run warnings: the AH warnings are ah_check's
 * (the ones `ah` prints), each said once with the destinations it
 * concerns however many parameter sets there are; a port given with
 * --qpn is said to be ignored; errors and clean cells say nothing. */
#include <string.h>

#include "port_fixture.h"
#include "probe/probe_warnings.h"
#include "tap.h"

/* A cell to dgid with the asked SL and hop limit, built and checked as
 * probe_cell_prepare does (ah_build_from_gid, then ah_check). */
static void cell_for(struct probe_cell *c, struct probe_target *t,
		     const struct ah_port_facts *facts, uint8_t sl,
		     uint8_t hop_limit, uint8_t sgid_index)
{
	struct ah_fields f = {
		.has_sl = true, .sl = sl,
		.has_hop_limit = true, .hop_limit = hop_limit,
	};

	memset(c, 0, sizeof(*c));
	c->target = t;
	ah_build_from_gid(&t->dgid, &f, facts, &c->attr);
	c->attr.grh.sgid_index = sgid_index;
	ah_check(&c->attr, facts, &c->check);
}

static void target_for(struct probe_target *t, struct dest *d,
		       const char *text)
{
	char err[DIAG_MSG_MAX];

	memset(t, 0, sizeof(*t));
	ok(dest_parse(text, d, err, sizeof(err)) == 0, "parses %s", text);
	t->dest = d;
	t->dgid = d->gid;
	t->has_dgid = true;
}

static void test_ah_warnings(void)
{
	struct ah_port_facts facts;
	struct probe_session s;
	struct probe_target t[3];
	struct dest d[3];
	struct probe_cell cells[6];
	struct probe_warnings w;

	roce_facts(&facts);
	target_for(&t[0], &d[0], "2001:db8:3::3");
	target_for(&t[1], &d[1], "2001:db8:4::4");
	target_for(&t[2], &d[2], "10.0.0.2");
	/* Two sets (tclass sweep) to each: sl 8 everywhere, hop limit 0
	 * from 2001:db8:1::1 (index 5) to other /64s. */
	for (int i = 0; i < 2; i++) {
		cell_for(&cells[i], &t[0], &facts, 8, 0, 5);
		cell_for(&cells[2 + i], &t[1], &facts, 8, 0, 5);
		cell_for(&cells[4 + i], &t[2], &facts, 8, 0, 3);
	}
	memset(&s, 0, sizeof(s));
	s.cells = cells;
	s.cell_count = 6;
	probe_warnings_collect(&s, &w);
	is_int(w.count, 2, "two distinct warnings, not one per cell");
	is_str(w.items[0].text, "2001:db8:3::3 and 2 more: sl 8: RoCE carries "
	       "only 3 bits (VLAN PCP 0-7)", "sl 8 on RoCE: ah's words, "
	       "every destination counted once");
	is_str(w.items[1].text, "2001:db8:3::3 and 1 more: hop_limit 0: no "
	       "router forwards the packet, so a routed destination is "
	       "unreachable", "hop limit 0 off the subnet: ah's words, not "
	       "for the IPv4 destination");

	/* Fine values: nothing to say. */
	for (int i = 0; i < 6; i++)
		cell_for(&cells[i], &t[i / 2], &facts, 3, 64,
			 i < 4 ? 5 : 3);
	probe_warnings_collect(&s, &w);
	is_int(w.count, 0, "sl 3, hop limit 64: no warning");
	for (int i = 0; i < 3; i++)
		dest_clear(&d[i]);
}

static void test_qpn_port(void)
{
	struct ah_port_facts facts;
	struct probe_session s;
	struct probe_target t[2];
	struct dest d[2];
	struct probe_cell cells[2];
	struct probe_warnings w;

	roce_facts(&facts);
	target_for(&t[0], &d[0], "10.0.0.2:18600");
	target_for(&t[1], &d[1], "10.0.0.3");
	t[0].has_qpn = t[1].has_qpn = true;
	cell_for(&cells[0], &t[0], &facts, 0, 64, 3);
	cell_for(&cells[1], &t[1], &facts, 0, 64, 3);
	memset(&s, 0, sizeof(s));
	s.cells = cells;
	s.cell_count = 2;
	probe_warnings_collect(&s, &w);
	is_int(w.count, 1, "one warning: the destination with a port");
	is_str(w.items[0].text, "10.0.0.2:18600: --qpn skips the rendezvous, "
	       "so its port 18600 is ignored", "names the port");
	t[0].has_qpn = false;
	probe_warnings_collect(&s, &w);
	is_int(w.count, 0, "without --qpn the port is the rendezvous': fine");
	t[0].has_qpn = true;
	t[0].preset = true;
	probe_warnings_collect(&s, &w);
	is_int(w.count, 0, "--discover's QPN (preset): not the user's --qpn");
	for (int i = 0; i < 2; i++)
		dest_clear(&d[i]);
}

int main(void)
{
	test_ah_warnings();
	test_qpn_port();
	return tap_done();
}
