/* Test driver of responder registration (lib/sa/responder_discovery): the SA
 * half of `serve --register` without a verbs device, for the simulated
 * subnet. Registers a record with the given QPN and Q_Key, renews it
 * while it runs, and deletes it on SIGINT/SIGTERM; -x exits at once
 * without deleting, as a crashed responder would; -N registers the record
 * under a raw ServiceName (not renewed): a record of another service
 * under ibahprobe's ServiceID. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monotonic.h"
#include "sa/responder_discovery.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: sa_service [-C ca] [-P port] [-t timeout_ms] "
		"[-l lease_s] [-g GID] [-n host | -N raw_name] "
		"[-r rendezvous_port] [-p pidfile] [-x] QPN QKEY\n");
	exit(2);
}

static uint32_t number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (!*s || *end || errno || v > 0xffffffffu)
		usage();
	return (uint32_t)v;
}

/* A Set with the record's name replaced: what another program under the
 * same ServiceID would register. */
static int set_raw_name(struct responder_registration *g, const char *name,
			char *err, size_t errlen)
{
	struct service_record rec;
	struct sa_query q = { 0 };
	uint64_t mask = servicerec_from_responder(&g->responder, &rec);

	snprintf(rec.name, sizeof(rec.name), "%s", name);
	sa_encode_service_request(q.request, SA_METHOD_SET, 0, &rec, mask);
	if (sa_client_run(&g->session.sa, &q, 1, 1, g->timeout_ms, 2, err,
			  errlen))
		return -1;
	if (q.result != SA_RESULT_OK) {
		sa_query_describe(&q, "ServiceRecord Set", g->timeout_ms, err,
				  errlen);
		return -1;
	}
	g->registered = true;	/* deleted on exit, never renewed */
	return 0;
}

int main(int argc, char **argv)
{
	struct responder_registration g;
	struct sigaction sa = { .sa_handler = on_signal };
	const char *ca = NULL, *gid = NULL, *host = NULL, *pidfile = NULL;
	const char *raw_name = NULL;
	uint32_t port = 0, timeout_ms = 200, lease = IBAHPROBE_SERVICE_LEASE_S;
	uint32_t rendezvous = 0;
	bool crash = false;
	char err[512], text[64];
	int opt, rc;

	while ((opt = getopt(argc, argv, "C:P:t:l:g:n:N:r:p:x")) != -1) {
		switch (opt) {
		case 'C': ca = optarg; break;
		case 'P': port = number(optarg); break;
		case 't': timeout_ms = number(optarg); break;
		case 'l': lease = number(optarg); break;
		case 'g': gid = optarg; break;
		case 'n': host = optarg; break;
		case 'N': raw_name = optarg; break;
		case 'r': rendezvous = number(optarg); break;
		case 'p': pidfile = optarg; break;
		case 'x': crash = true; break;
		default: usage();
		}
	}
	if (argc - optind != 2 || port > 255 || rendezvous > 0xffff)
		usage();
	if (registration_open(&g, ca, (uint8_t)port, timeout_ms, err,
			      sizeof(err)) != SA_CLIENT_OK) {
		fprintf(stderr, "sa_service: %s\n", err);
		return 3;
	}
	if (gid && inet_pton(AF_INET6, gid, g.responder.gid.raw) != 1)
		usage();
	g.responder.qpn = number(argv[optind]);
	g.responder.qkey = number(argv[optind + 1]);
	g.responder.lease = lease;
	g.responder.rendezvous_port = (uint16_t)rendezvous;
	if (host)
		snprintf(g.responder.host, sizeof(g.responder.host), "%s", host);
	else
		gethostname(g.responder.host, sizeof(g.responder.host) - 1);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (raw_name ? set_raw_name(&g, raw_name, err, sizeof(err))
		     : registration_set(&g, err, sizeof(err))) {
		fprintf(stderr, "sa_service: %s\n", err);
		registration_close(&g);
		return 3;
	}
	inet_ntop(AF_INET6, g.responder.gid.raw, text, sizeof(text));
	if (pidfile) {
		FILE *f = fopen(pidfile, "w");

		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
	}
	printf("registered gid %s qpn %u qkey 0x%08x lease %u\n", text,
	       g.responder.qpn, g.responder.qkey, g.responder.lease);
	fflush(stdout);
	if (crash) {
		registration_close(&g);
		return 0;
	}
	while (!stop) {
		poll(NULL, 0, 100);
		rc = registration_renew_if_due(&g, monotonic_ns(), err,
					       sizeof(err));
		if (rc < 0 && g.renew_failures == 1)
			fprintf(stderr, "sa_service: renewal failed: %s\n", err);
		else if (rc > 0 && g.recovered_after) {
			printf("registered again after %u failed renewals\n",
			       g.recovered_after);
			fflush(stdout);
		}
	}
	rc = registration_delete(&g, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "sa_service: %s\n", err);
	else
		printf("%s\n", rc == 0 ? "deleted" : "gone already");
	registration_close(&g);
	return rc < 0 ? 3 : 0;
}
