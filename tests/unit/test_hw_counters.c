/* Unit tests of the receive-drop counter choice: counter lists as mlx5,
 * bnxt_re and rxe expose them under hw_counters/, and the reading of a
 * sysfs tree made in a temporary directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verbs/hw_counters.h"
#include "tap.h"

/* drivers/infiniband/hw/mlx5/counters.c: basic, out_of_seq and retrans
 * Q counters, then the congestion and extended ones. */
static const char *const mlx5_names[] = {
	"rx_write_requests", "rx_read_requests", "rx_atomic_requests",
	"rx_dct_connect", "out_of_buffer", "out_of_sequence",
	"duplicate_request", "rnr_nak_retry_err", "packet_seq_err",
	"implied_nak_seq_err", "local_ack_timeout_err", "np_cnp_sent",
	"rp_cnp_handled", "lifespan",
};

/* drivers/infiniband/sw/rxe/rxe_hw_counters.c rxe_counter_descs. */
static const char *const rxe_names[] = {
	"sent_pkts", "rcvd_pkts", "duplicate_request", "out_of_seq_request",
	"rcvd_rnr_err", "send_rnr_err", "rcvd_seq_err", "ack_deferred",
	"retry_exceeded_err", "retry_rnr_event_err", "send_err",
	"link_downed", "rdma_sends", "rdma_recvs", "lifespan",
};

static const char *const bnxt_names[] = {
	"rx_pkts", "rx_bytes", "tx_pkts", "rx_roce_discard_pkts",
	"res_oob_drop_count", "rx_send_req", "lifespan",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_pick(void)
{
	const struct rq_drop_counter *c;

	c = rq_drop_counter_pick(mlx5_names, N(mlx5_names));
	ok(c && strcmp(c->name, "out_of_buffer") == 0, "mlx5: out_of_buffer");
	ok(c && strstr(c->source, "mlx5/counters.c"), "names its source");
	c = rq_drop_counter_pick(bnxt_names, N(bnxt_names));
	ok(c && strcmp(c->name, "res_oob_drop_count") == 0,
	   "bnxt_re: res_oob_drop_count");
	ok(rq_drop_counter_pick(rxe_names, N(rxe_names)) == NULL,
	   "rxe: none (rcvd_rnr_err is the RC requester's, not a drop)");
	ok(rq_drop_counter_pick(NULL, 0) == NULL, "no counters: none");
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_sysfs(void)
{
	char root[] = "/tmp/ibahprobe-hwc-XXXXXX", dir[512], cmd[600];
	const struct rq_drop_counter *c;
	uint64_t v = 0;

	if (!mkdtemp(root)) {
		ok(false, "temporary directory");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/mlx5_0", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/mlx5_0/ports", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/mlx5_0/ports/1", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/mlx5_0/ports/1/hw_counters", root);
	mkdir(dir, 0755);
	put(dir, "rx_write_requests", "0\n");
	put(dir, "out_of_buffer", "12345\n");
	put(dir, "lifespan", "10\n");
	put(dir, "broken", "12x\n");
	c = rq_drop_counter_find(root, "mlx5_0", 1);
	ok(c && strcmp(c->name, "out_of_buffer") == 0, "found in the tree");
	is_int(hw_counter_read(root, "mlx5_0", 1, "out_of_buffer", &v), 0,
	       "read");
	is_int(v, 12345, "its value");
	is_int(hw_counter_read(root, "mlx5_0", 1, "broken", &v), -1,
	       "trailing junk refused");
	is_int(hw_counter_read(root, "mlx5_0", 1, "absent", &v), -1,
	       "a missing counter cannot be read");
	ok(rq_drop_counter_find(root, "mlx5_0", 2) == NULL,
	   "a port without hw_counters/: none");
	ok(rq_drop_counter_find(root, "rxe0", 1) == NULL, "no device: none");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
}

int main(void)
{
	test_pick();
	test_sysfs();
	return tap_done();
}
