/* Judging in the probing engine (probe_cell_judge,
 * probe_cell_running_verdict, probe_cell_resolved): a session, its
 * targets and cells built in memory, no device, and the verdict that the
 * session's port, provider, route, recheck and counts lead to. */
#include <string.h>

#include "probe/probe_engine.h"
#include "port_fixture.h"
#include "tap.h"

#define MS 1000000u

static int fake_ah;

struct fixture {
	struct probe_session s;
	struct dest dest;
	struct probe_target target;
	struct probe_cell cell;
};

/* A RoCE port probing 10.0.0.2 from its RoCE v2 GID 3 with hop limit 7;
 * the route says 64 behind a gateway; 5 probes sent, 5 answered, the
 * replies arriving with hop limit arrived. */
static void fixture_init(struct fixture *f, enum provider provider,
			 uint8_t arrived)
{
	memset(f, 0, sizeof(*f));
	roce_facts(&f->s.facts);
	f->s.provider = provider;
	f->s.settings.count = 5;
	f->s.settings.size = 64;
	f->s.settings.timeout_ms = 1000;
	f->s.settings.window = 4;
	f->s.port_mtu = 1024;
	f->s.cells = &f->cell;
	f->s.cell_count = 1;
	f->dest.text = "10.0.0.2";
	f->target.dest = &f->dest;
	f->target.ready = true;
	f->target.known_hops = -1;
	f->target.info.qpn = 17;
	f->target.route_known = true;
	f->target.route.hop_limit = 64;
	f->target.route.has_gateway = true;
	f->cell.target = &f->target;
	f->cell.ah = (struct ibv_ah *)&fake_ah;
	f->cell.asked.hop_limit = 7;
	f->cell.attr.is_global = 1;
	f->cell.attr.grh.sgid_index = 3;
	f->cell.attr.grh.dgid = fixture_gid("10.0.0.2");
	f->cell.sent = 5;
	f->cell.received = 5;
	f->cell.observed_valid = true;
	f->cell.last_reply.observed.grh_present = true;
	f->cell.last_reply.observed.hop_limit = arrived;
}

static bool said(const struct verdict *v, const char *needle)
{
	for (size_t i = 0; i < v->text_count; i++)
		if (strstr(v->text[i], needle))
			return true;
	return false;
}

static void test_reach(void)
{
	struct fixture f;
	struct verdict v;

	fixture_init(&f, PROVIDER_MLX5, 5);
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	is_int(v.reach, PROBE_STATUS_REACHABLE, "all answered: reachable");
	is_int(v.text_count, 0, "nothing more to say");

	f.cell.received = 0;
	f.cell.observed_valid = false;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	is_int(v.reach, PROBE_STATUS_UNREACHABLE, "none answered: unreachable");
	ok(said(&v, "none of 5 probes"), "names the 5 sent: %s", v.text[0]);
	ok(!(v.flags & VERDICT_SIZE_SUSPECT),
	   "64-byte probes on a 1024 port: size not suspect");
	f.s.settings.size = 1000;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	ok(v.flags & VERDICT_SIZE_SUSPECT,
	   "the session's size reaches the verdict: 1000 bytes suspect");
	f.cell.size = 64;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	ok(!(v.flags & VERDICT_SIZE_SUSPECT), "the cell's own size first");

	fixture_init(&f, PROVIDER_MLX5, 5);
	f.cell.received = 3;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	is_int(v.reach, PROBE_STATUS_PARTIAL, "some answered: partial loss");
	ok(said(&v, "2 of 5 probes lost"), "2 of 5 lost: %s", v.text[0]);
	probe_cell_judge(&f.s, &f.cell, 3, &v);
	is_int(v.reach, PROBE_STATUS_REACHABLE,
	       "judged on 3 sent, 3 answered: reachable");
}

static void test_late_and_duplicates(void)
{
	struct fixture f;
	struct verdict v;

	fixture_init(&f, PROVIDER_MLX5, 5);
	f.cell.received = 4;
	f.cell.late = 1;
	f.cell.late_max_ns = 250 * MS;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	is_int(v.reach, PROBE_STATUS_PARTIAL, "a late reply is no answer");
	ok(said(&v, "1 reply came after the 1000 ms deadline, the latest "
		    "250 ms after it"),
	   "late count, deadline and late_max reach the verdict");
	ok(!said(&v, "duplicate"), "no duplicates: none said");
	f.cell.duplicates = 2;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	ok(said(&v, "2 duplicate replies"), "duplicates reach the verdict");
}

static void test_restarted(void)
{
	struct fixture f;
	struct verdict v;

	fixture_init(&f, PROVIDER_MLX5, 5);
	f.cell.received = 2;
	f.target.rechecked = true;
	f.target.rendezvous_again = true;
	f.target.restarted = true;
	f.target.new_qpn = 23;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	ok(v.flags & VERDICT_RESPONDER_RESTARTED, "a new QPN: restarted");
	ok(said(&v, "QPN 17, now 23"), "old and new QPN from the target");

	fixture_init(&f, PROVIDER_MLX5, 5);
	f.cell.received = 0;
	f.cell.observed_valid = false;
	f.target.rechecked = true;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	ok(!(v.flags & VERDICT_DATA_PATH_BLOCKED),
	   "rechecked, rendezvous silent: nothing said to be blocked");
	f.target.rendezvous_again = true;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	ok(v.flags & VERDICT_DATA_PATH_BLOCKED,
	   "rendezvous answered, no datagram: the data path is blocked");
}

/* The provider's hop limit rule, from the session and the cell's GIDs. */
static void test_hop_limit_rule(void)
{
	struct fixture f;
	struct verdict v;

	/* mlx5 sends the AH's 7; 5 arrived: 2 hops. */
	fixture_init(&f, PROVIDER_MLX5, 5);
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_AH, "mlx5: the AH's");
	is_int(v.hop_limit_sent, 7, "mlx5: 7 sent");
	is_int(v.hops, 2, "mlx5: 2 hops");
	ok(strstr(v.hop_limit_why, "mlx5 builds the address vector") != NULL,
	   "the rule's reason: %s", v.hop_limit_why);

	/* rxe: the kernel puts the route's 64 on the wire; 62 arrived. */
	fixture_init(&f, PROVIDER_RXE, 62);
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_ROUTE, "rxe: the route's");
	is_int(v.hop_limit_sent, 64, "rxe: the route's 64 sent");
	is_int(v.hops, 2, "rxe: 2 hops");
	ok(v.flags & VERDICT_HOP_LIMIT_NOT_HONOURED,
	   "rxe: the asked 7 not honoured");
	f.target.route_known = false;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	is_int(v.hop_limit_source, HOP_LIMIT_UNKNOWN,
	       "rxe without the route: unknown");
	is_int(v.hops, -1, "and no hop count");

	/* rxe from the RoCE v1 link-local GID to a link-local DGID: the
	 * route is skipped, the AH's leaves. */
	fixture_init(&f, PROVIDER_RXE, 7);
	f.cell.attr.grh.sgid_index = 0;
	f.cell.attr.grh.dgid = fixture_gid("fe80::2");
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_AH,
	       "rxe, RoCE v1 link-local: the AH's");
	is_int(v.hops, 0, "rxe, RoCE v1 link-local: on link");
	f.cell.attr.grh.sgid_index = 1;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_ROUTE,
	       "rxe, RoCE v2 link-local: the route's, as off the link");

	/* InfiniBand: every provider sends the AH's. */
	fixture_init(&f, PROVIDER_RXE, 7);
	ib_facts(&f.s.facts);
	f.cell.attr.grh.sgid_index = 0;
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_AH, "InfiniBand: the AH's");
}

/* Running rows count only probes resolved: answered or past deadline. */
static void test_running(void)
{
	struct fixture f;
	struct verdict v;

	fixture_init(&f, PROVIDER_MLX5, 5);
	ok(probe_ledger_init(&f.s.ledger, f.s.settings.window) == 0,
	   "a ledger of 4");
	f.cell.sent = 3;
	f.cell.received = 2;
	probe_ledger_sent(&f.s.ledger, 2, 0, 3, 0, 1000 * MS);
	is_int(probe_cell_resolved(&f.s, &f.cell), 2,
	       "3 sent, 1 in flight: 2 resolved");
	probe_cell_running_verdict(&f.s, &f.cell, &v);
	is_int(v.reach, PROBE_STATUS_REACHABLE,
	       "running: 2 of 2 resolved answered, reachable");
	is_int(probe_cell_status(&f.cell, probe_cell_resolved(&f.s, &f.cell)),
	       PROBE_STATUS_REACHABLE, "and its status says so");
	probe_cell_judge(&f.s, &f.cell, f.cell.sent, &v);
	is_int(v.reach, PROBE_STATUS_PARTIAL,
	       "judged on all 3 sent: partial");
	probe_ledger_expire(&f.s.ledger, 1000 * MS, NULL, NULL);
	is_int(probe_cell_resolved(&f.s, &f.cell), 3, "expired: 3 resolved");
	probe_cell_running_verdict(&f.s, &f.cell, &v);
	is_int(v.reach, PROBE_STATUS_PARTIAL, "running, after the deadline: "
	       "partial");
	f.cell.received = 0;
	is_int(probe_cell_status(&f.cell, 0), PROBE_STATUS_PENDING,
	       "none resolved yet: pending");
	probe_ledger_free(&f.s.ledger);
}

/* A reply is ours by its probe id; a datagram too short or of another
 * kind is junk. */
static void test_reply_ours(void)
{
	uint8_t buf[UD_GRH_BYTES + PROBE_REPLY_SIZE] = { 0 };
	struct probe_reply r = {
		.header = { .kind = PROBE_REPLY, .probe_id = 0x1234,
			    .sequence = 9 },
	};
	struct probe_reply got;
	struct fixture f;
	size_t len;

	fixture_init(&f, PROVIDER_MLX5, 5);
	f.s.probe_id = 0x1234;
	len = UD_GRH_BYTES + probe_encode_reply(&r, buf + UD_GRH_BYTES,
						 PROBE_REPLY_SIZE);
	ok(probe_session_reply_ours(&f.s, buf, len, &got),
	   "our probe id: ours");
	is_int(got.header.sequence, 9, "decoded: its sequence");
	f.s.probe_id = 0x4321;
	ok(!probe_session_reply_ours(&f.s, buf, len, &got),
	   "another probe id (another run): not ours");
	f.s.probe_id = 0x1234;
	ok(!probe_session_reply_ours(&f.s, buf, UD_GRH_BYTES - 1, &got),
	   "shorter than a GRH: not ours");
	ok(!probe_session_reply_ours(&f.s, buf, UD_GRH_BYTES + 8, &got),
	   "a truncated reply: not ours");
}

int main(void)
{
	test_reply_ours();
	test_reach();
	test_late_and_duplicates();
	test_restarted();
	test_hop_limit_rule();
	test_running();
	return tap_done();
}
