/* ibahprobe trace: where a destination's path goes. On InfiniBand, the
 * switch path of its PathRecord (SLID -> DLID) from SA records alone:
 * LinkRecords, LFT blocks, PortInfoRecords and NodeRecords, every
 * destination walked side by side with each record asked once. On RoCE
 * v2, the routers hop by hop with real RoCE datagrams (cmd/trace_roce.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "base/dest.h"
#include "verbs/device.h"
#include "base/diag.h"
#include "base/gid.h"
#include "trace/ib_trace.h"
#include "trace/ib_trace_fetch.h"
#include "trace/lid_paths_expand.h"
#include "out/output.h"
#include "base/parse.h"
#include "sa/path_resolve.h"
#include "base/text_escape.h"
#include "out/text_layout.h"
#include "trace_roce.h"
#include "trace/roce_sweep.h"
#include "trace/roce_trace.h"
#include "trace/failed_flows.h"
#include "base/strmap.h"

#define TRACE_SCHEMA "ibahprobe.trace.v1"
/* Text lines stay within this many columns. */
#define TEXT_WIDTH 99
#define NODE_COLUMN 20

enum trace_option {
	TRACE_OPT_WINDOW, TRACE_OPT_RETRIES, TRACE_OPT_FILE,
	TRACE_OPT_FLOW_LABEL, TRACE_OPT_TCLASS, TRACE_OPT_MAX_HOPS,
	TRACE_OPT_QUERIES, TRACE_OPT_UDP_SPORT, TRACE_OPT_PATHS, TRACE_OPT_NIC,
	TRACE_OPT_RATE, TRACE_OPT_MAX_IN_FLIGHT, TRACE_OPT_FAILED,
	TRACE_OPT_END,
};

static const struct opt_spec trace_options[] = {
	[TRACE_OPT_WINDOW] = { "window", 'w', "N", "SA queries in flight at "
			       "once (default 16)", COMPLETE_NONE, NULL },
	[TRACE_OPT_RETRIES] = { "retries", 'r', "N", "retries per SA query "
				"after a timeout, with backoff (default 2)",
				COMPLETE_NONE, NULL },
	[TRACE_OPT_FILE] = { "file", 'f', "FILE", "read destinations from "
			     "FILE ('-' for stdin), one per line",
			     COMPLETE_FILE, NULL },
	[TRACE_OPT_FLOW_LABEL] = { "flow-label", 0, "LIST", "RoCE: flow "
				   "labels to trace, each its own UDP source "
				   "port and ECMP path (0-3,0x100; default 0, "
				   "or the flow-label line of -f's FILE); "
				   "several: a path summary",
				   COMPLETE_NONE, NULL },
	[TRACE_OPT_TCLASS] = { "tclass", 0, "LIST", "RoCE: traffic classes "
			       "to send with (IP TOS; default 0)",
			       COMPLETE_NONE, NULL },
	[TRACE_OPT_MAX_HOPS] = { "max-hops", 'm', "N", "RoCE: the largest "
				 "hop limit tried (1-64, default 16)",
				 COMPLETE_NONE, NULL },
	[TRACE_OPT_QUERIES] = { "queries", 0, "N", "RoCE: datagrams per "
				"hop (1-10, default 3)", COMPLETE_NONE, NULL },
	[TRACE_OPT_UDP_SPORT] = { "udp-sport", 0, "LIST", "RoCE: UDP source "
				  "ports to trace instead of flow labels "
				  "(e.g. a probe result's wire_udp_sport)",
				  COMPLETE_NONE, NULL },
	[TRACE_OPT_PATHS] = { "paths", 0, "base|all", "InfiniBand: all "
			      "walks every DLID of each destination's LMC "
			      "range, one row a path (default base)",
			      COMPLETE_WORDS, "base all" },
	[TRACE_OPT_NIC] = { "nic", 0, NULL, "RoCE: trace with the probes' own "
			    "packets, UD sends from our QP with the AH's hop "
			    "limit per hop (mlx4, mlx5, hns; needs "
			    "CAP_NET_RAW)", COMPLETE_NONE, NULL },
	[TRACE_OPT_RATE] = { "rate", 0, "N", "RoCE: datagrams sent per second "
			     "at most, over all flows (1-10000, default 50)",
			     COMPLETE_NONE, NULL },
	[TRACE_OPT_MAX_IN_FLIGHT] = { "max-in-flight", 0, "N", "RoCE: "
				      "datagrams awaiting their answer at "
				      "once, over all flows and hops (1-1024, "
				      "default 32; 1: one at a time)",
				      COMPLETE_NONE, NULL },
	[TRACE_OPT_FAILED] = { "failed", 0, "RESULTS", "trace each failing "
			       "flow of probe's results (its -j or --jsonl "
			       "output; '-' for stdin): each destination "
			       "with its flow label, on RoCE its UDP source "
			       "port", COMPLETE_FILE, NULL },
	[TRACE_OPT_END] = OPT_END,
};

/* The options of trace: its context. */
struct trace_opts {
	uint32_t window, retries;
	const char *file;
	const char *failed;	/* --failed RESULTS */
	struct value_list flow_labels, tclasses, udp_sports;
	uint32_t max_hops, queries;
	bool max_hops_given;
	bool paths_all;		/* --paths all */
	bool nic;	/* --nic */
	uint32_t rate, max_in_flight;
};

static const struct trace_opts trace_defaults = {
	.window = PATH_DEFAULT_WINDOW, .retries = PATH_DEFAULT_RETRIES,
	.max_hops = ROCE_TRACE_DEFAULT_MAX_HOPS,
	.queries = ROCE_TRACE_DEFAULT_QUERIES,
	.rate = ROCE_SWEEP_DEFAULT_RATE,
	.max_in_flight = ROCE_SWEEP_DEFAULT_IN_FLIGHT,
};

static int trace_option(void *ctx, int index, const char *arg)
{
	struct trace_opts *opts = ctx;
	char err[DIAG_MSG_MAX];
	int rc = 0;

	switch (index) {
	case TRACE_OPT_WINDOW:
		rc = parse_u32(arg, "window", 1, PATH_MAX_WINDOW, &opts->window,
			       err, sizeof(err));
		break;
	case TRACE_OPT_RETRIES:
		rc = parse_u32(arg, "retries", 0, 20, &opts->retries, err,
			       sizeof(err));
		break;
	case TRACE_OPT_FILE:
		opts->file = arg;
		break;
	case TRACE_OPT_FAILED:
		opts->failed = arg;
		break;
	case TRACE_OPT_FLOW_LABEL:
		value_list_free(&opts->flow_labels);
		rc = parse_value_list(arg, "20-bit flow label", 0, 0xfffff,
				      ROCE_TRACE_MAX_FLOWS, &opts->flow_labels,
				      err, sizeof(err));
		break;
	case TRACE_OPT_TCLASS:
		value_list_free(&opts->tclasses);
		rc = parse_value_list(arg, "traffic class", 0, 255, 256,
				      &opts->tclasses, err, sizeof(err));
		break;
	case TRACE_OPT_MAX_HOPS:
		rc = parse_u32(arg, "max-hops", 1, ROCE_TRACE_MAX_HOPS,
			       &opts->max_hops, err, sizeof(err));
		opts->max_hops_given = true;
		break;
	case TRACE_OPT_UDP_SPORT:
		value_list_free(&opts->udp_sports);
		/* Ports below 1024 need CAP_NET_BIND_SERVICE to bind; RoCE
		 * v2 senders use 0xC000 and up, but any is allowed. */
		rc = parse_value_list(arg, "UDP source port", 1, 0xffff,
				      ROCE_TRACE_MAX_FLOWS, &opts->udp_sports,
				      err, sizeof(err));
		break;
	case TRACE_OPT_NIC:
		opts->nic = true;
		break;
	case TRACE_OPT_QUERIES:
		rc = parse_u32(arg, "queries", 1, ROCE_TRACE_MAX_QUERIES,
			       &opts->queries, err, sizeof(err));
		break;
	case TRACE_OPT_PATHS:
		rc = lid_paths_parse(arg, &opts->paths_all, err,
				     sizeof(err));
		break;
	case TRACE_OPT_RATE:
		rc = parse_u32(arg, "rate", 1, ROCE_SWEEP_MAX_RATE,
			       &opts->rate, err, sizeof(err));
		break;
	case TRACE_OPT_MAX_IN_FLIGHT:
		rc = parse_u32(arg, "max-in-flight", 1,
			       ROCE_SWEEP_MAX_IN_FLIGHT, &opts->max_in_flight,
			       err, sizeof(err));
		break;
	}
	return rc ? cli_usage_error("%s", err) : 0;
}

/* One destination, or one of its paths: its path record (or why there is
 * none) and walk. */
struct trace_row {
	const struct dest *dest;
	const struct path_result *path;
	struct trace_job *job;	/* NULL: nothing to walk */
	/* --paths all: this row's path (1-based) of the destination's; 0:
	 * the option was not given. lmc_unknown: why only the base DLID. */
	unsigned path_index, paths;
	char lmc_unknown[160];
};

static const char *node_type_word(uint8_t t)
{
	switch (t) {
	case 1: return "ca";
	case 2: return "switch";
	case 3: return "router";
	}
	return "unknown";
}

/* The JSON status word of a row, and whether it is a broken trace. */
static const char *row_status(const struct trace_row *row, bool *fine)
{
	enum trace_status s = row->job ? row->job->result.status
				       : TRACE_PENDING;

	*fine = row->path->status == PATH_OK && s == TRACE_COMPLETE;
	if (row->path->status != PATH_OK &&
	    (!row->job || s == TRACE_COMPLETE || s == TRACE_PENDING))
		return "no_path";
	return trace_status_key(s);
}

/* The link a hop was left by (out_port; 0: none shown). */
static void print_link(const struct trace_hop *hop, unsigned out_port)
{
	const struct portinfo_record *p = &hop->portinfo;

	if (!out_port) {
		out_null("link", NULL);
		return;
	}
	if (!hop->has_portinfo) {
		out_null("link", "  %s");
		return;
	}
	out_open_object("link");
	out_string("width", "  %s", portinfo_width_str(p->width_active));
	out_string("speed", " %s", portinfo_speed_str(p));
	out_string("state", " %s", portinfo_state_str(p->port_state));
	out_string("phys_state", NULL, portinfo_phys_state_str(p->phys_state));
	out_close_object();
}

static void print_hop(const struct trace_result *res, size_t i)
{
	const struct trace_hop *hop = &res->hops[i];
	char guid[24], shown[NODE_COLUMN + 1];
	size_t desc_len = strnlen(hop->description, sizeof(hop->description));
	unsigned out_port = trace_hop_out_port(res, i);

	out_open_object(NULL);
	out_uint("hop", "  %3" PRIu64, i);
	/* A node description is anyone's text: escaped, and cut to its
	 * column here (whole in JSON). */
	text_escape_prefix(hop->description, desc_len, shown, sizeof(shown));
	out_text("  %-*s", NODE_COLUMN, shown);
	out_string("node_description", NULL, hop->description);
	out_string("node_type", NULL, node_type_word(hop->node_type));
	snprintf(guid, sizeof(guid), "0x%016" PRIx64, hop->node_guid);
	out_string("node_guid", "  %s", guid);
	snprintf(guid, sizeof(guid), "0x%016" PRIx64, hop->port_guid);
	out_string("port_guid", NULL, guid);
	out_uint("lid", "  %5" PRIu64, hop->lid);
	if (i == 0)
		out_null("in_port", "  %3s");
	else
		out_uint("in_port", "  %3" PRIu64, hop->in_port);
	if (out_port)
		out_uint("out_port", "  %3" PRIu64, out_port);
	else
		out_null("out_port", "  %3s");
	print_link(hop, out_port);
	out_newline();
	out_close_object();
}

/* Text under the hops: words wrapped to the text width. */
static void print_wrapped(const char *label, const char *text)
{
	char line[1024], joined[768];
	size_t used = 0;

	snprintf(joined, sizeof(joined), "%s%s", label, text);
	line[0] = '\0';
	text_wrap_append(line, sizeof(line), &used, joined, 2, 4, TEXT_WIDTH);
	out_text("%s", line);
}

static size_t switches_in(const struct trace_result *res)
{
	size_t n = 0;

	for (size_t i = 0; i < res->hop_count; i++)
		n += res->hops[i].node_type == 2;
	return n;
}

/* The name probe's results carry as source.host. */
static const char *trace_hostname(void)
{
	static char name[256];

	if (!name[0] && gethostname(name, sizeof(name) - 1))
		snprintf(name, sizeof(name), "unknown");
	return name;
}

static void print_row(const struct trace_row *row)
{
	const struct path_result *p = row->path;
	const struct trace_result *res = row->job ? &row->job->result : NULL;
	const char *error = res ? trace_result_error(res) : NULL;
	bool fine;
	const char *status = row_status(row, &fine);
	char sgid[GID_TEXT_MAX];

	out_open_object(NULL);
	out_string("schema", NULL, TRACE_SCHEMA);
	/* Who traced, as probe's results name their source. */
	out_string("host", NULL, trace_hostname());
	if (p->status == PATH_OK)
		out_string("sgid", NULL, gid_format(&p->record.sgid, sgid,
						    sizeof(sgid)));
	else
		out_null("sgid", NULL);
	out_string("dest", "%s:", row->dest->text);
	out_string("status", NULL, status);
	if (row->job) {
		out_uint("slid", " SLID %" PRIu64, row->job->slid);
		out_uint("dlid", " -> DLID %" PRIu64, row->job->dlid);
	} else {
		out_null("slid", NULL);
		out_null("dlid", NULL);
	}
	if (row->paths) {
		out_uint("dlid_path", " (path %" PRIu64, row->path_index);
		out_uint("dlid_paths", " of %" PRIu64 ")", row->paths);
	}
	if (p->status == PATH_OK) {
		out_uint("sl", ", SL %" PRIu64, p->record.sl);
		out_null("path_error", NULL);
	} else {
		out_null("sl", NULL);
		out_string("path_error", NULL, p->error);
	}
	out_newline();
	if (row->lmc_unknown[0] && row->path_index == 1) {
		out_string("dlid_paths_unknown", NULL, row->lmc_unknown);
		print_wrapped("only the base DLID: ", row->lmc_unknown);
	}
	if (p->status != PATH_OK)
		print_wrapped(row->job ? "no path record (the forwarding "
			      "tables are walked anyway): " : "no path: ",
			      p->error);
	if (res && res->hop_count) {
		out_text("  %3s  %-*s  %-18s  %5s  %3s  %3s  %s\n", "HOP",
			 NODE_COLUMN, "NODE", "GUID", "LID", "IN", "OUT",
			 "LINK OUT");
	}
	out_open_array("hops");
	for (size_t i = 0; res && i < res->hop_count; i++)
		print_hop(res, i);
	out_close_array();
	if (error) {
		/* No hop to point at when the source itself is unknown or
		 * the walk never broke (it did not end). */
		if (res->reason[0] && res->hop_count)
			out_uint("broken_at", NULL, res->where);
		else
			out_null("broken_at", NULL);
		out_string("error", NULL, error);
		print_wrapped("", res->reason[0] ? res->reason :
			      "the walk did not end: the SA's records kept "
			      "leading on");
	} else {
		out_null("broken_at", NULL);
		out_null("error", NULL);
		if (res && res->status == TRACE_COMPLETE)
			out_text("  complete: %zu switch%s\n", switches_in(res),
				 switches_in(res) == 1 ? "" : "es");
	}
	out_close_object();
}

/* Jobs for the rows: a path's SLID -> DLID; a lid: destination without
 * a path is walked to its LID anyway, to show where its route ends. */
static void plan_jobs(const struct dest_list *dests,
		      const struct path_result *paths,
		      const struct sa_client *sa, struct trace_job *jobs,
		      struct trace_row *rows)
{
	for (size_t i = 0; i < dests->count; i++) {
		const struct dest *d = &dests->items[i];
		const struct path_result *p = &paths[i];
		struct trace_job *j = &jobs[i];

		rows[i].dest = d;
		rows[i].path = p;
		rows[i].job = NULL;
		j->src_port = sa->port_num;
		if (p->status == PATH_OK) {
			j->slid = p->record.slid;
			j->dlid = p->record.dlid;
		} else if (p->status == PATH_ERROR && d->kind == DEST_LID) {
			j->slid = sa->lid;
			j->dlid = d->lid;
		} else {
			continue;
		}
		j->active = true;
		rows[i].job = j;
	}
}

/* --paths all: each walked destination's row becomes one row a DLID of
 * its port's LMC range, in DLID order, each with its own PathRecord (a
 * DLID the SA has no path to is walked anyway, from this port's LID), and
 * the new DLIDs are walked. */
static int expand_paths(struct path_session *session,
			const struct path_constraints *want,
			struct trace_store *store,
			const struct trace_opts *opts, uint32_t timeout_ms,
			struct trace_row **rows, struct trace_job **jobs,
			size_t *count, struct lid_paths_expansion *x,
			struct trace_fetch_stats *stats, char *err,
			size_t errlen)
{
	struct sa_client *sa = &session->sa;
	struct trace_fetch_stats more;
	struct trace_row *new_rows = NULL;
	struct trace_job *new_jobs = NULL;
	struct lid_paths_dest *ranges = calloc(*count ? *count : 1,
					       sizeof(*ranges));
	size_t total = 0, k = 0;
	int rc = -1;

	if (!ranges)
		goto oom;
	for (size_t i = 0; i < *count; i++)
		ranges[i].dlid = (*rows)[i].job ? (*rows)[i].job->dlid : 0;
	if (lid_paths_expand(session, want, store, ranges, *count,
			     &(struct lid_paths_query){
				     .window = opts->window,
				     .retries = opts->retries,
				     .timeout_ms = timeout_ms },
			     x, stats, err, errlen))
		goto out;
	for (size_t i = 0; i < *count; i++)
		total += ranges[i].count;
	new_rows = calloc(total, sizeof(*new_rows));
	new_jobs = calloc(total, sizeof(*new_jobs));
	if (!new_rows || !new_jobs)
		goto oom;
	for (size_t i = 0; i < *count; i++) {
		const struct trace_row *row = &(*rows)[i];
		const struct lid_paths_dest *r = &ranges[i];

		if (!row->job) {
			new_rows[k] = *row;
			new_rows[k].path_index = 1;
			new_rows[k++].paths = 1;
			continue;
		}
		for (unsigned p = 0; p < r->count; p++, k++) {
			const struct path_result *extra =
				lid_paths_result(x, r, p);

			new_rows[k] = *row;
			snprintf(new_rows[k].lmc_unknown,
				 sizeof(new_rows[k].lmc_unknown), "%s",
				 r->lmc_unknown);
			new_rows[k].path_index = p + 1;
			new_rows[k].paths = r->count;
			new_jobs[k] = *row->job;
			new_jobs[k].dlid = (uint16_t)(r->base + p);
			new_jobs[k].rounds = 0;
			new_rows[k].job = &new_jobs[k];
			if (!extra)
				continue;
			new_rows[k].path = extra;
			new_jobs[k].slid = extra->status == PATH_OK
						   ? extra->record.slid
						   : sa->lid;
		}
	}
	if (ib_trace_fetch_all(sa, new_jobs, total, store, opts->window,
			       timeout_ms, opts->retries, &more, err, errlen))
		goto out;
	stats->queries += more.queries;
	stats->rounds += more.rounds;
	free(*rows);
	free(*jobs);
	*rows = new_rows;
	*jobs = new_jobs;
	*count = total;
	new_rows = NULL;
	new_jobs = NULL;
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	free(new_rows);
	free(new_jobs);
	free(ranges);
	return rc;
}

/* --paths all, text: under the last row of a destination of several
 * paths, which paths held and which broke. */
static void print_paths_summary(const struct trace_row *rows, size_t last)
{
	size_t first = last + 1 - rows[last].paths;
	char line[1024];
	size_t used = 0, broken = 0;
	bool fine;

	if (rows[last].paths < 2)
		return;
	used = (size_t)snprintf(line, sizeof(line), "paths of %s: ",
				rows[last].dest->text);
	for (size_t i = first; i <= last && used < sizeof(line); i++) {
		const char *status = row_status(&rows[i], &fine);

		if (fine)
			continue;
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "%sDLID %u (path %u of %u) %s",
					 broken++ ? "; " : "",
					 rows[i].job ? rows[i].job->dlid : 0,
					 rows[i].path_index, rows[i].paths,
					 strcmp(status, "no_path")
						 ? trace_status_str(rows[i].job->result.status)
						 : "no path");
	}
	if (!broken && used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "all %u complete",
			 rows[last].paths);
	else if (broken < rows[last].paths && used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "; the other %zu "
			 "complete", rows[last].paths - broken);
	out_text("\n");
	print_wrapped("", line);
}

/* DEST and -f FILE, and the file's flow-label line (plan's policy,
 * base/dest_flow_label.h) as --flow-label when neither it nor
 * --udp-sport is given; *source: where the flow labels came from. */
static int collect_dests(struct trace_opts *opts, int argc, char **argv,
			 struct dest_list *dests, const char **source)
{
	const struct dest_flow_label *fl = &dests->flow_label;
	bool given = opts->flow_labels.count || opts->udp_sports.count;
	char err[DIAG_MSG_MAX];
	int rc;

	dests->read_flow_label = true;
	rc = cli_collect_dests("trace", argc, argv, opts->file, dests);
	if (rc)
		return rc;
	*source = given ? "command_line" : "default";
	if (!fl->text)
		return 0;
	if (given) {
		diag_verbose(1, "trace: %s, not %s's flow labels %s",
			     opts->flow_labels.count ? "--flow-label"
						     : "--udp-sport",
			     fl->where, fl->text);
		return 0;
	}
	if (fl->values.count > ROCE_TRACE_MAX_FLOWS)
		return cli_usage_error("%s: the flow-label line names %zu "
				       "labels, more than trace takes (%d): "
				       "give --flow-label", fl->where,
				       fl->values.count, ROCE_TRACE_MAX_FLOWS);
	if (parse_value_list(fl->text, "20-bit flow label", 0, 0xfffff,
			     ROCE_TRACE_MAX_FLOWS, &opts->flow_labels, err,
			     sizeof(err)))
		return cli_usage_error("%s: %s", fl->where, err);
	*source = "file";
	diag_verbose(1, "trace: flow labels %s from %s (its flow-label line)",
		     fl->text, fl->where);
	return 0;
}

/* --failed RESULTS: one destination for each failing flow of probe's
 * results, as if each were given with its own --flow-label (on RoCE
 * --udp-sport, where the result names the port its probes carried;
 * with --nic, which cannot choose the port, the flow label). */
static int collect_failed(const struct trace_opts *opts, int argc,
			  struct dest_list *dests,
			  struct trace_flow_key **keys)
{
	bool from_stdin = strcmp(opts->failed, "-") == 0;
	const char *label = from_stdin ? "<stdin>" : opts->failed;
	struct failed_flows flows = { 0 };
	char err[DIAG_MSG_MAX * 2], msg[DIAG_MSG_MAX];
	FILE *in;
	int rc = 0;

	if (argc || opts->file)
		return cli_usage_error("--failed takes its destinations from "
				       "%s: drop %s", label,
				       argc ? "the DEST operands" : "-f");
	if (opts->flow_labels.count || opts->udp_sports.count)
		return cli_usage_error("--failed traces each failing result "
				       "with its own flow: drop %s",
				       opts->flow_labels.count
					       ? "--flow-label"
					       : "--udp-sport");
	in = from_stdin ? stdin : fopen(opts->failed, "r");
	if (!in)
		return cli_usage_error("cannot open probe results '%s': %s",
				       opts->failed, strerror(errno));
	if (failed_flows_read(&flows, in, label, err, sizeof(err)))
		rc = cli_usage_error("%s", err);
	if (!from_stdin)
		fclose(in);
	if (rc)
		goto out;
	*keys = calloc(flows.count ? flows.count : 1, sizeof(**keys));
	if (!*keys) {
		rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < flows.count; i++) {
		const struct failed_flow *f = &flows.items[i];
		bool by_port = f->udp_sport >= 0 && !opts->nic;

		if (dest_list_add(dests, f->dest, msg, sizeof(msg))) {
			rc = cli_usage_error("%s:%lu: the result's destination: "
					     "%s", label, f->line, msg);
			goto out;
		}
		(*keys)[i] = (struct trace_flow_key){
			.value = by_port ? (uint32_t)f->udp_sport
					 : f->flow_label,
			.by_port = by_port,
		};
	}
	diag_verbose(1, "trace: %zu failing flow%s of %zu result%s in %s "
		     "(%zu reachable)", flows.count,
		     flows.count == 1 ? "" : "s", flows.results,
		     flows.results == 1 ? "" : "s", label, flows.reachable);
out:
	failed_flows_free(&flows);
	return rc;
}

/* InfiniBand has no flow to choose: --failed's destinations each once,
 * in the order first named. */
static int distinct_dests(struct dest_list *dests)
{
	struct strmap seen = { 0 };
	size_t kept = 0;
	int rc = 0;

	for (size_t i = 0; i < dests->count; i++) {
		void **slot = strmap_slot(&seen, dests->items[i].text);

		if (!slot) {
			rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
			break;
		}
		if (*slot) {
			dest_clear(&dests->items[i]);
			continue;
		}
		*slot = &seen;
		if (kept < i) {
			dests->items[kept] = dests->items[i];
			/* Moved: what dest_list_free finds here is empty. */
			memset(&dests->items[i], 0, sizeof(dests->items[i]));
		}
		kept++;
	}
	if (!rc)
		dests->count = kept;
	strmap_free(&seen);
	return rc;
}

static int trace_exec(const struct common_opts *common, void *ctx,
		      int argc, char **argv)
{
	struct trace_opts *opts = ctx;
	struct dest_list dests = { 0 };
	struct path_result *paths = NULL;
	struct trace_job *jobs = NULL;
	struct trace_row *rows = NULL;
	struct path_constraints want = { 0 };
	struct trace_store store;
	struct trace_fetch_stats stats;
	struct path_session session;
	char err[DIAG_MSG_MAX * 2];
	struct lid_paths_expansion extra = { 0 };
	struct trace_flow_key *failed_keys = NULL;
	const char *flow_label_source = "failed";
	size_t broken = 0, nrows = 0;
	bool open = false;
	int rc;

	trace_store_init(&store);
	if (opts->udp_sports.count && opts->flow_labels.count) {
		rc = cli_usage_error("--udp-sport and --flow-label both choose "
				     "the UDP source port of each flow: give "
				     "one of them");
		goto out;
	}
	if (opts->nic && opts->udp_sports.count) {
		rc = cli_usage_error("--nic sends from our QP, whose UDP source "
				     "port the provider picks: give "
				     "--flow-label, not --udp-sport");
		goto out;
	}
	rc = opts->failed
		     ? collect_failed(opts, argc, &dests, &failed_keys)
		     : collect_dests(opts, argc, argv, &dests,
				     &flow_label_source);
	if (rc)
		goto out;
	/* Probes that all passed leave nothing to trace: no device needed. */
	if (opts->failed && dests.count == 0) {
		out_open_array(NULL);
		out_close_array();
		out_text("no failing result in %s: nothing to trace\n",
			 strcmp(opts->failed, "-") ? opts->failed : "<stdin>");
		rc = EXIT_FINE;
		goto out;
	}
	if (path_session_open(&session, common->device, common->port, err,
			      sizeof(err)) != SA_CLIENT_OK) {
		char dev[IBV_SYSFS_NAME_MAX + 1];
		uint8_t port;

		bool roce = path_port_is_roce(common->device, common->port,
					      dev, sizeof(dev), &port);

		if (roce && opts->paths_all) {
			rc = cli_usage_error("--paths all walks the DLIDs of an "
					     "InfiniBand LMC; RoCE has no LIDs: "
					     "trace its ECMP paths with "
					     "--flow-label");
			goto out;
		}
		rc = roce
			     ? trace_roce_run(common, &dests, &(struct trace_roce_options){
				       .max_hops = opts->max_hops,
				       .max_hops_given = opts->max_hops_given,
				       .queries = opts->queries,
				       .max_in_flight = opts->max_in_flight,
				       .rate = opts->rate,
				       .flow_labels = &opts->flow_labels,
				       .traffic_classes = &opts->tclasses,
				       .udp_sports = &opts->udp_sports,
				       .nic = opts->nic,
				       .per_dest = failed_keys,
				       .flow_label_source = flow_label_source,
			       })
			     : cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	open = true;
	if (opts->nic) {
		rc = cli_fail(EXIT_USAGE, "--nic traces RoCE routers; on "
			      "InfiniBand the switch path comes from SA "
			      "records: leave --nic out");
		goto out;
	}
	if (opts->failed) {
		rc = distinct_dests(&dests);
		if (rc)
			goto out;
	}
	paths = calloc(dests.count, sizeof(*paths));
	jobs = calloc(dests.count, sizeof(*jobs));
	rows = calloc(dests.count, sizeof(*rows));
	if (!paths || !jobs || !rows) {
		rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
		goto out;
	}
	/* The path as probe and path resolve it: its SLID, DLID and SL. */
	if (path_resolve_all(&session, &dests, &want, opts->window,
			     common->timeout_ms, opts->retries, paths, err,
			     sizeof(err))) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	plan_jobs(&dests, paths, &session.sa, jobs, rows);
	if (ib_trace_fetch_all(&session.sa, jobs, dests.count, &store,
			       opts->window, common->timeout_ms, opts->retries,
			       &stats, err, sizeof(err))) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	nrows = dests.count;
	if (opts->paths_all &&
	    expand_paths(&session, &want, &store, opts, common->timeout_ms,
			 &rows, &jobs, &nrows, &extra, &stats, err,
			 sizeof(err))) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	diag_verbose(1, "trace: %zu SA record queries in %u rounds for %zu "
		  "destinations", stats.queries, stats.rounds, dests.count);
	diag_verbose(1, "trace: the hops are the static route of the SM's "
		     "forwarding tables (adaptive routing may deviate)");
	out_open_array(NULL);
	for (size_t i = 0; i < nrows; i++) {
		bool fine;

		if (i)
			out_text("\n");
		print_row(&rows[i]);
		row_status(&rows[i], &fine);
		broken += !fine;
		if (rows[i].paths && rows[i].path_index == rows[i].paths)
			print_paths_summary(rows, i);
	}
	out_close_array();
	if (opts->paths_all)
		out_text("\n%zu destination%s, %zu path%s: %zu complete, %zu "
			 "broken\n", dests.count,
			 dests.count == 1 ? "" : "s", nrows,
			 nrows == 1 ? "" : "s", nrows - broken, broken);
	else
		out_text("\n%zu destination%s: %zu complete, %zu broken\n",
			 dests.count, dests.count == 1 ? "" : "s",
			 dests.count - broken, broken);
	rc = broken ? EXIT_PROBLEM : EXIT_FINE;
out:
	if (open)
		path_session_close(&session);
	trace_store_free(&store);
	lid_paths_expansion_free(&extra);
	free(rows);
	free(jobs);
	free(paths);
	free(failed_keys);
	dest_list_free(&dests);
	return rc;
}

static void trace_opts_release(void *ctx)
{
	struct trace_opts *opts = ctx;

	value_list_free(&opts->flow_labels);
	value_list_free(&opts->tclasses);
	value_list_free(&opts->udp_sports);
}

/* On RoCE the GID index picks the source address; -t is each query's
 * deadline there. */
static const char *const trace_common_used[] = {
	"device", "port", "gid-index", "timeout", "json", "pretty", "verbose",
	"quiet", "help", "version", NULL,
};

const struct command cmd_trace = {
	.name = "trace",
	.args = "DEST...",
	.summary = "where the path to each destination goes: the InfiniBand "
		   "switches from SA records, the RoCE routers hop by hop",
	.options = trace_options,
	.ctx_size = sizeof(struct trace_opts),
	.ctx_defaults = &trace_defaults,
	.parse_option = trace_option,
	.exec = trace_exec,
	.ctx_release = trace_opts_release,
	.common_used = trace_common_used,
};
