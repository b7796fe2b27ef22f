/* Unit tests of the metrics file: the exact exposition text for fixed
 * numbers (families once, HELP/TYPE, labels only when known or swept,
 * escaping), and the atomic publication (no .tmp left, bad targets
 * refused up front). promtool checks the same text in
 * tests/cli/metrics.bats. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out/openmetrics.h"
#include "tap.h"

static char *render(const struct om_run *run, const struct om_series *s,
		    size_t n)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f || openmetrics_render(f, run, s, n))
		return NULL;
	fclose(f);
	return text;
}

static size_t occurrences(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static const struct om_run run = {
	.source_device = "rxe0", .source_port = 1, .rounds = 3,
	.round_seconds = 10, .round_end_unix = 1795000000.25,
};

static struct om_series good(void)
{
	return (struct om_series){
		.labels = { .dest = "host-b", .dest_device = "mlx5_1",
			    .source_device = "rxe0", .source_port = 1 },
		.sent_total = 30, .received_total = 29,
		.has_loss = true, .loss_ratio = 0.1,
		.has_rtt = true, .rtt_min_s = 8e-06, .rtt_median_s = 1.05e-05,
		.rtt_p99_s = 2e-05, .rtt_max_s = 2.5e-05,
		.rtt_count = 29, .rtt_sum_s = 0.000319,
		.hops = 2, .has_remark = true, .remarked = true,
		.flow_label_changed = true,
		.last_success_unix = 1795000000.125,
		.responder_renumbered = 2,
	};
}

int main(void)
{
	struct om_series s[3] = { good(), good(), good() };
	char *text, dir[] = "/tmp/test_openmetrics.XXXXXX", path[256];
	char err[512], tmp[300], *file;
	struct stat st;
	FILE *f;
	long size;

	text = render(&run, s, 1);
	ok(text != NULL, "renders");
	ok(strstr(text, "ibahprobe_probes_sent_total{dest=\"host-b\","
			"dest_device=\"mlx5_1\",source_device=\"rxe0\","
			"source_port=\"1\"} 30\n") != NULL,
	   "a counter with the series' labels, in a fixed order");
	ok(strstr(text, "# HELP ibahprobe_loss_ratio ") &&
		   strstr(text, "# TYPE ibahprobe_loss_ratio gauge\n"),
	   "HELP and TYPE of a gauge");
	ok(strstr(text, "# TYPE ibahprobe_rtt_seconds summary\n") &&
		   strstr(text, ",quantile=\"0.99\"} 2e-05\n") &&
		   strstr(text, "ibahprobe_rtt_seconds_count{dest=\"host-b\","
				"dest_device=\"mlx5_1\",source_device=\"rxe0\","
				"source_port=\"1\"} 29\n"),
	   "RTT as a summary: the round's quantiles, sum and count since "
	   "the start");
	ok(strstr(text, "} 0.1\n") != NULL, "the loss ratio of the round");
	ok(strstr(text, "ibahprobe_last_success_timestamp_seconds{dest="
			"\"host-b\",dest_device=\"mlx5_1\",source_device="
			"\"rxe0\",source_port=\"1\"} 1795000000.125\n") != NULL,
	   "timestamps keep milliseconds (%%.9g would not)");
	ok(strstr(text, "ibahprobe_rounds_total{source_device=\"rxe0\","
			"source_port=\"1\"} 3\n") != NULL,
	   "the run's rounds, labelled by the source only");
	ok(strstr(text, "ibahprobe_traffic_class_remarked{") &&
		   strstr(text, "ibahprobe_hops{"), "hops and remarking");
	ok(strstr(text, "ibahprobe_flow_label_changed{dest=\"host-b\","
			"dest_device=\"mlx5_1\",source_device=\"rxe0\","
			"source_port=\"1\"} 1\n") != NULL,
	   "the flow label that arrived other than sent");
	ok(strstr(text, "# TYPE ibahprobe_responder_renumbered_total "
			"counter\n") &&
		   strstr(text, "ibahprobe_responder_renumbered_total{dest="
				"\"host-b\",dest_device=\"mlx5_1\","
				"source_device=\"rxe0\",source_port=\"1\"} "
				"2\n"),
	   "the renumberings of the responder's host followed, a counter");
	ok(!strstr(text, "# EOF") && !strstr(text, "hop_limit=\""),
	   "Prometheus 0.0.4 (no # EOF); parameters given by nobody are no "
	   "labels");
	free(text);

	/* Two series: every family still once, its samples together. */
	s[1].labels.dest = "host-c";
	s[1].labels.dest_device = NULL;
	s[1].labels.has_traffic_class = s[0].labels.has_traffic_class = true;
	s[0].labels.traffic_class = 0;
	s[1].labels.traffic_class = 184;
	text = render(&run, s, 2);
	is_int(occurrences(text, "# TYPE "), 14, "fourteen families");
	is_int(occurrences(text, "# TYPE ibahprobe_probes_sent_total "), 1,
	       "a family's TYPE once for all series");
	ok(strstr(text, "ibahprobe_hops{dest=\"host-c\",source_device=\"rxe0\""
			",source_port=\"1\",traffic_class=\"184\"} 2\n") != NULL,
	   "an unknown responder device is no label; a swept traffic class is");
	ok(strstr(text, "ibahprobe_hops{dest=\"host-b\",dest_device=\"mlx5_1\","
			"source_device=\"rxe0\",source_port=\"1\","
			"traffic_class=\"0\"} 2\nibahprobe_hops{dest=\"host-c\"")
		   != NULL, "the samples of a family stand together");
	free(text);

	/* probe --paths all: each path its series, labelled by its DLID
	 * and, where our LMC is above 0, our source path bits. */
	s[0].labels.has_traffic_class = s[1].labels.has_traffic_class = false;
	s[1].labels.dest = "host-b";
	s[1].labels.dest_device = "mlx5_1";
	s[0].labels.has_dlid = s[1].labels.has_dlid = true;
	s[0].labels.dlid = 19;
	s[1].labels.dlid = 20;
	s[1].labels.has_src_path_bits = true;
	s[1].labels.src_path_bits = 3;
	text = render(&run, s, 2);
	ok(strstr(text, "ibahprobe_probes_sent_total{dest=\"host-b\","
			"dest_device=\"mlx5_1\",source_device=\"rxe0\","
			"source_port=\"1\",dlid=\"19\"} 30\n") != NULL,
	   "a path's DLID is a label");
	ok(strstr(text, "ibahprobe_hops{dest=\"host-b\",dest_device="
			"\"mlx5_1\",source_device=\"rxe0\",source_port="
			"\"1\",dlid=\"20\",src_path_bits=\"3\"} 2\n") != NULL,
	   "and our source path bits, where we have several");
	free(text);
	s[0].labels.has_dlid = s[1].labels.has_dlid = false;
	s[1].labels.has_src_path_bits = false;
	s[0].labels.has_traffic_class = s[1].labels.has_traffic_class = true;
	s[1].labels.dest = "host-c";
	s[1].labels.dest_device = NULL;

	/* A series that could not be probed; one with no reply this round. */
	s[0].error = true;
	s[0].sent_total = s[0].received_total = 0;
	s[0].has_loss = s[0].has_rtt = s[0].has_remark = false;
	s[0].hops = -1;
	s[0].last_success_unix = 0;
	s[1].has_rtt = false;
	s[1].has_loss = true;
	s[1].loss_ratio = 1;
	s[2].labels.dest = "a\"b\\c\nd\te";
	text = render(&run, s, 3);
	ok(strstr(text, "ibahprobe_setup_failed{dest=\"host-b\"") &&
		   strstr(text, "traffic_class=\"0\"} 1\n"),
	   "setup_failed 1 for a destination that could not be probed");
	is_int(occurrences(text, "ibahprobe_rtt_seconds_count{"), 2,
	       "no RTT summary for it");
	is_int(occurrences(text, "ibahprobe_hops{"), 2, "no hops for it");
	ok(strstr(text, "ibahprobe_last_success_timestamp_seconds{dest=\"host-b"
			"\",dest_device=\"mlx5_1\",source_device=\"rxe0\","
			"source_port=\"1\",traffic_class=\"0\"} 0.000\n") != NULL,
	   "never answered: last success 0, so 'time() - it' alerts");
	is_int(occurrences(text, "quantile="), 4, "no quantiles for a round "
	       "without replies");
	ok(strstr(text, "dest=\"a\\\"b\\\\c\\nd?e\"") != NULL,
	   "label values escape \\, \" and newline; other control bytes "
	   "become ?");
	free(text);

	/* Publication: the rendered text under the name, nothing else. */
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/ibahprobe.prom", dir);
	is_int(openmetrics_check_target(path, err, sizeof(err)), 0,
	       "a writable directory is a target");
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	ok(stat(tmp, &st) != 0 && stat(path, &st) != 0,
	   "the check leaves no file behind");
	is_int(openmetrics_publish(path, &run, s, 2, err, sizeof(err)), 0,
	       "publishes");
	ok(stat(tmp, &st) != 0, "no .tmp after the rename");
	f = fopen(path, "r");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	file = calloc(1, (size_t)size + 1);
	if (fread(file, 1, (size_t)size, f) != (size_t)size)
		size = -1;
	fclose(f);
	text = render(&run, s, 2);
	is_str(file, text, "the file is the rendered text");
	free(file);
	free(text);
	ok((st.st_mode = 0, stat(path, &st) == 0 && (st.st_mode & 0044)),
	   "readable by others (node_exporter runs as another user)");
	snprintf(tmp, sizeof(tmp), "%s/missing/ibahprobe.prom", dir);
	is_int(openmetrics_check_target(tmp, err, sizeof(err)), -1,
	       "a missing directory is refused");
	ok(strstr(err, "No such file or directory") != NULL, "saying why: %s",
	   err);
	is_int(openmetrics_check_target(dir, err, sizeof(err)), -1,
	       "a directory is no file");
	ok(strstr(err, "is a directory") != NULL, "%s", err);
	is_int(openmetrics_publish(tmp, &run, s, 2, err, sizeof(err)), -1,
	       "publishing into a missing directory fails");
	unlink(path);
	rmdir(dir);
	return tap_done();
}
