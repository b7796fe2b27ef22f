/* probe --dry-run's report: see probe_dry_run.h. */
#include "verbs/ah_print.h"
#include "base/gid.h"
#include "out/output.h"
#include "probe/probe_dry_run.h"
#include "probe/probe_paths.h"
#include "probe/probe_text.h"
#include "peer/responder_print.h"
#include "wire/pathrec_print.h"

static void print_rendezvous(const struct probe_target *t)
{
	const struct responder_info *info = &t->info;

	if (!t->from_rendezvous) {
		out_null("rendezvous", NULL);
		return;
	}
	out_open_object("rendezvous");
	responder_info_print(info, "\n    rendezvous", RESPONDER_QPN_HEX);
	responder_gids_print(info, true);
	out_close_object();
}

/* The keys of `path -j` (pathrec_print), so the two compare field by
 * field; in text two lines under the destination. */
static const struct pathrec_column dry_run_path[] = {
	{ PATHREC_SLID, "\n    path slid %u" },
	{ PATHREC_DLID, " dlid %u" },
	{ PATHREC_SL, " sl %u" },
	{ PATHREC_PKEY, " pkey 0x%04x" },
	{ PATHREC_MTU, " mtu %u" },
	{ PATHREC_RATE_GBPS, " rate %g Gb/s" },
	{ PATHREC_HOP_LIMIT, " hop_limit %u" },
	{ PATHREC_FLOW_LABEL, NULL },
	{ PATHREC_TRAFFIC_CLASS, NULL },
	{ PATHREC_SGID, "\n    path sgid %s" },
	{ PATHREC_DGID, " dgid %s" },
};

static void print_path(const struct probe_target *t)
{
	if (!t->has_path) {
		out_null("path", NULL);
		if (t->path_note[0])
			out_string("path_note", "\n    %s", t->path_note);
		return;
	}
	out_open_object("path");
	pathrec_print(&t->path, dry_run_path,
		      sizeof(dry_run_path) / sizeof(dry_run_path[0]), true);
	out_close_object();
}

static bool print_cell(const struct probe_session *s,
		       const struct probe_cell *c)
{
	int32_t port = probe_udp_sport(s, c);
	bool ok = c->error[0] == '\0' && c->check.errors == 0;

	out_open_object(NULL);
	out_open_object("params");
	out_uint("hop_limit", "\n    hl %u", c->asked.hop_limit);
	out_uint("traffic_class", " tc 0x%02x", c->asked.traffic_class);
	out_uint("flow_label", " fl 0x%05x", c->asked.flow_label);
	if (port >= 0)
		out_uint("udp_sport", " udp_sport 0x%04llx", (uint64_t)port);
	else
		out_null("udp_sport", NULL);
	out_uint("sl", " sl %u", c->asked.sl);
	out_close_object();
	out_string("status", ": %s", ok ? "valid" : "invalid");
	/* --paths all: the path and the SA's PathRecord to its DLID, from
	 * the source LID of its path bits. */
	probe_dlid_path_print(c, "\n    ");
	if (c->dlid_path.of && c->dlid_path.has_path) {
		out_open_object("path");
		pathrec_print(&c->dlid_path.record, dry_run_path,
			      sizeof(dry_run_path) / sizeof(dry_run_path[0]),
			      true);
		out_close_object();
	} else if (c->dlid_path.of) {
		out_null("path", NULL);
	}
	out_text("\n    ");
	ah_attr_print("ah_attr", &c->attr);
	ah_check_print("violations", &c->check);
	if (c->error[0])
		out_string("error", "\n    error: %s", c->error);
	out_close_object();
	return ok;
}

bool probe_dry_run_print(const struct probe_session *s)
{
	bool all_ok = true;
	char gid[GID_TEXT_MAX];

	out_open_array(NULL);
	for (size_t i = 0; i < s->cell_count; i++) {
		const struct probe_target *t = s->cells[i].target;

		if (i > 0 && s->cells[i - 1].target == t)
			continue;	/* a target's cells stand together */
		out_open_object(NULL);
		out_string("dest", "%s", t->dest->text);
		out_string("status", ": %s", t->ready ? "resolved" : "error");
		if (!t->ready) {
			all_ok = false;
			out_string("error", " %s", t->error);
		}
		print_rendezvous(t);
		out_uint("qpn", NULL, t->info.qpn);
		out_uint("qkey", NULL, t->info.qkey);
		if (t->has_dgid) {
			out_string("dgid", "\n    dgid %s",
				   gid_format(&t->dgid, gid, sizeof(gid)));
			out_string("dgid_source", " (%s)", t->dgid_source);
		} else {
			out_null("dgid", NULL);
		}
		print_path(t);
		if (t->ready) {
			if (s->pkey)
				out_uint("pkey", "\n    partition pkey 0x%04x",
					 s->pkey);
			else
				out_null("pkey", "\n    partition pkey %s");
			out_uint("pkey_index", " pkey_index %u", s->pkey_index);
		}
		out_open_array("ahs");
		for (size_t k = i; t->ready && k < s->cell_count &&
				   s->cells[k].target == t; k++)
			all_ok = print_cell(s, &s->cells[k]) && all_ok;
		out_close_array();
		out_newline();
		out_close_object();
	}
	out_close_array();
	return all_ok;
}
