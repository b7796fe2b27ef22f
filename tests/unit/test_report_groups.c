/* Unit tests of folding a report into group x group blocks: which group
 * each row and column lands in (by host, by the text probers gave, a host
 * the file does not name alone), the counts, worst status and median RTT
 * of each block, and one group of all hosts without a file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/host_groups.h"
#include "report/report_groups.h"
#include "report/report_input.h"
#include "report/report_matrix.h"
#include "tap.h"

#define NEAR(a, b) ((a) - (b) < 1e-9 && (b) - (a) < 1e-9)

/* One result: source host (address 10.0.0.N for hN), destination hM,
 * status, probes answered of 10, median RTT (< 0: none), remarked. */
struct res {
	int src, dst;
	const char *status;
	unsigned received;
	double median;
	int remarked;
	int device;		/* 1: mlx5_1, address 10.0.1.N */
};

static void line(FILE *f, const struct res *x)
{
	char rtt[96] = "null";

	if (x->median >= 0)
		snprintf(rtt, sizeof(rtt), "{\"min\":%g,\"median\":%g,"
			 "\"p99\":%g,\"max\":%g}", x->median, x->median,
			 x->median, x->median);
	fprintf(f, "{\"dest\":\"h%d\",\"source\":{\"host\":\"h%d\","
		"\"device\":\"mlx5_%d\",\"port_num\":1,\"lid\":0,"
		"\"sgid\":\"::ffff:10.0.%d.%d\"},\"params\":{\"hop_limit\":64,"
		"\"traffic_class\":40,\"flow_label\":0,\"sl\":0},"
		"\"status\":\"%s\",\"sent\":10,\"received\":%u,\"lost\":%u,"
		"\"late\":0,\"rtt_us\":%s,\"observed\":{\"grh_present\":true,"
		"\"traffic_class\":%d},\"hops\":0,\"verdicts\":[\"%s\"%s],"
		"\"findings\":[]%s,\"ah_attr\":{\"is_global\":1,\"grh\":"
		"{\"dgid\":\"::ffff:10.0.0.%d\",\"flow_label\":0,"
		"\"sgid_index\":1,\"hop_limit\":64,\"traffic_class\":40}}}\n",
		x->dst, x->src, x->device, x->device, x->src, x->status, x->received,
		10 - x->received, rtt, x->remarked ? 0 : 40, x->status,
		x->remarked ? ",\"tclass_remarked\"" : "",
		strcmp(x->status, "error") ? "" : ",\"error\":\"no route\"",
		x->dst);
}

static void load(struct report *r, const struct res *xs, size_t n)
{
	char *text = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (size_t i = 0; i < n; i++)
		line(f, &xs[i]);
	fclose(f);
	report_init(r);
	if (report_read_buffer(r, "in.jsonl", text, len, NULL, err,
			       sizeof(err)) ||
	    report_build(r, err, sizeof(err)))
		fprintf(stderr, "cannot build the report: %s\n", err), exit(1);
	free(text);
}

static void groups_of(struct host_groups *hg, const char *text)
{
	char err[256] = "";
	FILE *in = fmemopen((void *)text, strlen(text), "r");

	if (host_groups_read(hg, in, "g.txt", err, sizeof(err)))
		fprintf(stderr, "groups: %s\n", err), exit(1);
	fclose(in);
}

/* The names of a group's rows (or columns), comma-separated. */
static const char *members(const struct report *r,
			   const struct report_group *g, bool rows, char *buf,
			   size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < (rows ? g->row_count : g->col_count); k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 k ? "," : "",
					 rows ? r->rows[g->rows[k]]->host
					      : r->cols[g->cols[k]]->dest_name);
	return buf;
}

static void block_is(const struct report_grouping *g, size_t a, size_t b,
		     const size_t want[7], double median, const char *why)
{
	const struct report_block *k = report_groups_block(g, a, b);
	size_t got[7] = { k->pairs, k->status[REPORT_REACHABLE],
			  k->status[REPORT_PARTIAL],
			  k->status[REPORT_UNREACHABLE],
			  k->status[REPORT_ERROR], k->remarked,
			  (size_t)(report_block_worst(k) + 1) };

	ok(memcmp(got, want, sizeof(got)) == 0, "%s: pairs %zu, %zu/%zu/%zu/%zu, "
	   "remarked %zu, worst+1 %zu", why, got[0], got[1], got[2], got[3],
	   got[4], got[5], got[6]);
	if (median < 0)
		ok(!k->has_rtt, "%s: no median RTT", why);
	else
		ok(k->has_rtt && NEAR(k->rtt_median_us, median),
		   "%s: median RTT %g (want %g)", why, k->rtt_median_us, median);
}

int main(void)
{
	/* h1, h2 in A; h3, h4 and h6 (a destination only, found by the
	 * text probers gave) in B; h5 in no group. */
	static const struct res xs[] = {
		{ 1, 2, "reachable", 10, 10, 0, 0 },
		{ 1, 3, "reachable", 10, 20, 0, 0 },
		{ 2, 3, "partial_loss", 5, 30, 0, 0 },
		{ 2, 4, "unreachable", 0, -1, 0, 0 },
		{ 3, 1, "reachable", 10, 40, 1, 0 },
		{ 3, 6, "error", 0, -1, 0, 0 },
		{ 4, 1, "reachable", 10, 50, 0, 0 },
		{ 5, 1, "reachable", 10, 60, 0, 0 },
		{ 1, 5, "reachable", 10, 70, 0, 0 },
		/* h5's second device: a row of its own, in h5's group */
		{ 5, 2, "reachable", 10, 80, 0, 1 },
	};
	struct report r;
	struct host_groups hg;
	struct report_grouping g;
	char err[256], buf[256];

	load(&r, xs, sizeof(xs) / sizeof(xs[0]));
	groups_of(&hg, "h3 B\nh1 A\nh2 A\nh4 B\nh6 B\nh9 C\n");
	is_int(report_groups_build(&g, &r, &hg, err, sizeof(err)), 0, "built");
	is_int(g.count, 3, "A, B and h5: C holds no host of the report");
	is_str(g.groups[0].name, "B", "the file's order: B first");
	is_str(g.groups[1].name, "A", "then A");
	is_str(g.groups[2].name, "h5", "the unlisted host last, by its name");
	ok(!g.groups[0].ungrouped && !g.groups[1].ungrouped &&
	   g.groups[2].ungrouped, "only h5 is ungrouped");
	is_int(g.ungrouped, 1, "one ungrouped host");
	is_str(members(&r, &g.groups[0], true, buf, sizeof(buf)), "h3,h4",
	       "B's rows: h3, h4");
	is_str(members(&r, &g.groups[0], false, buf, sizeof(buf)), "h3,h4,h6",
	       "B's columns: h6 found by the destination text");
	is_str(members(&r, &g.groups[1], true, buf, sizeof(buf)), "h1,h2",
	       "A's rows");
	is_int(g.groups[2].row_count, 2, "both devices of the unlisted h5 "
	       "in one group");
	/* pairs, reachable, partial, unreachable, error, remarked, worst+1 */
	block_is(&g, 1, 1, (const size_t[7]){ 1, 1, 0, 0, 0, 0, 1 }, 10,
		 "A -> A");
	block_is(&g, 1, 0, (const size_t[7]){ 3, 1, 1, 1, 0, 0, 3 }, 25,
		 "A -> B: worst unreachable, median of 20 and 30");
	block_is(&g, 0, 1, (const size_t[7]){ 2, 2, 0, 0, 0, 1, 1 }, 45,
		 "B -> A: one remarked");
	block_is(&g, 0, 0, (const size_t[7]){ 1, 0, 0, 0, 1, 0, 4 }, -1,
		 "B -> B: an error, no RTT");
	block_is(&g, 2, 2, (const size_t[7]){ 0, 0, 0, 0, 0, 0, 0 }, -1,
		 "h5 -> h5: nothing probed, no worst");
	block_is(&g, 2, 1, (const size_t[7]){ 2, 2, 0, 0, 0, 0, 1 }, 70,
		 "h5 (both devices) -> A: median of 60 and 80");
	report_groups_free(&g);

	is_int(report_groups_build(&g, &r, NULL, err, sizeof(err)), 0,
	       "no file: built");
	ok(g.count == 1 && strcmp(g.groups[0].name, "all hosts") == 0 &&
	   g.groups[0].row_count == 6 && g.groups[0].col_count == 6,
	   "one group of all 6 sources and 6 destinations");
	is_int(report_groups_block(&g, 0, 0)->pairs, 10,
	       "holding all 10 pairs");
	report_groups_free(&g);
	host_groups_free(&hg);
	report_free(&r);
	return tap_done();
}
