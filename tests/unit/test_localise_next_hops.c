/* Unit tests of naming the unseen hop after a router from its next hops
 * (localise_unseen.c): hosts a0-a3 (behind leaf L, 10.1.0.1) reach the
 * hosts behind five routers N1-N5 (10.3.0.1-5) over spine H (10.2.0.1),
 * ten flows toward each, every flow traced. Two of each ten fail, and
 * their traces stop after H: the hop after H is where they stop, but
 * toward each of H's next hops most flows pass. With more next hops than
 * a candidate set names and none failing most of its flows, nothing
 * after H stands out: no next hop is named (with its siblings as
 * alternatives) for the stops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

#define NEXT_HOPS 5
#define FLOWS 10	/* per source and next hop */
#define FAILING 2	/* of them, per next hop, from source a0 */

/* Flow fl (1..FLOWS) of source a toward the host behind next hop n. */
static bool fails(int a, int n, int fl)
{
	(void)n;
	return a == 0 && fl <= FAILING;
}

static void result(FILE *f, int a, int n, int fl)
{
	int lost = fails(a, n, fl) ? 10 : 0;

	fprintf(f, "{\"dest\":\"10.0.%d.1\",\"source\":{\"host\":\"a%d\","
		"\"device\":\"mlx5_0\",\"port_num\":1,\"provider\":\"mlx5\","
		"\"lid\":0,\"sgid\":\"::ffff:10.0.0.%d\"},\"params\":"
		"{\"hop_limit\":64,\"traffic_class\":104,\"flow_label\":%d,"
		"\"sl\":null},\"status\":\"%s\",\"sent\":20,\"received\":%d,"
		"\"hops\":3,\"verdicts\":[],\"findings\":[],\"rtt_us\":"
		"{\"median\":40.0,\"max\":50.0},\"ah_attr\":{\"is_global\":1,"
		"\"grh\":{\"dgid\":\"::ffff:10.0.%d.1\"}},\"loss_direction\":"
		"\"%s\",\"lost_there\":%d,\"lost_back\":0}\n",
		n + 1, a, a + 1, fl, lost ? "partial_loss" : "reachable",
		20 - lost, n + 1, lost ? "there" : "none", lost);
}

static void hop(FILE *f, int i, const char *from, const char *kind)
{
	fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[", i > 1 ? "," : "", i);
	if (from)
		fprintf(f, "{\"from\":\"%s\",\"kind\":\"%s\",\"rtt_us\":1.0}",
			from, kind);
	else
		fprintf(f, "{\"kind\":\"silent\",\"from\":null,"
			"\"rtt_us\":null}");
	fprintf(f, "]}");
}

static void trace(FILE *f, int a, int n, int fl)
{
	bool stop = fails(a, n, fl);
	char next[32], dest[32];

	snprintf(next, sizeof(next), "10.3.0.%d", n + 1);
	snprintf(dest, sizeof(dest), "10.0.%d.1", n + 1);
	fprintf(f, "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a%d\","
		"\"device\":\"mlx5_0\",\"sgid\":\"::ffff:10.0.0.%d\","
		"\"source_address\":\"10.0.0.%d\",\"dest\":\"%s\","
		"\"dest_address\":\"%s\",\"qpn\":17,\"flow_label\":%d,"
		"\"udp_sport\":1,\"traffic_class\":104,\"status\":\"%s\","
		"\"error\":null,\"hops\":[", a, a + 1, a + 1, dest, dest, fl,
		stop ? "silent" : "reached");
	hop(f, 1, "10.1.0.1", "time_exceeded");
	hop(f, 2, "10.2.0.1", "time_exceeded");
	hop(f, 3, stop ? NULL : next, "time_exceeded");
	hop(f, 4, stop ? NULL : dest, "responder");
	fprintf(f, "],\"traffic_class_changes\":[]}\n");
}

static int build(struct world *w)
{
	char *rbuf = NULL, *tbuf = NULL;
	size_t rlen = 0, tlen = 0;
	FILE *rf = open_memstream(&rbuf, &rlen);
	FILE *tf = open_memstream(&tbuf, &tlen);

	for (int a = 0; a < 4; a++)
		for (int n = 0; n < NEXT_HOPS; n++)
			for (int fl = 1; fl <= FLOWS; fl++) {
				result(rf, a, n, fl);
				trace(tf, a, n, fl);
			}
	fclose(rf);
	fclose(tf);
	return world_localise(w, rbuf, rlen, tbuf, tlen);
}

static void test_no_next_hop_stands_out(void)
{
	struct world w;
	bool next_hop = false;

	if (build(&w)) {
		ok(false, "world built");
		return;
	}
	print_suspects(&w.l);
	for (size_t k = 0; k < w.l.count; k++)
		next_hop = next_hop ||
			   strncmp(w.l.items[k].name, "10.3.0.", 7) == 0;
	ok(!next_hop, "no next hop of H named for the stops after it");
	world_free(&w);
}

int main(void)
{
	test_no_next_hop_stands_out();
	return tap_done();
}
