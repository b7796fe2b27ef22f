/* ibahprobe probe: UD probes to many destinations at once, optionally
 * sweeping hop limit, traffic class, flow label and SL; per destination
 * and parameter set: loss, RTT, what the responder saw of the GRH, the
 * hop count, and verdicts in words. */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "verbs/ah_print.h"
#include "cli.h"
#include "cli_port.h"
#include "base/dest.h"
#include "verbs/device.h"
#include "base/diag.h"
#include "base/monotonic.h"
#include "probe/mtu_print.h"
#include "probe/mtu_probe.h"
#include "out/openmetrics.h"
#include "out/output.h"
#include "base/parse.h"
#include "verbs/pkey_table.h"
#include "probe/mcast_dry_run.h"
#include "probe/mcast_members.h"
#include "probe_mcast.h"
#include "probe/probe_dry_run.h"
#include "probe/probe_engine.h"
#include "probe/probe_path_trace.h"
#include "probe/probe_paths.h"
#include "trace/lid_paths_expand.h"
#include "probe/probe_print.h"
#include "probe/probe_round.h"
#include "probe/probe_text.h"
#include "verbs/ah_renewer.h"
#include "probe/probe_warnings.h"
#include "probe/responder_follow.h"
#include "sa/mcast_sender.h"
#include "sa/responder_discovery.h"
#include "base/mcast_expect.h"
#include "out/term_color.h"
#include "out/text_layout.h"

enum probe_option {
	PR_OPT_QPN, PR_OPT_QKEY, PR_OPT_HOP_LIMIT, PR_OPT_TCLASS,
	PR_OPT_FLOW_LABEL, PR_OPT_SL, PR_OPT_COUNT, PR_OPT_INTERVAL,
	PR_OPT_SIZE, PR_OPT_WINDOW, PR_OPT_JSONL, PR_OPT_FILE,
	PR_OPT_DISCOVER, PR_OPT_LIST, PR_OPT_PKEY, PR_OPT_DRY_RUN,
	PR_OPT_CONTINUOUS, PR_OPT_INTERVAL_ROUND, PR_OPT_METRICS, PR_OPT_COLOR,
	PR_OPT_MTU, PR_OPT_BUSY_POLL, PR_OPT_AH_MAX_AGE, PR_OPT_PATHS,
	PR_OPT_EXPECT_MEMBERS, PR_OPT_EXPECT_MEMBER, PR_OPT_SA_KEY, PR_OPT_END,
};

static const struct opt_spec probe_options[] = {
	[PR_OPT_QPN] = { "qpn", 0, "QPN", "the responder's QPN (skips the "
			 "rendezvous; DEST is then a GID, address or LID)",
			 COMPLETE_NONE, NULL },
	[PR_OPT_QKEY] = { "qkey", 0, "QKEY", "the responder's Q_Key (with "
			  "--qpn; default 0x1ab4e0be)", COMPLETE_NONE, NULL },
	[PR_OPT_HOP_LIMIT] = { "hop-limit", 0, "LIST", "GRH hop limits to "
			       "try, e.g. 1-3,64 (default 64)", COMPLETE_NONE,
			       NULL },
	[PR_OPT_TCLASS] = { "tclass", 0, "LIST", "traffic classes to try, "
			    "e.g. 0,0x28,0xb8 (default 0)", COMPLETE_NONE,
			    NULL },
	[PR_OPT_FLOW_LABEL] = { "flow-label", 0, "LIST", "flow labels to "
				"try (20 bits; default 0, or the flow-label "
				"line of -f's FILE)", COMPLETE_NONE, NULL },
	[PR_OPT_SL] = { "sl", 0, "LIST", "service levels to try (0-15; "
			"default: the path's on InfiniBand, else 0)",
			COMPLETE_NONE, NULL },
	[PR_OPT_COUNT] = { "count", 'c', "N", "probes per destination and "
			   "parameter set (default 5; 0: until interrupted)",
			   COMPLETE_NONE, NULL },
	[PR_OPT_INTERVAL] = { "interval", 'i', "MS", "least time between two "
			      "probes of one set (default 0)", COMPLETE_NONE,
			      NULL },
	[PR_OPT_SIZE] = { "size", 's', "BYTES", "probe size (208 up to the "
			  "path MTU; default 208), or max: as --mtu",
			  COMPLETE_WORDS, "max" },
	[PR_OPT_WINDOW] = { "window", 'w', "N", "probes in flight across all "
			    "destinations (default 32)", COMPLETE_NONE, NULL },
	[PR_OPT_JSONL] = { "jsonl", 0, NULL, "JSON Lines: one object per "
			   "result as it completes", COMPLETE_NONE, NULL },
	[PR_OPT_FILE] = { "file", 'f', "FILE", "read destinations from FILE "
			  "('-' for stdin), one per line", COMPLETE_FILE,
			  NULL },
	[PR_OPT_DISCOVER] = { "discover", 0, NULL, "probe every responder "
			      "registered in the SA (serve --register; "
			      "InfiniBand), instead of DESTs", COMPLETE_NONE,
			      NULL },
	[PR_OPT_LIST] = { "list", 0, NULL, "with --discover: list the "
			  "registered responders, probe nothing",
			  COMPLETE_NONE, NULL },
	[PR_OPT_PKEY] = { "pkey", 0, "PKEY", "the partition to probe in "
			  "(default: the path's P_Key on InfiniBand, else "
			  "P_Key index 0)", COMPLETE_NONE, NULL },
	[PR_OPT_DRY_RUN] = { "dry-run", 'n', NULL, "resolve every destination "
			     "and build its AHs, probe nothing (works "
			     "without a verbs device)", COMPLETE_NONE, NULL },
	[PR_OPT_CONTINUOUS] = { "continuous", 0, NULL, "probe until "
				"interrupted (as -c 0), with running "
				"statistics; -i defaults to 1000",
				COMPLETE_NONE, NULL },
	[PR_OPT_INTERVAL_ROUND] = { "interval-round", 0, "SECONDS", "with "
				    "--continuous: the length of a round; "
				    "after each, running statistics and "
				    "--metrics (default 10)", COMPLETE_NONE,
				    NULL },
	[PR_OPT_METRICS] = { "metrics", 0, "FILE", "with --continuous: after "
			     "each round, replace FILE with the round's "
			     "Prometheus metrics (node_exporter's textfile "
			     "collector)", COMPLETE_FILE, NULL },
	[PR_OPT_COLOR] = { "color", 0, "WHEN", "colour the verdicts: auto "
			   "(a terminal, unless NO_COLOR is set), always or "
			   "never (default auto)", COMPLETE_WORDS,
			   "auto always never" },
	[PR_OPT_MTU] = { "mtu", 0, NULL, "MTU discovery: per destination, the "
			 "largest UD payload that arrives, searched up to the "
			 "port's active MTU (-c probes per size, default 3)",
			 COMPLETE_NONE, NULL },
	[PR_OPT_BUSY_POLL] = { "busy-poll", 0, NULL, "poll the completion "
			       "queue without sleeping (as ib_send_lat): "
			       "the RTT loses this host's wake-up, a core "
			       "spins meanwhile", COMPLETE_NONE, NULL },
	[PR_OPT_AH_MAX_AGE] = { "ah-max-age", 0, "SECONDS", "with "
				"--continuous: make each destination's AH "
				"again once this old (default 30), and after "
				"a round with loss", COMPLETE_NONE, NULL },
	[PR_OPT_PATHS] = { "paths", 0, "base|all", "InfiniBand: all probes "
			   "every DLID of each destination's LMC range, from "
			   "each of our source path bits, one row a path "
			   "(default base)", COMPLETE_WORDS, "base all" },
	[PR_OPT_EXPECT_MEMBERS] = { "expect-members", 0, "N", "with "
				    "mcast: destinations: at least N members "
				    "must answer (exit 1 otherwise), besides "
				    "every member the SA lists",
				    COMPLETE_NONE, NULL },
	[PR_OPT_EXPECT_MEMBER] = { "expect-member", 0, "HOST[,...]", "with "
				   "mcast: destinations on RoCE: these "
				   "members (where their serve listens) must "
				   "answer; one that does not is traced "
				   "unicast and the router that does not "
				   "route the group named",
				   COMPLETE_NONE, NULL },
	[PR_OPT_SA_KEY] = { "sa-key", 0, "KEY", "with mcast: destinations "
			    "on InfiniBand: the SA key the SA's member "
			    "listing is asked with (default 1, opensm's; 0: "
			    "none)", COMPLETE_NONE, NULL },
	[PR_OPT_END] = OPT_END,
};

#define PROBE_MAX_SETS 4096
#define PROBE_CONTINUOUS_INTERVAL_MS 1000	/* ping's default */
#define PROBE_DEFAULT_ROUND_SECONDS 10
/* A RoCE AH keeps the next hop's MAC it was made with (mlx5_create_ah):
 * a neighbour that moved costs at most this long of a continuous run. */
#define PROBE_DEFAULT_AH_MAX_AGE_S 30

/* The options of probe: its context. */
struct probe_opts {
	bool has_qpn, has_qkey;
	uint32_t qpn, qkey;
	const char *lists[4];	/* hop limit, tclass, flow label, sl */
	uint32_t count, interval_ms, size, window;
	bool has_size, mtu;
	bool jsonl;
	const char *file;
	bool discover, list;
	bool has_pkey;
	uint16_t pkey;
	bool dry_run;
	bool busy_poll;
	bool continuous, has_count, has_interval, has_interval_round;
	uint32_t round_s;
	bool has_ah_max_age;
	uint32_t ah_max_age_s;
	bool has_expect_members;
	uint32_t expect_members;
	/* --expect-member's arguments (checked as given, parsed again
	 * where the group is probed) and the hosts they name. */
	const char *expect_member_args[MCAST_EXPECT_MAX];
	size_t expect_member_arg_count, expect_member_count;
	bool has_sa_key;
	uint64_t sa_key;	/* --sa-key: the member listing's */
	const char *metrics;
	enum color_mode color;
	bool paths_all;		/* --paths all */
};

static const struct probe_opts probe_defaults = {
	.qkey = UD_DEFAULT_QKEY, .count = PROBE_DEFAULT_COUNT,
	.size = PROBE_REQUEST_MIN_SIZE, .window = PROBE_DEFAULT_WINDOW,
	.round_s = PROBE_DEFAULT_ROUND_SECONDS,
	.ah_max_age_s = PROBE_DEFAULT_AH_MAX_AGE_S,
	.sa_key = MCAST_LISTING_SA_KEY,
};

static int probe_option(void *ctx, int index, const char *arg)
{
	struct probe_opts *opts = ctx;
	char err[DIAG_MSG_MAX];
	int rc = 0;

	switch (index) {
	case PR_OPT_QPN:
		opts->has_qpn = true;
		rc = parse_qpn(arg, &opts->qpn, err, sizeof(err));
		break;
	case PR_OPT_QKEY:
		opts->has_qkey = true;
		rc = parse_qkey(arg, &opts->qkey, err, sizeof(err));
		break;
	case PR_OPT_HOP_LIMIT:
	case PR_OPT_TCLASS:
	case PR_OPT_FLOW_LABEL:
	case PR_OPT_SL:
		opts->lists[index - PR_OPT_HOP_LIMIT] = arg;
		break;
	case PR_OPT_COUNT:
		opts->has_count = true;
		rc = parse_u32(arg, "count", 0, 1000000, &opts->count, err,
			       sizeof(err));
		break;
	case PR_OPT_INTERVAL:
		opts->has_interval = true;
		rc = parse_u32(arg, "interval (ms)", 0, 3600000,
			       &opts->interval_ms, err, sizeof(err));
		break;
	case PR_OPT_CONTINUOUS:
		opts->continuous = true;
		break;
	case PR_OPT_INTERVAL_ROUND:
		opts->has_interval_round = true;
		rc = parse_u32(arg, "round interval (s)", 1, 86400,
			       &opts->round_s, err, sizeof(err));
		break;
	case PR_OPT_METRICS:
		opts->metrics = arg;
		break;
	case PR_OPT_AH_MAX_AGE:
		opts->has_ah_max_age = true;
		rc = parse_u32(arg, "AH age (s)", 1, 86400,
			       &opts->ah_max_age_s, err, sizeof(err));
		break;
	case PR_OPT_EXPECT_MEMBERS:
		opts->has_expect_members = true;
		rc = parse_u32(arg, "expected members", 1, MCAST_MEMBERS_MAX,
			       &opts->expect_members, err, sizeof(err));
		break;
	case PR_OPT_EXPECT_MEMBER: {
		struct dest_list hosts = { 0 };

		rc = mcast_expect_hosts_add(&hosts, arg, err, sizeof(err));
		if (rc == 0 && opts->expect_member_count + hosts.count >
				       MCAST_EXPECT_MAX) {
			snprintf(err, sizeof(err), "expected members: more "
				 "than %d in all", MCAST_EXPECT_MAX);
			rc = -1;
		}
		if (rc == 0) {
			opts->expect_member_args[opts->expect_member_arg_count++] =
				arg;
			opts->expect_member_count += hosts.count;
		}
		dest_list_free(&hosts);
		break;
	}
	case PR_OPT_SA_KEY:
		opts->has_sa_key = true;
		rc = parse_u64_hex(arg, "SA key", 0, UINT64_MAX,
				   &opts->sa_key, err, sizeof(err));
		break;
	case PR_OPT_COLOR:
		rc = color_mode_parse(arg, &opts->color, err, sizeof(err));
		break;
	case PR_OPT_SIZE:
		if (strcmp(arg, "max") == 0) {
			opts->mtu = true;
			break;
		}
		opts->has_size = true;
		rc = parse_u32(arg, "probe size", PROBE_REQUEST_MIN_SIZE,
			       PROBE_MAX_SIZE, &opts->size, err, sizeof(err));
		break;
	case PR_OPT_MTU:
		opts->mtu = true;
		break;
	case PR_OPT_WINDOW:
		rc = parse_u32(arg, "window", 1, PROBE_MAX_WINDOW,
			       &opts->window, err, sizeof(err));
		break;
	case PR_OPT_JSONL:
		opts->jsonl = true;
		cli_set_json_lines();
		break;
	case PR_OPT_FILE:
		opts->file = arg;
		break;
	case PR_OPT_DISCOVER:
		opts->discover = true;
		break;
	case PR_OPT_LIST:
		opts->list = true;
		break;
	case PR_OPT_PKEY:
		opts->has_pkey = true;
		rc = pkey_parse_partition(arg, &opts->pkey, err, sizeof(err));
		break;
	case PR_OPT_DRY_RUN:
		opts->dry_run = true;
		break;
	case PR_OPT_BUSY_POLL:
		opts->busy_poll = true;
		break;
	case PR_OPT_PATHS:
		rc = lid_paths_parse(arg, &opts->paths_all, err,
				     sizeof(err));
		break;
	}
	return rc ? cli_usage_error("%s", err) : 0;
}

/* Parameter sets: every combination of the four lists. */
struct sweep {
	struct value_list lists[4];
	size_t count;
};

static int build_sweep(const struct probe_opts *opts, struct sweep *sw)
{
	static const struct { const char *what, *def; uint32_t max; } kinds[4] = {
		{ "hop limit", "64", 255 },
		{ "traffic class", "0", 255 },
		{ "20-bit flow label", "0", 0xfffff },
		{ "4-bit sl", "0", 15 },
	};
	char err[DIAG_MSG_MAX];

	sw->count = 1;
	for (int k = 0; k < 4; k++) {
		const char *text = opts->lists[k] ? opts->lists[k]
						  : kinds[k].def;

		if (parse_value_list(text, kinds[k].what, 0, kinds[k].max,
				     PROBE_MAX_SETS, &sw->lists[k], err,
				     sizeof(err)))
			return cli_usage_error("%s", err);
		sw->count *= sw->lists[k].count;
	}
	if (sw->count > PROBE_MAX_SETS)
		return cli_usage_error("%zu parameter sets is more than %d: "
				       "narrow the sweep", sw->count,
				       PROBE_MAX_SETS);
	return 0;
}

static struct probe_params sweep_params(const struct sweep *sw, size_t i)
{
	struct probe_params p;
	size_t n0 = sw->lists[0].count, n1 = sw->lists[1].count;
	size_t n2 = sw->lists[2].count;

	p.hop_limit = (uint8_t)sw->lists[0].values[i % n0];
	p.traffic_class = (uint8_t)sw->lists[1].values[i / n0 % n1];
	p.flow_label = sw->lists[2].values[i / n0 / n1 % n2];
	p.sl = (uint8_t)sw->lists[3].values[i / n0 / n1 / n2];
	return p;
}

static void sweep_free(struct sweep *sw)
{
	for (int k = 0; k < 4; k++)
		value_list_free(&sw->lists[k]);
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/* How results reach the user: the run's identity for every record, the
 * text table's layout, and how far the table got (rows go out in order,
 * each as soon as it and those before it are done). */
struct probe_view {
	struct probe_run run;
	struct probe_text_layout layout;
	size_t printed;
	size_t dest_count, set_count;
	/* A continuous run: each cell's latest round (allocated once: a
	 * run of many rounds needs no more memory than one of two). */
	struct probe_round_cell *rounds;
	struct om_series *series;	/* --metrics: one per probed cell */
	bool metrics_failing;		/* said so on stderr already */
};

/* --continuous: each cell's AH made again off the sending thread
 * (ah_renewer.h) when old or after a round with loss; the AH it
 * replaces waits in retired until the sends posted before the swap
 * completed. */
struct probe_renewal {
	struct ah_renewer renewer;
	uint64_t max_age_ns;
	uint64_t *made_ns;	/* per cell; 0: not yet seen */
	bool *renewing;		/* per cell */
	/* Per cell: its attr changed (a renumbered responder followed):
	 * enum readdress. */
	uint8_t *readdress;
	struct ibv_ah **retired;
	uint64_t *retired_last_send;
	size_t retired_count, retired_cap;
	uint64_t renewed;
};

/* A cell's AH after its responder was renumbered: due to be made for the
 * new address (one made meanwhile from the old attr is thrown away),
 * then made (the renewer's next result for the cell is it). */
enum readdress { READDRESS_NONE, READDRESS_DUE, READDRESS_MADE };

/* One probe run: its options, its session and how it is shown, handed to
 * every step. The engine's callbacks get the session and find the run
 * around it (probe_cmd_of). */
struct probe_cmd {
	const struct common_opts *common;
	struct probe_opts *opts;
	struct probe_session s;
	struct probe_view view;
	struct probe_renewal renewal;
	/* --continuous: per destination, following a restarted responder
	 * (responder_follow.h); the sentences of the round's follows. */
	struct follow_state *follow;
	char (*follow_events)[DIAG_MSG_MAX * 2];
	struct sweep sw;
	struct dest_list dests;
	struct discovery disc;	/* --discover: the SA's records */
	struct cli_port local;
	struct probe_target *targets;	/* one per destination */
	struct probe_vlans vlans;	/* the GIDs' VLAN netdevs */
	struct probe_path_traces path_traces;	/* --paths all: failed paths */
	char host[256];
};

static struct probe_cmd *probe_cmd_of(struct probe_session *s)
{
	return (struct probe_cmd *)((char *)s - offsetof(struct probe_cmd, s));
}

static const struct probe_round_cell *cell_round(const struct probe_cmd *pc,
						 const struct probe_cell *c)
{
	return pc->view.rounds ? &pc->view.rounds[c - pc->s.cells] : NULL;
}

static void print_cell_json(struct probe_cmd *pc, struct probe_cell *c)
{
	probe_cell_print(&pc->view.run, &pc->s, c, &c->verdict, c->sent, false,
			 cell_round(pc, c));
}

/* Text: the row, its findings, and with -v how it was built. */
static void print_cell_text(const struct probe_cmd *pc,
			    const struct probe_cell *c)
{
	const struct probe_session *s = &pc->s;
	char row[PROBE_TEXT_ROW_MAX];

	probe_text_round_row(&pc->view.layout, c,
			     c->judged ? &c->verdict : NULL, c->sent, true,
			     cell_round(pc, c), row, sizeof(row));
	out_text("%s", row);
	probe_text_vlan(s, &pc->vlans, c, diag_verbosity > 0, row,
			sizeof(row));
	out_text("%s", row);
	if (c->dlid_path.of) {
		probe_dlid_path_print(c, "    ");
		out_newline();
	}
	if (diag_verbosity <= 0 || !c->ah)
		return;
	if (c->sgid_choice.reason[0] &&
	    !probe_text_sgid_choice_repeats(s, c)) {
		char why[PROBE_TEXT_ROW_MAX];
		char line[sizeof(c->sgid_choice.reason) + 16];
		size_t used = 0;

		snprintf(line, sizeof(line), "source GID: %s",
			 c->sgid_choice.reason);
		text_wrap_append(why, sizeof(why), &used, line, 4, 6,
				 PROBE_TEXT_WIDTH);
		out_text("%s", why);
	}
	out_text("    AH ");
	ah_attr_print(NULL, &c->attr);
	out_newline();
	probe_text_udp_sport(s, c, row, sizeof(row));
	out_text("%s", row);
	if (c->observed_valid) {
		out_text("    reverse AH ");
		ah_attr_print(NULL, &c->last_reply.reverse_ah);
		out_newline();
	}
	probe_text_timing(c, row, sizeof(row));
	out_text("%s", row);
	if (c->judged && c->verdict.hop_limit_why[0]) {
		char why[PROBE_TEXT_ROW_MAX], line[256];
		size_t used = 0;

		snprintf(line, sizeof(line), "hop limit rule: %s",
			 c->verdict.hop_limit_why);
		text_wrap_append(why, sizeof(why), &used, line, 4, 6,
				 PROBE_TEXT_WIDTH);
		out_text("%s", why);
	}
}

/* Text rows in destination order, as far as the cells are done: a cell
 * with loss holds the rows after it until the end of the run. */
static void print_ready_rows(struct probe_cmd *pc, bool all)
{
	struct probe_session *s = &pc->s;
	size_t before = pc->view.printed;

	while (pc->view.printed < s->cell_count) {
		struct probe_cell *c = &s->cells[pc->view.printed];

		if (!all && !c->reported && probe_cell_active(c))
			break;
		if (!c->target->local_port)
			print_cell_text(pc, c);
		pc->view.printed++;
	}
	if (pc->view.printed != before) {
		probe_session_progress_clear(s);
		out_flush_record();
	}
}

/* A cell done with every probe answered (judged already). */
static void cell_done(struct probe_session *s, struct probe_cell *c)
{
	struct probe_cmd *pc = probe_cmd_of(s);

	if (out_format() == OUT_JSONL) {
		print_cell_json(pc, c);
		out_flush_record();
	} else if (out_format() == OUT_TEXT) {
		print_ready_rows(pc, false);
	}
}

/* A continuous run's block of rows starts with the time. */
static void time_line(const struct probe_session *s, const char *what)
{
	char when[16];
	time_t now = time(NULL);
	struct tm tm;

	if (!localtime_r(&now, &tm) ||
	    !strftime(when, sizeof(when), "%H:%M:%S", &tm))
		snprintf(when, sizeof(when), "-");
	out_text("%s  %llu probes sent%s\n", when,
		 (unsigned long long)s->total_sent, what);
}

/* --continuous: every cell's statistics so far. */
static void running_rows(struct probe_cmd *pc)
{
	struct probe_session *s = &pc->s;
	char row[PROBE_TEXT_ROW_MAX];

	if (out_format() == OUT_JSON)
		return;
	if (out_format() == OUT_TEXT)
		time_line(s, "");
	for (size_t i = 0; i < s->cell_count; i++) {
		struct probe_cell *c = &s->cells[i];
		uint32_t resolved = probe_cell_resolved(s, c);
		struct verdict v;

		if (c->target->local_port)
			continue;
		if (c->ah)
			probe_cell_running_verdict(s, c, &v);
		if (out_format() == OUT_JSONL) {
			probe_cell_print(&pc->view.run, s, c, &v, resolved,
					 true, cell_round(pc, c));
			out_flush_record();
			continue;
		}
		probe_text_round_row(&pc->view.layout, c, c->ah ? &v : NULL,
				     resolved, false, cell_round(pc, c), row,
				     sizeof(row));
		out_text("%s", row);
		if (c->dlid_path.of) {
			probe_dlid_path_print(c, "    ");
			out_newline();
		}
	}
	if (out_format() == OUT_TEXT)
		probe_paths_print_round_summaries(s, pc->view.rounds);
	out_flush_record();
}

/* One cell's metrics after its round; v: its verdict so far. */
static void fill_series(const struct probe_cmd *pc,
			const struct probe_cell *c, const struct verdict *v,
			struct om_series *m)
{
	const struct probe_session *s = &pc->s;
	const struct probe_round_cell *r = cell_round(pc, c);
	const struct probe_target *t = c->target;

	*m = (struct om_series){
		.labels = {
			.dest = t->dest->text,
			.dest_device = t->from_rendezvous ? t->info.device : NULL,
			.source_device = s->device,
			.source_port = s->facts.port_num,
			.has_hop_limit = pc->opts->lists[0] != NULL,
			.has_traffic_class = pc->opts->lists[1] != NULL,
			.has_flow_label = pc->opts->lists[2] != NULL,
			.has_sl = pc->opts->lists[3] != NULL,
			.hop_limit = c->asked.hop_limit,
			.traffic_class = c->asked.traffic_class,
			.flow_label = c->asked.flow_label,
			.sl = c->asked.sl,
			/* --paths all: which path, a series each. */
			.has_dlid = c->dlid_path.of != 0,
			.dlid = c->dlid_path.dlid,
			.has_src_path_bits = c->dlid_path.of >
					     c->dlid_path.dlids,
			.src_path_bits = c->dlid_path.src_path_bits,
		},
		.error = !t->ready || !c->ah,
		.sent_total = r->sent_total,
		.received_total = r->received_total,
		.has_rtt = r->has_rtt,
		.rtt_min_s = r->rtt.min_us / 1e6,
		.rtt_median_s = r->rtt.median_us / 1e6,
		.rtt_p99_s = r->rtt.p99_us / 1e6,
		.rtt_max_s = r->rtt.max_us / 1e6,
		.rtt_count = r->rtt_count,
		.rtt_sum_s = r->rtt_sum_s,
		.hops = -1,
		.last_success_unix = r->last_success_unix,
		.responder_restarts = t->restarts_followed,
		.responder_renumbered = t->renumbered_followed,
	};
	m->has_loss = probe_round_loss_ratio(r, &m->loss_ratio);
	if (m->error)
		return;
	m->hops = v->hops;
	/* Remarking is seen in the GRH the responder got back to us. */
	m->has_remark = c->observed_valid &&
			c->last_reply.observed.grh_present;
	m->remarked = (v->flags & VERDICT_TCLASS_REMARKED) != 0;
	m->flow_label_changed = (v->flags & (VERDICT_FLOW_LABEL_CHANGED |
					     VERDICT_FLOW_LABEL_NOT_CARRIED)) != 0;
}

/* Closes the round of every cell and, with --metrics, replaces the file.
 * final: the run has ended and every cell is judged. A file that cannot
 * be written mid-run is said once and tried again next round: the probes
 * go on (node_exporter's mtime metric shows the file ageing). */
static void close_round(struct probe_cmd *pc, bool final)
{
	struct probe_session *s = &pc->s;
	struct om_run run = {
		.source_device = s->device, .source_port = s->facts.port_num,
		.round_seconds = pc->opts->round_s,
	};
	struct timespec wall;
	uint64_t now = monotonic_ns();
	size_t n = 0;
	char err[DIAG_MSG_MAX * 2];

	clock_gettime(CLOCK_REALTIME, &wall);
	run.round_end_unix = (double)wall.tv_sec + wall.tv_nsec / 1e9;
	run.rounds = ++pc->view.run.round;
	for (size_t i = 0; i < s->cell_count; i++) {
		struct probe_cell *c = &s->cells[i];
		struct verdict v = { .hops = -1 };

		if (c->target->local_port)
			continue;
		probe_round_close(&pc->view.rounds[i],
				  &(struct probe_round_input){
			.resolved = probe_cell_resolved(s, c),
			.received = c->received, .rtt = &c->rtt,
			.last_reply_ns = c->last_reply_ns, .now_ns = now,
			.now_unix = run.round_end_unix });
		if (!pc->view.series)
			continue;
		if (final && c->judged)
			v = c->verdict;
		else if (c->ah)
			probe_cell_running_verdict(s, c, &v);
		fill_series(pc, c, &v, &pc->view.series[n++]);
	}
	if (!pc->view.series)
		return;
	if (openmetrics_publish(pc->opts->metrics, &run, pc->view.series, n,
				err, sizeof(err))) {
		if (!pc->view.metrics_failing)
			diag_warn("%s; trying again after the next round", err);
		pc->view.metrics_failing = true;
		return;
	}
	if (pc->view.metrics_failing)
		diag_warn("the metrics file %s is written again",
			  pc->opts->metrics);
	pc->view.metrics_failing = false;
}

/* Destroys the replaced AHs whose sends all completed (all of them
 * once the run drained: all_done). */
static void reap_retired_ahs(struct probe_cmd *pc, bool all_done)
{
	struct probe_renewal *w = &pc->renewal;
	size_t kept = 0;

	for (size_t i = 0; i < w->retired_count; i++) {
		if (all_done ||
		    w->retired_last_send[i] <= pc->s.ep.sends_completed) {
			ibv_destroy_ah(w->retired[i]);
		} else {
			w->retired[kept] = w->retired[i];
			w->retired_last_send[kept++] = w->retired_last_send[i];
		}
	}
	w->retired_count = kept;
}

/* The renewer's results go in; the old AHs retire. */
static void swap_renewed_ahs(struct probe_cmd *pc, uint64_t now)
{
	struct probe_renewal *w = &pc->renewal;
	struct ah_renewal done[16];
	bool readdressed;
	size_t n;

	while ((n = ah_renewer_take(&w->renewer, done, 16)) > 0) {
		for (size_t k = 0; k < n; k++) {
			struct probe_cell *c = &pc->s.cells[done[k].id];

			w->renewing[done[k].id] = false;
			w->made_ns[done[k].id] = now;
			/* Made for the address the responder left. */
			if (w->readdress[done[k].id] == READDRESS_DUE) {
				if (done[k].ah)
					ibv_destroy_ah(done[k].ah);
				continue;
			}
			readdressed = w->readdress[done[k].id] ==
				      READDRESS_MADE;
			w->readdress[done[k].id] = READDRESS_NONE;
			if (!done[k].ah) {
				diag_verbose(1, "%s: its AH was not made again "
					     "(%s): the old one goes on",
					     c->target->dest->text,
					     strerror(done[k].error));
				continue;
			}
			if (w->retired_count == w->retired_cap) {
				ibv_destroy_ah(done[k].ah);
				continue;
			}
			w->retired[w->retired_count] = c->ah;
			w->retired_last_send[w->retired_count++] =
				pc->s.ep.sends_posted;
			c->ah = done[k].ah;
			w->renewed++;
			diag_verbose(1, "%s: AH made again (%s)",
				     c->target->dest->text,
				     readdressed ? "the responder's new address"
						 : "its age or a round with "
						   "loss");
		}
	}
}

/* After a round: AHs that are old, or whose round lost probes, are made
 * again (a stale next-hop MAC loses every probe; the next round then
 * runs on a fresh AH before the destination is judged lost again). */
static void renew_ahs(struct probe_cmd *pc)
{
	struct probe_renewal *w = &pc->renewal;
	struct probe_session *s = &pc->s;
	uint64_t now = monotonic_ns();
	char err[DIAG_MSG_MAX];

	if (!w->made_ns)
		return;
	if (!w->renewer.started &&
	    ah_renewer_start(&w->renewer, s->ep.pd, s->cell_count + 2, err,
			     sizeof(err))) {
		diag_warn("%s: AHs are not made again", err);
		free(w->made_ns);
		w->made_ns = NULL;
		return;
	}
	swap_renewed_ahs(pc, now);
	reap_retired_ahs(pc, false);
	for (size_t i = 0; i < s->cell_count; i++) {
		struct probe_cell *c = &s->cells[i];
		const struct probe_round_cell *r = &pc->view.rounds[i];

		if (!c->ah)
			continue;
		if (!w->made_ns[i])
			w->made_ns[i] = now;	/* made before the first round */
		if (w->readdress[i] != READDRESS_NONE)
			continue;	/* readdress_ahs' */
		if (ah_renew_due(w->renewing[i], r->received < r->sent,
				 w->made_ns[i], now, w->max_age_ns) &&
		    ah_renewer_submit(&w->renewer, i, &c->attr) == 0)
			w->renewing[i] = true;
	}
}

/* How long a round's end waits for the rendezvous of destinations that
 * got nothing back: a serve that is back answers within a millisecond,
 * one still down refuses at once; a host that is gone takes longer and
 * is taken at a later round's end. The replies due meanwhile wait in
 * the completion queue, well within their deadlines. */
#define FOLLOW_WAIT_MS 200

/* A round closed: the destinations that got nothing back in it ask
 * their rendezvous again, and a responder that restarted is followed to
 * its new QP, one renumbered to its new address: its cells' AHs are made
 * again (renew_ahs, right after), the old ones destroyed once their
 * sends completed (responder_follow.h). */
static void follow_round_end(struct probe_cmd *pc)
{
	struct probe_session *s = &pc->s;
	size_t sets = pc->sw.count;
	struct path_constraints want;
	struct follow_port port = {
		.facts = &s->facts,
		.device = s->device,
		.want = &want,
		.timeout_ms = s->settings.timeout_ms,
	};
	uint64_t end = monotonic_ns() + FOLLOW_WAIT_MS * 1000000ull;
	struct timespec wall, pause = { 0, 1000000 };
	bool pending = true;

	for (size_t t = 0; t < pc->dests.count; t++)
		follow_ask(&pc->follow[t], &pc->targets[t],
			   &s->cells[t * sets], sets,
			   &pc->view.rounds[t * sets], s->settings.timeout_ms);
	while (pending && monotonic_ns() < end) {
		pending = false;
		for (size_t t = 0; t < pc->dests.count && !pending; t++)
			pending = follow_ask_pending(&pc->follow[t]);
		if (pending)
			nanosleep(&pause, NULL);
	}
	/* A new PathRecord (IB) in the QP's partition, from the source
	 * GID asked for, as the run's first ones (ib_resolve_paths). */
	probe_session_path_wants(s, s->pkey, &want);
	clock_gettime(CLOCK_REALTIME, &wall);
	for (size_t t = 0; t < pc->dests.count; t++)
		if (follow_take(&pc->follow[t], &pc->targets[t],
				&s->cells[t * sets], sets, &port,
				(double)wall.tv_sec, pc->follow_events[t],
				sizeof(pc->follow_events[t])) ==
		    FOLLOW_RENUMBERED)
			for (size_t k = t * sets; k < (t + 1) * sets; k++)
				if (s->cells[k].ah)
					pc->renewal.readdress[k] =
						READDRESS_DUE;
}

/* The AHs of the cells whose responder was renumbered are made for its
 * new address, waited for as long as a rendezvous answer (an AH to an
 * address that just answered needs no long neighbour resolution): the
 * next round goes there, one that is late is taken at its end. */
static void readdress_ahs(struct probe_cmd *pc)
{
	struct probe_renewal *w = &pc->renewal;
	uint64_t end = monotonic_ns() + FOLLOW_WAIT_MS * 1000000ull;
	struct timespec pause = { 0, 1000000 };
	bool waiting = true;

	if (!w->made_ns || !w->renewer.started)
		return;
	while (waiting) {
		waiting = false;
		swap_renewed_ahs(pc, monotonic_ns());
		for (size_t i = 0; i < pc->s.cell_count; i++) {
			if (w->readdress[i] == READDRESS_DUE &&
			    !w->renewing[i] &&
			    ah_renewer_submit(&w->renewer, i,
					      &pc->s.cells[i].attr) == 0) {
				w->renewing[i] = true;
				w->readdress[i] = READDRESS_MADE;
			}
			waiting |= w->readdress[i] != READDRESS_NONE;
		}
		if (!waiting || monotonic_ns() >= end)
			break;
		nanosleep(&pause, NULL);
	}
}

/* What was followed: a line each after the round's rows (text), on
 * stderr otherwise (the JSON records carry it as responder_restarts). */
static void follow_say(struct probe_cmd *pc)
{
	for (size_t t = 0; t < pc->dests.count; t++) {
		if (!pc->follow_events[t][0])
			continue;
		if (out_format() == OUT_TEXT)
			out_text("%s: %s\n", pc->targets[t].dest->text,
				 pc->follow_events[t]);
		else
			diag_verbose(0, "%s: %s", pc->targets[t].dest->text,
				     pc->follow_events[t]);
	}
	out_flush_record();
}

/* The engine's period: a round ends. */
static void round_ended(struct probe_session *s)
{
	struct probe_cmd *pc = probe_cmd_of(s);

	close_round(pc, false);
	follow_round_end(pc);
	running_rows(pc);
	follow_say(pc);
	renew_ahs(pc);
	readdress_ahs(pc);
}

/* --discover: the SA names the responders, their QPNs and Q_Keys; DESTs,
 * if any, choose whose records are looked up, by GID. */
static int discover_usage(const struct probe_opts *opts,
			  const struct dest_list *dests)
{
	if (opts->has_qpn || opts->has_qkey)
		return cli_usage_error("--discover takes each responder's QPN "
				       "and Q_Key from its SA record: drop "
				       "--qpn and --qkey");
	for (size_t i = 0; i < dests->count; i++) {
		const struct dest *d = &dests->items[i];

		if (d->kind != DEST_GID && d->kind != DEST_GUID &&
		    d->kind != DEST_ADDR)
			return cli_usage_error("with --discover, a destination "
					       "is a GID or guid: whose record "
					       "the SA has, not a %s "
					       "destination: '%s'",
					       dest_kind_name(d->kind),
					       d->text);
	}
	return 0;
}

/* Asks the SA for every record, or for the records of dests; without
 * dests, fills them (one per record, in order) unless listing. Returns 0,
 * or the exit status after saying why. */
static int discover_responders(const struct common_opts *common,
			       const struct probe_opts *opts,
			       const char *ca, uint8_t port,
			       struct discovery *d, struct dest_list *dests)
{
	char err[DIAG_MSG_MAX * 3];
	bool table = dests->count == 0;
	int rc = discovery_fetch(ca, port, common->timeout_ms, dests, d, err,
				 sizeof(err));

	if (rc)
		return cli_fail(rc, "%s", err);
	if (d->truncated) {
		discovery_truncation_message(d, err, sizeof(err));
		diag_warn("%s", err);
	}
	/* An empty list is a result; nothing to probe is the fabric's
	 * failure (no responder is up), not this host's: exit 1. */
	if (table && d->count == 0)
		return cli_fail(EXIT_PROBLEM,
				"no ibahprobe responder is registered in the "
				"SA: start 'ibahprobe serve --register' on the "
				"responders");
	if (opts->list) {
		discovery_print(d);
		for (size_t i = 0; i < d->count; i++)
			if (!d->items[i].path_ok)
				return EXIT_PROBLEM;
		return d->truncated ? EXIT_PROBLEM : EXIT_FINE;
	}
	if (table && discovery_to_dests(d, dests, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	return 0;
}

/* A discovered responder as a target: its record and path say it all. */
static void take_discovered(const struct discovered_responder *found,
			    struct probe_target *t)
{
	t->known_hops = -1;
	t->preset = true;
	if (!found->path_ok) {
		snprintf(t->error, sizeof(t->error), "%s", found->error);
		return;
	}
	t->has_qpn = true;
	t->info.qpn = t->qpn = found->responder.qpn;
	t->info.qkey = t->qkey = found->responder.qkey;
	t->dgid = found->responder.gid;
	t->has_dgid = true;
	snprintf(t->dgid_source, sizeof(t->dgid_source),
		 "its SA ServiceRecord");
	t->dlid = found->dlid;
	t->ready = true;
}

/* A destination that did not parse is its own error row, as one that
 * does not resolve: the others are probed all the same. */
static void take_unparsed(struct probe_target *t)
{
	t->known_hops = -1;
	t->preset = true;
	t->has_qpn = false;
	snprintf(t->error, sizeof(t->error), "%s", t->dest->error);
}

/* The run's identity and the text table's head, before any row. */
static void start_output(struct probe_cmd *pc, size_t dest_count)
{
	const struct probe_opts *opts = pc->opts;
	struct probe_session *s = &pc->s;
	const struct sweep *sw = &pc->sw;
	char head[2048];

	pc->view.dest_count = dest_count;
	pc->view.set_count = sw->count;
	for (int k = 0; k < 4; k++)
		pc->view.run.lists[k] = &sw->lists[k];
	if (!opts->lists[3])
		pc->view.run.lists[3] = NULL;
	pc->view.run.continuous = opts->continuous;
	if (out_format() == OUT_JSON)
		out_open_array(NULL);
	if (out_format() != OUT_TEXT)
		return;
	probe_text_layout_init(&pc->view.layout, s,
			       opts->lists[0] && sw->lists[0].count > 0,
			       opts->lists[3] != NULL, opts->continuous,
			       color_wanted(opts->color, isatty(STDOUT_FILENO),
					    getenv("NO_COLOR"),
					    getenv("TERM")));
	probe_text_header(&pc->view.layout, s, dest_count, sw->count,
			  s->device_note, head, sizeof(head));
	out_text("%s", head);
	for (size_t i = 0; i < s->cell_count; i += sw->count)
		if (s->cells[i].target->local_port)
			out_text("skipped %s: it is this port (its GID)\n",
				 s->cells[i].target->dest->text);
	if (diag_verbosity > 0 && !opts->dry_run) {
		probe_text_timing_note(s, head, sizeof(head));
		out_text("%s", head);
	}
	probe_text_titles(&pc->view.layout, head, sizeof(head));
	out_text("%s", head);
	out_flush_record();
	print_ready_rows(pc, false);
}

/* The rows not printed yet (those with loss, judged after the recheck),
 * whether the run was interrupted, and the summary. */
static void finish_output(struct probe_cmd *pc, int exit_status)
{
	struct probe_session *s = &pc->s;
	char line[1024];

	if (out_format() == OUT_TEXT) {
		if (pc->opts->continuous && pc->view.printed < s->cell_count)
			time_line(s, ", the end:");
		print_ready_rows(pc, true);
		probe_paths_print_summaries(s);
		if (interrupted)
			out_text("interrupted (%s) after %llu probe%s\n",
				 interrupted == SIGINT ? "SIGINT" : "SIGTERM",
				 (unsigned long long)s->total_sent,
				 s->total_sent == 1 ? "" : "s");
		probe_text_summary(s, pc->view.dest_count, pc->view.set_count,
				   line, sizeof(line));
		out_text("%s", line);
		return;
	}
	for (size_t i = 0; i < s->cell_count; i++) {
		struct probe_cell *c = &s->cells[i];

		if ((c->reported && out_format() == OUT_JSONL) ||
		    c->target->local_port)
			continue;
		print_cell_json(pc, c);
		if (out_format() == OUT_JSONL)
			out_flush_record();
	}
	/* A JSON document is the results (each says whether the run cut it
	 * short); a stream ends with a summary, so a reader knows it ended. */
	if (out_format() == OUT_JSON) {
		out_close_array();
		return;
	}
	probe_summary_print(&pc->view.run, s, pc->view.dest_count,
			    pc->view.set_count, exit_status);
	out_flush_record();
}

/* --mtu searches one size per destination at a time, once: what cannot
 * go with that is a usage error. A list of one value is one parameter
 * set and fine. */
static int mtu_usage(const struct probe_opts *opts)
{
	static const char *const names[4] = {
		"--hop-limit", "--tclass", "--flow-label", "--sl",
	};
	char err[DIAG_MSG_MAX];

	if (opts->has_size)
		return cli_usage_error("--mtu searches the size itself: drop "
				       "-s %u", opts->size);
	if (opts->continuous || (opts->has_count && opts->count == 0))
		return cli_usage_error("--mtu runs one search per destination: "
				       "drop %s", opts->continuous
						  ? "--continuous" : "-c 0");
	if (opts->has_interval_round || opts->metrics)
		return cli_usage_error("--mtu runs one search per destination: "
				       "drop %s", opts->metrics
						  ? "--metrics"
						  : "--interval-round");
	if (opts->jsonl)
		return cli_usage_error("--mtu's result is one document: use -j, "
				       "not --jsonl");
	if (opts->dry_run)
		return cli_usage_error("--dry-run probes nothing: drop --mtu");
	if (opts->has_count && opts->count > 100)
		return cli_usage_error("--mtu sends -c probes at each size: "
				       "-c %u is more than 100", opts->count);
	for (int k = 0; k < 4; k++) {
		struct value_list one = { 0 };
		size_t n;

		if (!opts->lists[k])
			continue;
		if (parse_value_list(opts->lists[k], names[k] + 2, 0, 0xfffff,
				     PROBE_MAX_SETS, &one, err, sizeof(err)))
			return 0;	/* build_sweep says what is wrong */
		n = one.count;
		value_list_free(&one);
		if (n > 1)
			return cli_usage_error("--mtu searches one parameter "
					       "set per destination: give %s "
					       "one value, not %zu", names[k],
					       n);
	}
	return 0;
}

/* The destinations (cli_collect_dests, as every command) and the rules
 * that only probe has. *nothing: the destinations come from -f alone and
 * it lists none, which is no mistake: a plan's round can leave a host
 * nothing to probe. */
static bool all_groups(const struct dest_list *dests)
{
	for (size_t i = 0; i < dests->count; i++)
		if (dests->items[i].kind != DEST_MCAST)
			return false;
	return dests->count > 0;
}

static int collect_dests(struct probe_opts *opts, int argc, char **argv,
			 struct dest_list *dests, bool *nothing)
{
	int rc;

	*nothing = false;
	if (opts->list && !opts->discover)
		return cli_usage_error("--list needs --discover");
	if (opts->mtu) {
		rc = mtu_usage(opts);
		if (rc)
			return rc;
	}
	/* A typo among the destinations is that destination's error row
	 * (exit 1); the command line's own options stay usage errors. */
	dests->keep_invalid = !opts->discover;
	dests->read_flow_label = true;
	rc = cli_collect_dests(NULL, argc, argv, opts->file, dests);
	if (rc)
		return rc;
	if (opts->discover)
		return discover_usage(opts, dests);
	if (dests->count == 0 && opts->file && argc == 0) {
		*nothing = true;
		return 0;
	}
	rc = cli_need_dests("probe", dests);
	if (rc)
		return rc;
	/* A group's members share a Q_Key that no rendezvous tells. */
	if (opts->has_qkey && !opts->has_qpn && !all_groups(dests))
		return cli_usage_error("--qkey needs --qpn: without them the "
				       "rendezvous tells both");
	if (opts->continuous && opts->has_count && opts->count != 0)
		return cli_usage_error("--continuous probes until interrupted: "
				       "drop -c %u", opts->count);
	if (opts->has_count && opts->count == 0)
		opts->continuous = true;
	if (opts->has_interval_round && !opts->continuous && opts->count)
		return cli_usage_error("--interval-round needs --continuous "
				       "(or -c 0)");
	if (opts->has_ah_max_age && !opts->continuous && opts->count)
		return cli_usage_error("--ah-max-age renews the AHs of a "
				       "continuous run: add --continuous (or "
				       "-c 0)");
	if (opts->metrics && !opts->continuous && opts->count)
		return cli_usage_error("--metrics writes a file after each "
				       "round of a continuous run: add "
				       "--continuous (a single run's results "
				       "are in -j)");
	if (opts->continuous && opts->dry_run)
		return cli_usage_error("--dry-run probes nothing: drop "
				       "--continuous");
	if (opts->paths_all && opts->mtu)
		return cli_usage_error("--mtu searches one path a "
				       "destination (one search, one row): "
				       "drop --paths all, or give each DLID "
				       "to search as lid:N");
	return 0;
}

/* --mtu: every destination's search, its rows or document, and the exit
 * status (0: each carries its bound). */
static int run_mtu(struct probe_cmd *pc, size_t ready)
{
	struct probe_session *s = &pc->s;
	struct mtu_run run = {
		.info = pc->view.run.info, .host = pc->host,
		.probes_per_size = s->settings.count,
	};
	struct mtu_dest *d = calloc(s->cell_count, sizeof(*d));
	struct sigaction sa = { .sa_handler = on_signal };
	bool fine = true;
	int rc;

	if (!d)
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	mtu_probe_setup(s, d);
	mtu_print_head(&run, s);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = ready ? mtu_probe_run(s, d, &interrupted) : 0;
	if (rc) {
		free(d);
		return s->fatal[0] ? cli_fail(EXIT_ENVIRONMENT, "%s", s->fatal)
				   : cli_fail(EXIT_ENVIRONMENT, "polling "
					      "completions failed: %s",
					      strerror(-rc));
	}
	run.interrupted = interrupted != 0;
	mtu_print_results(&run, s, d);
	for (size_t i = 0; i < s->cell_count; i++)
		fine = fine && mtu_dest_fine(&d[i]);
	free(d);
	return fine && !interrupted ? EXIT_FINE : EXIT_PROBLEM;
}

/* The session's settings from the options, before any port is open. */
static void settings_from_options(struct probe_cmd *pc)
{
	const struct probe_opts *opts = pc->opts;
	struct probe_session *s = &pc->s;

	s->settings = (struct probe_settings){
		.count = opts->count, .interval_ms = opts->interval_ms,
		.size = opts->size, .window = opts->window,
		.timeout_ms = pc->common->timeout_ms,
		.gid_index = pc->common->gid_index,
		.has_pkey = opts->has_pkey,
		.pkey = opts->pkey,
		.dry_run = opts->dry_run,
		.busy_poll = opts->busy_poll,
		.skip_local_port = !opts->dry_run,
		.paths_all = opts->paths_all,
	};
	s->on_done = opts->mtu ? NULL : cell_done;
	if (opts->mtu && !opts->has_count)
		s->settings.count = MTU_DEFAULT_PROBES;
	if (opts->continuous) {
		s->settings.count = 0;
		if (!opts->has_interval)
			s->settings.interval_ms = PROBE_CONTINUOUS_INTERVAL_MS;
		s->on_period = round_ended;
		s->period_ms = opts->round_s * 1000;
	}
}

/* The local port (cli_open_port) and what it must be able to do for
 * this run; with --discover, the responders the SA knows there. */
static int open_local_port(struct probe_cmd *pc)
{
	const struct probe_opts *opts = pc->opts;
	const struct device_info *dev;
	const struct port_info *port;
	char err[DIAG_MSG_MAX];
	int rc;

	rc = cli_open_port(&pc->local, pc->common->device, pc->common->port, 0);
	if (!rc)
		rc = cli_check_gid_index(&pc->local, pc->common->gid_index);
	if (rc)
		return rc;
	dev = pc->local.dev;
	port = pc->local.port;
	snprintf(pc->s.device_note, sizeof(pc->s.device_note), "%s",
		 pc->local.note);
	/* A dry run opens no QP: the umad view (no verbs) is enough. */
	if (dev->source != DEVICE_FROM_VERBS && !opts->dry_run)
		return cli_fail(EXIT_ENVIRONMENT, "probing needs a verbs "
				"device; this one is visible through umad "
				"only (--dry-run resolves and builds without "
				"one)");
	if (port->active_mtu && opts->size > port->active_mtu)
		return cli_usage_error("probe size %u exceeds the path MTU %u "
				       "of %s port %u", opts->size,
				       port->active_mtu, dev->name,
				       port->port_num);
	if (opts->paths_all && port->link_layer == LINK_LAYER_ETHERNET)
		return cli_usage_error("%s", PROBE_PATHS_ROCE);
	if (opts->discover && port->link_layer == LINK_LAYER_ETHERNET)
		return cli_fail(EXIT_ENVIRONMENT, "--discover needs an "
				"InfiniBand port: %s port %u is RoCE, which "
				"has no SA; give the responders' addresses "
				"instead", dev->name, port->port_num);
	if (opts->discover) {
		rc = discover_responders(pc->common, opts, dev->name,
					 port->port_num, &pc->disc, &pc->dests);
		if (rc)
			return rc;
	}
	probe_session_init(&pc->s, dev, port);
	/* The endpoint's buffers take the largest size the search asks. */
	if (opts->mtu)
		pc->s.settings.size = mtu_probe_port_bound(port->active_mtu);
	if (probe_session_read_pkeys(&pc->s, dev, err, sizeof(err))) {
		if (opts->has_pkey)
			return cli_fail(EXIT_ENVIRONMENT, "%s", err);
		diag_verbose(1, "%s; the QP takes P_Key index 0", err);
	}
	return 0;
}

/* One cell per destination and parameter set, in destination order; the
 * session owns the cells, the run the targets and the round state. */
static int build_cells(struct probe_cmd *pc)
{
	const struct probe_opts *opts = pc->opts;
	struct probe_session *s = &pc->s;
	size_t sets = pc->sw.count;

	pc->targets = calloc(pc->dests.count, sizeof(*pc->targets));
	if (!pc->targets ||
	    probe_session_alloc_cells(s, pc->dests.count * sets))
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	if (opts->continuous) {
		pc->view.rounds = calloc(s->cell_count,
					 sizeof(*pc->view.rounds));
		pc->renewal.max_age_ns = opts->ah_max_age_s * 1000000000ull;
		pc->renewal.made_ns = calloc(s->cell_count, sizeof(uint64_t));
		pc->renewal.renewing = calloc(s->cell_count, sizeof(bool));
		pc->renewal.readdress = calloc(s->cell_count, sizeof(uint8_t));
		pc->renewal.retired_cap = 2 * s->cell_count;
		pc->renewal.retired = calloc(pc->renewal.retired_cap,
					     sizeof(struct ibv_ah *));
		pc->renewal.retired_last_send =
			calloc(pc->renewal.retired_cap, sizeof(uint64_t));
		if (!pc->renewal.made_ns || !pc->renewal.renewing ||
		    !pc->renewal.readdress ||
		    !pc->renewal.retired || !pc->renewal.retired_last_send)
			return cli_fail(EXIT_ENVIRONMENT, "out of memory");
		if (opts->metrics)
			pc->view.series = calloc(s->cell_count,
						 sizeof(*pc->view.series));
		pc->follow = calloc(pc->dests.count, sizeof(*pc->follow));
		pc->follow_events = calloc(pc->dests.count,
					   sizeof(*pc->follow_events));
		if (!pc->follow || !pc->follow_events)
			return cli_fail(EXIT_ENVIRONMENT, "out of memory");
		for (size_t t = 0; t < pc->dests.count; t++)
			follow_state_init(&pc->follow[t], 0);
	}
	if ((opts->continuous && !pc->view.rounds) ||
	    (opts->metrics && !pc->view.series))
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	for (size_t t = 0; t < pc->dests.count; t++) {
		struct probe_target *target = &pc->targets[t];

		target->dest = &pc->dests.items[t];
		target->has_qpn = opts->has_qpn;
		target->qpn = opts->qpn;
		target->qkey = opts->qkey;
		if (opts->discover)
			take_discovered(&pc->disc.items[t], target);
		else if (target->dest->error)
			take_unparsed(target);
		for (size_t i = 0; i < sets; i++) {
			struct probe_cell *c = &s->cells[t * sets + i];

			c->target = target;
			c->asked = sweep_params(&pc->sw, i);
			if (opts->continuous) {
				c->rtt.limit = RTT_CONTINUOUS_LIMIT;
				c->network.limit = RTT_CONTINUOUS_LIMIT;
				c->dwell.limit = RTT_CONTINUOUS_LIMIT;
			}
			c->sl_given = opts->lists[3] != NULL;
		}
	}
	return 0;
}

/* --paths all: each path that lost probes, walked over the SA as trace
 * walks it, for the closing lines and the rows' dlid_path.trace. A
 * failure to ask the SA is said and leaves the paths untraced. */
static void trace_failed_paths(struct probe_cmd *pc)
{
	char err[DIAG_MSG_MAX * 2];

	if (!pc->opts->paths_all)
		return;
	if (probe_path_traces_plan(&pc->s, &pc->path_traces)) {
		diag_warn("the failed paths are not traced: out of memory");
		return;
	}
	if (probe_path_traces_run(&pc->s, &pc->path_traces, err,
				  sizeof(err))) {
		diag_warn("the failed paths are not traced: %s", err);
		probe_path_traces_free(&pc->s, &pc->path_traces);
	}
}

/* Opens the endpoint (when any destination is ready), probes until done
 * or interrupted, judges and prints. Returns the exit status. */
static int probe_and_report(struct probe_cmd *pc, size_t ready,
			    size_t skipped)
{
	const struct probe_opts *opts = pc->opts;
	struct probe_session *s = &pc->s;
	struct sigaction sa = { .sa_handler = on_signal };
	char err[DIAG_MSG_MAX];
	size_t good = 0;
	int rc;

	/* No responder to probe is every destination's failure (exit 1),
	 * not this host's: each row names its own cause. */
	if (ready && probe_session_open(s, pc->local.dev, pc->local.port, err,
					sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	if (ready) {
		probe_session_prepare(s);
		probe_warnings_print(s);
		if (probe_vlans_read(&pc->vlans, &s->facts))
			return cli_fail(EXIT_ENVIRONMENT, "out of memory");
		pc->view.run.vlans = &pc->vlans;
	}
	if (opts->mtu)
		return run_mtu(pc, ready);
	start_output(pc, pc->dests.count - skipped);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = ready ? probe_session_run(s, &interrupted) : 0;
	if (rc)
		return s->fatal[0] ? cli_fail(EXIT_ENVIRONMENT, "%s", s->fatal)
				   : cli_fail(EXIT_ENVIRONMENT, "polling "
					      "completions failed: %s",
					      strerror(-rc));
	pc->view.run.interrupted = interrupted != 0;
	probe_session_recheck(s);
	probe_session_judge(s);
	for (size_t i = 0; i < s->cell_count; i++) {
		struct probe_cell *c = &s->cells[i];

		if ((c->ah && c->verdict.reach == PROBE_STATUS_REACHABLE) ||
		    c->target->local_port)
			good++;
	}
	rc = good == s->cell_count && (!interrupted || opts->continuous) &&
			     !pc->disc.truncated
		     ? EXIT_FINE : EXIT_PROBLEM;
	/* The last round, cut short by the signal: its numbers reach the
	 * file and the final records too. */
	if (opts->continuous)
		close_round(pc, true);
	trace_failed_paths(pc);
	finish_output(pc, rc);
	return rc;
}

/* Everything up to the port: the run's identity, the sweep, the
 * destinations and the checks that need no device. *done: the run ended
 * here (nothing to probe, or --list), with status rc. */
/* -f FILE's flow-label line (plan's policy, base/dest_flow_label.h)
 * serves as --flow-label when none was given: the sweep's flow labels
 * become the file's, and the run says where they came from. */
static int take_file_flow_labels(struct probe_cmd *pc)
{
	struct probe_opts *opts = pc->opts;
	const struct dest_flow_label *fl = &pc->dests.flow_label;
	struct sweep *sw = &pc->sw;
	char err[DIAG_MSG_MAX];
	size_t sets;

	if (opts->lists[2]) {
		pc->view.run.flow_label_source = PROBE_FLOW_LABELS_COMMAND_LINE;
		if (fl->text)
			diag_verbose(1, "probe: flow labels %s from "
				     "--flow-label, not %s's %s", opts->lists[2],
				     fl->where, fl->text);
		return 0;
	}
	if (!fl->text)
		return 0;
	sets = sw->count / sw->lists[2].count * fl->values.count;
	if (fl->values.count > PROBE_MAX_SETS || sets > PROBE_MAX_SETS)
		return cli_usage_error("%s: the flow-label line's %zu labels "
				       "make %zu parameter sets, more than %d: "
				       "narrow the sweep (or give "
				       "--flow-label)", fl->where,
				       fl->values.count, sets, PROBE_MAX_SETS);
	if (opts->mtu && fl->values.count > 1)
		return cli_usage_error("--mtu searches one parameter set per "
				       "destination: %s's flow-label line names "
				       "%zu labels; give one with --flow-label",
				       fl->where, fl->values.count);
	value_list_free(&sw->lists[2]);
	if (parse_value_list(fl->text, "20-bit flow label", 0, 0xfffff,
			     PROBE_MAX_SETS, &sw->lists[2], err, sizeof(err)))
		return cli_usage_error("%s: %s", fl->where, err);
	sw->count = sets;
	opts->lists[2] = fl->text;
	pc->view.run.flow_label_source = PROBE_FLOW_LABELS_FILE;
	diag_verbose(1, "probe: flow labels %s from %s (its flow-label line)",
		     fl->text, fl->where);
	return 0;
}

static int start_run(struct probe_cmd *pc, int argc, char **argv,
		     bool *done)
{
	struct probe_opts *opts = pc->opts;
	char err[DIAG_MSG_MAX];
	bool nothing;
	int rc;

	*done = true;
	/* A failure of the run as a whole is tied to this host and run
	 * when results of many hosts are merged (report). */
	run_info_start(&pc->view.run.info);
	gethostname(pc->host, sizeof(pc->host) - 1);
	out_set_fail_context(&(struct out_fail_context){
		.schema = opts->mtu ? MTU_SCHEMA : PROBE_SCHEMA,
		.run_id = pc->view.run.info.id,
		.start_time = pc->view.run.info.start_time, .host = pc->host });
	rc = build_sweep(opts, &pc->sw);
	if (rc == 0)
		rc = collect_dests(opts, argc, argv, &pc->dests, &nothing);
	if (rc == 0)
		rc = take_file_flow_labels(pc);
	if (rc)
		return rc;
	if (nothing) {
		diag_warn("%s lists no destination: nothing to probe",
			  opts->file);
		if (out_format() == OUT_JSON) {
			out_open_array(NULL);
			out_close_array();
		}
		return 0;
	}
	/* Listing needs no verbs device: it works on umad alone. */
	if (opts->list)
		return discover_responders(pc->common, opts, pc->common->device,
					   pc->common->port, &pc->disc,
					   &pc->dests);
	if (opts->jsonl && opts->dry_run)
		return cli_usage_error("--dry-run prints what it resolved at "
				       "once: use -j, not --jsonl");
	/* A metrics file that cannot be written fails now, not after the
	 * first round (a service manager sees it at once). */
	if (opts->metrics && openmetrics_check_target(opts->metrics, err,
						      sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	*done = false;
	return 0;
}

static void probe_cmd_free(struct probe_cmd *pc)
{
	discovery_free(&pc->disc);
	/* The run drained its sends (probe_session_run): the replaced AHs
	 * go before the session's PD. */
	ah_renewer_stop(&pc->renewal.renewer);
	reap_retired_ahs(pc, true);
	if (pc->follow)
		for (size_t t = 0; t < pc->dests.count; t++)
			follow_state_free(&pc->follow[t]);
	free(pc->follow);
	free(pc->follow_events);
	free(pc->renewal.made_ns);
	free(pc->renewal.renewing);
	free(pc->renewal.readdress);
	free(pc->renewal.retired);
	free(pc->renewal.retired_last_send);
	probe_path_traces_free(&pc->s, &pc->path_traces);
	probe_session_close(&pc->s);
	probe_vlans_free(&pc->vlans);
	free(pc->view.rounds);
	free(pc->view.series);
	free(pc->targets);
	sweep_free(&pc->sw);
	cli_close_port(&pc->local);
	dest_list_free(&pc->dests);
}

/* --hop-limit, --tclass, --flow-label and --sl for a group: one value
 * each (NULL: not given); a usage error for more. */
static int group_param_lists(const struct probe_cmd *pc,
			     const struct value_list *lists[4])
{
	for (int k = 0; k < 4; k++) {
		if (pc->sw.lists[k].count > 1)
			return cli_usage_error("a group is probed with one "
					       "parameter set: give one value "
					       "of --hop-limit, --tclass, "
					       "--flow-label and --sl");
		lists[k] = pc->opts->lists[k] ? &pc->sw.lists[k] : NULL;
	}
	return 0;
}

/* A group is probed with one parameter set, as the members answer
 * (probe_mcast.c); the options of a unicast sweep or run that have no
 * meaning for it are refused. */
static int probe_groups_run(struct probe_cmd *pc)
{
	const struct probe_opts *opts = pc->opts;
	struct probe_mcast_args a = {
		.common = pc->common, .dests = &pc->dests,
		.has_qkey = opts->has_qkey, .qkey = opts->qkey,
		.count = opts->count, .interval_ms = opts->interval_ms,
		.size = opts->size, .busy_poll = opts->busy_poll,
		.expect_members = opts->expect_members,
		.sa_key = opts->sa_key,
		.info = &pc->view.run.info,
	};
	struct dest_list hosts = { 0 };
	char err[DIAG_MSG_MAX];
	int rc;

	rc = group_param_lists(pc, a.lists);
	if (rc)
		return rc;
	if (opts->continuous || opts->mtu || opts->has_qpn)
		return cli_usage_error("%s does not apply to a group",
				       opts->continuous ? "--continuous"
				       : opts->mtu	? "--mtu"
							: "--qpn (a group's is "
							  "0xffffff)");
	if (opts->count == 0)
		return cli_usage_error("a group needs a probe count (-c N)");
	for (size_t k = 0; k < opts->expect_member_arg_count; k++)
		if (mcast_expect_hosts_add(&hosts, opts->expect_member_args[k],
					   err, sizeof(err))) {
			dest_list_free(&hosts);
			return cli_fail(EXIT_ENVIRONMENT, "%s", err);
		}
	a.expect_hosts = hosts.count ? &hosts : NULL;
	rc = probe_mcast_exec(&a);
	dest_list_free(&hosts);
	return rc;
}

/* RoCE: --dry-run shows the AH each group would be probed with, from its
 * address (no SA, no join): the same AH a run builds. */
static int probe_groups_dry_run_roce(struct probe_cmd *pc,
				     const struct ah_port_facts *facts)
{
	const struct probe_opts *opts = pc->opts;
	struct probe_mcast_args a = {
		.common = pc->common, .dests = &pc->dests,
		.has_qkey = opts->has_qkey, .qkey = opts->qkey,
	};
	struct mcast_roce_target *targets;
	int rc = cli_check_gid_index(&pc->local, pc->common->gid_index);

	if (!rc)
		rc = group_param_lists(pc, a.lists);
	if (rc)
		return rc;
	targets = calloc(pc->dests.count, sizeof(*targets));
	if (!targets)
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	for (size_t i = 0; i < pc->dests.count; i++)
		probe_mcast_roce_target(&a, facts, &pc->dests.items[i],
					&targets[i]);
	rc = mcast_dry_run_print_roce(&pc->dests, targets, facts)
		     ? EXIT_FINE
		     : EXIT_PROBLEM;
	free(targets);
	return rc;
}

/* mcast: destinations: --dry-run shows each group's AH from the SA;
 * without it the groups are probed and their members answer. */
static int probe_groups(struct probe_cmd *pc)
{
	struct ah_port_facts facts;
	struct mcast_target *targets;
	struct mcast_listing *listings;
	struct path_session session;
	char err[DIAG_MSG_MAX];
	size_t groups = 0;
	int rc;

	for (size_t i = 0; i < pc->dests.count; i++)
		groups += pc->dests.items[i].kind == DEST_MCAST;
	if (groups == 0 && pc->opts->has_expect_members)
		return cli_usage_error("--expect-members counts the members "
				       "of a group: give mcast: destinations");
	if (groups == 0 && pc->opts->expect_member_arg_count)
		return cli_usage_error("--expect-member names members of a "
				       "group: give mcast: destinations");
	if (groups == 0 && pc->opts->has_sa_key)
		return cli_usage_error("--sa-key is the key of the SA's "
				       "member listing of a group: give "
				       "mcast: destinations");
	if (groups == 0)
		return -1;
	if (groups != pc->dests.count)
		return cli_usage_error("give mcast: destinations on their own: "
				       "a group is asked of the SA for its "
				       "MCMemberRecord, not for a path, and "
				       "answered by many members");
	if (!pc->opts->dry_run)
		return probe_groups_run(pc);
	if (cli_open_port(&pc->local, pc->common->device, pc->common->port,
			  CLI_PORT_NO_FAIL) == 0)
		ah_port_facts_from_port(pc->local.port, &facts);
	else
		return cli_fail(EXIT_ENVIRONMENT, "%s", pc->local.err);
	if (pc->local.port->link_layer == LINK_LAYER_ETHERNET)
		return probe_groups_dry_run_roce(pc, &facts);
	if (path_session_open(&session, pc->common->device, pc->common->port,
			      err, sizeof(err)) != SA_CLIENT_OK)
		return cli_fail(EXIT_ENVIRONMENT, "a group's AH needs its "
				"MCMemberRecord from the SA: %s", err);
	targets = calloc(pc->dests.count, sizeof(*targets));
	listings = calloc(pc->dests.count, sizeof(*listings));
	if (!targets || !listings) {
		free(targets);
		free(listings);
		path_session_close(&session);
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	}
	mcast_targets_resolve(&session, &pc->dests, NULL,
			      &(struct ah_fields){ 0 }, &facts,
			      pc->common->timeout_ms, targets);
	/* The members probe would expect: the SA's listing, asked with
	 * the SA key as probe asks it. */
	for (size_t i = 0; i < pc->dests.count; i++)
		if (targets[i].built)
			mcast_sender_listing(&session, &targets[i].group.mgid,
					     pc->opts->sa_key,
					     pc->common->timeout_ms,
					     &listings[i]);
	path_session_close(&session);
	rc = mcast_dry_run_print(&pc->dests, targets, listings, &facts)
		     ? EXIT_FINE : EXIT_PROBLEM;
	for (size_t i = 0; i < pc->dests.count; i++)
		mcast_listing_free(&listings[i]);
	free(listings);
	free(targets);
	return rc;
}

static int probe_exec(const struct common_opts *common, void *ctx,
		      int argc, char **argv)
{
	struct probe_cmd pc = { .common = common, .opts = ctx };
	size_t ready = 0, skipped = 0;
	bool done;
	int rc;

	rc = start_run(&pc, argc, argv, &done);
	if (rc || done)
		goto out;
	rc = probe_groups(&pc);
	if (rc >= 0)
		goto out;
	settings_from_options(&pc);
	rc = open_local_port(&pc);
	if (rc == 0)
		rc = build_cells(&pc);
	if (rc)
		goto out;
	probe_session_resolve_targets(&pc.s);
	for (size_t t = 0; t < pc.dests.count; t++) {
		skipped += pc.targets[t].local_port;
		ready += pc.targets[t].ready;
	}
	if (pc.opts->dry_run) {
		probe_session_prepare(&pc.s);
		rc = probe_dry_run_print(&pc.s) ? EXIT_FINE : EXIT_PROBLEM;
		goto out;
	}
	rc = probe_and_report(&pc, ready, skipped);
out:
	probe_cmd_free(&pc);
	return rc;
}

const struct command cmd_probe = {
	.name = "probe",
	.args = "DEST... | --discover [DEST...]",
	.summary = "UD probes: reachability, RTT and what happens to the GRH, "
		   "per destination and parameter set",
	.options = probe_options,
	.ctx_size = sizeof(struct probe_opts),
	.ctx_defaults = &probe_defaults,
	.parse_option = probe_option,
	.exec = probe_exec,
};
