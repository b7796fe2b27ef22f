/* Test driver for probe --paths all's traces of failing paths
 * (lib/probe/probe_path_trace.h) against the real SA: the probing needs a
 * verbs device, which the simulated subnet lacks, so the paths' counts
 * are given (as a run would have left them) and the rest is the
 * library's: which paths are traced, the walks over the SA from this
 * port, and the closing lines (text) or each path's dlid_path (-j). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out/output.h"
#include "probe/probe_path_trace.h"
#include "sa/path_resolve.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: path_trace [-C ca] [-P port] [-t timeout_ms] [-j] DEST "
		"DLID:SRC_PATH_BITS:SENT:RECEIVED...\n"
		"  one destination's paths, in order, with their counts\n"
		"exit: 0 printed, 2 usage, 3 no SA\n");
	exit(2);
}

static void path_arg(const char *text, struct probe_cell *c)
{
	unsigned dlid, bits, sent, received;
	char end;

	if (sscanf(text, "%i:%u:%u:%u%c", &dlid, &bits, &sent, &received,
		   &end) != 4 || dlid == 0 || dlid > 0xbfff || bits > 127)
		usage();
	c->dlid_path.dlid = (uint16_t)dlid;
	c->dlid_path.src_path_bits = (uint8_t)bits;
	c->sent = sent;
	c->received = received;
}

int main(int argc, char **argv)
{
	struct path_session ps;
	struct probe_session s = { 0 };
	struct probe_path_traces t;
	struct dest dest = { .kind = DEST_LID };
	struct probe_target target = { .dest = &dest, .ready = true };
	struct probe_cell *cells;
	const char *ca = NULL;
	unsigned long port = 0;
	bool json = false;
	char err[512], device[64];
	int opt, n, dlids = 0;

	while ((opt = getopt(argc, argv, "C:P:t:j")) != -1) {
		switch (opt) {
		case 'C': ca = optarg; break;
		case 'P': port = strtoul(optarg, NULL, 0); break;
		case 't':
			s.settings.timeout_ms = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'j': json = true; break;
		default: usage();
		}
	}
	if (argc - optind < 2)
		usage();
	dest.text = argv[optind++];
	n = argc - optind;
	cells = calloc((size_t)n, sizeof(*cells));
	if (!cells)
		return 3;
	for (int i = 0; i < n; i++) {
		path_arg(argv[optind + i], &cells[i]);
		cells[i].target = &target;
		/* Made: the path was probed (nothing is sent here). */
		cells[i].ah = (struct ibv_ah *)&target;
		cells[i].dlid_path.index = (unsigned)i + 1;
		cells[i].dlid_path.of = (unsigned)n;
		dlids += i == 0 || cells[i].dlid_path.dlid !=
					   cells[i - 1].dlid_path.dlid;
	}
	for (int i = 0; i < n; i++)
		cells[i].dlid_path.dlids = (unsigned)dlids;
	/* This port's facts, as the SA client found it. */
	if (path_session_open(&ps, ca, (uint8_t)port, err, sizeof(err)) !=
	    SA_CLIENT_OK) {
		fprintf(stderr, "path_trace: %s\n", err);
		return 3;
	}
	snprintf(device, sizeof(device), "%s", ps.sa.ca);
	s.device = device;
	s.facts.port_num = ps.sa.port_num;
	s.facts.lid = ps.sa.lid;
	s.facts.lmc = ps.sa.lmc;
	path_session_close(&ps);
	if (!s.settings.timeout_ms)
		s.settings.timeout_ms = 1000;
	s.cells = cells;
	s.cell_count = (size_t)n;
	snprintf(err, sizeof(err), "out of memory");
	if (probe_path_traces_plan(&s, &t) ||
	    probe_path_traces_run(&s, &t, err, sizeof(err))) {
		fprintf(stderr, "path_trace: %s\n", err);
		return 3;
	}
	out_init(json ? OUT_JSON : OUT_TEXT, false);
	if (json) {
		out_open_array(NULL);
		for (int i = 0; i < n; i++) {
			out_open_object(NULL);
			probe_dlid_path_print(&cells[i], NULL);
			out_close_object();
		}
		out_close_array();
	} else {
		probe_paths_print_summaries(&s);
	}
	probe_path_traces_free(&s, &t);
	free(cells);
	return out_finish() ? 3 : 0;
}
