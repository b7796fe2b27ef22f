/* Prometheus text exposition of a continuous run: see openmetrics.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "out/openmetrics.h"

/* A label value: the format escapes backslash, double quote and newline;
 * other control bytes have no escape and would end the line, so they
 * become '?' (a destination as given never has one, but a file could). */
static void put_label(FILE *f, bool *first, const char *name, const char *value)
{
	fprintf(f, "%s%s=\"", *first ? "{" : ",", name);
	*first = false;
	for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
		if (*p == '\\' || *p == '"')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p < 0x20 || *p == 0x7f)
			fputc('?', f);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void put_label_uint(FILE *f, bool *first, const char *name, uint32_t v)
{
	char text[16];

	snprintf(text, sizeof(text), "%u", v);
	put_label(f, first, name, text);
}

/* name{labels[,quantile]} — the series' labels, in a fixed order. */
static void put_series_name(FILE *f, const char *name, const struct om_labels *l,
			    const char *quantile)
{
	bool first = true;

	fputs(name, f);
	put_label(f, &first, "dest", l->dest);
	if (l->dest_device && l->dest_device[0])
		put_label(f, &first, "dest_device", l->dest_device);
	put_label(f, &first, "source_device", l->source_device);
	put_label_uint(f, &first, "source_port", l->source_port);
	if (l->has_hop_limit)
		put_label_uint(f, &first, "hop_limit", l->hop_limit);
	if (l->has_traffic_class)
		put_label_uint(f, &first, "traffic_class", l->traffic_class);
	if (l->has_flow_label)
		put_label_uint(f, &first, "flow_label", l->flow_label);
	if (l->has_sl)
		put_label_uint(f, &first, "sl", l->sl);
	if (l->has_dlid)
		put_label_uint(f, &first, "dlid", l->dlid);
	if (l->has_src_path_bits)
		put_label_uint(f, &first, "src_path_bits", l->src_path_bits);
	if (quantile)
		put_label(f, &first, "quantile", quantile);
	fputc('}', f);
}

static void put_family(FILE *f, const char *name, const char *type,
		       const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Ratios and seconds: nine significant digits keep nanoseconds of an RTT
 * and a third of a percent alike. */
static void put_double(FILE *f, const struct om_labels *l, const char *name,
		       const char *quantile, double v)
{
	put_series_name(f, name, l, quantile);
	fprintf(f, " %.9g\n", v);
}

static void put_uint(FILE *f, const struct om_labels *l, const char *name,
		     uint64_t v)
{
	put_series_name(f, name, l, NULL);
	fprintf(f, " %llu\n", (unsigned long long)v);
}

/* name{source_device,source_port}: the run's own samples. */
static void put_run_name(FILE *f, const char *name, const struct om_run *run)
{
	bool first = true;

	fputs(name, f);
	put_label(f, &first, "source_device", run->source_device);
	put_label_uint(f, &first, "source_port", run->source_port);
	fputc('}', f);
}

static void put_run(FILE *f, const struct om_run *run)
{
	put_family(f, "ibahprobe_rounds_total", "counter",
		   "Rounds of probes closed since the run started.");
	put_run_name(f, "ibahprobe_rounds_total", run);
	fprintf(f, " %llu\n", (unsigned long long)run->rounds);
	put_family(f, "ibahprobe_round_interval_seconds", "gauge",
		   "The length of a round (--interval-round).");
	put_run_name(f, "ibahprobe_round_interval_seconds", run);
	fprintf(f, " %u\n", run->round_seconds);
	put_family(f, "ibahprobe_last_round_timestamp_seconds", "gauge",
		   "When the latest round closed, in seconds since the epoch.");
	put_run_name(f, "ibahprobe_last_round_timestamp_seconds", run);
	fprintf(f, " %.3f\n", run->round_end_unix);
}

int openmetrics_render(FILE *f, const struct om_run *run,
		       const struct om_series *series, size_t count)
{
	const struct om_series *s;

	put_run(f, run);
	put_family(f, "ibahprobe_setup_failed", "gauge",
		   "1 if the destination could not be probed (no responder, "
		   "no path, no address handle), else 0.");
	for (s = series; s < series + count; s++)
		put_uint(f, &s->labels, "ibahprobe_setup_failed", s->error);
	put_family(f, "ibahprobe_probes_sent_total", "counter",
		   "Probes sent and resolved (answered or past their "
		   "deadline) since the run started.");
	for (s = series; s < series + count; s++)
		put_uint(f, &s->labels, "ibahprobe_probes_sent_total",
			 s->sent_total);
	put_family(f, "ibahprobe_probes_received_total", "counter",
		   "Probes answered before their deadline since the run "
		   "started.");
	for (s = series; s < series + count; s++)
		put_uint(f, &s->labels, "ibahprobe_probes_received_total",
			 s->received_total);
	put_family(f, "ibahprobe_loss_ratio", "gauge",
		   "Lost probes over resolved probes in the latest round.");
	for (s = series; s < series + count; s++)
		if (s->has_loss)
			put_double(f, &s->labels, "ibahprobe_loss_ratio", NULL,
				   s->loss_ratio);
	put_family(f, "ibahprobe_rtt_seconds", "summary",
		   "Round-trip time: quantiles of the latest round's replies, "
		   "sum and count since the run started.");
	for (s = series; s < series + count; s++) {
		if (s->error)
			continue;
		if (s->has_rtt) {
			put_double(f, &s->labels, "ibahprobe_rtt_seconds", "0",
				   s->rtt_min_s);
			put_double(f, &s->labels, "ibahprobe_rtt_seconds",
				   "0.5", s->rtt_median_s);
			put_double(f, &s->labels, "ibahprobe_rtt_seconds",
				   "0.99", s->rtt_p99_s);
			put_double(f, &s->labels, "ibahprobe_rtt_seconds", "1",
				   s->rtt_max_s);
		}
		put_double(f, &s->labels, "ibahprobe_rtt_seconds_sum", NULL,
			   s->rtt_sum_s);
		put_uint(f, &s->labels, "ibahprobe_rtt_seconds_count",
			 s->rtt_count);
	}
	put_family(f, "ibahprobe_hops", "gauge",
		   "Layer-3 hops to the destination, from the hop limit the "
		   "latest reply saw.");
	for (s = series; s < series + count; s++)
		if (s->hops >= 0)
			put_uint(f, &s->labels, "ibahprobe_hops",
				 (uint64_t)s->hops);
	put_family(f, "ibahprobe_traffic_class_remarked", "gauge",
		   "1 if the latest reply saw another DSCP than was sent, "
		   "else 0.");
	for (s = series; s < series + count; s++)
		if (s->has_remark)
			put_uint(f, &s->labels,
				 "ibahprobe_traffic_class_remarked",
				 s->remarked);
	put_family(f, "ibahprobe_flow_label_changed", "gauge",
		   "1 if the latest reply saw another flow label than was "
		   "sent (changed, or not carried), else 0.");
	for (s = series; s < series + count; s++)
		if (s->has_remark)
			put_uint(f, &s->labels, "ibahprobe_flow_label_changed",
				 s->flow_label_changed);
	put_family(f, "ibahprobe_responder_restarts_total", "counter",
		   "Restarts of the responder (a new QPN) the run followed.");
	for (s = series; s < series + count; s++)
		if (!s->error)
			put_uint(f, &s->labels,
				 "ibahprobe_responder_restarts_total",
				 s->responder_restarts);
	put_family(f, "ibahprobe_responder_renumbered_total", "counter",
		   "Renumberings of the responder's host (a new GID or LID) "
		   "the run followed.");
	for (s = series; s < series + count; s++)
		if (!s->error)
			put_uint(f, &s->labels,
				 "ibahprobe_responder_renumbered_total",
				 s->responder_renumbered);
	put_family(f, "ibahprobe_last_success_timestamp_seconds", "gauge",
		   "When the latest reply came, in seconds since the epoch; "
		   "0 if none ever did.");
	for (s = series; s < series + count; s++) {
		put_series_name(f, "ibahprobe_last_success_timestamp_seconds",
				&s->labels, NULL);
		fprintf(f, " %.3f\n", s->last_success_unix);
	}
	return ferror(f) ? -1 : 0;
}

static int tmp_path(const char *path, char *tmp, size_t size, char *err,
		    size_t len)
{
	if ((size_t)snprintf(tmp, size, "%s.tmp", path) >= size) {
		snprintf(err, len, "--metrics %s: the path is too long", path);
		return -1;
	}
	return 0;
}

int openmetrics_check_target(const char *path, char *err, size_t len)
{
	char tmp[4096];
	struct stat st;
	int fd;

	if (!path[0]) {
		snprintf(err, len, "--metrics needs a file name");
		return -1;
	}
	if (tmp_path(path, tmp, sizeof(tmp), err, len))
		return -1;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, len, "--metrics %s is a directory: name a file "
			 "in it, e.g. %s/ibahprobe.prom", path, path);
		return -1;
	}
	/* The real test: the directory takes a new file. */
	fd = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, len, "cannot write the metrics file %s: %s (its "
			 "directory must take %s)", path, strerror(errno), tmp);
		return -1;
	}
	close(fd);
	unlink(tmp);
	return 0;
}

int openmetrics_publish(const char *path, const struct om_run *run,
			const struct om_series *series, size_t count,
			char *err, size_t len)
{
	struct atomic_file af;
	int saved;

	if (atomic_file_open(&af, AT_FDCWD, path,
			     atomic_file_umasked(0644))) {
		snprintf(err, len, "cannot write the metrics file %s: %s", path,
			 strerror(errno));
		return -1;
	}
	errno = 0;
	if (openmetrics_render(af.f, run, series, count)) {
		saved = errno ? errno : EIO;
		atomic_file_abort(&af);
		snprintf(err, len, "cannot write the metrics file %s: %s", path,
			 strerror(saved));
		return -1;
	}
	if (atomic_file_commit(&af)) {
		snprintf(err, len, "cannot publish the metrics file %s: %s",
			 path, strerror(errno));
		return -1;
	}
	return 0;
}
