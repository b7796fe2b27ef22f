/* ibahprobe check: a bring-up checklist (lib/probe/checklist.h) run as TAP. All
 * probing entries go through one probe engine at once; path expectations
 * ask the SA (IB) or the port (RoCE); every expectation is one TAP test. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs/ah_print.h"
#include "probe/check_cells.h"
#include "probe/check_expect.h"
#include "probe/checklist.h"
#include "probe/probe_vlan.h"
#include "cli.h"
#include "cli_port.h"
#include "verbs/device.h"
#include "base/diag.h"
#include "base/ibrate.h"
#include "out/output.h"
#include "out/text_layout.h"
#include "base/parse.h"
#include "sa/path_resolve.h"
#include "probe/probe_engine.h"
#include "probe_mcast.h"
#include "sa/mcast_sender.h"
#include "sa/mcast_target.h"

enum check_option { CK_OPT_COUNT, CK_OPT_WINDOW, CK_OPT_END };

static const struct opt_spec check_options[] = {
	[CK_OPT_COUNT] = { "count", 'c', "N", "probes per entry unless the "
			   "entry says count= (default 5)", COMPLETE_NONE,
			   NULL },
	[CK_OPT_WINDOW] = { "window", 'w', "N", "probes in flight across all "
			    "entries (default 32)", COMPLETE_NONE, NULL },
	[CK_OPT_END] = OPT_END,
};

/* The options of check: its context. */
struct check_opts {
	uint32_t count, window;
};

static const struct check_opts check_defaults = {
	.count = PROBE_DEFAULT_COUNT, .window = PROBE_DEFAULT_WINDOW,
};

static int check_option(void *ctx, int index, const char *arg)
{
	struct check_opts *opts = ctx;
	char err[DIAG_MSG_MAX];
	int rc = 0;

	switch (index) {
	case CK_OPT_COUNT:
		rc = parse_u32(arg, "count", 1, 1000000, &opts->count, err,
			       sizeof(err));
		break;
	case CK_OPT_WINDOW:
		rc = parse_u32(arg, "window", 1, PROBE_MAX_WINDOW,
			       &opts->window, err, sizeof(err));
		break;
	}
	return rc ? cli_usage_error("%s", err) : 0;
}

/* What the run learned per entry. */
struct entry_state {
	struct probe_target target;
	struct probe_cell *cell;	/* NULL: the entry does not probe */
	bool path_valid;
	char path_error[DIAG_MSG_MAX];
	struct path_record path;
	bool ah_known;
	struct ibv_ah_attr ah;
	char ah_error[DIAG_MSG_MAX];
	char path_mtu_unmeasured[DIAG_MSG_MAX];	/* "": measured (IB) */
	/* A group: the SA's joinability verdict (NEED_MCAST_SA) and who
	 * answered its probes (NEED_MCAST_PROBE); errors when not had. */
	char mcast_sa_error[DIAG_MSG_MAX * 2];
	bool mcast_joinable_known, mcast_joinable;
	char mcast_joinable_words[DIAG_MSG_MAX];
	bool mcast_probed;
	char mcast_error[DIAG_MSG_MAX * 4];
	size_t mcast_answered;
	union ibv_gid *mcast_gids;
	struct check_mcast_boundary *mcast_boundaries;
	size_t mcast_boundary_count;
	/* paths_ok: its LMC paths as probed; NULL: not expanded. */
	struct probe_path_count *paths;
	size_t path_count;
};

static bool entry_expects(const struct check_entry *e, enum expect_kind k)
{
	for (size_t i = 0; i < e->expect_count; i++)
		if (e->expects[i].kind == k)
			return true;
	return false;
}

/* paths_ok: the session expanded the entries' cells, one per LMC path
 * (probe_paths.h): each entry's cell is then its first path's, with room
 * for its paths' counts after the run. index[i]: entry i's cell before. */
static int find_expanded(struct probe_session *s, const size_t *index,
			 struct entry_state *st, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct probe_path_count *paths;
		size_t k = 0;

		if (!st[i].cell)
			continue;
		while (k < s->cell_count &&
		       s->cells[k].dlid_path.origin != index[i])
			k++;
		st[i].cell = &s->cells[k < s->cell_count ? k : 0];
		if (!st[i].cell->dlid_path.of)
			continue;
		paths = calloc(s->cell_count, sizeof(*paths));
		if (!paths)
			return -1;
		st[i].paths = paths;
	}
	return 0;
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/* Every broken line of a checklist, each an error line of its own on
 * stderr; under -j one error whose text holds them, a line each. */
static int checklist_broken(const char *errors)
{
	char *copy = strdup(errors), *line, *save = NULL;

	if (!copy)
		return cli_usage_error("%s", errors);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		diag_error("%s", line);
	free(copy);
	return out_fail(EXIT_USAGE, errors);
}

static int read_checklist(const char *file, struct checklist *list)
{
	FILE *in = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
	char *err;
	int rc;

	if (!in)
		return cli_usage_error("cannot open checklist '%s': %m", file);
	err = malloc(CHECKLIST_ERRORS_BYTES);
	if (!err) {
		if (in != stdin)
			fclose(in);
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	}
	rc = checklist_read(list, in, strcmp(file, "-") == 0 ? "<stdin>" : file,
			    err, CHECKLIST_ERRORS_BYTES);
	if (in != stdin)
		fclose(in);
	if (rc)
		rc = checklist_broken(err);
	free(err);
	if (rc)
		return rc;
	if (list->count == 0)
		return cli_usage_error("checklist '%s' has no entry: one "
				       "destination per line, see "
				       "ibahprobe-check(8)", file);
	return 0;
}

static bool any_entry_needs(const struct checklist *list,
			    enum expect_need need)
{
	for (size_t i = 0; i < list->count; i++)
		if (entry_needs(&list->entries[i], need))
			return true;
	return false;
}

/* run_probes with index[i], entry i's cell before the session expands
 * the paths_ok entries' cells. */
static int run_probes_in(const struct common_opts *common,
			 const struct check_opts *opts,
			 struct checklist *list, struct entry_state *st,
			 const struct device_info *dev,
			 const struct port_info *port,
			 struct probe_session *s, size_t *index)
{
	char err[DIAG_MSG_MAX];
	const struct probe_cell *before;
	size_t n = 0;
	int rc;

	s->settings = (struct probe_settings){
		.count = opts->count, .size = PROBE_REQUEST_MIN_SIZE,
		.window = opts->window, .timeout_ms = common->timeout_ms,
		.gid_index = common->gid_index,
	};
	if (probe_session_alloc_cells(s, list->count))
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	for (size_t i = 0; i < list->count; i++) {
		struct check_entry *e = &list->entries[i];
		struct probe_target *t = &st[i].target;
		struct probe_cell *c;

		if (!entry_needs(e, NEED_PROBE))
			continue;
		/* The responder counts one set once: an entry alike an
		 * earlier one is judged from that one's cell (the loss
		 * direction from its own count, as probe would). */
		for (size_t k = 0; k < i && !st[i].cell; k++)
			if (st[k].cell &&
			    check_entries_probe_alike(&list->entries[k], e))
				st[i].cell = st[k].cell;
		if (st[i].cell) {
			st[i].cell->dlid_path.wanted |=
				entry_expects(e, EXPECT_PATHS_OK);
			continue;
		}
		t->dest = &e->dest;
		t->has_qpn = e->has_qpn;
		t->qpn = e->qpn;
		t->qkey = e->qkey;
		c = &s->cells[n++];
		c->target = t;
		c->count = check_cell_count(list, i, opts->count);
		c->asked = (struct probe_params){
			.hop_limit = e->has_hop_limit ? e->send.hop_limit
						      : AH_DEFAULT_HOP_LIMIT,
			.traffic_class = e->send.traffic_class,
			.flow_label = e->send.flow_label,
			.sl = e->send.sl,
		};
		/* Without sl=, the probe goes on the SL of the path (IB),
		 * the one path_sl= judges. */
		c->sl_given = e->has_sl;
		c->dlid_path.wanted = entry_expects(e, EXPECT_PATHS_OK);
		st[i].cell = c;
	}
	s->cell_count = n;
	for (size_t i = 0; i < list->count; i++)
		index[i] = st[i].cell ? (size_t)(st[i].cell - s->cells) : 0;
	before = s->cells;
	probe_session_resolve_targets(s);
	if (s->cells != before && find_expanded(s, index, st, list->count))
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	if (probe_session_open(s, dev, port, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	probe_session_prepare(s);
	rc = probe_session_run(s, &interrupted);
	if (rc && s->fatal[0])
		return cli_fail(EXIT_ENVIRONMENT, "%s", s->fatal);
	if (rc)
		return cli_fail(EXIT_ENVIRONMENT, "polling completions failed: "
				"%s", strerror(-rc));
	probe_session_recheck(s);
	probe_session_judge(s);
	for (size_t i = 0; i < list->count; i++) {
		const struct probe_target *t;

		if (!st[i].cell)
			continue;
		if (st[i].paths)
			probe_paths_count(s, (size_t)(st[i].cell - s->cells),
					  st[i].paths, &st[i].path_count);
		if (st[i].cell->ah) {
			st[i].ah_known = true;
			st[i].ah = st[i].cell->attr;
		}
		/* The path the probe went by is the one path_sl= and
		 * path_mtu= judge: one SA answer for both. */
		t = st[i].cell->target;
		if (t->has_path) {
			st[i].path_valid = true;
			st[i].path = t->path;
		}
	}
	return 0;
}

/* Starts every probing entry's cell in one session. Entries that cannot
 * be probed keep their reason in target.error / cell->error. */
static int run_probes(const struct common_opts *common,
		      const struct check_opts *opts, struct checklist *list,
		      struct entry_state *st,
		      const struct device_info *dev,
		      const struct port_info *port, struct probe_session *s)
{
	size_t *index;
	int rc;

	index = calloc(list->count ? list->count : 1, sizeof(*index));
	if (!index)
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	rc = run_probes_in(common, opts, list, st, dev, port, s, index);
	free(index);
	return rc;
}

/* Whether the entry needs the SA: a path expectation on IB, or an AH
 * expectation that no probe answers. */
static bool wants_sa(const struct check_entry *e, const struct entry_state *st)
{
	return (entry_needs(e, NEED_PATH) && !st->path_valid) ||
	       (entry_needs(e, NEED_AH) && !st->ah_known);
}

/* IB: one windowed SA batch for the entries with path or AH expectations
 * not met by a probe; their AH follows the kernel's path-record rule. */
static int resolve_paths(const struct common_opts *common,
			 struct checklist *list, struct entry_state *st,
			 const struct ah_port_facts *facts)
{
	struct dest_list batch = { 0 };
	struct path_result *results = NULL;
	struct path_constraints want = { 0 };
	struct path_session session;
	struct ah_fields no_overrides = { 0 };
	size_t *index = calloc(list->count, sizeof(*index));
	char err[DIAG_MSG_MAX * 2];
	int rc = 0;

	batch.items = calloc(list->count, sizeof(*batch.items));
	results = calloc(list->count, sizeof(*results));
	if (!index || !batch.items || !results) {
		rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < list->count; i++)
		if (wants_sa(&list->entries[i], &st[i])) {
			index[batch.count] = i;
			batch.items[batch.count++] = list->entries[i].dest;
		}
	if (batch.count == 0)
		goto out;
	if (path_session_open(&session, common->device, common->port, err,
			      sizeof(err)) != SA_CLIENT_OK) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	if (path_resolve_all(&session, &batch, &want, PATH_DEFAULT_WINDOW,
			     common->timeout_ms, PATH_DEFAULT_RETRIES, results,
			     err, sizeof(err)))
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
	path_session_close(&session);
	for (size_t k = 0; k < batch.count && rc == 0; k++) {
		struct entry_state *s = &st[index[k]];
		struct ah_path ap;

		if (results[k].status != PATH_OK) {
			snprintf(s->path_error, sizeof(s->path_error), "%s",
				 results[k].error);
			continue;
		}
		s->path_valid = true;
		s->path = results[k].record;
		if (!s->ah_known) {
			path_record_to_ah_path(&s->path, &ap);
			if (ah_build_from_path(&ap, &no_overrides, facts,
					       &s->ah) == 0)
				s->ah_known = true;
			else
				snprintf(s->ah_error, sizeof(s->ah_error),
					 "the path's SGID is not in the GID "
					 "table of port %u", facts->port_num);
		}
	}
out:
	/* The batch holds copies of the entries' dests: theirs to free. */
	free(batch.items);
	free(results);
	free(index);
	return rc;
}

/* RoCE: no SA. The port's active MTU (what rdma_cm uses) says nothing of
 * the links past it, so path_mtu= is not judged from it; the AH is built
 * from the destination's GID. */
static void roce_paths(struct checklist *list, struct entry_state *st,
		       const struct port_info *port,
		       const struct ah_port_facts *facts)
{
	struct ah_fields no_overrides = { 0 };

	for (size_t i = 0; i < list->count; i++) {
		struct check_entry *e = &list->entries[i];
		struct entry_state *s = &st[i];

		if (!wants_sa(e, s))
			continue;
		if (e->dest.kind == DEST_HOST && !e->dest.has_gid &&
		    dest_resolve_host(&e->dest, s->path_error,
				      sizeof(s->path_error)))
			continue;
		if (!e->dest.has_gid) {
			snprintf(s->path_error, sizeof(s->path_error),
				 "a %s destination means nothing on RoCE",
				 dest_kind_name(e->dest.kind));
			continue;
		}
		s->path_valid = true;
		s->path.mtu = ibrate_mtu_code(port->active_mtu);
		snprintf(s->path_mtu_unmeasured,
			 sizeof(s->path_mtu_unmeasured),
			 "not measured: RoCE has no path record and the "
			 "port's MTU (%u bytes) is not the path's; `ibahprobe "
			 "probe --mtu %s` measures it", port->active_mtu,
			 e->dest.text);
		if (!s->ah_known) {
			ah_build_from_gid(&e->dest.gid, &no_overrides, facts,
					  &s->ah);
			s->ah_known = true;
		}
	}
}

/* A group's SA side: its record and this port's caps against it
 * (mcast_targets_resolve asks the SA once per group, the caps once). */
static void mcast_sa_checks(const struct common_opts *common,
			    const struct checklist *list,
			    struct entry_state *st, bool roce,
			    const struct ah_port_facts *facts)
{
	struct dest_list dests = { 0 };
	struct mcast_target *targets = NULL;
	struct path_session session;
	char err[DIAG_MSG_MAX];
	bool *want = NULL;
	size_t wanted = 0;

	for (size_t i = 0; i < list->count; i++)
		wanted += entry_needs(&list->entries[i], NEED_MCAST_SA);
	if (wanted == 0)
		return;
	if (roce) {
		for (size_t i = 0; i < list->count; i++)
			snprintf(st[i].mcast_sa_error,
				 sizeof(st[i].mcast_sa_error),
				 "RoCE has no SA to judge a join: an IP group "
				 "is joined through IGMP/MLD");
		return;
	}
	want = calloc(list->count, sizeof(*want));
	targets = calloc(list->count, sizeof(*targets));
	dests.items = calloc(list->count, sizeof(*dests.items));
	if (!want || !targets || !dests.items) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}
	dests.count = list->count;
	for (size_t i = 0; i < list->count; i++) {
		dests.items[i] = list->entries[i].dest;
		want[i] = entry_needs(&list->entries[i], NEED_MCAST_SA);
	}
	if (path_session_open(&session, common->device, common->port, err,
			      sizeof(err)) != SA_CLIENT_OK)
		goto fail;
	mcast_targets_resolve(&session, &dests, want, &(struct ah_fields){ 0 },
			      facts, common->timeout_ms, targets);
	path_session_close(&session);
	for (size_t i = 0; i < list->count; i++) {
		const struct mcast_target *t = &targets[i];

		if (!want[i])
			continue;
		if (!t->built || !t->has_joinability) {
			snprintf(st[i].mcast_sa_error,
				 sizeof(st[i].mcast_sa_error), "%s",
				 t->error[0] ? t->error
					     : "this port's caps are unknown");
			continue;
		}
		st[i].mcast_joinable_known = true;
		st[i].mcast_joinable = t->joinability.joinable;
		snprintf(st[i].mcast_joinable_words,
			 sizeof(st[i].mcast_joinable_words), "%s",
			 t->joinable_words);
	}
	goto out;
fail:
	for (size_t i = 0; i < list->count; i++)
		snprintf(st[i].mcast_sa_error, sizeof(st[i].mcast_sa_error),
			 "%s", err);
out:
	/* dests holds copies of the entries' dests: theirs to free. */
	free(dests.items);
	free(targets);
	free(want);
}

/* The entry's mcast_member=HOST values, parsed (each checked at load),
 * for the probe to trace the silent ones. 0, or -1 out of memory. */
static int member_hosts(const struct check_entry *e, struct dest_list *hosts)
{
	char err[DIAG_MSG_MAX];

	for (size_t k = 0; k < e->expect_count; k++)
		if (e->expects[k].kind == EXPECT_MCAST_MEMBER &&
		    dest_list_add(hosts, expectation_name_value(&e->expects[k]),
				  err, sizeof(err)) &&
		    strcmp(err, "out of memory") == 0)
			return -1;
	return 0;
}

/* Where the group stops for each silent expected member, for its
 * mcast_member= line. */
static void keep_boundaries(const struct probe_mcast_group *g,
			    struct entry_state *st)
{
	if (!g->boundary_count)
		return;
	st->mcast_boundaries = calloc(g->boundary_count,
				      sizeof(*st->mcast_boundaries));
	if (!st->mcast_boundaries)
		return;
	for (size_t k = 0; k < g->boundary_count; k++) {
		st->mcast_boundaries[k].gid = g->boundaries[k].gid;
		snprintf(st->mcast_boundaries[k].words,
			 sizeof(st->mcast_boundaries[k].words), "%.*s",
			 (int)sizeof(st->mcast_boundaries[k].words) - 1,
			 g->boundaries[k].words);
	}
	st->mcast_boundary_count = g->boundary_count;
}

/* A group's probes, one group after another (probe mcast: does the
 * same); the GIDs of the members that answered are kept. */
static void mcast_probes(const struct common_opts *common,
			 const struct check_opts *opts,
			 const struct checklist *list, struct entry_state *st,
			 const struct cli_port *local,
			 const struct ah_port_facts *facts)
{
	bool ib = local->port->link_layer != LINK_LAYER_ETHERNET;
	struct path_session session;
	struct probe_mcast_group *g;
	char err[DIAG_MSG_MAX];
	bool session_open = false;

	g = malloc(sizeof(*g));
	for (size_t i = 0; i < list->count && !interrupted; i++) {
		const struct check_entry *e = &list->entries[i];
		struct value_list one[4] = { { 0 } };
		uint32_t values[4] = { e->send.hop_limit,
				       e->send.traffic_class,
				       e->send.flow_label, e->send.sl };
		bool given[4] = { e->has_hop_limit, e->has_traffic_class,
				  e->has_flow_label, e->has_sl };
		struct dest_list hosts = { 0 };
		struct probe_mcast_args a = {
			.common = common,
			.dests = &(struct dest_list){
				.count = 1, .items = (struct dest *)&e->dest },
			.has_qkey = e->has_qkey, .qkey = e->qkey,
			.count = e->has_count ? e->count : opts->count,
			.size = PROBE_REQUEST_MIN_SIZE,
			.sa_key = MCAST_LISTING_SA_KEY,
		};

		if (!entry_needs(e, NEED_MCAST_PROBE))
			continue;
		if (!g) {
			snprintf(st[i].mcast_error, sizeof(st[i].mcast_error),
				 "out of memory");
			continue;
		}
		if (local->dev->source != DEVICE_FROM_VERBS) {
			snprintf(st[i].mcast_error, sizeof(st[i].mcast_error),
				 "probing a group needs a verbs device; %s is "
				 "visible through umad only",
				 local->dev->name);
			continue;
		}
		if (ib && !session_open) {
			if (path_session_open(&session, local->dev->name,
					      local->port->port_num, err,
					      sizeof(err)) != SA_CLIENT_OK) {
				snprintf(st[i].mcast_error,
					 sizeof(st[i].mcast_error), "%s",
					 err);
				continue;
			}
			session_open = true;
		}
		for (int k = 0; k < 4; k++) {
			one[k] = (struct value_list){ 1, &values[k] };
			a.lists[k] = given[k] ? &one[k] : NULL;
		}
		if (member_hosts(e, &hosts)) {
			snprintf(st[i].mcast_error, sizeof(st[i].mcast_error),
				 "out of memory");
			dest_list_free(&hosts);
			continue;
		}
		a.expect_hosts = &hosts;
		probe_mcast_group_run(&a, local, facts,
				      ib ? &session : NULL, 0, g);
		keep_boundaries(g, &st[i]);
		dest_list_free(&hosts);
		if (!g->probed) {
			snprintf(st[i].mcast_error, sizeof(st[i].mcast_error),
				 "%s", g->error);
		} else {
			st[i].mcast_probed = true;
			st[i].mcast_gids = calloc(g->tally.count + 1,
						  sizeof(*st[i].mcast_gids));
			for (size_t k = 0; st[i].mcast_gids &&
					   k < g->tally.count; k++) {
				const struct mcast_member *mm =
					&g->tally.members[k];

				if (mcast_member_state(&g->tally, mm) !=
				    MCAST_MEMBER_SILENT)
					st[i].mcast_gids[st[i].mcast_answered++] =
						mm->who.gid;
			}
		}
		probe_mcast_group_free(g);
	}
	if (session_open)
		path_session_close(&session);
	free(g);
}

/* mcast_member=HOST: a host name to the GID its members answer from
 * (RoCE: its address's). */
static int resolve_member_host(const char *host, union ibv_gid *gid,
			       char *err, size_t errlen)
{
	struct dest d;
	int rc;

	if (dest_parse(host, &d, err, errlen))
		return -1;
	rc = d.kind == DEST_HOST ? dest_resolve_host(&d, err, errlen) : 0;
	if (rc == 0 && !d.has_gid) {
		snprintf(err, errlen, "'%s' names no GID or address", host);
		rc = -1;
	}
	if (rc == 0)
		*gid = d.gid;
	dest_clear(&d);
	return rc;
}

static void measure(const struct entry_state *st, bool roce,
		    struct check_measured *m)
{
	const struct probe_cell *c = st->cell;
	struct rtt_summary rtt;

	memset(m, 0, sizeof(*m));
	m->hops = -1;
	m->responder_received = -1;
	if (c) {
		if (!c->target->ready)
			m->probe_error = c->target->error;
		else if (!c->ah)
			m->probe_error = c->error;
		m->probed = true;
		m->sent = c->sent;
		m->received = c->received;
		m->asked = c->asked;
		m->hops = c->verdict.hops;
		m->loss_direction = c->verdict.oneway.direction;
		m->via_rendezvous = !(c->target->has_qpn && !c->target->preset);
		m->responder_received = c->verdict.oneway.final
						? c->verdict.oneway.responder_saw
						: -1;
		if (rtt_summarize(&c->rtt, &rtt) == 0) {
			m->rtt_valid = true;
			m->rtt_median_us = rtt.median_us;
			m->rtt_p99_us = rtt.p99_us;
		}
		if (rtt_summarize(&c->network, &rtt) == 0) {
			m->network_rtt_valid = true;
			m->network_rtt_median_us = rtt.median_us;
			m->network_rtt_p99_us = rtt.p99_us;
		}
		m->observed_valid = c->observed_valid;
		m->grh_present = c->last_reply.observed.grh_present;
		m->tclass_seen = c->last_reply.observed.traffic_class;
		m->flow_label_seen = c->last_reply.observed.flow_label;
		m->pcp_unknown = probe_vlan_seen_why(roce, c->observed_valid,
						     &c->last_reply.observed);
		m->pcp_seen_known = m->pcp_unknown[0] == '\0';
		m->pcp_seen = c->last_reply.observed.pcp;
	}
	m->path_valid = st->path_valid;
	m->path_error = st->path_error[0] ? st->path_error : NULL;
	m->path_mtu = ibrate_mtu_bytes(st->path.mtu);
	if (st->path_mtu_unmeasured[0])
		m->path_mtu_unmeasured = st->path_mtu_unmeasured;
	m->has_path_sl = st->path_valid && !roce;
	m->path_sl = st->path.sl;
	m->mcast_sa_error = st->mcast_sa_error[0] ? st->mcast_sa_error : NULL;
	m->mcast_joinable_known = st->mcast_joinable_known;
	m->mcast_joinable = st->mcast_joinable;
	m->mcast_joinable_words = st->mcast_joinable_words;
	m->mcast_probed = st->mcast_probed;
	m->mcast_error = st->mcast_error[0] ? st->mcast_error : NULL;
	m->mcast_answered = st->mcast_answered;
	m->mcast_member_gids = st->mcast_gids;
	m->mcast_boundaries = st->mcast_boundaries;
	m->mcast_boundary_count = st->mcast_boundary_count;
	m->resolve_host = resolve_member_host;
	m->ah_known = st->ah_known;
	m->ah_is_global = st->ah.is_global;
	m->paths = st->paths;
	m->path_count = st->path_count;
	if (!st->ah_known)
		m->ah_error = st->ah_error[0]   ? st->ah_error
			      : m->probe_error ? m->probe_error
					       : m->path_error;
}

/* -v: what was measured for a probed entry, as TAP comments. */
static void comment_measured(const struct check_entry *e,
			     const struct entry_state *st,
			     const struct check_measured *m)
{
	const struct verdict *v = &st->cell->verdict;

	out_text("# line %u %s: ", e->line, e->dest.text);
	if (m->probe_error) {
		out_text("%s\n", m->probe_error);
		return;
	}
	out_text("sent %u received %u hops %d", m->sent, m->received, m->hops);
	if (m->rtt_valid)
		out_text(" rtt median %.1f us p99 %.1f us end to end",
			 m->rtt_median_us, m->rtt_p99_us);
	if (m->network_rtt_valid)
		out_text(", network %.1f us p99 %.1f us", m->network_rtt_median_us,
			 m->network_rtt_p99_us);
	if (m->observed_valid && m->grh_present)
		out_text(" seen hop_limit %u traffic_class 0x%02x flow_label "
			 "0x%05x", st->cell->last_reply.observed.hop_limit,
			 m->tclass_seen, m->flow_label_seen);
	if (m->pcp_seen_known)
		out_text(" pcp %u", m->pcp_seen);
	out_text("\n");
	for (size_t i = 0; i < v->text_count; i++)
		out_text("#   %s\n", v->text[i]);
}

static void print_number_or_null(const char *key, bool known, double value)
{
	if (known)
		out_double(key, NULL, value);
	else
		out_null(key, NULL);
}

static void print_unit(const char *unit)
{
	if (unit)
		out_string("unit", NULL, unit);
	else
		out_null("unit", NULL);
}

/* TAP lines stay under 100 columns. */
#define TAP_COLUMNS 99

/* text as TAP diagnostic lines ("# ..."), wrapped at blanks under
 * TAP_COLUMNS, a continuation indented by two more. */
static void print_tap_diagnostic(const char *text)
{
	char buf[2048], *line, *save = NULL;
	size_t used = 0;

	text_wrap_append(buf, sizeof(buf), &used, text, 0, 2, TAP_COLUMNS - 2);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		out_text("\n# %s", line);
}

/* A failed test's "# got ..., expected ..." after the test on its line;
 * when that line would pass TAP_COLUMNS, on lines of its own below it
 * (TAP's diagnostic lines), got and expected each. JSON has both texts,
 * passed or not. */
static void print_diagnostic(const struct check_outcome *o,
			     size_t head_columns)
{
	char text[sizeof(o->got) + 16];
	size_t columns = head_columns + strlen(" # got , expected ") +
			 text_columns(o->got) + text_columns(o->expected);

	if (o->ok || columns <= TAP_COLUMNS) {
		out_string("got_text", o->ok ? NULL : " # got %s", o->got);
		out_string("expected_text", o->ok ? NULL : ", expected %s",
			   o->expected);
		return;
	}
	out_string("got_text", NULL, o->got);
	out_string("expected_text", NULL, o->expected);
	snprintf(text, sizeof(text), "got %s", o->got);
	print_tap_diagnostic(text);
	snprintf(text, sizeof(text), "expected %s", o->expected);
	print_tap_diagnostic(text);
}

/* JSON "got" and "expected" as numbers with a unit (ibahprobe-check(8),
 * OUTPUT), their words as "got_text" and "expected_text"; TAP shows the
 * words of a failed test only. */
static void print_outcome(const struct check_outcome *o, size_t head_columns)
{
	const struct check_got *g = &o->got_value;
	const struct check_expected *x = &o->expected_value;

	out_open_object("got");
	if (!g->known)
		out_null("value", NULL);
	else if (g->is_bool)
		out_bool("value", NULL, g->value != 0);
	else
		out_double("value", NULL, g->value);
	print_unit(g->unit);
	if (!g->known)
		out_string("reason", NULL, g->reason);
	if (g->has_counts) {
		out_uint("sent", NULL, g->sent);
		out_uint("received", NULL, g->received);
	}
	out_close_object();
	out_open_object("expected");
	if (x->is_bool) {
		out_bool("value", NULL, x->value);
	} else {
		print_number_or_null("min", x->has_min, x->min);
		print_number_or_null("max", x->has_max, x->max);
	}
	print_unit(x->unit);
	out_close_object();
	print_diagnostic(o, head_columns);
}

/* Columns of "not ok N - DEST EXPECTATION". */
static size_t tap_head_columns(uint64_t n, bool ok, const struct check_entry *e,
			       const struct expectation *x)
{
	return strlen(ok ? "ok " : "not ok ") + (size_t)text_digits(n) +
	       strlen(" - ") + text_columns(e->dest.text) + 1 +
	       text_columns(x->text);
}

/* TAP or JSON, one test per expectation; returns how many failed. */
static size_t print_results(const char *file, const struct checklist *list,
		     const struct entry_state *st, bool roce,
		     uint64_t probes_sent)
{
	size_t tests = 0, failed = 0, n = 0;

	for (size_t i = 0; i < list->count; i++)
		tests += list->entries[i].expect_count;
	out_open_object(NULL);
	out_string("checklist", NULL, file);
	out_text("1..%zu\n", tests);
	out_open_array("results");
	for (size_t i = 0; i < list->count; i++) {
		const struct check_entry *e = &list->entries[i];
		struct check_measured m;

		measure(&st[i], roce, &m);
		for (size_t k = 0; k < e->expect_count; k++) {
			const struct expectation *x = &e->expects[k];
			struct check_outcome o;

			check_expect_judge(x, &m, &o);
			n++;
			failed += !o.ok;
			out_open_object(NULL);
			out_uint("test", o.ok ? "ok %" PRIu64 : "not ok %" PRIu64, n);
			out_uint("line", NULL, e->line);
			out_string("dest", " - %s", e->dest.text);
			out_string("expectation", " %s", x->text);
			out_bool("ok", NULL, o.ok);
			print_outcome(&o, tap_head_columns(n, o.ok, e, x));
			if (st[i].cell && st[i].cell->sgid_choice.reason[0])
				sgid_choice_print("sgid_choice",
						  &st[i].cell->sgid_choice);
			out_newline();
			out_close_object();
		}
		if (diag_verbosity > 0 && st[i].cell)
			comment_measured(e, &st[i], &m);
	}
	out_close_array();
	out_uint("tests", NULL, tests);
	out_uint("passed", NULL, tests - failed);
	out_uint("failed", NULL, failed);
	/* An interrupted run's verdicts rest on fewer probes than asked:
	 * TAP's way to say a run was cut short is "Bail out!". */
	out_bool("interrupted", NULL, interrupted != 0);
	out_close_object();
	if (failed)
		out_text("# %zu of %zu expectations failed\n", failed, tests);
	if (interrupted)
		out_text("Bail out! interrupted (%s) after %llu probe%s\n",
			 interrupted == SIGINT ? "SIGINT" : "SIGTERM",
			 (unsigned long long)probes_sent,
			 probes_sent == 1 ? "" : "s");
	return failed;
}

static int check_exec(const struct common_opts *common, void *ctx,
		      int argc, char **argv)
{
	struct check_opts *opts = ctx;
	struct checklist list = { 0 };
	struct cli_port local = { 0 };
	const struct device_info *dev = NULL;
	const struct port_info *port;
	struct probe_session s = { 0 };
	struct entry_state *st = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	char err[DIAG_MSG_MAX];
	bool roce, probes;
	int rc;

	if (argc != 1) {
		rc = cli_usage_error("check takes one checklist file ('-' for "
				     "stdin), got %d arguments; see "
				     "ibahprobe-check(8)", argc);
		goto out;
	}
	rc = read_checklist(argv[0], &list);
	if (rc)
		goto out;
	st = calloc(list.count, sizeof(*st));
	if (!st) {
		rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
		goto out;
	}
	rc = cli_open_port(&local, common->device, common->port, 0);
	if (!rc)
		rc = cli_check_gid_index(&local, common->gid_index);
	if (rc)
		goto out;
	dev = local.dev;
	port = local.port;
	snprintf(s.device_note, sizeof(s.device_note), "%s", local.note);
	probes = any_entry_needs(&list, NEED_PROBE);
	if (probes && dev->source != DEVICE_FROM_VERBS) {
		rc = cli_fail(EXIT_ENVIRONMENT, "the checklist probes, and "
			      "probing needs a verbs device; %s is visible "
			      "through umad only (path_mtu, path_sl and "
			      "grh_required work without one)", dev->name);
		goto out;
	}
	roce = port->link_layer == LINK_LAYER_ETHERNET;
	/* The port's facts serve the probes and the path and AH checks. */
	probe_session_init(&s, dev, port);
	if (probes && probe_session_read_pkeys(&s, dev, err, sizeof(err)))
		diag_verbose(1, "%s; the QP takes P_Key index 0", err);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (probes) {
		rc = run_probes(common, opts, &list, st, dev, port, &s);
		if (rc)
			goto out;
	}
	if (roce)
		roce_paths(&list, st, port, &s.facts);
	else
		rc = resolve_paths(common, &list, st, &s.facts);
	if (rc)
		goto out;
	mcast_sa_checks(common, &list, st, roce, &s.facts);
	mcast_probes(common, opts, &list, st, &local, &s.facts);
	rc = print_results(argv[0], &list, st, roce, s.total_sent) ||
			     interrupted
		     ? EXIT_PROBLEM : EXIT_FINE;
out:
	probe_session_close(&s);
	for (size_t i = 0; st && i < list.count; i++) {
		free(st[i].mcast_gids);
		free(st[i].mcast_boundaries);
		free(st[i].paths);
	}
	free(st);
	cli_close_port(&local);
	checklist_free(&list);
	return rc;
}

const struct command cmd_check = {
	.name = "check",
	.args = "FILE",
	.operands = COMPLETE_FILE,
	.summary = "a bring-up checklist of expectations per destination, "
		   "as TAP; exit 0 only when every one holds",
	.options = check_options,
	.ctx_size = sizeof(struct check_opts),
	.ctx_defaults = &check_defaults,
	.parse_option = check_option,
	.exec = check_exec,
};
