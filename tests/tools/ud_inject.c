/* Test tool: sends malformed probe packets at a responder over UD, to
 * show that serve counts and drops them and keeps answering.
 *
 *   ud_inject [-r] -d DEV -g SGID_INDEX DGID QPN QKEY KIND [COUNT]
 *
 * KIND: truncated (10 bytes), bad_magic, bad_version, bad_kind,
 * bad_length (length field 8, below any valid request), reply (a well-formed
 * reply, which a responder must not answer), request (a valid request),
 * request_v1 (an older prober's: 136 bytes, no timing flag).
 * -r: then waits 2 s for answers and prints "reply LEN" or "stamps LEN"
 * for each (LEN without the GRH).
 * Exit status 0 when every send completed, 1 otherwise, 2 usage. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monotonic.h"
#include "wire/probe_wire.h"
#include "verbs/ud_endpoint.h"
#include "wire/wire_bytes.h"

static void usage(void)
{
	fprintf(stderr, "usage: ud_inject [-r] -d DEV -g SGID_INDEX DGID QPN "
		"QKEY truncated|bad_magic|bad_version|bad_kind|bad_length|"
		"reply|request|request_v1 [COUNT]\n");
	exit(2);
}

/* A valid request, then the one defect KIND asks for; returns its length. */
static size_t build(const char *kind, uint8_t *buf)
{
	struct probe_header h = { .kind = PROBE_REQUEST, .probe_id = 0x1e57,
				  .asked = { .hop_limit = 64 },
				  .flags = PROBE_REQUEST_WANTS_TIMING };
	size_t len = probe_encode_request(&h, buf, PROBE_REQUEST_MIN_SIZE);

	if (strcmp(kind, "request_v1") == 0) {
		/* Byte 27 clear and 136 bytes, as builds before the timing
		 * sent them. */
		wire_put8(buf, 27, 0);
		wire_put16(buf, 6, PROBE_REQUEST_V1_MIN_SIZE);
		return PROBE_REQUEST_V1_MIN_SIZE;
	}
	if (strcmp(kind, "reply") == 0) {
		struct probe_reply r = { .header = h };

		r.header.kind = PROBE_REPLY;
		return probe_encode_reply(&r, buf, PROBE_REPLY_SIZE);
	}
	if (strcmp(kind, "truncated") == 0)
		return 10;
	if (strcmp(kind, "bad_magic") == 0)
		wire_put32(buf, 0, 0xdeadbeef);
	else if (strcmp(kind, "bad_version") == 0)
		wire_put8(buf, 4, PROBE_VERSION + 7);
	else if (strcmp(kind, "bad_kind") == 0)
		wire_put8(buf, 5, 9);
	else if (strcmp(kind, "bad_length") == 0)
		wire_put16(buf, 6, 8);
	else if (strcmp(kind, "request") != 0)
		usage();
	return len;
}

/* One answer: its kind and length. */
static void print_answer(void *ctx, const struct ibv_wc *wc)
{
	struct ud_endpoint *ep = ctx;
	struct probe_header h;
	const uint8_t *b;

	if (!ud_wc_is_recv(wc) || wc->status != IBV_WC_SUCCESS ||
	    wc->byte_len < UD_GRH_BYTES)
		return;
	b = ud_recv_buffer(ep, wc) + UD_GRH_BYTES;
	if (probe_decode_header(b, wc->byte_len - UD_GRH_BYTES, &h) != PROBE_OK)
		return;
	printf("%s %u\n", h.kind == PROBE_REPLY ? "reply"
			   : h.kind == PROBE_STAMPS ? "stamps" : "request",
	       h.length);
}

/* What came back within 2 s (after those print_answer took while the
 * sends drained). */
static void print_answers(struct ud_endpoint *ep, struct ibv_wc *wcs)
{
	uint64_t end = monotonic_ns() + 2000000000ull;
	int n;

	while (monotonic_ns() < end &&
	       (n = ud_poll(ep, wcs, 16, 100)) >= 0) {
		for (int i = 0; i < n; i++) {
			if (!ud_wc_is_recv(&wcs[i]))
				continue;
			print_answer(ep, &wcs[i]);
			ud_repost_recv(ep, &wcs[i]);
		}
	}
}

int main(int argc, char **argv)
{
	struct ud_config config = { .port_num = 1, .qkey = UD_DEFAULT_QKEY,
				    .recv_depth = 16, .send_depth = 16,
				    .max_payload = PROBE_MAX_SIZE };
	struct ibv_ah_attr attr = { .is_global = 1, .port_num = 1 };
	struct ud_endpoint ep;
	struct ibv_wc wcs[16];
	struct ibv_ah *ah;
	uint8_t buf[PROBE_MAX_SIZE];
	char err[512];
	int opt, count = 1, failed = 0;
	bool answers = false;

	while ((opt = getopt(argc, argv, "rd:g:")) != -1) {
		if (opt == 'r')
			answers = true;
		else if (opt == 'd')
			config.device = optarg;
		else if (opt == 'g')
			attr.grh.sgid_index = (uint8_t)atoi(optarg);
		else
			usage();
	}
	if (argc - optind < 4 || !config.device)
		usage();
	if (inet_pton(AF_INET6, argv[optind], attr.grh.dgid.raw) != 1)
		usage();
	attr.grh.hop_limit = 64;
	if (argc - optind > 4)
		count = atoi(argv[optind + 4]);
	uint32_t qpn = (uint32_t)strtoul(argv[optind + 1], NULL, 0);
	uint32_t qkey = (uint32_t)strtoul(argv[optind + 2], NULL, 0);
	size_t len = build(argv[optind + 3], buf);

	if (ud_endpoint_open(&ep, &config, err, sizeof(err))) {
		fprintf(stderr, "ud_inject: %s\n", err);
		return 1;
	}
	ah = ibv_create_ah(ep.pd, &attr);
	if (!ah) {
		fprintf(stderr, "ud_inject: ibv_create_ah: %s\n", strerror(errno));
		ud_endpoint_close(&ep);
		return 1;
	}
	for (int i = 0; i < count; i++) {
		int rc = ud_send(&ep, ah, qpn, qkey, buf, len);

		if (rc == -EAGAIN) {
			ud_poll(&ep, wcs, 16, 1000);
			i--;
			continue;
		}
		if (rc)
			failed++;
	}
	/* An answer that comes while the sends drain is printed too. */
	if (ud_drain_sends(&ep, 2000, answers ? print_answer : NULL, &ep))
		failed++;
	if (answers)
		print_answers(&ep, wcs);
	ibv_destroy_ah(ah);
	ud_endpoint_close(&ep);
	return failed ? 1 : 0;
}
