/* A stand-in SA for the simulated subnet: answers what opensm never
 * does, so the client's handling of it runs against real MADs. Run it,
 * on the node behind the ports' SM LID once opensm is stopped: it opens
 * the port's issm device, as an SM does, and SA requests to QP 1 reach
 * the port's SM client only.
 *
 *   -b N     answer the first N requests "busy" (MAD status 0x0001)
 *   -r LID   answer every request "redirect required" (status 0x0002)
 *            with a ClassPortInfo that sends the client to LID, QP 1
 *   -G       the redirect names a GID and no LID
 *   -s SL    the SL of the PathRecords it answers (default 0)
 *   -p FILE  its pid, written once it listens
 *
 * Otherwise every PathRecord Get gets a record from the request's SLID to
 * its DLID, with the SL given. Each request is logged on stdout: "ms
 * since start, attribute, what was answered". Runs until SIGTERM. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "base/monotonic.h"
#include "wire/pathrec.h"
#include "sa/sa_status.h"
#include "wire/wire_bytes.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: sa_fake [-b busy_count] [-r redirect_lid] "
		"[-G] [-s sl] [-p pidfile]\n");
	exit(2);
}

static unsigned long number(const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (!*s || *end || errno || v > max)
		usage();
	return v;
}

/* The ClassPortInfo of a redirect to lid (0: by GID only), QP 1. */
static void fill_redirect(uint8_t *mad, uint16_t lid)
{
	uint8_t *cpi = mad + SA_HEADER_BYTES;

	wire_put16(mad, 4, MAD_STATUS_REDIRECT);
	wire_put16(mad, 16, SA_ATTR_CLASS_PORT_INFO);
	memset(cpi, 0, SA_DATA_BYTES);
	cpi[0] = 1;
	cpi[1] = SA_CLASS_VERSION;
	if (!lid) {
		cpi[8] = 0xfe;
		cpi[9] = 0x80;
		cpi[23] = 0x99;
	}
	wire_put16(cpi, 28, lid);
	wire_put16(cpi, 30, 0xffff);
	wire_put32(cpi, 32, SA_QPN);
	wire_put32(cpi, 36, SA_QKEY);
}

/* A PathRecord from the request's SLID to its DLID. */
static void fill_path(uint8_t *mad, uint8_t sl)
{
	struct path_record asked, rec;

	pathrec_decode(mad + SA_HEADER_BYTES, &asked);
	memset(&rec, 0, sizeof(rec));
	rec.dlid = asked.dlid;
	rec.slid = asked.slid;
	rec.sl = sl;
	rec.pkey = 0xffff;
	rec.mtu_selector = rec.rate_selector = SA_SELECTOR_EXACTLY;
	rec.mtu = 4;
	rec.rate = 3;
	rec.reversible = true;
	rec.numb_path = 1;
	wire_put16(mad, 44, PATH_RECORD_BYTES / 8);
	pathrec_encode(&rec, mad + SA_HEADER_BYTES);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned long busy = 0, redirect_lid = 0, sl = 0, seen = 0;
	const char *pidfile = NULL;
	bool by_gid = false, redirect = false;
	long method_mask[16 / sizeof(long)] = { 0 };
	uint64_t start = monotonic_ns();
	int opt, portid, agent, len, issm_fd;
	char issm_path[256];
	void *umad;

	while ((opt = getopt(argc, argv, "b:r:Gs:p:")) != -1) {
		switch (opt) {
		case 'b': busy = number(optarg, 1000); break;
		case 'r': redirect_lid = number(optarg, 0xbfff); redirect = true; break;
		case 'G': by_gid = true; redirect = true; break;
		case 's': sl = number(optarg, 15); break;
		case 'p': pidfile = optarg; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if (umad_init() < 0 || (portid = umad_open_port(NULL, 0)) < 0) {
		fprintf(stderr, "sa_fake: no umad port\n");
		return 3;
	}
	/* A server agent: the requests the SA takes. */
	for (unsigned m = 0; m < 0x80; m++)
		if (m == SA_METHOD_GET || m == SA_METHOD_GET_TABLE ||
		    m == SA_METHOD_SET || m == SA_METHOD_DELETE)
			method_mask[m / (8 * sizeof(long))] |=
				1l << (m % (8 * sizeof(long)));
	agent = umad_register(portid, SA_MGMT_CLASS, SA_CLASS_VERSION, 0,
			      method_mask);
	if (agent < 0) {
		fprintf(stderr, "sa_fake: cannot register the SA class\n");
		return 3;
	}
	/* An SM's port also gets SMPs and traps: under umad2sim a MAD of a
	 * class nobody registered crashes the receiver, so take (and drop)
	 * them. */
	if (umad_register(portid, 0x01, 1, 0, NULL) < 0 ||
	    umad_register(portid, 0x81, 1, 0, NULL) < 0) {
		fprintf(stderr, "sa_fake: cannot register the SM classes\n");
		return 3;
	}
	/* Only now, with every class registered: as the port's SM it gets
	 * MADs at once (under umad2sim, opening the issm device does it). */
	if (umad_get_issm_path(NULL, 0, issm_path, sizeof(issm_path)) < 0 ||
	    (issm_fd = open(issm_path, O_RDWR)) < 0) {
		fprintf(stderr, "sa_fake: cannot open the issm device\n");
		return 3;
	}
	umad = calloc(1, umad_size() + SA_MAD_BYTES);
	if (!umad)
		return 3;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (pidfile) {
		FILE *f = fopen(pidfile, "w");

		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
	}
	printf("listening\n");
	fflush(stdout);
	while (!stop) {
		uint8_t *mad = umad_get_mad(umad);
		const char *what;

		len = SA_MAD_BYTES;
		if (umad_recv(portid, umad, &len, 100) < 0)
			continue;
		if (len < SA_HEADER_BYTES || mad[1] != SA_MGMT_CLASS ||
		    mad[3] & 0x80)
			continue;	/* not an SA request */
		seen++;
		mad[3] = sa_response_method(mad[3]);
		if (seen <= busy) {
			wire_put16(mad, 4, MAD_STATUS_BUSY);
			what = "busy";
		} else if (redirect) {
			fill_redirect(mad, by_gid ? 0 : (uint16_t)redirect_lid);
			what = "redirect";
		} else if (wire_get16(mad, 16) == SA_ATTR_PATH_RECORD) {
			fill_path(mad, (uint8_t)sl);
			what = "path";
		} else {
			wire_put16(mad, 4, 0x0300);
			what = "no records";
		}
		printf("%.1f ms attr 0x%04x %s\n",
		       (double)(monotonic_ns() - start) / 1e6,
		       wire_get16(mad, 16), what);
		fflush(stdout);
		/* Back where it came from: the address umad filled in. */
		if (umad_send(portid, agent, umad, SA_MAD_BYTES, 0, 0) < 0)
			fprintf(stderr, "sa_fake: send failed\n");
	}
	free(umad);
	close(issm_fd);
	umad_unregister(portid, agent);
	umad_close_port(portid);
	return 0;
}
