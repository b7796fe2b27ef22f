/* ibahprobe path: SA PathRecord queries, many destinations in flight at
 * once, one result per destination in input order. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "base/dest.h"
#include "verbs/device.h"
#include "base/diag.h"
#include "base/gid.h"
#include "base/ibrate.h"
#include "out/output.h"
#include "base/parse.h"
#include "sa/path_resolve.h"
#include "wire/pathrec_print.h"

enum path_option {
	PATH_OPT_SL, PATH_OPT_PKEY, PATH_OPT_TCLASS, PATH_OPT_FLOW_LABEL,
	PATH_OPT_HOP_LIMIT, PATH_OPT_MTU, PATH_OPT_RATE, PATH_OPT_REVERSIBLE,
	PATH_OPT_QOS_CLASS, PATH_OPT_SGID, PATH_OPT_WINDOW, PATH_OPT_RETRIES,
	PATH_OPT_FILE, PATH_OPT_END,
};

static const struct opt_spec path_options[] = {
	[PATH_OPT_SL] = { "sl", 0, "SL", "only paths with this service level "
			  "(0-15)", COMPLETE_NONE, NULL },
	[PATH_OPT_PKEY] = { "pkey", 0, "PKEY", "only paths in this partition "
			    "(P_Key value, not index)", COMPLETE_NONE, NULL },
	[PATH_OPT_TCLASS] = { "tclass", 0, "N", "only paths with this "
			      "traffic class (0-255)", COMPLETE_NONE, NULL },
	[PATH_OPT_FLOW_LABEL] = { "flow-label", 0, "N", "only paths with "
				  "this flow label (20 bits)", COMPLETE_NONE,
				  NULL },
	[PATH_OPT_HOP_LIMIT] = { "hop-limit", 0, "N", "only paths with this "
				 "hop limit (0-255)", COMPLETE_NONE, NULL },
	[PATH_OPT_MTU] = { "mtu", 0, "BYTES", "only paths with exactly this "
			   "MTU (256-4096)", COMPLETE_WORDS,
			   "256 512 1024 2048 4096" },
	[PATH_OPT_RATE] = { "rate", 0, "GBPS", "only paths with exactly this "
			    "rate in Gb/s (e.g. 2.5, 10, 56, 100)",
			    COMPLETE_NONE, NULL },
	[PATH_OPT_REVERSIBLE] = { "reversible", 0, NULL, "only reversible "
				  "paths", COMPLETE_NONE, NULL },
	[PATH_OPT_QOS_CLASS] = { "qos-class", 0, "N", "only paths with this "
				 "QoS class (0-4095)", COMPLETE_NONE, NULL },
	[PATH_OPT_SGID] = { "sgid", 0, "GID", "source GID (default: the "
			    "port's GID 0)", COMPLETE_NONE, NULL },
	[PATH_OPT_WINDOW] = { "window", 'w', "N", "queries in flight at once "
			      "(default 16)", COMPLETE_NONE, NULL },
	[PATH_OPT_RETRIES] = { "retries", 'r', "N", "retries per query after "
			       "a timeout, with backoff (default 2)",
			       COMPLETE_NONE, NULL },
	[PATH_OPT_FILE] = { "file", 'f', "FILE", "read destinations from "
			    "FILE ('-' for stdin), one per line",
			    COMPLETE_FILE, NULL },
	[PATH_OPT_END] = OPT_END,
};

/* The options of path: its context. */
struct path_opts {
	struct path_constraints want;
	uint32_t window, retries;
	const char *file;
};

static const struct path_opts path_defaults = {
	.window = PATH_DEFAULT_WINDOW, .retries = PATH_DEFAULT_RETRIES,
};

static int path_option(void *ctx, int index, const char *arg)
{
	struct path_opts *opts = ctx;
	struct path_constraints *w = &opts->want;
	char err[DIAG_MSG_MAX];
	uint32_t value;
	int rc = 0;

	switch (index) {
	case PATH_OPT_SL:
		rc = parse_sl(arg, &w->sl, err, sizeof(err));
		w->has_sl = true;
		break;
	case PATH_OPT_PKEY:
		rc = parse_pkey(arg, &w->pkey, err, sizeof(err));
		w->has_pkey = true;
		break;
	case PATH_OPT_TCLASS:
		rc = parse_traffic_class(arg, &w->traffic_class, err,
					 sizeof(err));
		w->has_traffic_class = true;
		break;
	case PATH_OPT_FLOW_LABEL:
		rc = parse_flow_label(arg, &w->flow_label, err, sizeof(err));
		w->has_flow_label = true;
		break;
	case PATH_OPT_HOP_LIMIT:
		rc = parse_hop_limit(arg, &w->hop_limit, err, sizeof(err));
		w->has_hop_limit = true;
		break;
	case PATH_OPT_MTU:
		rc = parse_mtu(arg, &w->mtu_bytes, err, sizeof(err));
		w->has_mtu = true;
		break;
	case PATH_OPT_RATE:
		rc = ibrate_parse_gbps(arg, &w->rate, err, sizeof(err));
		w->has_rate = true;
		break;
	case PATH_OPT_REVERSIBLE:
		w->has_reversible = true;
		w->reversible = true;
		break;
	case PATH_OPT_QOS_CLASS:
		rc = parse_u32(arg, "qos class", 0, 4095, &value, err,
			       sizeof(err));
		w->qos_class = (uint16_t)value;
		w->has_qos_class = true;
		break;
	case PATH_OPT_SGID:
		rc = parse_gid(arg, &w->sgid, err, sizeof(err));
		w->has_sgid = true;
		break;
	case PATH_OPT_WINDOW:
		rc = parse_u32(arg, "window", 1, PATH_MAX_WINDOW, &opts->window,
			       err, sizeof(err));
		break;
	case PATH_OPT_RETRIES:
		rc = parse_u32(arg, "retries", 0, 20, &opts->retries, err,
			       sizeof(err));
		break;
	case PATH_OPT_FILE:
		opts->file = arg;
		break;
	}
	return rc ? cli_usage_error("%s", err) : 0;
}

/* The text table: one aligned row per record, as mtr -r and perftest
 * print theirs. Only the destination (and port) columns vary in width;
 * the numeric ones are as wide as their largest value (LID 5 digits,
 * P_Key 0x + 4, MTU 4, rate "2.5"-"600"). GIDs, packet life, reversible
 * and the rest of the record are on a second line with -v; JSON has them
 * all, always. */
struct path_columns {
	int dest;
	bool port;	/* any guid:/node: row names its port */
};

static const char path_header_fmt[] =
	"%5s  %5s  %2s  %6s  %4s  %4s  %9s  %6s  %10s";

static void print_header(const struct path_columns *cols)
{
	out_text("%-*s", cols->dest, "DEST");
	if (cols->port)
		out_text("  %4s", "PORT");
	out_text("  ");
	out_text(path_header_fmt, "SLID", "DLID", "SL", "PKEY", "MTU", "GB/S",
		 "HOP_LIMIT", "TCLASS", "FLOW_LABEL");
	out_text("\n");
}

/* The row's columns under the titles (print_header), and the details
 * -v adds on the lines below it (JSON has them all). */
static const struct pathrec_column path_row[] = {
	{ PATHREC_SLID, "  %5" PRIu64 },
	{ PATHREC_DLID, "  %5" PRIu64 },
	{ PATHREC_SL, "  %2" PRIu64 },
	{ PATHREC_PKEY, "  0x%04" PRIx64 },
	{ PATHREC_MTU, "  %4" PRIu64 },
	{ PATHREC_RATE_GBPS, NULL },
	{ PATHREC_RATE_TEXT, "  %4s" },
	{ PATHREC_HOP_LIMIT, "  %9" PRIu64 },
	{ PATHREC_TRAFFIC_CLASS, "    0x%02" PRIx64 },
	{ PATHREC_FLOW_LABEL, "     0x%05" PRIx64 },
};

static const struct pathrec_column path_detail[] = {
	{ PATHREC_PACKET_LIFE, "packet_life %" PRIu64 },
	{ PATHREC_REVERSIBLE, " reversible %s" },
	{ PATHREC_NUMB_PATH, " numb_path %" PRIu64 },
	{ PATHREC_QOS_CLASS, " qos_class %" PRIu64 },
	{ PATHREC_SGID, "\n    sgid %s" },
	{ PATHREC_DGID, " dgid %s" },
};

static void print_result(const struct dest *d, const struct path_result *res,
			 const struct path_columns *cols)
{
	const struct path_record *p = &res->record;
	char guid[24], dest_fmt[16];

	snprintf(dest_fmt, sizeof(dest_fmt), "%%-%ds", cols->dest);
	out_open_object(NULL);
	out_string("dest", dest_fmt, d->text);
	/* guid: and node: rows name the port: a node has one row per port. */
	if (res->port_num) {
		snprintf(guid, sizeof(guid), "0x%016llx",
			 (unsigned long long)res->port_guid);
		out_uint("port_num", "  %4" PRIu64, res->port_num);
		out_string("port_guid", NULL, guid);
	} else {
		out_null("port_num", cols->port ? "  %4s" : NULL);
		out_null("port_guid", NULL);
	}
	if (res->status != PATH_OK) {
		out_string("status", "  %s", "error");
		out_string("error", ": %s", res->error);
		out_newline();
		out_close_object();
		return;
	}
	out_string("status", NULL, "ok");
	pathrec_print(p, path_row, sizeof(path_row) / sizeof(path_row[0]), true);
	if (diag_verbosity > 0)
		out_text("\n    ");
	pathrec_print(p, path_detail,
		      sizeof(path_detail) / sizeof(path_detail[0]),
		      diag_verbosity > 0);
	if (res->port_num && diag_verbosity > 0)
		out_text("\n    port_guid %s", guid);
	out_newline();
	out_close_object();
}

/* The closing line: how many destinations, how many rows had a path. */
static void print_summary(size_t dests, size_t rows, size_t failed)
{
	out_text("%zu destination%s", dests, dests == 1 ? "" : "s");
	if (rows != dests)
		out_text(" (%zu ports)", rows);
	out_text(": %zu with a path, %zu without\n", rows - failed, failed);
}

/* No SA port could be opened. When that is because the port is RoCE,
 * say so instead of "no InfiniBand port": exit 3 either way, as probe
 * --discover on RoCE (the local port cannot do it). */
static int fail_to_open(const struct common_opts *common, const char *why)
{
	char dev[IBV_SYSFS_NAME_MAX + 1];
	uint8_t port;

	if (!path_port_is_roce(common->device, common->port, dev, sizeof(dev),
			       &port))
		return cli_fail(EXIT_ENVIRONMENT, "%s", why);
	return cli_fail(EXIT_ENVIRONMENT, "%s port %u is RoCE, which has no "
			"SA: path queries are for InfiniBand ports (ah and "
			"probe take RoCE destinations by address)", dev, port);
}

static int path_exec(const struct common_opts *common, void *ctx,
		     int argc, char **argv)
{
	struct path_opts *opts = ctx;
	struct dest_list dests = { 0 };
	struct path_result *results = NULL;
	struct path_session session;
	char err[DIAG_MSG_MAX * 2];
	struct path_columns cols = { 0 };
	size_t failed = 0, count = 0;
	int rc;

	rc = cli_collect_dests("path", argc, argv, opts->file, &dests);
	if (rc)
		goto out;
	if (path_session_open(&session, common->device, common->port, err,
			      sizeof(err)) != SA_CLIENT_OK) {
		rc = fail_to_open(common, err);
		goto out;
	}
	/* Every port of a node: an admin asking for node:NAME wants to see
	 * each way into it. */
	rc = path_resolve_every_port(&session, &dests, &opts->want,
				     opts->window, common->timeout_ms,
				     opts->retries,
				     &results, &count, err, sizeof(err));
	path_session_close(&session);
	if (rc) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	cols.dest = 4;
	for (size_t i = 0; i < count; i++) {
		int len = (int)strlen(dests.items[results[i].dest_index].text);

		cols.dest = len > cols.dest ? len : cols.dest;
		cols.port |= results[i].port_num != 0;
	}
	print_header(&cols);
	out_open_array(NULL);
	for (size_t i = 0; i < count; i++) {
		print_result(&dests.items[results[i].dest_index], &results[i],
			     &cols);
		failed += results[i].status != PATH_OK;
	}
	out_close_array();
	print_summary(dests.count, count, failed);
	rc = failed ? EXIT_PROBLEM : EXIT_FINE;
out:
	free(results);
	dest_list_free(&dests);
	return rc;
}

const struct command cmd_path = {
	.name = "path",
	.args = "DEST...",
	.summary = "SA PathRecord queries, many destinations in flight at once",
	.options = path_options,
	.ctx_size = sizeof(struct path_opts),
	.ctx_defaults = &path_defaults,
	.parse_option = path_option,
	.exec = path_exec,
};
