/* Unit tests of serve's VLAN handling: the request's tag from mlx5-shaped,
 * hns-shaped and rxe-shaped completions into the reply, and the reply's
 * source among fe80::1 on eth0 and eth0.100 by the request's VLAN. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"

#include "peer/responder_vlan.h"
#include "verbs/vlan_egress.h"
#include "verbs/wc_vlan.h"
#include "tap.h"

static void test_observe(void)
{
	struct responder_vlan mlx5 = { .cvlan = true,
				       .pcp_in_cvlan =
					       provider_cvlan_has_pcp(PROVIDER_MLX5) };
	struct responder_vlan hns = { .cvlan = true,
				      .pcp_in_cvlan =
					      provider_cvlan_has_pcp(PROVIDER_HNS) };
	struct responder_vlan rxe = { .cvlan = false };
	struct ud_completion c = { .cvlan_valid = true, .cvlan = 0x6064 };
	struct probe_observed o;

	memset(&o, 0, sizeof(o));
	responder_vlan_observe(&mlx5, &c, &o);
	ok(o.vlan_reporter && o.vlan_known && o.pcp_known && o.vlan_id == 100 &&
		   o.pcp == 3,
	   "mlx5 cvlan 0x6064: VLAN 100 PCP 3");
	is_int(responder_vlan_key(&o), 100, "keyed by VLAN 100");
	memset(&o, 0, sizeof(o));
	c.cvlan = 0x0064;
	responder_vlan_observe(&hns, &c, &o);
	ok(o.vlan_known && o.vlan_id == 100 && !o.pcp_known,
	   "hns cvlan 0x0064: VLAN 100, PCP unknown");
	memset(&o, 0, sizeof(o));
	c.cvlan = 0;
	responder_vlan_observe(&mlx5, &c, &o);
	ok(o.vlan_known && o.vlan_id == 0 && o.pcp == 0, "untagged: VID 0");
	is_int(responder_vlan_key(&o), VLAN_ID_NONE, "untagged: keyed as none");
	memset(&o, 0, sizeof(o));
	c.cvlan_valid = false;
	responder_vlan_observe(&rxe, &c, &o);
	ok(o.vlan_reporter && !o.vlan_known && !o.pcp_known,
	   "rxe (no CVLAN): reporter, tag unknown");
	is_int(responder_vlan_key(&o), VLAN_ID_NONE, "unknown: keyed as none");
}

static void test_reply_gid(void)
{
	union ibv_gid ll = { .raw = { 0xfe, 0x80, [15] = 1 } };
	struct gid_vlan_entry t[] = {
		{ 0, ll, GID_KIND_ROCE_V1, "eth0", VLAN_ID_NONE },
		{ 1, ll, GID_KIND_ROCE_V2, "eth0", VLAN_ID_NONE },
		{ 2, ll, GID_KIND_ROCE_V1, "eth0.100", 100 },
		{ 3, ll, GID_KIND_ROCE_V2, "eth0.100", 100 },
	};
	struct responder_vlan rv = { .gids = t, .count = 4, .cvlan = true,
				     .why_not = "" };
	struct probe_observed o = { .grh_present = true, .dgid = ll,
				    .vlan_reporter = true };
	bool by_vlan;

	o.vlan_known = true;
	o.vlan_id = 100;
	is_int(responder_vlan_reply_gid(&rv, &o, 17, &by_vlan), 3,
	       "VLAN 100, RoCE v2: eth0.100's entry");
	ok(by_vlan, "which libibverbs would not have picked");
	is_int(responder_vlan_reply_gid(&rv, &o, 0x1b, &by_vlan), 2,
	       "VLAN 100, RoCE v1: eth0.100's v1 entry");
	o.vlan_id = 0;
	is_int(responder_vlan_reply_gid(&rv, &o, 17, &by_vlan), 1,
	       "untagged: eth0's entry");
	ok(!by_vlan, "libibverbs' own choice");
	o.vlan_known = false;
	rv.why_not = "mlx4_0 does not report the VLAN tag of a receive";
	is_int(responder_vlan_reply_gid(&rv, &o, 17, &by_vlan), 1,
	       "VLAN unknown: the first, as today");
	ok(!by_vlan, "unchanged");
	o.vlan_known = true;
	o.vlan_id = 300;
	is_int(responder_vlan_reply_gid(&rv, &o, 17, &by_vlan), 1,
	       "VLAN 300 (no netdev): the first, as today");
	ok(!by_vlan, "unchanged");
	o.dgid.raw[15] = 9;
	is_int(responder_vlan_reply_gid(&rv, &o, 17, &by_vlan), -1,
	       "a GID not ours: -1");
}

/* What serve -v says of a reply's source: stderr of one call. */
static void said(const struct responder_vlan *rv,
		 const struct probe_observed *o, char *text, size_t len)
{
	FILE *err = tmpfile();
	bool by_vlan;
	size_t n;
	int saved;

	text[0] = '\0';
	if (!err)
		return;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fileno(err), STDERR_FILENO);
	diag_verbosity = 1;
	responder_vlan_reply_gid(rv, o, 17, &by_vlan);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	diag_verbosity = 0;
	rewind(err);
	n = fread(text, 1, len - 1, err);
	text[n] = '\0';
	fclose(err);
	if (text[0])
		printf("# %s", text);
}

static void test_verbose(void)
{
	union ibv_gid ll = { .raw = { 0xfe, 0x80, [15] = 1 } };
	struct gid_vlan_entry t[] = {
		{ 1, ll, GID_KIND_ROCE_V2, "eth0", VLAN_ID_NONE },
		{ 3, ll, GID_KIND_ROCE_V2, "eth0.100", 100 },
	};
	struct responder_vlan rv = {
		.gids = t, .count = 2,
		.why_not = "mlx4_0 does not report the VLAN tag of a receive",
	};
	struct probe_observed o = { .grh_present = true, .dgid = ll,
				    .vlan_reporter = true, .src_qp = 0x11 };
	char text[1024];

	said(&rv, &o, text, sizeof(text));
	ok(strstr(text, "fe80::1 is on eth0, eth0.100") &&
		   strstr(text, "not known (mlx4_0 does not report") &&
		   strstr(text, "answering from eth0 (index 1)"),
	   "-v: VLAN unknown, the GID on two netdevs, the first kept");
	o.vlan_known = true;
	o.vlan_id = 200;
	said(&rv, &o, text, sizeof(text));
	ok(strstr(text, "came on VLAN 200") != NULL,
	   "-v: a VLAN no netdev has is named");
	o.vlan_id = 100;
	said(&rv, &o, text, sizeof(text));
	is_str(text, "", "-v: a matched VLAN is not news at -v");
}

int main(void)
{
	test_verbose();
	test_observe();
	test_reply_gid();
	return tap_done();
}
