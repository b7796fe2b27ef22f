/* ibahprobe serve: the UD responder (lib/peer/responder.c) on one port,
 * with its rendezvous listener, --register's SA record, --mcast's groups
 * (lib/sa/mcast_membership.c) and --pidfile. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "cli_port.h"
#include "base/diag.h"
#include "base/mcast_spec.h"
#include "base/mgid.h"
#include "base/parse.h"
#include "base/pidfile.h"
#include "out/output.h"
#include "peer/rendezvous.h"
#include "peer/responder.h"
#include "peer/responder_print.h"
#include "sa/mcast_membership.h"
#include "sa/path_resolve.h"
#include "sa/responder_registrar.h"
#include "verbs/device.h"
#include "verbs/pkey_table.h"
#include "verbs/ud_endpoint.h"

enum serve_option {
	SERVE_OPT_QKEY, SERVE_OPT_LISTEN, SERVE_OPT_NO_LISTEN, SERVE_OPT_COUNT,
	SERVE_OPT_DURATION, SERVE_OPT_MAX_RATE, SERVE_OPT_REGISTER,
	SERVE_OPT_PKEY, SERVE_OPT_PIDFILE, SERVE_OPT_BUSY_POLL,
	SERVE_OPT_RQ_DEPTH, SERVE_OPT_AH_MAX_AGE, SERVE_OPT_MCAST,
	SERVE_OPT_END,
};

static const struct opt_spec serve_options[] = {
	[SERVE_OPT_QKEY] = { "qkey", 0, "QKEY", "Q_Key of the UD QP (default "
			     "0x1ab4e0be; bit 31 set needs CAP_NET_RAW)",
			     COMPLETE_NONE, NULL },
	[SERVE_OPT_LISTEN] = { "listen", 'l', "[ADDR:]PORT", "rendezvous "
			       "listener (default port 18515, all addresses)",
			       COMPLETE_NONE, NULL },
	[SERVE_OPT_NO_LISTEN] = { "no-listen", 0, NULL, "no rendezvous "
				  "listener: probers need --qpn and --qkey",
				  COMPLETE_NONE, NULL },
	[SERVE_OPT_COUNT] = { "count", 'c', "N", "exit after answering N "
			      "probes", COMPLETE_NONE, NULL },
	[SERVE_OPT_DURATION] = { "duration", 0, "SECONDS", "exit after this "
				 "long", COMPLETE_NONE, NULL },
	[SERVE_OPT_MAX_RATE] = { "max-rate", 0, "N", "replies per second at "
				 "most (default 20000); the rest are dropped",
				 COMPLETE_NONE, NULL },
	[SERVE_OPT_REGISTER] = { "register", 0, NULL, "register a "
				 "ServiceRecord with the SA, so 'probe "
				 "--discover' finds this responder "
				 "(InfiniBand; removed on exit)", COMPLETE_NONE,
				 NULL },
	[SERVE_OPT_PKEY] = { "pkey", 0, "PKEY", "the partition of the UD QP "
			     "(default: P_Key index 0); probers of another "
			     "partition get no answer", COMPLETE_NONE, NULL },
	[SERVE_OPT_PIDFILE] = { "pidfile", 0, "FILE", "write the pid to FILE "
				"once ready, remove it on exit; refused while "
				"another live serve holds FILE", COMPLETE_FILE,
				NULL },
	[SERVE_OPT_BUSY_POLL] = { "busy-poll", 0, NULL, "poll the completion "
				  "queue without sleeping: the probers' "
				  "network RTT loses this host's wake-up; a "
				  "core spins meanwhile", COMPLETE_NONE, NULL },
	[SERVE_OPT_RQ_DEPTH] = { "rq-depth", 0, "N", "receives kept posted "
				 "(default 1024, sized for the fan-in 'plan' "
				 "makes); probes arriving while all are "
				 "used are dropped by the device",
				 COMPLETE_NONE, NULL },
	[SERVE_OPT_AH_MAX_AGE] = { "ah-max-age", 0, "SECONDS", "make each "
				   "reply AH again once this old (default 30), "
				   "so a next hop that moved unseen is "
				   "followed", COMPLETE_NONE, NULL },
	[SERVE_OPT_MCAST] = { "mcast", 0, "GROUP[,GROUP...]", "join these "
			      "multicast groups and answer probes sent to "
			      "them: an MGID, ipoib[:PKEY] or ipoib6[:PKEY] "
			      "(InfiniBand), an IPv4 or IPv6 group (RoCE); "
			      "left on exit", COMPLETE_NONE, NULL },
	[SERVE_OPT_END] = OPT_END,
};

#define SERVE_DEFAULT_MAX_RATE 20000

/* serve's options: the context the dispatcher hands to every call. */
struct serve_opts {
	uint32_t qkey;
	bool qkey_given;	/* --qkey: the groups' Q_Key must be it */
	const char *listen;
	bool no_listen;
	uint64_t count;
	uint32_t duration_s;
	uint32_t max_rate;
	bool register_sa;
	bool has_pkey;
	uint16_t pkey;
	const char *pidfile;
	bool busy_poll;
	uint32_t rq_depth;	/* 0: the default */
	uint32_t ah_max_age_s;
	struct mcast_spec_list groups;	/* --mcast */
};

static const struct serve_opts serve_defaults = {
	.qkey = UD_DEFAULT_QKEY, .max_rate = SERVE_DEFAULT_MAX_RATE,
	.ah_max_age_s = RESPONDER_AH_MAX_AGE_S,
};

static int serve_option(void *ctx, int index, const char *arg)
{
	struct serve_opts *opts = ctx;
	char err[DIAG_MSG_MAX + 64], why[DIAG_MSG_MAX];
	uint64_t v64;
	int rc = 0;

	switch (index) {
	case SERVE_OPT_QKEY:
		rc = parse_qkey(arg, &opts->qkey, err, sizeof(err));
		opts->qkey_given = true;
		break;
	case SERVE_OPT_MCAST:
		if (mcast_spec_list_add(&opts->groups, arg, why, sizeof(why))) {
			snprintf(err, sizeof(err), "--mcast '%s': %s", arg,
				 why);
			rc = -1;
		}
		break;
	case SERVE_OPT_LISTEN:
		opts->listen = arg;
		if (!*arg) {
			snprintf(err, sizeof(err), "--listen is empty: expected "
				 "[ADDR:]PORT, e.g. 18515 or 10.0.0.1:18515");
			rc = -1;
		} else if (rendezvous_listen_spec_check(arg, why, sizeof(why))) {
			snprintf(err, sizeof(err), "--listen '%s': %s", arg, why);
			rc = -1;
		}
		break;
	case SERVE_OPT_NO_LISTEN:
		opts->no_listen = true;
		break;
	case SERVE_OPT_COUNT:
		rc = parse_u64(arg, "count", 1, UINT64_MAX, &v64, err,
			       sizeof(err));
		opts->count = v64;
		break;
	case SERVE_OPT_DURATION:
		rc = parse_u32(arg, "duration (s)", 1, 31536000,
			       &opts->duration_s, err, sizeof(err));
		break;
	case SERVE_OPT_MAX_RATE:
		rc = parse_u32(arg, "max rate", 1, 10000000, &opts->max_rate,
			       err, sizeof(err));
		break;
	case SERVE_OPT_REGISTER:
		opts->register_sa = true;
		break;
	case SERVE_OPT_BUSY_POLL:
		opts->busy_poll = true;
		break;
	case SERVE_OPT_AH_MAX_AGE:
		rc = parse_u32(arg, "reply AH age (s)", 1, 86400,
			       &opts->ah_max_age_s, err, sizeof(err));
		break;
	case SERVE_OPT_RQ_DEPTH:
		rc = parse_u32(arg, "rq depth", 1, RESPONDER_RECV_DEPTH_MAX,
			       &opts->rq_depth, err, sizeof(err));
		break;
	case SERVE_OPT_PKEY:
		opts->has_pkey = true;
		rc = pkey_parse_partition(arg, &opts->pkey, err, sizeof(err));
		break;
	case SERVE_OPT_PIDFILE:
		opts->pidfile = arg;
		if (!*arg) {
			snprintf(err, sizeof(err), "--pidfile is empty: "
				 "expected a file name, e.g. "
				 "/run/ibahprobe-serve.pid");
			rc = -1;
		}
		break;
	}
	return rc ? cli_usage_error("%s", err) : 0;
}

/* The signal that asked us to stop (0: none), named in the summary. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	stop_requested = sig;
}

/* What serve asks of the port it took: verbs, InfiniBand for --register,
 * membership of --pkey's partition (its index goes to the QP). Returns 0
 * or the exit status, said. */
static int check_port(const struct serve_opts *opts, struct responder *s)
{
	char err[DIAG_MSG_MAX * 2];

	if (s->dev->source != DEVICE_FROM_VERBS)
		return cli_fail(EXIT_ENVIRONMENT, "%s is visible through umad "
				"only: serve needs a verbs device",
				s->dev->name);
	if (opts->register_sa && s->port->link_layer == LINK_LAYER_ETHERNET)
		return cli_fail(EXIT_ENVIRONMENT, "--register needs an "
				"InfiniBand port: %s port %u is RoCE, which "
				"has no SA; probers find this responder "
				"through the rendezvous instead", s->dev->name,
				s->port->port_num);
	if (opts->has_pkey) {
		struct pkey_table pkeys;
		int index = -1;

		if (pkey_table_read(s->dev, s->port->port_num, &pkeys, err,
				    sizeof(err)) == 0 &&
		    (index = pkey_table_find(&pkeys, opts->pkey)) < 0)
			snprintf(err, sizeof(err), "%s port %u is not a member "
				 "of partition 0x%04x (--pkey)", s->dev->name,
				 s->port->port_num, opts->pkey);
		if (index < 0)
			return cli_fail(EXIT_ENVIRONMENT, "%s", err);
		s->pkey_index = (uint16_t)index;
	}
	return 0;
}

/* What follows the port's events: the SA record and the groups. */
struct serve_port_watchers {
	struct responder_registrar *registrar;	/* NULL: not registered */
	struct mcast_membership *groups;
};

static void serve_port_changed(void *ctx, const struct port_info *port,
			       bool reregister)
{
	struct serve_port_watchers *w = ctx;

	if (w->registrar)
		responder_registrar_port_changed(w->registrar, port,
						 reregister);
	mcast_membership_port_changed(w->groups, port, reregister);
}

/* The P_Key of the QP's partition, which a group serve creates gets. */
static int qp_pkey(const struct responder *s, const struct serve_opts *opts,
		   uint16_t *pkey, char *err, size_t len)
{
	struct pkey_table pkeys;

	if (opts->has_pkey) {
		*pkey = opts->pkey;
		return 0;
	}
	if (pkey_table_read(s->dev, s->port->port_num, &pkeys, err, len))
		return -1;
	*pkey = pkeys.count ? pkeys.keys[0] : IPOIB_DEFAULT_PKEY;
	return 0;
}

/* --mcast before the QP exists: on InfiniBand the SA joins, whose
 * groups' Q_Key the QP then takes (mcast_membership_qkey); on RoCE the
 * IP memberships. Returns 0 or the exit status, said. */
static int join_groups(const struct common_opts *common,
		       const struct serve_opts *opts, struct responder *s,
		       struct path_session *sa, bool *sa_open,
		       struct mcast_membership *m)
{
	char err[DIAG_MSG_MAX * 6];
	uint16_t pkey;

	if (!opts->groups.count)
		return 0;
	if (s->port->link_layer == LINK_LAYER_ETHERNET) {
		if (mcast_membership_join_roce(m, &opts->groups, s->port,
					       s->config.qkey, err,
					       sizeof(err)))
			return cli_fail(EXIT_ENVIRONMENT, "%s", err);
		return 0;
	}
	if (qp_pkey(s, opts, &pkey, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	if (path_session_open(sa, s->dev->name, s->port->port_num, err,
			      sizeof(err)) != SA_CLIENT_OK)
		return cli_fail(EXIT_ENVIRONMENT, "--mcast needs the SA: %s",
				err);
	*sa_open = true;
	if (mcast_membership_join_ib(m, &opts->groups, sa, pkey,
				     s->config.qkey, common->timeout_ms, err,
				     sizeof(err)) ||
	    mcast_membership_qkey(m, s->config.qkey, opts->qkey_given,
				  &s->config.qkey, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	return 0;
}

/* The responder from device to summary; with --pidfile, the pid goes
 * into the taken PIDFILE once the ready line is out. */
static int serve_responder(const struct common_opts *common,
			   const struct serve_opts *opts,
			   struct pidfile *pidfile)
{
	struct responder s = {
		.config = { .qkey = opts->qkey, .count = opts->count,
			    .duration_s = opts->duration_s,
			    .max_rate = opts->max_rate,
			    .busy_poll = opts->busy_poll,
			    .rq_depth = opts->rq_depth,
			    .ah_max_age_s = opts->ah_max_age_s },
	};
	struct responder_registrar reg = RESPONDER_REGISTRAR_INIT;
	struct mcast_membership groups = { 0 };
	struct serve_port_watchers watchers = { .groups = &groups };
	struct responder_group views[MCAST_SPEC_MAX];
	struct path_session group_sa;
	bool sa_open = false;
	struct sigaction sa = { .sa_handler = on_signal };
	char err[DIAG_MSG_MAX * 3 + PATH_MAX];
	char bound[128] = "";
	struct cli_port local;
	int listen_fd = -1;
	const char *why = "?";
	int rc;

	rc = cli_open_port(&local, common->device, common->port, 0);
	/* The responder owns the list from here: a port event swaps it
	 * for a fresh one (responder_events.c). */
	s.devices = local.devices;
	s.dev = local.dev;
	s.port = local.port;
	if (rc)
		goto out_devices;
	rc = check_port(opts, &s);
	if (rc)
		goto out_devices;
	rc = join_groups(common, opts, &s, &group_sa, &sa_open, &groups);
	if (rc)
		goto out_groups;
	if (responder_open(&s, err, sizeof(err))) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out_responder;
	}
	if (mcast_membership_attach(&groups, s.ep.qp, err, sizeof(err))) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out_responder;
	}
	if (!opts->no_listen) {
		listen_fd = rendezvous_listen(opts->listen, bound,
					      sizeof(bound), err, sizeof(err));
		if (listen_fd < 0) {
			rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
			goto out_responder;
		}
	}
	responder_start_rendezvous(&s, listen_fd);
	/* Before registering: a signal meanwhile ends the loop at once, and
	 * the record is still deleted. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (opts->register_sa) {
		if (responder_registrar_start(&reg, &s.info, bound,
					      common->timeout_ms, err,
					      sizeof(err))) {
			rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
			goto out_listen;
		}
		watchers.registrar = &reg;
	}
	s.port_changed = serve_port_changed;
	s.port_changed_ctx = &watchers;
	mcast_membership_view(&groups, views);
	responder_ready_print(&s.info, listen_fd >= 0 ? bound : NULL,
			      reg.registered, opts->pidfile,
			      &(struct responder_timing){
				      .busy_poll = opts->busy_poll,
				      .hw_stamps = s.ep.clock.hw,
				      .why_not = s.ep.clock.why_not,
			      }, views, groups.count);
	if (s.vlan.cvlan)
		diag_verbose(1, "requests' VLAN tags: reported in the replies");
	else
		diag_verbose(1, "requests' VLAN tags: not known (%s)",
			     s.vlan.why_not && s.vlan.why_not[0]
				     ? s.vlan.why_not : "not asked");
	if (pidfile->fd >= 0 &&
	    pidfile_write(pidfile, getpid(), err, sizeof(err))) {
		responder_registrar_remove(&reg);
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out_listen;
	}
	rc = responder_run(&s, &stop_requested, &why);
	/* Unregister first: a dead responder must not stay advertised. */
	responder_registrar_remove(&reg);
	mcast_membership_leave(&groups);
	responder_summary_print(&s, why);
	rc = rc ? cli_fail(EXIT_ENVIRONMENT, "%s", s.fatal) : EXIT_FINE;
out_listen:
	responder_registrar_close(&reg);
	responder_stop_rendezvous(&s);
	if (listen_fd >= 0)
		close(listen_fd);
out_responder:
	/* Detached before the QP goes (a no-op once left). */
	mcast_membership_leave(&groups);
	responder_close(&s);
out_groups:
	mcast_membership_leave(&groups);
	if (sa_open)
		path_session_close(&group_sa);
out_devices:
	device_list_free(&s.devices);
	return rc;
}

static int serve_exec(const struct common_opts *common, void *ctx, int argc,
		      char **argv)
{
	const struct serve_opts *opts = ctx;
	struct pidfile pidfile = { .fd = -1 };
	char err[DIAG_MSG_MAX + PATH_MAX];
	pid_t holder;
	int rc;

	(void)argv;
	if (argc > 0)
		return cli_usage_error("serve takes no arguments");
	if (opts->no_listen && opts->listen)
		return cli_usage_error("--listen and --no-listen contradict "
				       "each other");
	if (common->json)
		out_init(OUT_JSONL, false);
	/* Before any device is opened: a second responder on the same
	 * file is refused at once, and touches no port. */
	if (opts->pidfile) {
		switch (pidfile_take(&pidfile, opts->pidfile, &holder, err,
				     sizeof(err))) {
		case PIDFILE_TAKEN:
			break;
		case PIDFILE_HELD:
			if (holder)
				return cli_fail(EXIT_ENVIRONMENT, "--pidfile %s "
						"is held by pid %ld, which is "
						"running: stop it (kill -TERM "
						"%ld) or give another file",
						opts->pidfile, (long)holder,
						(long)holder);
			return cli_fail(EXIT_ENVIRONMENT, "--pidfile %s is "
					"locked by a running process (its pid "
					"not written yet): stop it or give "
					"another file", opts->pidfile);
		case PIDFILE_ERROR:
			return cli_fail(EXIT_ENVIRONMENT, "%s", err);
		}
	}
	rc = serve_responder(common, opts, &pidfile);
	pidfile_release(&pidfile);
	return rc;
}

const struct command cmd_serve = {
	.name = "serve",
	.summary = "UD responder: echo probes with what was observed, over "
		   "the reverse path",
	.options = serve_options,
	.ctx_size = sizeof(struct serve_opts),
	.ctx_defaults = &serve_defaults,
	.parse_option = serve_option,
	.exec = serve_exec,
};
