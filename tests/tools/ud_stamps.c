/* Test tool: two UD endpoints, A sends tagged messages to B, and the
 * completions' stamps are checked: each send completion carries its tag,
 * each completion its own polled_ns, the stamp source is the one the
 * device and the mode give, and an empty wait sleeps (event) or spins
 * (busy poll) for its whole timeout.
 *
 *   ud_stamps [-H] [-b] [-c COUNT] -d DEV_A -g SGID_INDEX_A -D DEV_B DGID_B
 *
 * -H asks both endpoints for hardware completion timestamps, -b busy
 * polls. Prints "key value" lines (stamp_source, hw, why_not, sent,
 * received, wait_ms, wait_cpu_ms). Exit 0 when every check held, 1 when
 * one failed (said on stderr), 2 usage. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/monotonic.h"
#include "verbs/ud_endpoint.h"

#define BURST 8
#define WAIT_MS 300

static void usage(void)
{
	fprintf(stderr, "usage: ud_stamps [-H] [-b] [-c COUNT] -d DEV_A "
		"-g SGID_INDEX_A -D DEV_B DGID_B\n");
	exit(2);
}

static void check(int *failures, int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "ud_stamps: check failed: %s\n", what);
		(*failures)++;
	}
}

static uint64_t cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) *
		       1000000000u +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) *
		       1000u;
}

/* Takes completions from ep until want have come or 5 s passed; checks
 * that stamps within one batch strictly increase. Returns how many. */
static int collect(struct ud_endpoint *ep, struct ud_completion *out,
		   int want, int *failures)
{
	uint64_t deadline = monotonic_ns() + 5000000000ull;
	int got = 0;

	while (got < want && monotonic_ns() < deadline) {
		int n = ud_poll_stamped(ep, out + got, want - got, 100);

		if (n < 0) {
			check(failures, 0, "ud_poll_stamped failed");
			break;
		}
		for (int i = 1; i < n; i++)
			check(failures, out[got + i].polled_ns > out[got + i - 1].polled_ns,
			      "each completion has its own polled_ns");
		got += n;
	}
	return got;
}

int main(int argc, char **argv)
{
	struct ud_config ca = { .port_num = 1, .qkey = UD_DEFAULT_QKEY,
				.recv_depth = 16, .send_depth = 16,
				.max_payload = 64 };
	struct ud_config cb = { 0 };
	struct ibv_ah_attr attr = { .is_global = 1, .port_num = 1 };
	struct ud_endpoint a, b;
	struct ud_completion sends[BURST], recvs[BURST];
	struct ibv_ah *ah;
	char err[512];
	int opt, count = 32, sent = 0, received = 0, failed = 0;
	int *failures = &failed;
	uint64_t t0, c0, wall, cpu;

	while ((opt = getopt(argc, argv, "Hbc:d:g:D:")) != -1) {
		if (opt == 'H')
			ca.hw_stamps = true;
		else if (opt == 'b')
			ca.busy_poll = true;
		else if (opt == 'c')
			count = atoi(optarg);
		else if (opt == 'd')
			ca.device = optarg;
		else if (opt == 'g')
			attr.grh.sgid_index = (uint8_t)atoi(optarg);
		else if (opt == 'D')
			cb.device = optarg;
		else
			usage();
	}
	if (argc - optind != 1 || !ca.device || count <= 0 ||
	    inet_pton(AF_INET6, argv[optind], attr.grh.dgid.raw) != 1)
		usage();
	{
		const char *dev_b = cb.device;

		cb = ca;
		cb.device = dev_b ? dev_b : ca.device;
	}
	attr.grh.hop_limit = 64;
	if (ud_endpoint_open(&b, &cb, err, sizeof(err))) {
		fprintf(stderr, "ud_stamps: B: %s\n", err);
		return 1;
	}
	if (ud_endpoint_open(&a, &ca, err, sizeof(err))) {
		fprintf(stderr, "ud_stamps: A: %s\n", err);
		ud_endpoint_close(&b);
		return 1;
	}
	printf("stamp_source %s\n", stamp_source_name(ud_stamp_source(&a)));
	printf("hw %s\n", a.clock.hw ? "yes" : "no");
	printf("why_not %s\n", a.clock.why_not);
	ah = ibv_create_ah(a.pd, &attr);
	if (!ah) {
		fprintf(stderr, "ud_stamps: ibv_create_ah: %s\n", strerror(errno));
		ud_endpoint_close(&a);
		ud_endpoint_close(&b);
		return 1;
	}
	while (sent < count) {
		int burst = count - sent < BURST ? count - sent : BURST, n;
		uint64_t before = monotonic_ns();

		for (int i = 0; i < burst; i++) {
			uint64_t tag = 1000 + (uint64_t)sent + (uint64_t)i;
			char msg[64];
			int len = snprintf(msg, sizeof(msg), "stamp %llu",
					   (unsigned long long)tag);

			check(failures, ud_send_tagged(&a, ah, b.qp->qp_num, cb.qkey, msg,
					     (size_t)len + 1, tag) == 0,
			      "ud_send_tagged");
		}
		n = collect(&a, sends, burst, failures);
		check(failures, n == burst, "every send completed");
		for (int i = 0; i < n; i++) {
			check(failures, sends[i].wc.status == IBV_WC_SUCCESS, "send status");
			check(failures, sends[i].tag == 1000 + (uint64_t)sent + (uint64_t)i,
			      "the send completion carries its tag");
			check(failures, sends[i].polled_ns >= before,
			      "send polled after it was posted");
			check(failures, sends[i].hw_valid == a.clock.hw,
			      "hw_valid exactly when the CQ stamps");
		}
		n = collect(&b, recvs, burst, failures);
		for (int i = 0; i < n; i++) {
			check(failures, recvs[i].wc.status == IBV_WC_SUCCESS, "recv status");
			check(failures, recvs[i].tag == 0, "a receive has tag 0");
			check(failures, recvs[i].polled_ns >= before,
			      "receive polled after the send");
			check(failures, recvs[i].wc.byte_len > UD_GRH_BYTES &&
				      memcmp(ud_recv_buffer(&b, &recvs[i].wc) +
						     UD_GRH_BYTES, "stamp ", 6) == 0,
			      "the message arrived");
			if (b.clock.hw && i > 0)
				check(failures, ud_stamp_delta_ns(&b, recvs[i - 1].hw_stamp,
							recvs[i].hw_stamp) <
					      1000000000u,
				      "hw stamps of one burst within 1 s");
			ud_repost_recv(&b, &recvs[i].wc);
		}
		received += n;
		sent += burst;
	}
	/* An empty wait: the whole timeout, sleeping or spinning. */
	t0 = monotonic_ns();
	c0 = cpu_ns();
	check(failures, ud_poll_stamped(&a, sends, BURST, WAIT_MS) == 0,
	      "nothing to take on an idle CQ");
	wall = (monotonic_ns() - t0) / 1000000u;
	cpu = (cpu_ns() - c0) / 1000000u;
	printf("sent %d\nreceived %d\nwait_ms %llu\nwait_cpu_ms %llu\n", sent,
	       received, (unsigned long long)wall, (unsigned long long)cpu);
	check(failures, received == count, "every message received");
	check(failures, wall >= WAIT_MS && wall < 10 * WAIT_MS,
	      "an idle wait lasts its timeout");
	if (ca.busy_poll)
		check(failures, cpu >= wall / 2, "a busy poll spins through the wait");
	else
		check(failures, cpu < wall / 2, "an event wait sleeps through the wait");
	check(failures, ud_drain_sends(&a, 2000, NULL, NULL) == 0, "drain");
	ibv_destroy_ah(ah);
	ud_endpoint_close(&a);
	ud_endpoint_close(&b);
	fflush(stdout);
	return failed ? 1 : 0;
}
