/* Test driver for the SA client: one PathRecord Get per destination (a LID
 * or a GID), printed decoded, with the time the whole batch took. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/ibrate.h"
#include "base/monotonic.h"
#include "wire/pathrec.h"
#include "sa/sa_client.h"

static void usage(void)
{
	fprintf(stderr, "usage: sa_query [-C ca] [-P port] [-w window] "
		"[-t timeout_ms] [-r retries] [-n repeat] [-q] DEST...\n"
		"DEST: a LID (decimal or 0x..) or a GID\n");
	exit(2);
}

static int parse_dest(const char *s, struct path_constraints *want)
{
	char *end;
	unsigned long v;

	memset(want, 0, sizeof(*want));
	if (strchr(s, ':')) {
		if (inet_pton(AF_INET6, s, want->dgid.raw) != 1)
			return -1;
		want->has_dgid = true;
		return 0;
	}
	v = strtoul(s, &end, 0);
	if (*s == '\0' || *end != '\0' || v == 0 || v > 0xBFFF)
		return -1;
	want->has_dlid = true;
	want->dlid = (uint16_t)v;
	return 0;
}

static void print_record(const char *dest, const struct path_record *r)
{
	char sgid[INET6_ADDRSTRLEN], dgid[INET6_ADDRSTRLEN], rate[16];

	inet_ntop(AF_INET6, r->sgid.raw, sgid, sizeof(sgid));
	inet_ntop(AF_INET6, r->dgid.raw, dgid, sizeof(dgid));
	printf("%s: dlid %u slid %u dgid %s sgid %s sl %u pkey 0x%04x "
	       "mtu %u rate %s hop_limit %u flow_label 0x%05x tclass %u "
	       "reversible %d packet_life %u\n",
	       dest, r->dlid, r->slid, dgid, sgid, r->sl, r->pkey,
	       ibrate_mtu_bytes(r->mtu),
	       ibrate_format_gbps(r->rate, rate, sizeof(rate)),
	       r->hop_limit, r->flow_label, r->traffic_class, r->reversible,
	       r->packet_life);
}

static double now_ms(void)
{
	return (double)monotonic_ns() / 1e6;
}

int main(int argc, char **argv)
{
	const char *ca = NULL;
	unsigned port = 0, window = 16, retries = 2, repeat = 1;
	uint32_t timeout_ms = 200;
	bool quiet = false;
	struct sa_client c;
	struct sa_query *q;
	struct path_constraints *wants;
	char err[256];
	size_t n, i;
	double t0, t1;
	int opt, rc = 0;

	while ((opt = getopt(argc, argv, "C:P:w:t:r:n:q")) != -1) {
		switch (opt) {
		case 'C': ca = optarg; break;
		case 'P': port = (unsigned)atoi(optarg); break;
		case 'w': window = (unsigned)atoi(optarg); break;
		case 't': timeout_ms = (uint32_t)atoi(optarg); break;
		case 'r': retries = (unsigned)atoi(optarg); break;
		case 'n': repeat = (unsigned)atoi(optarg); break;
		case 'q': quiet = true; break;
		default: usage();
		}
	}
	if (optind >= argc || window == 0 || repeat == 0)
		usage();
	n = (size_t)(argc - optind) * repeat;
	q = calloc(n, sizeof(*q));
	wants = calloc(n, sizeof(*wants));
	if (!q || !wants)
		return 1;
	for (i = 0; i < n; i++) {
		struct path_constraints want;
		const char *d = argv[optind + i % (size_t)(argc - optind)];

		if (parse_dest(d, &want)) {
			fprintf(stderr, "sa_query: bad destination %s\n", d);
			return 2;
		}
		wants[i] = want;
	}
	if (sa_client_open(&c, ca, (uint8_t)port, err, sizeof(err)) !=
	    SA_CLIENT_OK) {
		fprintf(stderr, "sa_query: %s\n", err);
		return 3;
	}
	/* Anchor every path at this port: a Get without a source lets
	 * opensm answer a path from any node to the destination. */
	for (i = 0; i < n; i++) {
		wants[i].has_sgid = true;
		wants[i].sgid = c.port_gid;
		sa_encode_path_query(q[i].request, 0, &wants[i]);
	}
	fprintf(stderr, "local %s port %u lid %u sm_lid %u\n", c.ca,
		c.port_num, c.lid, c.sm_lid);
	t0 = now_ms();
	if (sa_client_run(&c, q, n, window, timeout_ms, retries, err,
			  sizeof(err))) {
		fprintf(stderr, "sa_query: %s\n", err);
		sa_client_close(&c);
		return 3;
	}
	t1 = now_ms();
	for (i = 0; i < n; i++) {
		const char *d = argv[optind + i % (size_t)(argc - optind)];
		struct path_record r;

		switch (q[i].result) {
		case SA_RESULT_OK:
			pathrec_decode(q[i].response + SA_HEADER_BYTES, &r);
			if (!quiet)
				print_record(d, &r);
			break;
		case SA_RESULT_STATUS:
			printf("%s: status 0x%04x %s\n", d, q[i].status,
			       sa_status_str(q[i].status));
			rc = 1;
			break;
		default:
			printf("%s: %s after %u attempts (umad status %d)\n", d,
			       q[i].result == SA_RESULT_TIMEOUT ? "timeout" :
			       "send failed", q[i].attempts, q[i].umad_error);
			rc = 1;
		}
	}
	fprintf(stderr, "%zu queries, window %u: %.3f ms total, %.4f ms each\n",
		n, window, t1 - t0, (t1 - t0) / (double)n);
	sa_client_close(&c);
	free(q);
	free(wants);
	return rc;
}
