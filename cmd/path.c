/* ibahprobe path: SA PathRecord queries, many destinations in flight at
 * once, one result per destination in input order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dest.h"
#include "device.h"
#include "diag.h"
#include "gid.h"
#include "ibrate.h"
#include "output.h"
#include "parse.h"
#include "path_resolve.h"

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

static struct {
	struct path_constraints want;
	uint32_t window, retries;
	const char *file;
} opts = { .window = PATH_DEFAULT_WINDOW, .retries = PATH_DEFAULT_RETRIES };

static int path_option(int index, const char *arg)
{
	struct path_constraints *w = &opts.want;
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
		rc = parse_u32(arg, "window", 1, PATH_MAX_WINDOW, &opts.window,
			       err, sizeof(err));
		break;
	case PATH_OPT_RETRIES:
		rc = parse_u32(arg, "retries", 0, 20, &opts.retries, err,
			       sizeof(err));
		break;
	case PATH_OPT_FILE:
		opts.file = arg;
		break;
	}
	return rc ? cli_usage_error("%s", err) : 0;
}

static void print_result(const struct dest *d, const struct path_result *res)
{
	const struct path_record *p = &res->record;
	char gid[GID_TEXT_MAX], guid[24];

	out_open_object(NULL);
	out_string("dest", "%s", d->text);
	/* guid: and node: rows name the port: a node has one row per port. */
	if (res->port_num) {
		snprintf(guid, sizeof(guid), "0x%016llx",
			 (unsigned long long)res->port_guid);
		out_uint("port_num", " port %u", res->port_num);
		out_string("port_guid", " guid %s", guid);
	} else {
		out_null("port_num", NULL);
		out_null("port_guid", NULL);
	}
	if (res->status != PATH_OK) {
		out_string("status", ": %s", "error");
		out_string("error", " %s", res->error);
		out_newline();
		out_close_object();
		return;
	}
	out_string("status", ": %s", "ok");
	out_uint("slid", " slid %u", p->slid);
	out_uint("dlid", " dlid %u", p->dlid);
	out_uint("sl", " sl %u", p->sl);
	out_uint("pkey", " pkey 0x%04x", p->pkey);
	out_uint("mtu", " mtu %u", ibrate_mtu_bytes(p->mtu));
	out_double("rate_gbps", " rate %g Gb/s", ibrate_gbps(p->rate));
	out_uint("hop_limit", " hop_limit %u", p->hop_limit);
	out_uint("flow_label", " flow_label 0x%05x", p->flow_label);
	out_uint("traffic_class", " tclass 0x%02x", p->traffic_class);
	out_uint("packet_life", " packet_life %u", p->packet_life);
	out_bool("reversible", " reversible %s", p->reversible);
	out_uint("numb_path", NULL, p->numb_path);
	out_uint("qos_class", NULL, p->qos_class);
	out_string("sgid", "\n    sgid %s", gid_format(&p->sgid, gid, sizeof(gid)));
	out_string("dgid", " dgid %s", gid_format(&p->dgid, gid, sizeof(gid)));
	out_newline();
	out_close_object();
}

static int collect_dests(int argc, char **argv, struct dest_list *dests)
{
	char err[DIAG_MSG_MAX + 64];

	if (dest_list_collect(dests, argc, argv, opts.file, err, sizeof(err)))
		return cli_usage_error("%s", err);
	if (dests->count == 0)
		return cli_usage_error("path needs at least one destination; "
				       "'ibahprobe path -h' shows the forms");
	return 0;
}

/* No SA port could be opened. When that is because the port is RoCE,
 * say so instead of "no InfiniBand port": exit 3 either way, as probe
 * --discover on RoCE (the local port cannot do it). */
static int fail_to_open(const struct common_opts *common, const char *why)
{
	struct device_list list;
	const struct device_info *dev;
	const struct port_info *roce;
	char err[DIAG_MSG_MAX];
	int rc;

	if (device_discover(&list, common->device, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", why);
	roce = path_roce_port(&list, common->port, &dev);
	if (roce)
		rc = cli_fail(EXIT_ENVIRONMENT, "%s port %u is RoCE, which has "
			      "no SA: path queries are for InfiniBand ports "
			      "(ah and probe take RoCE destinations by "
			      "address)", dev->name, roce->port_num);
	else
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", why);
	device_list_free(&list);
	return rc;
}

static int path_run(const struct common_opts *common, int argc, char **argv)
{
	struct dest_list dests = { 0 };
	struct path_result *results = NULL;
	struct path_session session;
	char err[DIAG_MSG_MAX * 2];
	size_t failed = 0, count = 0;
	int rc;

	rc = collect_dests(argc, argv, &dests);
	if (rc)
		goto out;
	if (path_session_open(&session, common->device, common->port, err,
			      sizeof(err)) != SA_CLIENT_OK) {
		rc = fail_to_open(common, err);
		goto out;
	}
	/* Every port of a node: an admin asking for node:NAME wants to see
	 * each way into it. */
	rc = path_resolve_every_port(&session, &dests, &opts.want, opts.window,
				     common->timeout_ms, opts.retries,
				     &results, &count, err, sizeof(err));
	path_session_close(&session);
	if (rc) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	out_open_array(NULL);
	for (size_t i = 0; i < count; i++) {
		print_result(&dests.items[results[i].dest_index], &results[i]);
		failed += results[i].status != PATH_OK;
	}
	out_close_array();
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
	.option = path_option,
	.run = path_run,
};
