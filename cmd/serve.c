/* ibahprobe serve: the UD responder. It echoes each valid probe with what
 * it observed (decoded GRH, work completion) over the reverse path it
 * builds from the completion (ibv_init_ah_from_wc), and answers
 * rendezvous queries on TCP with its QPN, Q_Key, LID and GIDs. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ah_cache.h"
#include "cli.h"
#include "device.h"
#include "diag.h"
#include "gid.h"
#include "grh.h"
#include "monotonic.h"
#include "output.h"
#include "parse.h"
#include "pkey_table.h"
#include "probe_wire.h"
#include "rendezvous.h"
#include "responder_discovery.h"
#include "ud_endpoint.h"

enum serve_option {
	SERVE_OPT_QKEY, SERVE_OPT_LISTEN, SERVE_OPT_NO_LISTEN, SERVE_OPT_COUNT,
	SERVE_OPT_DURATION, SERVE_OPT_MAX_RATE, SERVE_OPT_REGISTER,
	SERVE_OPT_PKEY, SERVE_OPT_END,
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
	[SERVE_OPT_END] = OPT_END,
};

#define SERVE_DEFAULT_MAX_RATE 20000
#define SERVE_RECV_DEPTH 256
#define SERVE_SEND_DEPTH 128
#define SERVE_AH_CACHE 256
#define SERVE_POLL_BATCH 32

static struct {
	uint32_t qkey;
	const char *listen;
	bool no_listen;
	uint64_t count;
	uint32_t duration_s;
	uint32_t max_rate;
	bool register_sa;
	bool has_pkey;
	uint16_t pkey;
} opts = { .qkey = UD_DEFAULT_QKEY, .max_rate = SERVE_DEFAULT_MAX_RATE };

static int serve_option(int index, const char *arg)
{
	char err[DIAG_MSG_MAX + 64], why[DIAG_MSG_MAX];
	uint64_t v64;
	int rc = 0;

	switch (index) {
	case SERVE_OPT_QKEY:
		rc = parse_qkey(arg, &opts.qkey, err, sizeof(err));
		break;
	case SERVE_OPT_LISTEN:
		opts.listen = arg;
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
		opts.no_listen = true;
		break;
	case SERVE_OPT_COUNT:
		rc = parse_u64(arg, "count", 1, UINT64_MAX, &v64, err,
			       sizeof(err));
		opts.count = v64;
		break;
	case SERVE_OPT_DURATION:
		rc = parse_u32(arg, "duration (s)", 1, 31536000,
			       &opts.duration_s, err, sizeof(err));
		break;
	case SERVE_OPT_MAX_RATE:
		rc = parse_u32(arg, "max rate", 1, 10000000, &opts.max_rate,
			       err, sizeof(err));
		break;
	case SERVE_OPT_REGISTER:
		opts.register_sa = true;
		break;
	case SERVE_OPT_PKEY:
		opts.has_pkey = true;
		rc = pkey_parse_partition(arg, &opts.pkey, err, sizeof(err));
		break;
	}
	return rc ? cli_usage_error("%s", err) : 0;
}

/* Why a received packet got no reply. */
enum drop_reason {
	DROP_TRUNCATED, DROP_BAD_MAGIC, DROP_BAD_VERSION, DROP_BAD_KIND,
	DROP_BAD_LENGTH, DROP_NOT_REQUEST, DROP_RECV_ERROR, DROP_REVERSE_AH,
	DROP_RATE_LIMIT, DROP_SEND_FAILED, DROP_COUNT,
};

static const char *const drop_names[DROP_COUNT] = {
	[DROP_TRUNCATED] = "truncated", [DROP_BAD_MAGIC] = "bad_magic",
	[DROP_BAD_VERSION] = "bad_version", [DROP_BAD_KIND] = "bad_kind",
	[DROP_BAD_LENGTH] = "bad_length", [DROP_NOT_REQUEST] = "not_request",
	[DROP_RECV_ERROR] = "recv_error", [DROP_REVERSE_AH] = "reverse_ah",
	[DROP_RATE_LIMIT] = "rate_limited", [DROP_SEND_FAILED] = "send_failed",
};

struct server {
	struct ud_endpoint ep;
	struct ah_cache ahs;
	const struct port_info *port;
	struct responder_info info;
	int listen_fd;
	struct responder_registration reg;
	uint64_t answered;
	uint64_t dropped[DROP_COUNT];
	/* Token bucket for the reply rate cap. */
	double tokens;
	uint64_t last_refill_ns;
};

/* The signal that asked us to stop (0: none), named in the summary. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	stop_requested = sig;
}

static bool take_token(struct server *s)
{
	uint64_t now = monotonic_ns();

	s->tokens += (double)(now - s->last_refill_ns) * opts.max_rate / 1e9;
	if (s->tokens > opts.max_rate / 10.0 + 1)
		s->tokens = opts.max_rate / 10.0 + 1;	/* 100 ms burst */
	s->last_refill_ns = now;
	if (s->tokens < 1)
		return false;
	s->tokens -= 1;
	return true;
}

static enum drop_reason drop_for(enum probe_decode_error err)
{
	switch (err) {
	case PROBE_ERR_MAGIC: return DROP_BAD_MAGIC;
	case PROBE_ERR_VERSION: return DROP_BAD_VERSION;
	case PROBE_ERR_KIND: return DROP_BAD_KIND;
	case PROBE_ERR_LENGTH: return DROP_BAD_LENGTH;
	default: return DROP_TRUNCATED;
	}
}

/* Fills what the responder observed from the GRH area and the wc. */
static void observe(const struct ibv_wc *wc, const uint8_t *grh_area,
		    struct probe_observed *o)
{
	struct grh_fields grh;
	char err[DIAG_MSG_MAX];

	memset(o, 0, sizeof(*o));
	o->slid = wc->slid;
	o->sl = wc->sl;
	o->dlid_path_bits = wc->dlid_path_bits;
	o->pkey_index = wc->pkey_index;
	o->src_qp = wc->src_qp;
	o->wc_flags = wc->wc_flags;
	if (grh_decode(grh_area, wc->wc_flags & IBV_WC_GRH, GRH_HINT_AUTO,
		       &grh, err, sizeof(err)) != 0) {
		diag_verbose(1, "undecodable GRH from qp 0x%x: %s", wc->src_qp,
			     err);
		return;
	}
	if (!grh.present)
		return;
	o->grh_present = true;
	o->grh_ipv4 = grh.form == GRH_FORM_IPV4;
	o->ip_version = grh.ip_version;
	o->traffic_class = grh.traffic_class;
	o->hop_limit = grh.hop_limit;
	o->flow_label = grh.flow_label;
	o->sgid = grh.sgid;
	o->dgid = grh.dgid;
}

static void answer(struct server *s, const struct ibv_wc *wc, uint8_t *buf)
{
	const uint8_t *payload = buf + UD_GRH_BYTES;
	struct probe_reply reply = { 0 };
	uint8_t out[PROBE_REPLY_SIZE];
	enum probe_decode_error derr;
	struct ibv_ah *ah;
	int rc, error = 0;

	if (wc->status != IBV_WC_SUCCESS) {
		s->dropped[DROP_RECV_ERROR]++;
		return;
	}
	if (wc->byte_len < UD_GRH_BYTES) {
		s->dropped[DROP_TRUNCATED]++;
		return;
	}
	derr = probe_decode_header(payload, wc->byte_len - UD_GRH_BYTES,
				   &reply.header);
	if (derr != PROBE_OK) {
		s->dropped[drop_for(derr)]++;
		return;
	}
	if (reply.header.kind != PROBE_REQUEST) {
		s->dropped[DROP_NOT_REQUEST]++;
		return;
	}
	if (!take_token(s)) {
		s->dropped[DROP_RATE_LIMIT]++;
		return;
	}
	observe(wc, buf, &reply.observed);
	/* The reverse path as the verbs library builds it; its hop limit is
	 * the received, already decremented one. */
	rc = ibv_init_ah_from_wc(s->ep.context, s->port->port_num,
				 (struct ibv_wc *)wc, (struct ibv_grh *)buf,
				 &reply.reverse_ah);
	if (rc) {
		reply.reverse_errno = errno ? errno : EINVAL;
		s->dropped[DROP_REVERSE_AH]++;
		diag_verbose(1, "no reverse AH for qp 0x%x: %s", wc->src_qp,
			     strerror(reply.reverse_errno));
		return;
	}
	ah = ah_cache_get(&s->ahs, &s->ep, &reply.reverse_ah, &error);
	if (!ah) {
		s->dropped[DROP_REVERSE_AH]++;
		diag_verbose(1, "cannot create the reverse AH for qp 0x%x: %s",
			     wc->src_qp, strerror(error));
		return;
	}
	reply.reverse_created = true;
	reply.responder_time_ns = monotonic_ns();
	probe_encode_reply(&reply, out);
	rc = ud_send(&s->ep, ah, wc->src_qp, opts.qkey, out, sizeof(out));
	if (rc) {
		s->dropped[DROP_SEND_FAILED]++;
		return;
	}
	ah_cache_note_send(&s->ahs, ah, &s->ep);
	s->answered++;
	diag_verbose(2, "answered seq %u from qp 0x%x", reply.header.sequence,
		     wc->src_qp);
}

static void handle_completions(struct server *s)
{
	struct ibv_wc wcs[SERVE_POLL_BATCH];
	int n;

	while ((n = ud_poll(&s->ep, wcs, SERVE_POLL_BATCH, 0)) > 0) {
		for (int i = 0; i < n; i++) {
			if (!ud_wc_is_recv(&wcs[i]))
				continue;
			answer(s, &wcs[i], ud_recv_buffer(&s->ep, &wcs[i]));
			ud_repost_recv(&s->ep, &wcs[i]);
		}
		if (opts.count && s->answered >= opts.count)
			return;
	}
}

static void fill_info(struct server *s, const char *device)
{
	struct responder_info *info = &s->info;

	memset(info, 0, sizeof(*info));
	info->version = 1;
	snprintf(info->device, sizeof(info->device), "%s", device);
	info->port_num = s->port->port_num;
	info->lid = s->port->lid;
	info->qpn = s->ep.qp->qp_num;
	info->qkey = opts.qkey;
	snprintf(info->link_layer, sizeof(info->link_layer), "%s",
		 link_layer_name(s->port->link_layer));
	for (size_t i = 0;
	     i < s->port->gid_count && info->gid_count < RENDEZVOUS_MAX_GIDS;
	     i++) {
		info->gids[info->gid_count].index = s->port->gids[i].index;
		info->gids[info->gid_count].gid = s->port->gids[i].gid;
		snprintf(info->gids[info->gid_count].type,
			 sizeof(info->gids[0].type), "%s",
			 gid_kind_name(s->port->gids[i].kind));
		info->gid_count++;
	}
}

static void print_ready(const struct server *s, const char *bound)
{
	const struct responder_info *info = &s->info;
	char gid[GID_TEXT_MAX];

	out_open_object(NULL);
	out_string("event", "%s:", "ready");
	out_string("device", " device %s", info->device);
	out_uint("port_num", " port %u", info->port_num);
	out_uint("lid", " lid %u", info->lid);
	out_uint("qpn", " qpn %u", info->qpn);
	out_uint("qkey", " qkey 0x%08x", info->qkey);
	out_string("link_layer", " link_layer %s", info->link_layer);
	if (bound)
		out_string("rendezvous", " rendezvous %s", bound);
	else
		out_null("rendezvous", " rendezvous %s");
	out_bool("registered", " registered %s", s->reg.registered);
	out_open_array("gids");
	for (size_t i = 0; i < info->gid_count; i++) {
		out_open_object(NULL);
		out_uint("index", "\n  gid %u", info->gids[i].index);
		out_string("gid", " %s",
			   gid_format(&info->gids[i].gid, gid, sizeof(gid)));
		out_string("type", " %s", info->gids[i].type);
		out_close_object();
	}
	out_close_array();
	out_newline();
	out_close_object();
	out_flush_record();
}

static void print_summary(const struct server *s, const char *why)
{
	uint64_t dropped = 0;

	for (int i = 0; i < DROP_COUNT; i++)
		dropped += s->dropped[i];
	out_open_object(NULL);
	out_string("event", "%s:", "summary");
	out_string("stopped_by", " stopped by %s", why);
	out_uint("answered", ", answered %llu", s->answered);
	out_uint("dropped_total", ", dropped %llu", dropped);
	out_uint("reverse_ahs_created", ", reverse AHs created %llu",
		 s->ahs.created);
	out_open_object("dropped");
	for (int i = 0; i < DROP_COUNT; i++)
		if (s->dropped[i] || out_is_json())
			out_uint(drop_names[i], i == 0 ? " (%llu" : " %llu",
				 s->dropped[i]);
	out_close_object();
	out_newline();
	out_close_object();
	out_flush_record();
}

/* The SA record lives as long as its lease: renew it in time; say once
 * when renewing starts failing, and when it works again. */
static void renew_registration(struct server *s)
{
	char err[DIAG_MSG_MAX * 3];
	int rc = registration_renew_if_due(&s->reg, monotonic_ns(), err,
					   sizeof(err));

	if (rc < 0 && s->reg.renew_failures == 1)
		diag_warn("%s; retrying every second (the record lapses %u s "
			  "after the last renewal)", err,
			  s->reg.responder.lease);
	else if (rc > 0 && s->reg.recovered_after)
		diag_warn("registered with the SA again, after %u failed "
			  "renewals", s->reg.recovered_after);
}

/* Registers the QP, once it is up; the rendezvous port goes along so
 * probers that find us in the SA can also use it. */
static int register_responder(struct server *s, const char *bound,
			      uint32_t timeout_ms)
{
	struct responder_record *r = &s->reg.responder;
	const char *colon = strrchr(bound, ':');
	char err[DIAG_MSG_MAX * 3];

	if (registration_open(&s->reg, s->info.device, s->info.port_num,
			      timeout_ms, err, sizeof(err)) != SA_CLIENT_OK)
		return cli_fail(EXIT_ENVIRONMENT, "--register: %s", err);
	r->qpn = s->info.qpn;
	r->qkey = s->info.qkey;
	if (s->listen_fd >= 0 && colon)
		r->rendezvous_port = (uint16_t)strtoul(colon + 1, NULL, 10);
	if (gethostname(r->host, sizeof(r->host) - 1))
		r->host[0] = '\0';
	if (registration_set(&s->reg, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	return 0;
}

/* Removes the record at exit; a failure only leaves it to its lease. */
static void unregister_responder(struct server *s)
{
	char err[DIAG_MSG_MAX * 3];
	int rc;

	if (!s->reg.registered)
		return;
	rc = registration_delete(&s->reg, err, sizeof(err));
	if (rc < 0)
		diag_warn("%s", err);
	else if (rc > 0)
		diag_verbose(1, "the SA had no record to delete: its lease "
			     "ran out");
}

static int serve_loop(struct server *s, const char **why)
{
	uint64_t end_ns = opts.duration_s
				  ? monotonic_ns() + opts.duration_s * 1000000000ull
				  : 0;

	for (;;) {
		struct pollfd fds[2] = {
			{ .fd = ud_event_fd(&s->ep), .events = POLLIN },
			{ .fd = s->listen_fd, .events = POLLIN },
		};
		int timeout = 1000, n;

		if (stop_requested) {
			*why = stop_requested == SIGINT ? "SIGINT" : "SIGTERM";
			return 0;
		}
		if (opts.count && s->answered >= opts.count) {
			*why = "count";
			return 0;
		}
		if (end_ns) {
			uint64_t now = monotonic_ns();

			if (now >= end_ns) {
				*why = "duration";
				return 0;
			}
			if ((end_ns - now) / 1000000 < (uint64_t)timeout)
				timeout = (int)((end_ns - now) / 1000000) + 1;
		}
		renew_registration(s);
		if (ud_arm(&s->ep))
			return -1;
		handle_completions(s);
		if (opts.count && s->answered >= opts.count)
			continue;
		n = poll(fds, s->listen_fd >= 0 ? 2 : 1, timeout);
		if (n < 0 && errno != EINTR)
			return -1;
		if (n <= 0)
			continue;
		if (fds[0].revents & POLLIN)
			ud_consume_event(&s->ep);
		if (s->listen_fd >= 0 && (fds[1].revents & POLLIN))
			rendezvous_answer(s->listen_fd, &s->info);
	}
}

static int serve_run(const struct common_opts *common, int argc, char **argv)
{
	struct device_list devices;
	const struct device_info *dev;
	struct server s = { .listen_fd = -1 };
	struct ud_config config = {
		.recv_depth = SERVE_RECV_DEPTH,
		.send_depth = SERVE_SEND_DEPTH,
		.max_payload = PROBE_MAX_SIZE,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	char err[DIAG_MSG_MAX], bound[128] = "";
	const char *why = "?";
	int rc;

	(void)argv;
	if (argc > 0)
		return cli_usage_error("serve takes no arguments");
	if (opts.no_listen && opts.listen)
		return cli_usage_error("--listen and --no-listen contradict "
				       "each other");
	if (common->json)
		out_init(OUT_JSONL, false);
	if (device_discover(&devices, common->device, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	s.port = device_pick_port(&devices, common->device, common->port, &dev,
				  err, sizeof(err));
	if (!s.port) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out_devices;
	}
	if (dev->source != DEVICE_FROM_VERBS) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s is visible through umad "
			      "only: serve needs a verbs device", dev->name);
		goto out_devices;
	}
	if (opts.register_sa && s.port->link_layer == LINK_LAYER_ETHERNET) {
		rc = cli_fail(EXIT_ENVIRONMENT, "--register needs an InfiniBand "
			      "port: %s port %u is RoCE, which has no SA; "
			      "probers find this responder through the "
			      "rendezvous instead", dev->name,
			      s.port->port_num);
		goto out_devices;
	}
	config.device = dev->name;
	config.port_num = s.port->port_num;
	config.qkey = opts.qkey;
	if (opts.has_pkey) {
		struct pkey_table pkeys;
		int index = -1;

		if (pkey_table_read(dev, s.port->port_num, &pkeys, err,
				    sizeof(err)) == 0 &&
		    (index = pkey_table_find(&pkeys, opts.pkey)) < 0)
			snprintf(err, sizeof(err), "%s port %u is not a member "
				 "of partition 0x%04x (--pkey)", dev->name,
				 s.port->port_num, opts.pkey);
		if (index < 0) {
			rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
			goto out_devices;
		}
		config.pkey_index = (uint16_t)index;
	}
	if (ud_endpoint_open(&s.ep, &config, err, sizeof(err))) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out_devices;
	}
	if (ah_cache_init(&s.ahs, SERVE_AH_CACHE)) {
		rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
		goto out_endpoint;
	}
	if (!opts.no_listen) {
		s.listen_fd = rendezvous_listen(opts.listen, bound,
						sizeof(bound), err,
						sizeof(err));
		if (s.listen_fd < 0) {
			rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
			goto out_cache;
		}
	}
	fill_info(&s, dev->name);
	/* Before registering: a signal meanwhile ends the loop at once, and
	 * the record is still deleted. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (opts.register_sa) {
		rc = register_responder(&s, bound, common->timeout_ms);
		if (rc)
			goto out_listen;
	}
	s.last_refill_ns = monotonic_ns();
	s.tokens = 1;
	print_ready(&s, s.listen_fd >= 0 ? bound : NULL);
	rc = serve_loop(&s, &why);
	if (rc)
		why = "error";
	unregister_responder(&s);
	print_summary(&s, why);
	rc = rc ? cli_fail(EXIT_ENVIRONMENT, "waiting for completions "
			   "failed: %s", strerror(errno))
		: EXIT_FINE;
out_listen:
	registration_close(&s.reg);
	if (s.listen_fd >= 0)
		close(s.listen_fd);
out_cache:
	ah_cache_destroy(&s.ahs, &s.ep);
out_endpoint:
	ud_endpoint_close(&s.ep);
out_devices:
	device_list_free(&devices);
	return rc;
}

const struct command cmd_serve = {
	.name = "serve",
	.summary = "UD responder: echo probes with what was observed, over "
		   "the reverse path",
	.options = serve_options,
	.option = serve_option,
	.run = serve_run,
};
