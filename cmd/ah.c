/* ibahprobe ah: build struct ibv_ah_attr from flags, a GID/IP or a path
 * record, check it against the rules ibv_create_ah enforces with a bare
 * EINVAL, create and destroy it on the device, and explain any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs/ah_attr.h"
#include "verbs/ah_create.h"
#include "verbs/ah_print.h"
#include "cli.h"
#include "cli_port.h"
#include "base/dest.h"
#include "verbs/device.h"
#include "base/diag.h"
#include "base/gid.h"
#include "out/output.h"
#include "base/parse.h"
#include "sa/mcast_target.h"
#include "sa/path_resolve.h"
#include "wire/mcmember_print.h"
#include "verbs/pkey_table.h"
#include "verbs/sgid_select.h"

enum ah_option {
	AH_OPT_DRY_RUN, AH_OPT_DLID, AH_OPT_SL, AH_OPT_SRC_PATH_BITS,
	AH_OPT_STATIC_RATE, AH_OPT_PORT_NUM, AH_OPT_DGID, AH_OPT_SGID_INDEX,
	AH_OPT_HOP_LIMIT, AH_OPT_TCLASS, AH_OPT_FLOW_LABEL, AH_OPT_LINK_LAYER,
	AH_OPT_GRH_REQUIRED, AH_OPT_FILE, AH_OPT_IPOIB_GROUPS, AH_OPT_COUNT,
};

static const struct opt_spec ah_options[] = {
	[AH_OPT_DRY_RUN] = { "dry-run", 'n', NULL, "build and check only; "
			     "create nothing (works without a device)",
			     COMPLETE_NONE, NULL },
	[AH_OPT_DLID] = { "dlid", 0, "LID", "destination LID (1-0xffff; "
			  "0xc000 up: multicast)",
			  COMPLETE_NONE, NULL },
	[AH_OPT_SL] = { "sl", 0, "SL", "service level (0-15)", COMPLETE_NONE,
			NULL },
	[AH_OPT_SRC_PATH_BITS] = { "src-path-bits", 0, "N", "low LID bits "
				   "of the source (0-127, within the LMC)",
				   COMPLETE_NONE, NULL },
	[AH_OPT_STATIC_RATE] = { "static-rate", 0, "RATE", "enum ibv_rate "
				 "value (0 port rate, 2-24)", COMPLETE_NONE,
				 NULL },
	[AH_OPT_PORT_NUM] = { "port-num", 0, "N", "port_num of the AH "
			      "(default: the port in use)", COMPLETE_NONE,
			      NULL },
	[AH_OPT_DGID] = { "dgid", 0, "GID", "destination GID (IPv6 form or "
			  "IPv4); sets is_global", COMPLETE_NONE, NULL },
	[AH_OPT_SGID_INDEX] = { "sgid-index", 0, "N", "source GID index "
				"(0-255; default -g)", COMPLETE_NONE, NULL },
	[AH_OPT_HOP_LIMIT] = { "hop-limit", 0, "N", "GRH hop limit (0-255)",
			       COMPLETE_NONE, NULL },
	[AH_OPT_TCLASS] = { "tclass", 0, "N", "GRH traffic class (0-255; on "
			    "RoCE v2 the IP TOS byte)", COMPLETE_NONE, NULL },
	[AH_OPT_FLOW_LABEL] = { "flow-label", 0, "N", "GRH flow label "
				"(20 bits: 0-0xfffff)", COMPLETE_NONE, NULL },
	[AH_OPT_LINK_LAYER] = { "link-layer", 0, "ib|eth", "with --dry-run: "
				"assume a port of this link layer instead of "
				"asking the device", COMPLETE_WORDS,
				"ib eth" },
	[AH_OPT_GRH_REQUIRED] = { "grh-required", 0, NULL, "with --dry-run: "
				  "assume the port requires a GRH",
				  COMPLETE_NONE, NULL },
	[AH_OPT_FILE] = { "file", 'f', "FILE", "read destinations from FILE "
			  "('-' for stdin), one per line", COMPLETE_FILE,
			  NULL },
	[AH_OPT_IPOIB_GROUPS] = { "ipoib-groups", 0, NULL, "add the IPoIB "
				  "broadcast group of every P_Key in the "
				  "port's table: can this port join them?",
				  COMPLETE_NONE, NULL },
	[AH_OPT_COUNT] = OPT_END,
};

/* The options of ah: its context. */
struct ah_opts {
	bool dry_run;
	struct ah_fields fields;
	bool has_link_layer;
	enum link_layer link_layer;
	bool grh_required;
	const char *file;
	bool ipoib_groups;
};

static int ah_option(void *ctx, int index, const char *arg)
{
	struct ah_opts *opts = ctx;
	struct ah_fields *f = &opts->fields;
	char err[DIAG_MSG_MAX];
	int rc = 0;

	switch (index) {
	case AH_OPT_DRY_RUN:
		opts->dry_run = true;
		break;
	case AH_OPT_DLID: {
		/* Multicast LIDs and 0xffff are legal here: the rules judge
		 * them with the rest of the AH. */
		uint32_t dlid;

		rc = parse_u32_hex(arg, "dlid", 1, 0xffff, &dlid, err,
				   sizeof(err));
		f->dlid = (uint16_t)dlid;
		f->has_dlid = true;
		break;
	}
	case AH_OPT_SL:
		rc = parse_sl(arg, &f->sl, err, sizeof(err));
		f->has_sl = true;
		break;
	case AH_OPT_SRC_PATH_BITS:
		rc = parse_src_path_bits(arg, &f->src_path_bits, err,
					 sizeof(err));
		f->has_src_path_bits = true;
		break;
	case AH_OPT_STATIC_RATE:
		rc = parse_static_rate(arg, &f->static_rate, err, sizeof(err));
		f->has_static_rate = true;
		break;
	case AH_OPT_PORT_NUM:
		rc = parse_port_num(arg, &f->port_num, err, sizeof(err));
		f->has_port_num = true;
		break;
	case AH_OPT_DGID:
		rc = parse_gid(arg, &f->dgid, err, sizeof(err));
		f->has_dgid = true;
		break;
	case AH_OPT_SGID_INDEX:
		rc = parse_gid_index(arg, &f->sgid_index, err, sizeof(err));
		f->has_sgid_index = true;
		break;
	case AH_OPT_HOP_LIMIT:
		rc = parse_hop_limit(arg, &f->hop_limit, err, sizeof(err));
		f->has_hop_limit = true;
		break;
	case AH_OPT_TCLASS:
		rc = parse_traffic_class(arg, &f->traffic_class, err,
					 sizeof(err));
		f->has_traffic_class = true;
		break;
	case AH_OPT_FLOW_LABEL:
		rc = parse_flow_label(arg, &f->flow_label, err, sizeof(err));
		f->has_flow_label = true;
		break;
	case AH_OPT_LINK_LAYER:
		opts->has_link_layer = true;
		if (strcmp(arg, "ib") == 0)
			opts->link_layer = LINK_LAYER_IB;
		else if (strcmp(arg, "eth") == 0)
			opts->link_layer = LINK_LAYER_ETHERNET;
		else
			return cli_usage_error("link layer '%s' is not valid: "
					       "expected ib or eth", arg);
		break;
	case AH_OPT_GRH_REQUIRED:
		opts->grh_required = true;
		break;
	case AH_OPT_FILE:
		opts->file = arg;
		break;
	case AH_OPT_IPOIB_GROUPS:
		opts->ipoib_groups = true;
		break;
	}
	return rc ? cli_usage_error("%s", err) : 0;
}

/* Everything one destination's report needs. */
struct ah_outcome {
	const char *dest;		/* NULL: built from flags alone */
	bool built;
	char error[DIAG_MSG_MAX * 2];	/* resolution or creation failure */
	struct ibv_ah_attr attr;
	struct ah_check check;
	const char *scope;		/* link-local destination's interface */
	bool auto_sgid;			/* -g auto chose the source GID */
	struct sgid_choice sgid_choice;
	const char *source;		/* flags, gid, path, group */
	/* mcast: destinations: the group's record and whether this port
	 * can join it (the SA's rule; an unjoinable group fails the run:
	 * even a SendOnlyNonMember join is refused). */
	bool has_group;
	struct mcmember_record group;
	bool has_joinability;
	struct mcast_joinability joinability;
	char joinable_words[DIAG_MSG_MAX];
	bool tried;
	struct ah_trial trial;
};

static const char *outcome_status(const struct ah_outcome *o)
{
	if (!o->built || (o->tried && o->trial.failed))
		return "error";
	if (o->check.errors)
		return "invalid";
	return o->tried ? "created" : "valid";
}

/* Text widths shared by the outcomes of one run, so their lines line
 * up: "DEST:" and the status word padded, the AH fields as wide as the
 * widest of the list. */
struct ah_columns {
	int dest, status;
	struct ah_widths attr;
};

static const char *outcome_dest(const struct ah_outcome *o)
{
	return o->dest ? o->dest : "(flags)";
}

static void measure_columns(const struct ah_outcome *outcomes, size_t n,
			    struct ah_columns *cols)
{
	memset(cols, 0, sizeof(*cols));
	for (size_t i = 0; i < n; i++) {
		int dest = (int)strlen(outcome_dest(&outcomes[i])) + 1;
		int status = (int)strlen(outcome_status(&outcomes[i]));

		cols->dest = dest > cols->dest ? dest : cols->dest;
		if (!outcomes[i].built)
			continue;
		cols->status = status > cols->status ? status : cols->status;
		ah_widths_add(&cols->attr, &outcomes[i].attr);
	}
}

/* The group's record as the SA gave it, and the joinability verdict. */
static void print_group(const struct ah_outcome *o)
{
	mcmember_print("group", "\n    ", &o->group);
	if (o->has_joinability) {
		out_bool("joinable", NULL, o->joinability.joinable);
		out_string("joinable_reason", "\n    %s", o->joinable_words);
	}
}

static void print_outcome(const struct ah_outcome *o,
			  const struct ah_columns *cols)
{
	char label[DIAG_MSG_MAX + 2];

	snprintf(label, sizeof(label), "%s:", outcome_dest(o));
	out_open_object(NULL);
	out_string("dest", NULL, outcome_dest(o));
	out_text("%-*s", cols->dest, label);
	if (o->built)
		out_text(" %-*s", cols->status, outcome_status(o));
	else
		out_text(" %s", outcome_status(o));
	out_string("status", NULL, outcome_status(o));
	if (o->built) {
		out_string("source", " (from %s)", o->source);
		if (o->auto_sgid)
			sgid_choice_print("sgid_choice", &o->sgid_choice);
		out_newline();
		out_text("    ");
		ah_attr_print_aligned("ah_attr", &o->attr, &cols->attr);
		ah_check_print("violations", &o->check);
		if (o->has_group)
			print_group(o);
	}
	if (o->tried) {
		out_uint("create_usec",
			 o->trial.failed ? "\n    ibv_create_ah failed after %llu us"
					: "\n    created in %llu us",
			 (unsigned long long)o->trial.create_usec);
		if (!o->trial.failed)
			out_string(NULL, ", destroyed%s",
				   o->trial.destroy_error ? " with an error"
							  : "");
		out_int("create_errno", NULL, o->trial.error);
	}
	if (o->error[0])
		out_string("error", "\n    error: %s", o->error);
	out_newline();
	out_close_object();
}

static void choose_sgid(const struct common_opts *common,
			const struct ah_opts *opts,
			const struct ah_port_facts *facts,
			struct ah_outcome *o)
{
	char why[DIAG_MSG_MAX * 3];

	if (!o->attr.is_global || opts->fields.has_sgid_index)
		return;
	if (common->gid_index != GID_INDEX_AUTO) {
		o->attr.grh.sgid_index = (uint8_t)common->gid_index;
		return;
	}
	o->auto_sgid = true;
	if (sgid_select(facts, &o->attr.grh.dgid, o->scope,
			&o->sgid_choice) == 0)
		o->attr.grh.sgid_index = o->sgid_choice.index;
	diag_verbose(1, "%s: %s", o->dest ? o->dest : "flags",
		     sgid_choice_describe(&o->sgid_choice, why, sizeof(why)));
}

static void check_and_create(const struct common_opts *common,
			     const struct ah_opts *opts,
			     const struct ah_port_facts *facts,
			     struct verbs_port *vp, struct ah_outcome *o)
{
	choose_sgid(common, opts, facts, o);
	ah_check(&o->attr, facts, &o->check);
	if (o->check.errors || !vp)
		return;
	o->tried = true;
	ah_try_create(vp, &o->attr, &o->trial);
	if (o->trial.failed)
		ah_explain_errno(o->trial.error, &o->attr, facts, o->error,
				 sizeof(o->error));
}

/* A destination that names a GID (RoCE, or IB with --dlid) builds
 * directly; on InfiniBand anything else takes the path the SA gives.
 * Returns true when the destination needs the SA. */
static bool build_direct(const struct ah_opts *opts, struct dest *d,
			 const struct ah_port_facts *facts,
			 struct ah_outcome *o)
{
	bool eth = facts->link_layer == LINK_LAYER_ETHERNET;

	o->dest = d->text;
	o->scope = d->scope;
	if (d->kind == DEST_HOST &&
	    dest_resolve_host(d, o->error, sizeof(o->error)))
		return false;
	if (d->kind == DEST_MCAST && eth) {
		snprintf(o->error, sizeof(o->error),
			 "'%s' is an InfiniBand multicast group, known to the "
			 "SA: a RoCE port has no SA (a RoCE group is an IP "
			 "multicast address)", d->text);
		return false;
	}
	if (d->kind == DEST_MCAST)
		return true;
	if (d->has_gid && (eth || opts->fields.has_dlid)) {
		o->built = true;
		o->source = "gid";
		ah_build_from_gid(&d->gid, &opts->fields, facts, &o->attr);
		return false;
	}
	if (eth) {
		snprintf(o->error, sizeof(o->error),
			 "a %s destination means nothing on RoCE: give a GID, "
			 "an IP address or a host name",
			 dest_kind_name(d->kind));
		return false;
	}
	return true;
}

/* mcast: destinations when the SA cannot be asked. */
static void fail_groups(const struct dest_list *dests, const bool *needs_sa,
			struct ah_outcome *outcomes, const char *err)
{
	for (size_t i = 0; i < dests->count; i++)
		if (needs_sa[i] && dests->items[i].kind == DEST_MCAST)
			snprintf(outcomes[i].error, sizeof(outcomes[i].error),
				 "needs the group's MCMemberRecord from the SA: "
				 "%s", err);
}

/* mcast: destinations: the group's AH and joinability from the SA. */
static void build_from_groups(const struct common_opts *common,
			      const struct ah_opts *opts,
			      struct path_session *session,
			      const struct dest_list *dests,
			      const bool *needs_sa,
			      const struct ah_port_facts *facts,
			      struct ah_outcome *outcomes)
{
	struct mcast_target *targets = calloc(dests->count, sizeof(*targets));

	if (!targets) {
		fail_groups(dests, needs_sa, outcomes, "out of memory");
		return;
	}
	mcast_targets_resolve(session, dests, needs_sa, &opts->fields, facts,
			      common->timeout_ms, targets);
	for (size_t i = 0; i < dests->count; i++) {
		const struct mcast_target *t = &targets[i];
		struct ah_outcome *o = &outcomes[i];

		if (!needs_sa[i] || dests->items[i].kind != DEST_MCAST)
			continue;
		if (!t->built) {
			snprintf(o->error, sizeof(o->error), "%.*s",
				 (int)sizeof(o->error) - 1, t->error);
			continue;
		}
		o->built = true;
		o->source = "group";
		o->attr = t->attr;
		o->has_group = true;
		o->group = t->group;
		o->has_joinability = t->has_joinability;
		o->joinability = t->joinability;
		snprintf(o->joinable_words, sizeof(o->joinable_words), "%s",
			 t->joinable_words);
	}
	free(targets);
}

/* Resolves the destinations that need the SA in one windowed batch. */
static void build_from_sa(const struct common_opts *common,
			  const struct ah_opts *opts,
			  struct dest_list *dests, const bool *needs_sa,
			  const struct ah_port_facts *facts,
			  struct ah_outcome *outcomes)
{
	struct dest_list batch = { 0 };
	struct path_result *results = NULL;
	struct path_session session;
	struct path_constraints want = { 0 };
	char err[DIAG_MSG_MAX];
	size_t *index = calloc(dests->count, sizeof(*index));
	bool open = false;

	batch.items = calloc(dests->count, sizeof(*batch.items));
	results = calloc(dests->count, sizeof(*results));
	if (!index || !batch.items || !results) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < dests->count; i++)
		if (needs_sa[i] && dests->items[i].kind != DEST_MCAST) {
			index[batch.count] = i;
			batch.items[batch.count++] = dests->items[i];
		}
	if (path_session_open(&session, common->device, common->port, err,
			      sizeof(err)) != SA_CLIENT_OK) {
		fail_groups(dests, needs_sa, outcomes, err);
		goto fail;
	}
	open = true;
	build_from_groups(common, opts, &session, dests, needs_sa, facts,
			  outcomes);
	if (batch.count == 0)
		goto out;
	if (path_resolve_all(&session, &batch, &want, PATH_DEFAULT_WINDOW,
			     common->timeout_ms, PATH_DEFAULT_RETRIES, results,
			     err, sizeof(err)))
		goto fail;
	for (size_t k = 0; k < batch.count; k++) {
		struct ah_outcome *o = &outcomes[index[k]];
		struct ah_path path;

		if (results[k].status != PATH_OK) {
			snprintf(o->error, sizeof(o->error), "%s",
				 results[k].error);
			continue;
		}
		path_record_to_ah_path(&results[k].record, &path);
		o->source = "path";
		if (ah_build_from_path(&path, &opts->fields, facts, &o->attr)) {
			char gid[GID_TEXT_MAX];

			snprintf(o->error, sizeof(o->error),
				 "the path's SGID %s is not in the GID table "
				 "of port %u", gid_format(&path.sgid, gid,
							  sizeof(gid)),
				 facts->port_num);
			continue;
		}
		o->built = true;
	}
	goto out;
fail:
	/* Without the SA, a LID still makes an AH (the SA would only have
	 * added SL, rate and a GRH for routed paths); the rest cannot. */
	for (size_t k = 0; k < batch.count; k++) {
		struct ah_outcome *o = &outcomes[index[k]];
		const struct dest *d = &batch.items[k];

		if (d->kind == DEST_LID) {
			o->built = true;
			o->source = "lid";
			ah_build_from_fields(&opts->fields, facts, &o->attr);
			o->attr.dlid = d->lid;
		} else {
			snprintf(o->error, sizeof(o->error),
				 "needs an SA PathRecord: %s", err);
		}
	}
	if (batch.count)
		diag_warn("no path records: %s", err);
out:
	if (open)
		path_session_close(&session);
	free(index);
	free(batch.items);	/* the items belong to dests */
	free(results);
}

/* Finds the facts of the port in use, or assumes them for a dry run. */
static int establish_facts(const struct common_opts *common,
			   const struct ah_opts *opts,
			   struct cli_port *local, struct ah_port_facts *facts)
{
	memset(local, 0, sizeof(*local));
	if (opts->has_link_layer || opts->grh_required) {
		if (!opts->dry_run)
			return cli_usage_error("--link-layer and --grh-required "
					       "describe an assumed port: use "
					       "them with --dry-run");
		ah_port_facts_assumed(opts->has_link_layer ? opts->link_layer
							  : LINK_LAYER_IB,
				      opts->grh_required, common->port, facts);
		return 0;
	}
	if (cli_open_port(local, common->device, common->port,
			  opts->dry_run ? CLI_PORT_NO_FAIL : 0) == 0) {
		ah_port_facts_from_port(local->port, facts);
		return 0;
	}
	if (!opts->dry_run)
		return EXIT_ENVIRONMENT;
	diag_warn("%s; assuming an InfiniBand port (--link-layer eth for "
		  "RoCE)", local->err);
	cli_close_port(local);
	ah_port_facts_assumed(LINK_LAYER_IB, false, common->port, facts);
	return 0;
}

/* --ipoib-groups: mcast:ipoib:PKEY for every partition in the port's
 * P_Key table (empty slots, 0x0000 and 0x8000, name none), once per
 * partition: a limited and a full entry of one partition name the same
 * group (base/mgid.h). The joinability audit of issue 23. */
static int add_ipoib_groups(const struct cli_port *local,
			    struct dest_list *dests)
{
	struct pkey_table table;
	char err[DIAG_MSG_MAX], spec[32];
	bool seen[0x8000] = { false };

	if (!local->dev || !local->port)
		return cli_fail(EXIT_ENVIRONMENT, "--ipoib-groups reads the "
				"port's P_Key table: %s", local->err[0]
							  ? local->err
							  : "no port");
	if (local->port->link_layer != LINK_LAYER_IB)
		return cli_usage_error("--ipoib-groups: %s port %u is RoCE, "
				       "which has no IPoIB and no SA",
				       local->dev->name, local->port->port_num);
	if (pkey_table_read(local->dev, local->port->port_num, &table, err,
			    sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	for (size_t i = 0; i < table.count; i++) {
		uint16_t partition = table.keys[i] & 0x7fff;

		if (partition == 0 || seen[partition])
			continue;
		seen[partition] = true;
		snprintf(spec, sizeof(spec), "mcast:ipoib:0x%04x",
			 partition | 0x8000);
		if (dest_list_add(dests, spec, err, sizeof(err)))
			return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	}
	return 0;
}

static int ah_exec(const struct common_opts *common, void *ctx,
		   int argc, char **argv)
{
	struct ah_opts *opts = ctx;
	struct dest_list dests = { 0 };
	struct cli_port local;
	const struct device_info *dev;
	struct ah_port_facts facts;
	struct verbs_port vp, *vpp = NULL;
	struct ah_outcome *outcomes = NULL;
	char err[DIAG_MSG_MAX];
	struct ah_columns cols;
	size_t n, failed = 0;
	int rc;

	if (opts->fields.has_port_num && common->port == 0)
		diag_verbose(1, "--port-num sets the AH field only; -P chooses "
			     "the port in use");
	rc = cli_collect_dests(NULL, argc, argv, opts->file, &dests);
	if (rc)
		goto out_dests;
	rc = establish_facts(common, opts, &local, &facts);
	if (rc)
		goto out_devices;
	if (opts->ipoib_groups) {
		rc = add_ipoib_groups(&local, &dests);
		if (rc)
			goto out_devices;
	}
	dev = local.dev;
	if (!opts->dry_run) {
		if (dev->source != DEVICE_FROM_VERBS) {
			rc = cli_fail(EXIT_ENVIRONMENT,
				      "%s is visible through umad only: creating "
				      "an AH needs a verbs device; --dry-run "
				      "builds and checks without one",
				      dev->name);
			goto out_devices;
		}
		if (verbs_port_open(dev->name, &vp, err, sizeof(err))) {
			rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
			goto out_devices;
		}
		vpp = &vp;
	}
	n = dests.count ? dests.count : 1;
	outcomes = calloc(n, sizeof(*outcomes));
	if (!outcomes) {
		rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
		goto out_verbs;
	}
	if (dests.count == 0) {
		outcomes[0].built = true;
		outcomes[0].source = "flags";
		ah_build_from_fields(&opts->fields, &facts, &outcomes[0].attr);
	} else {
		bool *needs_sa = calloc(dests.count, sizeof(*needs_sa));
		bool any = false;

		if (!needs_sa) {
			rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
			goto out_outcomes;
		}
		for (size_t i = 0; i < dests.count; i++) {
			needs_sa[i] = build_direct(opts, &dests.items[i],
						   &facts, &outcomes[i]);
			any = any || needs_sa[i];
		}
		if (any)
			build_from_sa(common, opts, &dests, needs_sa, &facts,
				      outcomes);
		free(needs_sa);
	}
	for (size_t i = 0; i < n; i++)
		if (outcomes[i].built)
			check_and_create(common, opts, &facts, vpp,
					 &outcomes[i]);
	measure_columns(outcomes, n, &cols);
	out_open_array(NULL);
	for (size_t i = 0; i < n; i++) {
		struct ah_outcome *o = &outcomes[i];

		if (strcmp(outcome_status(o), "error") == 0 ||
		    strcmp(outcome_status(o), "invalid") == 0 ||
		    (o->has_joinability && !o->joinability.joinable))
			failed++;
		print_outcome(o, &cols);
	}
	out_close_array();
	rc = failed ? EXIT_PROBLEM : EXIT_FINE;
out_outcomes:
	free(outcomes);
out_verbs:
	if (vpp)
		verbs_port_close(vpp);
out_devices:
	cli_close_port(&local);
out_dests:
	dest_list_free(&dests);
	return rc;
}

const struct command cmd_ah = {
	.name = "ah",
	.args = "[DEST...]",
	.summary = "build, check, create and destroy an address handle, and "
		   "explain failures",
	.options = ah_options,
	.ctx_size = sizeof(struct ah_opts),
	.parse_option = ah_option,
	.exec = ah_exec,
};
