/* Unit tests of report --groups sa without an SA: which source ports the
 * results name (each LID and port once, source.lid absent or null as 0),
 * and the host groups made from the ports' leaf switches: a host in its
 * switch's group, a host on two switches split by port address, a host
 * with some port on a switch grouped by it, a host with none counted
 * with why; then the groups folded into the report as a file's are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_groups.h"
#include "report/report_groups_sa.h"
#include "report/report_input.h"
#include "tap.h"

/* One result of HOST (port PORT, GID fe80::GIDNO) to DEST; lid NULL:
 * no "lid" member at all, as probes before it wrote. */
static void result(FILE *f, const char *host, int port, const char *lid,
		   int gidno, const char *dest)
{
	fprintf(f, "{\"dest\":\"%s\",\"source\":{\"host\":\"%s\","
		"\"device\":\"mlx5_0\",\"port_num\":%d%s%s,"
		"\"sgid\":\"fe80::%x\"},\"params\":{\"hop_limit\":64,"
		"\"traffic_class\":0,\"flow_label\":0,\"sl\":0},"
		"\"status\":\"reachable\",\"sent\":10,\"received\":10,"
		"\"lost\":0,\"late\":0,\"rtt_us\":{\"min\":1,\"median\":2,"
		"\"p99\":3,\"max\":4},\"observed\":{\"grh_present\":false,"
		"\"traffic_class\":0},\"hops\":0,\"verdicts\":[\"reachable\"],"
		"\"findings\":[],\"ah_attr\":{\"is_global\":0,\"grh\":null}}\n",
		dest, host, port, lid ? ",\"lid\":" : "", lid ? lid : "",
		gidno);
}

static int load(struct report *r, void (*write)(FILE *))
{
	char *text = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	write(f);
	fclose(f);
	report_init(r);
	rc = report_read_buffer(r, "t", text, len, NULL, err, sizeof(err));
	if (rc == 0)
		rc = report_build(r, err, sizeof(err));
	if (rc)
		fprintf(stderr, "# load: %s\n", err);
	free(text);
	return rc;
}

static void fabric(FILE *f)
{
	result(f, "h1", 1, "1", 0x11, "fe80::12");
	result(f, "h1", 1, "1", 0x11, "fe80::13");	/* same port again */
	result(f, "h2", 1, "4", 0x12, "fe80::11");
	result(f, "h3", 1, "null", 0x13, "fe80::11");	/* RoCE-like */
	result(f, "h4", 1, NULL, 0x14, "fe80::11");	/* older probe */
	result(f, "r", 1, "7", 0x15, "fe80::11");	/* two rails */
	result(f, "r", 2, "8", 0x16, "fe80::11");
}

static void test_collect(void)
{
	struct report r;
	struct sa_groups s;
	size_t lid0 = 0, with_lid = 0;

	if (load(&r, fabric)) {
		ok(0, "the results load");
		return;
	}
	is_int(sa_groups_collect(&s, &r), 0, "collected");
	is_int(s.port_count, 5, "ports: LIDs 1, 4, 7, 8 and one LID 0 "
	       "(null and absent alike)");
	is_int(s.source_count, 6, "sources: h1 once, h2, h3, h4, r twice");
	for (size_t i = 0; i < s.port_count; i++) {
		lid0 += s.ports[i].lid == 0;
		with_lid += s.ports[i].lid != 0;
	}
	is_int(lid0, 1, "one port without a LID");
	is_int(with_lid, 4, "four to ask the SA about");
	for (size_t i = 0; i < s.source_count; i++)
		if (strcmp(s.sources[i].host, "r") == 0 &&
		    s.ports[s.sources[i].port].lid == 8)
			is_str(s.sources[i].addr, "fe80::16",
			       "a source keeps its address, as the matrix "
			       "keys it");
	sa_groups_free(&s);
	report_free(&r);
}

static struct leaf_switch on(uint64_t guid, const char *desc)
{
	struct leaf_switch l = { .status = LEAF_FOUND, .node_guid = guid };

	snprintf(l.description, sizeof(l.description), "%s", desc);
	return l;
}

static void test_build(void)
{
	struct sa_groups_port ports[] = {
		{ .lid = 1, .port = 1, .leaf = on(0x200000, "S1") },
		{ .lid = 4, .port = 1, .leaf = on(0x200000, "S1") },
		{ .lid = 5, .port = 1, .leaf = on(0x200001, "S2") },
		{ .lid = 0, .port = 1, .leaf = { .status = LEAF_NO_LID } },
		{ .lid = 7, .port = 1, .leaf = { .status = LEAF_NO_LINK } },
		{ .lid = 9, .port = 1, .leaf = { .status = LEAF_NOT_SWITCH } },
		{ .lid = 10, .port = 1, .leaf = { .status = LEAF_SA_FAILED } },
	};
	struct sa_groups_source sources[] = {
		{ "h1", "fe80::1", 0 },
		{ "h2", "fe80::2", 1 },
		{ "h3", "fe80::3", 2 },
		{ "z", "fe80::4", 4 },	/* no link, */
		{ "z", "", 3 },		/* and no LID: no LID comes first */
		{ "r", "fe80::a", 0 },	/* rail 1 on S1 */
		{ "r", "fe80::b", 2 },	/* rail 2 on S2 */
		{ "q", "fe80::c", 4 },	/* one port with no link, */
		{ "q", "fe80::d", 2 },	/* the other on S2 */
		{ "b2b", "fe80::e", 5 },
		{ "lost", "fe80::f", 6 },
	};
	struct sa_groups s = {
		.ports = ports, .port_count = 7,
		.sources = sources, .source_count = 11,
	};
	struct host_groups hg;
	char err[256] = "";

	is_int(sa_groups_build(&s, &hg, err, sizeof(err)), 0, "built");
	is_int(hg.group_count, 2, "two switches, two groups");
	is_str(hg.group_names[0], "S1", "groups in name order: S1");
	is_str(hg.group_names[1], "S2", "then S2");
	is_int(host_groups_find(&hg, "h1"), 0, "h1 on S1");
	is_int(host_groups_find(&hg, "h2"), 0, "h2 on S1");
	is_int(host_groups_find(&hg, "h3"), 1, "h3 on S2");
	is_int(host_groups_find(&hg, "q"), 1,
	       "q: the port with a switch groups the host");
	is_int(host_groups_find(&hg, "r"), -1,
	       "r, on two switches, is not grouped as one host");
	is_int(host_groups_find(&hg, "fe80::a"), 0, "r's rail 1 on S1");
	is_int(host_groups_find(&hg, "fe80::b"), 1, "r's rail 2 on S2");
	is_int(host_groups_find(&hg, "z"), -1, "z in no group");
	is_int(hg.count, 6, "six entries: four hosts, two rails");
	is_int(s.split_hosts, 1, "one host split by port");
	is_int(s.ungrouped[LEAF_NO_LID], 1, "z counted once, for its "
	       "first reason");
	is_int(s.ungrouped[LEAF_NO_LINK], 0, "... not twice");
	is_int(s.ungrouped[LEAF_NOT_SWITCH], 1, "b2b: cabled to no switch");
	is_int(s.ungrouped[LEAF_SA_FAILED], 1, "lost: no usable answer");
	host_groups_free(&hg);
}

/* The groups fold the report as a file's would: r's two rows land in
 * two groups, h3 and h4 (no LID) alone. */
static void test_fold(void)
{
	struct report r;
	struct sa_groups s;
	struct host_groups hg;
	struct report_grouping g;
	char err[256] = "";
	size_t alone = 0;

	if (load(&r, fabric)) {
		ok(0, "the results load");
		return;
	}
	sa_groups_collect(&s, &r);
	for (size_t i = 0; i < s.port_count; i++) {
		struct sa_groups_port *p = &s.ports[i];

		if (p->lid == 0)
			p->leaf.status = LEAF_NO_LID;
		else
			p->leaf = on(p->lid == 8 ? 0x200001 : 0x200000,
				     p->lid == 8 ? "S2" : "S1");
	}
	is_int(sa_groups_build(&s, &hg, err, sizeof(err)), 0, "built");
	is_int(report_groups_build(&g, &r, &hg, err, sizeof(err)), 0,
	       "folded");
	is_str(g.groups[0].name, "S1", "S1 first");
	is_str(g.groups[1].name, "S2", "then S2");
	is_int(g.groups[0].row_count, 3, "S1: h1, h2 and r's rail 1");
	is_int(g.groups[1].row_count, 1, "S2: r's rail 2");
	for (size_t k = 0; k < g.count; k++)
		alone += g.groups[k].ungrouped;
	is_int(alone, 2, "h3 and h4 alone");
	is_int(s.ungrouped[LEAF_NO_LID], 2, "both for want of a LID");
	report_groups_free(&g);
	host_groups_free(&hg);
	sa_groups_free(&s);
	report_free(&r);
}

int main(void)
{
	test_collect();
	test_build();
	test_fold();
	return tap_done();
}
