/* The fleet port audit's judgement: which GIDs are routable, the index a
 * fleet-wide NCCL_IB_GID_INDEX fails at, a host counted once per value,
 * and the sentences' counts. */
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "report/ports_audit.h"
#include "report/render/report_render_ports.h"
#include "tap.h"

#define V1 "RoCE v1"
#define V2 "RoCE v2"

/* A ports -j document of one host and one RoCE port; gids: the JSON of
 * its GID entries. */
static int add_host(struct ports_audit *a, const char *host, const char *gids)
{
	char doc[4096], err[512];
	int rc;

	snprintf(doc, sizeof(doc),
		 "[{\"host\":\"%s\",\"device\":\"mlx5_0\",\"status\":\"ok\","
		 "\"fw_ver\":\"28.39.1002\",\"ports\":[{\"port_num\":1,"
		 "\"state\":\"ACTIVE\",\"link_layer\":\"Ethernet\",\"lid\":0,"
		 "\"lmc\":0,\"active_mtu\":4096,\"rate_gbps\":100,"
		 "\"gids\":[%s]}]}]", host, gids);
	rc = ports_audit_read(a, host, doc, strlen(doc), err, sizeof(err));
	if (rc)
		printf("# %s\n", err);
	return rc;
}

#define GID(i, g, t) "{\"index\":" #i ",\"gid\":\"" g "\",\"type\":\"" t \
	"\",\"netdev\":\"eth0\"}"

static void routable(void)
{
	struct audit_gid g = { 0 };
	char err[128];

	ok(parse_gid("::ffff:10.0.0.1", &g.gid, err, sizeof(err)) == 0,
	   "an IPv4-mapped GID parses");
	g.kind = GID_KIND_ROCE_V2;
	ok(audit_gid_routable(&g), "RoCE v2 IPv4: routable");
	g.kind = GID_KIND_ROCE_V1;
	ok(!audit_gid_routable(&g), "RoCE v1: not routed");
	parse_gid("fe80::1", &g.gid, err, sizeof(err));
	g.kind = GID_KIND_ROCE_V2;
	ok(!audit_gid_routable(&g), "link-local RoCE v2: not routable");
	parse_gid("fec0::10:1", &g.gid, err, sizeof(err));
	g.kind = GID_KIND_IB;
	ok(audit_gid_routable(&g), "IB GID with a site prefix: routable");
}

static void index_fails(void)
{
	struct ports_audit a;
	char err[256], text[512];

	ports_audit_init(&a);
	/* h1, h2: IPv4 at 3. h3: lowest at 1, and index 3 is a second
	 * address, so NCCL_IB_GID_INDEX=3 works there. h4: lowest at 5,
	 * index 3 a RoCE v1 GID: it fails. */
	ok(add_host(&a, "h1", GID(2, "::ffff:10.0.0.1", V1) ","
			      GID(3, "::ffff:10.0.0.1", V2)) == 0 &&
	   add_host(&a, "h2", GID(2, "::ffff:10.0.0.2", V1) ","
			      GID(3, "::ffff:10.0.0.2", V2)) == 0 &&
	   add_host(&a, "h3", GID(1, "::ffff:10.0.0.3", V2) ","
			      GID(3, "::ffff:10.9.0.3", V2)) == 0 &&
	   add_host(&a, "h4", GID(3, "::ffff:10.0.0.4", V1) ","
			      GID(5, "::ffff:10.0.0.4", V2)) == 0,
	   "four hosts read");
	ok(ports_audit_build(&a, err, sizeof(err)) == 0, "built");
	is_int(ports_audit_index_fails(&a, 3), 1, "index 3 fails on h4 only");
	is_int(ports_audit_index_fails(&a, 5), 3, "index 5 fails on the others");
	is_int(ports_audit_index_fails(&a, 2), 4, "index 2 (RoCE v1) fails everywhere");
	is_str(ports_fact_sentence(&a, AUDIT_FACT_GID_V2_IPV4, text,
				   sizeof(text)),
	       "RoCE v2 IPv4 GID at index 3 on 2 hosts; at index 1 on 1 host; "
	       "at index 5 on 1 host: a fleet-wide NCCL_IB_GID_INDEX=3 fails "
	       "on 1 of them", "the sentence counts where 3 really fails");
	ok(ports_audit_as_expected(&a), "nothing pinned: as expected");
	ports_audit_free(&a);

	ports_audit_init(&a);
	a.expect_gid_index = 3;
	add_host(&a, "h1", GID(3, "::ffff:10.0.0.1", V2));
	add_host(&a, "h4", GID(3, "::ffff:10.0.0.4", V1) ","
			   GID(5, "::ffff:10.0.0.4", V2));
	ports_audit_build(&a, err, sizeof(err));
	ok(!ports_audit_as_expected(&a), "--expect-gid-index 3 with h4: not met");
	is_int(a.facts[AUDIT_FACT_GID_V2_IPV4].disagreeing, 1, "one host differs");
	ports_audit_free(&a);
}

static void host_once(void)
{
	struct ports_audit a;
	char err[512];
	const char *doc =
		"[{\"host\":\"h\",\"device\":\"mlx5_0\",\"status\":\"ok\","
		"\"fw_ver\":\"1\",\"ports\":["
		"{\"port_num\":1,\"state\":\"ACTIVE\",\"link_layer\":\"Ethernet\","
		"\"lid\":0,\"lmc\":0,\"active_mtu\":4096,\"rate_gbps\":100,"
		"\"gids\":[" GID(3, "::ffff:10.0.0.1", V2) "]},"
		"{\"port_num\":2,\"state\":\"ACTIVE\",\"link_layer\":\"Ethernet\","
		"\"lid\":0,\"lmc\":0,\"active_mtu\":4096,\"rate_gbps\":100,"
		"\"gids\":[" GID(3, "::ffff:10.0.1.1", V2) "]}]}]";

	ports_audit_init(&a);
	ok(ports_audit_read(&a, "t", doc, strlen(doc), err, sizeof(err)) == 0,
	   "two ports of one host read");
	ports_audit_build(&a, err, sizeof(err));
	is_int(a.facts[AUDIT_FACT_GID_V2_IPV4].values[0].count, 1,
	       "the host counts once at index 3");
	is_int(a.facts[AUDIT_FACT_MTU].values[0].count, 2,
	       "the MTU counts its two ports");
	is_int(a.facts[AUDIT_FACT_FIRMWARE].values[0].count, 1,
	       "the firmware counts its one device");
	ports_audit_free(&a);
}

static void counts(void)
{
	char buf[32];

	is_str(ports_count_text(0, buf, sizeof(buf)), "0", "0");
	is_str(ports_count_text(999, buf, sizeof(buf)), "999", "999");
	is_str(ports_count_text(4032, buf, sizeof(buf)), "4,032", "4,032");
	is_str(ports_count_text(1000000, buf, sizeof(buf)), "1,000,000",
	       "1,000,000");
}

int main(void)
{
	routable();
	index_fails();
	host_once();
	counts();
	return tap_done();
}
