/* ibahprobe serve: the UD responder. It echoes each valid probe with what
 * it observed (decoded GRH, work completion) over the reverse path it
 * builds from the completion (ibv_init_ah_from_wc), and answers
 * rendezvous queries on TCP with its QPN, Q_Key, LID and GIDs. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "peer/ah_worker.h"
#include "cli.h"
#include "verbs/device.h"
#include "base/diag.h"
#include "base/gid.h"
#include "wire/grh.h"
#include "base/monotonic.h"
#include "out/output.h"
#include "base/parallel.h"
#include "base/parse.h"
#include "base/pidfile.h"
#include "verbs/pkey_table.h"
#include "wire/probe_wire.h"
#include "peer/rendezvous.h"
#include "peer/rendezvous_server.h"
#include "peer/request_counts.h"
#include "peer/responder_print.h"
#include "verbs/provider.h"
#include "sa/responder_discovery.h"
#include "peer/reverse_cache.h"
#include "verbs/ud_endpoint.h"
#include "verbs/wc_failure.h"

enum serve_option {
	SERVE_OPT_QKEY, SERVE_OPT_LISTEN, SERVE_OPT_NO_LISTEN, SERVE_OPT_COUNT,
	SERVE_OPT_DURATION, SERVE_OPT_MAX_RATE, SERVE_OPT_REGISTER,
	SERVE_OPT_PKEY, SERVE_OPT_PIDFILE, SERVE_OPT_END,
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
	[SERVE_OPT_END] = OPT_END,
};

#define SERVE_DEFAULT_MAX_RATE 20000
#define SERVE_RECV_DEPTH 256
#define SERVE_SEND_DEPTH 128
/* Larger than SERVE_SEND_DEPTH: some entry always has no send in flight
 * and can be evicted. */
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
	const char *pidfile;
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
	case SERVE_OPT_PIDFILE:
		opts.pidfile = arg;
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

/* Why a received packet got no reply. */
enum drop_reason {
	DROP_TRUNCATED, DROP_BAD_MAGIC, DROP_BAD_VERSION, DROP_BAD_KIND,
	DROP_BAD_LENGTH, DROP_NOT_REQUEST, DROP_RECV_ERROR, DROP_REVERSE_AH,
	DROP_REVERSE_BUSY, DROP_BAD_GRH, DROP_RATE_LIMIT, DROP_SEND_FAILED,
	DROP_COUNT,
};

static const char *const drop_names[DROP_COUNT] = {
	[DROP_TRUNCATED] = "truncated", [DROP_BAD_MAGIC] = "bad_magic",
	[DROP_BAD_VERSION] = "bad_version", [DROP_BAD_KIND] = "bad_kind",
	[DROP_BAD_LENGTH] = "bad_length", [DROP_NOT_REQUEST] = "not_request",
	[DROP_RECV_ERROR] = "recv_error", [DROP_REVERSE_AH] = "reverse_ah",
	[DROP_REVERSE_BUSY] = "reverse_ah_busy", [DROP_BAD_GRH] = "bad_grh",
	[DROP_RATE_LIMIT] = "rate_limited", [DROP_SEND_FAILED] = "send_failed",
};

struct server {
	struct ud_endpoint ep;
	enum provider provider;	/* whose hop limit our replies leave with */
	/* Requests received and answered per prober set, for the count in
	 * each reply and the rendezvous' count question. */
	struct request_counts counts;
	struct rendezvous_server rendezvous;
	struct reverse_cache reverse;
	struct ah_workers workers;
	uint32_t epoch;		/* bumped when cached reply AHs are dropped */
	uint16_t pkey_index;	/* the QP's partition (--pkey) */
	/* Dropped AHs whose sends are still in flight: destroyed once they
	 * complete, so a port event never blocks the loop on a drain. */
	struct reverse_retired retired[SERVE_AH_CACHE];
	size_t retired_count;
	struct device_list devices;
	const struct device_info *dev;
	const struct port_info *port;
	/* The port's GIDs, as the GRH decoder compares them. */
	union ibv_gid *local_gids;
	size_t local_gid_count;
	struct responder_info info;
	int listen_fd;
	struct responder_registration reg;
	/* SA lease renewal runs in its own thread: an SA that does not
	 * answer must not delay replies. */
	pthread_t renewer;
	bool renewer_running;
	atomic_bool renewer_stop, reregister;
	bool registered;	/* the main thread's copy, for print_ready */
	/* The port's LID and GID after an event, for the renewer to put in
	 * the record (it owns s->reg). */
	pthread_mutex_t reg_lock;
	bool reg_update;
	uint16_t new_lid;
	union ibv_gid new_gid;
	uint64_t answered;
	uint64_t dropped[DROP_COUNT];
	uint64_t repost_failed, send_errors, async_events;
	char fatal[DIAG_MSG_MAX * 2];	/* set: stop, exit 3 */
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

/* Fills what the responder observed from the decoded GRH and the wc. */
static void observe(const struct server *s, const struct ibv_wc *wc,
		    const struct grh_fields *grh, struct probe_observed *o)
{
	memset(o, 0, sizeof(*o));
	o->slid = wc->slid;
	/* On RoCE wc.sl is no SL (provider_wc_sl_is_sl): say unknown. */
	o->sl_valid = provider_wc_sl_is_sl(s->port->link_layer);
	o->sl = o->sl_valid ? wc->sl : 0;
	o->dlid_path_bits = wc->dlid_path_bits;
	o->pkey_index = wc->pkey_index;
	o->src_qp = wc->src_qp;
	o->wc_flags = wc->wc_flags;
	if (!grh->present)
		return;
	o->grh_present = true;
	o->grh_ipv4 = grh->form == GRH_FORM_IPV4;
	o->ip_version = grh->ip_version;
	o->traffic_class = grh->traffic_class;
	o->hop_limit = grh->hop_limit;
	o->flow_label = grh->flow_label;
	o->sgid = grh->sgid;
	o->dgid = grh->dgid;
}

static void send_reply(struct server *s, struct reverse_entry *e,
		       struct probe_reply *reply, uint32_t remote_qpn)
{
	uint8_t out[PROBE_REPLY_SIZE];
	struct request_set_key key;

	reply->reverse_ah = e->attr;
	reply->reverse_created = true;
	reply->reverse_errno = 0;
	reply->hop_limit_sent_known = e->hop_limit_sent_known;
	reply->hop_limit_sent = e->hop_limit_sent;
	probe_encode_reply(reply, out);
	if (ud_send(&s->ep, e->ah, remote_qpn, opts.qkey, out, sizeof(out))) {
		s->dropped[DROP_SEND_FAILED]++;
		return;
	}
	e->last_send = s->ep.sends_posted;
	s->answered++;
	request_set_key_of(reply, s->port->link_layer == LINK_LAYER_IB, &key);
	request_counts_note_answer(&s->counts, &key);
	diag_verbose(2, "answered seq %u from qp 0x%x",
		     reply->header.sequence, remote_qpn);
}

/* Which of our GIDs the probe reached: the reply leaves from it, so its
 * netdev binds the route lookup (rxe asks with that oif) and its type
 * decides the RoCE v1 exception of provider_hop_limit_rule. */
static void reached_gid(const struct server *s, const struct probe_observed *o,
			struct ah_job *job)
{
	job->sgid_roce_v1 = false;
	job->netdev[0] = '\0';
	if (!o->grh_present)
		return;
	for (size_t i = 0; i < s->port->gid_count; i++) {
		const struct gid_info *g = &s->port->gids[i];

		if (memcmp(g->gid.raw, o->dgid.raw, 16) == 0) {
			job->sgid_roce_v1 = g->kind == GID_KIND_ROCE_V1;
			snprintf(job->netdev, sizeof(job->netdev), "%s",
				 g->netdev);
			return;
		}
	}
}

/* Hands a PENDING entry's AH to a worker; the reply waits parked. */
static void submit_reverse(struct server *s, struct reverse_entry *e,
			   const struct ibv_wc *wc, const uint8_t *grh_area,
			   struct probe_reply *reply)
{
	struct ah_job job = { 0 };

	job.slot = reverse_cache_index(&s->reverse, e);
	job.generation = e->generation;
	job.epoch = s->epoch;
	job.wc = *wc;
	memcpy(job.grh, grh_area, GRH_BYTES);
	job.asked_sl = reply->header.asked.sl;
	job.provider = s->provider;
	reached_gid(s, &reply->observed, &job);
	if (ah_workers_submit(&s->workers, &job)) {
		reverse_entry_forget(e);
		s->dropped[DROP_REVERSE_BUSY]++;
		return;
	}
	reverse_entry_park(e, reply, wc->src_qp);
}

/* A new sender: a slot for its reply AH. */
static void start_reverse(struct server *s, const struct reverse_key *key,
			  const struct ibv_wc *wc, const uint8_t *grh_area,
			  struct probe_reply *reply)
{
	struct ibv_ah *evicted;
	struct reverse_entry *e;

	e = reverse_cache_claim(&s->reverse, key, s->ep.sends_completed,
				&evicted);
	if (evicted)
		ibv_destroy_ah(evicted);
	if (!e) {
		s->dropped[DROP_REVERSE_BUSY]++;
		return;
	}
	submit_reverse(s, e, wc, grh_area, reply);
}

static void answer(struct server *s, const struct ibv_wc *wc, uint8_t *buf)
{
	const uint8_t *payload = buf + UD_GRH_BYTES;
	struct probe_reply reply = { 0 };
	enum probe_decode_error derr;
	struct grh_local_gids local = { s->local_gids, s->local_gid_count };
	struct grh_fields grh;
	struct reverse_key key;
	struct request_set_key set_key;
	struct reverse_entry *e;
	char err[DIAG_MSG_MAX];

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
	/* A GRH we cannot read gives no key that tells its sender from
	 * others: sharing a reply AH would answer the wrong host. */
	if (grh_decode_local(buf, wc->wc_flags & IBV_WC_GRH, &local, &grh, err,
			     sizeof(err))) {
		diag_verbose(1, "undecodable GRH from qp 0x%x: %s", wc->src_qp,
			     err);
		s->dropped[DROP_BAD_GRH]++;
		return;
	}
	observe(s, wc, &grh, &reply.observed);
	reply.responder_time_ns = monotonic_ns();
	/* Counted before the rate limit: a request that arrived was not
	 * lost on the way there, answered or not. */
	request_set_key_of(&reply, s->port->link_layer == LINK_LAYER_IB,
			   &set_key);
	reply.responder_received =
		request_counts_note(&s->counts, &set_key,
				    reply.responder_time_ns)->received;
	if (!take_token(s)) {
		s->dropped[DROP_RATE_LIMIT]++;
		return;
	}
	/* The reply AH is looked up by what arrived, before any verbs call:
	 * ibv_init_ah_from_wc scans the GID table, and ibv_create_ah may
	 * wait for a neighbour; neither belongs in every round trip. */
	reverse_key_build(wc, &grh, s->port->link_layer,
			  reply.header.asked.sl, &key);
	e = reverse_cache_find(&s->reverse, &key);
	if (!e) {
		start_reverse(s, &key, wc, buf, &reply);
		return;
	}
	switch (e->state) {
	case REVERSE_READY:
		send_reply(s, e, &reply, wc->src_qp);
		break;
	case REVERSE_PENDING:
		if (!reverse_entry_park(e, &reply, wc->src_qp))
			s->dropped[DROP_REVERSE_BUSY]++;
		break;
	default:
		/* Failed a moment ago: tried again once its back-off is
		 * over, by a worker, so a sender that stays unreachable
		 * costs nobody else anything. */
		if (reverse_entry_due(e, reply.responder_time_ns)) {
			reverse_entry_retry(e);
			submit_reverse(s, e, wc, buf, &reply);
		} else {
			s->dropped[DROP_REVERSE_AH]++;
		}
		break;
	}
}

static void say_reverse_failure(const struct ah_job *job,
				unsigned failures)
{
	char gid[GID_TEXT_MAX];

	if (job->attr.is_global)
		gid_format(&job->attr.grh.dgid, gid, sizeof(gid));
	else
		snprintf(gid, sizeof(gid), "lid %u", job->wc.slid);
	diag_verbose(1, "no reverse AH to %s (qp 0x%x): %s%s; tried again "
		     "in %llu ms", gid, job->wc.src_qp,
		     job->init_failed ? "ibv_init_ah_from_wc: " : "",
		     job->error ? strerror(job->error)
				: "the driver gave no reason",
		     (unsigned long long)(reverse_backoff_ns(failures) /
					  1000000));
}

/* A first failure with replies waiting is tried once more at once: on a
 * first contact the neighbour often answers just after the kernel gave
 * up on it (ARP/ND), and the replies parked meanwhile can still go. */
static bool retry_at_once(struct server *s, struct reverse_entry *e,
			  struct ah_job *job)
{
	if (e->failures != 1 || e->parked_count == 0)
		return false;
	reverse_entry_retry(e);
	job->generation = e->generation;
	job->ah = NULL;
	job->error = 0;
	job->init_failed = false;
	if (ah_workers_submit(&s->workers, job) == 0)
		return true;
	reverse_entry_failed(e, EAGAIN, false, monotonic_ns());
	return false;
}

/* Results of the AH workers: send what was parked, or remember the
 * failure for its back-off. */
static void take_reverse_results(struct server *s)
{
	struct ah_job jobs[16];
	size_t n;

	while ((n = ah_workers_take(&s->workers, jobs, 16)) > 0) {
		for (size_t i = 0; i < n; i++) {
			struct ah_job *job = &jobs[i];
			struct reverse_entry *e = reverse_cache_pending(
				&s->reverse, job->slot, job->generation);
			uint64_t now = monotonic_ns();

			if (!e || job->epoch != s->epoch) {
				/* The port changed meanwhile: the AH may
				 * point the old way. */
				if (job->ah)
					ibv_destroy_ah(job->ah);
				if (e) {
					s->dropped[DROP_REVERSE_AH] +=
						e->parked_count;
					reverse_entry_forget(e);
				}
				continue;
			}
			if (!job->ah) {
				s->reverse.failed++;
				reverse_entry_failed(e, job->error,
						     job->init_failed, now);
				say_reverse_failure(job, e->failures);
				if (retry_at_once(s, e, job))
					continue;
				s->dropped[DROP_REVERSE_AH] += e->parked_count;
				e->parked_count = 0;
				continue;
			}
			s->reverse.created++;
			reverse_entry_ready(e, job->ah, &job->attr);
			e->hop_limit_sent_known = job->hop_limit_sent_known;
			e->hop_limit_sent = job->hop_limit_sent;
			for (unsigned k = 0; k < e->parked_count; k++)
				send_reply(s, e, &e->parked[k].reply,
					   e->parked[k].remote_qpn);
			e->parked_count = 0;
		}
	}
}

/* A failed completion: counted while the QP works, the end of serve when
 * it does not (wc_failure_judge). */
static void completion_failed(struct server *s, const struct ibv_wc *wc)
{
	enum ibv_qp_state state = IBV_QPS_ERR;
	bool known = ud_qp_state(&s->ep, &state);
	bool recv = ud_wc_is_recv(wc);

	if (wc_failure_judge(wc->status, recv, known, state) ==
	    WC_FAILURE_FATAL) {
		if (!s->fatal[0])
			wc_failure_describe(wc->status, recv, known, state,
					    s->dev->name, s->fatal,
					    sizeof(s->fatal));
		return;
	}
	if (recv)
		s->dropped[DROP_RECV_ERROR]++;
	else
		s->send_errors++;
}

static void handle_completions(struct server *s)
{
	struct ibv_wc wcs[SERVE_POLL_BATCH];
	int n;

	while (!s->fatal[0] &&
	       (n = ud_poll(&s->ep, wcs, SERVE_POLL_BATCH, 0)) > 0) {
		for (int i = 0; i < n; i++) {
			if (wcs[i].status != IBV_WC_SUCCESS) {
				completion_failed(s, &wcs[i]);
				if (s->fatal[0])
					return;
			} else if (ud_wc_is_recv(&wcs[i])) {
				answer(s, &wcs[i],
				       ud_recv_buffer(&s->ep, &wcs[i]));
			}
			if (ud_wc_is_recv(&wcs[i]) &&
			    ud_repost_recv(&s->ep, &wcs[i]))
				s->repost_failed++;
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
	info->active_mtu = s->port->active_mtu;
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
	out_bool("registered", " registered %s", s->registered);
	if (opts.pidfile)
		out_string("pidfile", " pidfile %s", opts.pidfile);
	else
		out_null("pidfile", NULL);
	responder_gids_print(info, false);
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
		 s->reverse.created);
	out_uint("reverse_ahs_failed", s->reverse.failed ? ", failed %llu"
							 : NULL,
		 s->reverse.failed);
	out_uint("repost_failed", s->repost_failed ? ", receive reposts "
			 "failed %llu" : NULL, s->repost_failed);
	out_uint("send_errors", s->send_errors ? ", send errors %llu" : NULL,
		 s->send_errors);
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

/* A LID or GID change reaches the record: a new GID is a new record (the
 * old one is deleted, or lapses), a new LID a new Set of the same one. */
static void take_port_change(struct server *s)
{
	char err[DIAG_MSG_MAX * 3];
	union ibv_gid gid;
	uint16_t lid;
	bool update;

	pthread_mutex_lock(&s->reg_lock);
	update = s->reg_update;
	s->reg_update = false;
	gid = s->new_gid;
	lid = s->new_lid;
	pthread_mutex_unlock(&s->reg_lock);
	if (!update || (lid == s->reg.responder.lid &&
			memcmp(gid.raw, s->reg.responder.gid.raw, 16) == 0))
		return;
	if (memcmp(gid.raw, s->reg.responder.gid.raw, 16) != 0 &&
	    registration_delete(&s->reg, err, sizeof(err)) < 0)
		diag_warn("%s", err);
	s->reg.responder.gid = gid;
	s->reg.responder.lid = lid;
	s->reg.renew_at_ns = 1;
	diag_warn("the port's LID or GID changed: registering the record "
		  "again (LID %u)", lid);
}

/* The SA record lives as long as its lease: renew it in time; say once
 * when renewing starts failing, and when it works again. */
static void renew_registration(struct server *s)
{
	char err[DIAG_MSG_MAX * 3];
	int rc;

	take_port_change(s);
	/* A client reregister event: the SM lost its records (restart,
	 * failover) and asks us to register again now. */
	if (atomic_exchange(&s->reregister, false))
		s->reg.renew_at_ns = 1;
	rc = registration_renew_if_due(&s->reg, monotonic_ns(), err,
				       sizeof(err));
	if (rc < 0 && s->reg.renew_failures == 1)
		diag_warn("%s; retrying every second (the record lapses %u s "
			  "after the last renewal)", err,
			  s->reg.responder.lease);
	else if (rc > 0 && s->reg.recovered_after)
		diag_warn("registered with the SA again, after %u failed "
			  "renewals", s->reg.recovered_after);
}

static void *renewer_main(void *arg)
{
	struct server *s = arg;

	while (!atomic_load(&s->renewer_stop)) {
		renew_registration(s);
		/* Short naps: stopping must not wait for a whole second. */
		for (int i = 0; i < 10 && !atomic_load(&s->renewer_stop) &&
				!atomic_load(&s->reregister);
		     i++)
			usleep(100000);
	}
	return NULL;
}

static void stop_renewer(struct server *s)
{
	if (!s->renewer_running)
		return;
	atomic_store(&s->renewer_stop, true);
	pthread_join(s->renewer, NULL);
	s->renewer_running = false;
}

/* Registers the QP, once it is up; the rendezvous port goes along so
 * probers that find us in the SA can also use it. */
static int register_responder(struct server *s, const char *bound,
			      uint32_t timeout_ms)
{
	struct responder_record *r = &s->reg.responder;
	const char *colon = strrchr(bound, ':');
	char err[DIAG_MSG_MAX * 3];
	int rc;

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
	s->registered = true;
	rc = thread_start_signal_free(&s->renewer, renewer_main, s);
	if (rc)
		return cli_fail(EXIT_ENVIRONMENT, "cannot start the lease "
				"renewal thread: %s", strerror(rc));
	s->renewer_running = true;
	return 0;
}

/* Removes the record at exit; a failure only leaves it to its lease. */
static void unregister_responder(struct server *s)
{
	char err[DIAG_MSG_MAX * 3];
	int rc;

	stop_renewer(s);
	if (!s->reg.registered)
		return;
	rc = registration_delete(&s->reg, err, sizeof(err));
	if (rc < 0)
		diag_warn("%s", err);
	else if (rc > 0)
		diag_verbose(1, "the SA had no record to delete: its lease "
			     "ran out");
}

static int load_local_gids(struct server *s)
{
	union ibv_gid *gids = calloc(s->port->gid_count + 1, sizeof(*gids));

	if (!gids)
		return -1;
	for (size_t i = 0; i < s->port->gid_count; i++)
		gids[i] = s->port->gids[i].gid;
	free(s->local_gids);
	s->local_gids = gids;
	s->local_gid_count = s->port->gid_count;
	return 0;
}

/* The port's facts again (GIDs, LID, state) after an event changed them;
 * the old ones stay when the query fails. */
static void reload_port(struct server *s)
{
	struct device_list fresh;
	const struct device_info *dev;
	const struct port_info *port;
	char err[DIAG_MSG_MAX];

	if (device_discover(&fresh, s->dev->name, err, sizeof(err))) {
		diag_warn("cannot read %s again: %s", s->dev->name, err);
		return;
	}
	port = device_pick_port(&fresh, s->dev->name, s->port->port_num, &dev,
				NULL, 0, err, sizeof(err));
	if (!port) {
		/* A down port is no ACTIVE port: keep the old facts. */
		device_list_free(&fresh);
		return;
	}
	device_list_free(&s->devices);
	s->devices = fresh;
	s->dev = dev;
	s->port = port;
	if (load_local_gids(s))
		diag_warn("out of memory reading the GID table");
	fill_info(s, dev->name);
}

static void reap_retired(struct server *s)
{
	size_t kept = 0;

	for (size_t i = 0; i < s->retired_count; i++) {
		if (s->retired[i].last_send <= s->ep.sends_completed)
			ibv_destroy_ah(s->retired[i].ah);
		else
			s->retired[kept++] = s->retired[i];
	}
	s->retired_count = kept;
}

/* Reply AHs made before a port or GID change may point the wrong way:
 * take them out of the cache (those being made are discarded when they
 * come back, by the epoch), and destroy each once its sends completed. */
static void drop_reverse_ahs(struct server *s)
{
	size_t n;

	do {
		if (s->retired_count == SERVE_AH_CACHE) {
			/* Rare: a second change while the first one's AHs
			 * still have sends out. Wait for them here. */
			ud_drain_sends(&s->ep, 1000, NULL, NULL);
			reap_retired(s);
			if (s->retired_count == SERVE_AH_CACHE)
				break;
		}
		n = reverse_cache_drop_ready(
			&s->reverse, s->retired + s->retired_count,
			SERVE_AH_CACHE - s->retired_count);
		s->retired_count += n;
	} while (n > 0);
	s->epoch++;
}


/* The record carries the port's GID 0 and LID (registration_open). */
static void note_port_for_renewer(struct server *s)
{
	pthread_mutex_lock(&s->reg_lock);
	for (size_t i = 0; i < s->port->gid_count; i++)
		if (s->port->gids[i].index == 0)
			s->new_gid = s->port->gids[i].gid;
	s->new_lid = s->port->lid;
	s->reg_update = true;
	pthread_mutex_unlock(&s->reg_lock);
}

/* Asynchronous events of the device (ibv_get_async_event(3)): port and
 * GID changes drop the cached reply AHs; an error of our QP, CQ or the
 * device ends serve, which must not keep advertising a dead responder. */
static void handle_async_event(struct server *s)
{
	struct ibv_async_event ev;
	enum ibv_event_type type;

	if (ibv_get_async_event(s->ep.context, &ev))
		return;
	type = ev.event_type;
	ibv_ack_async_event(&ev);
	s->async_events++;
	switch (type) {
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_CQ_ERR:
	case IBV_EVENT_DEVICE_FATAL:
		snprintf(s->fatal, sizeof(s->fatal), "%s reported %s: the "
			 "responder cannot answer any more",
			 s->dev->name, ibv_event_type_str(type));
		return;
	case IBV_EVENT_PORT_ERR:
	case IBV_EVENT_PORT_ACTIVE:
	case IBV_EVENT_LID_CHANGE:
	case IBV_EVENT_PKEY_CHANGE:
	case IBV_EVENT_GID_CHANGE:
	case IBV_EVENT_SM_CHANGE:
	case IBV_EVENT_CLIENT_REREGISTER:
		if (ev.element.port_num != s->port->port_num)
			return;
		diag_warn("%s port %u: %s%s; cached reply AHs dropped",
			  s->dev->name, ev.element.port_num,
			  ibv_event_type_str(type),
			  type == IBV_EVENT_PORT_ERR
				  ? " (no replies until the port is up)" : "");
		drop_reverse_ahs(s);
		reload_port(s);
		if (s->renewer_running)
			note_port_for_renewer(s);
		if (type == IBV_EVENT_CLIENT_REREGISTER ||
		    type == IBV_EVENT_SM_CHANGE)
			atomic_store(&s->reregister, true);
		return;
	default:
		diag_verbose(1, "%s: %s", s->dev->name,
			     ibv_event_type_str(type));
		return;
	}
}

static int serve_loop(struct server *s, const char **why)
{
	uint64_t end_ns = opts.duration_s
				  ? monotonic_ns() + opts.duration_s * 1000000000ull
				  : 0;

	for (;;) {
		struct pollfd fds[3 + 1 + RENDEZVOUS_PENDING_MAX] = {
			{ .fd = ud_event_fd(&s->ep), .events = POLLIN },
			{ .fd = ah_workers_fd(&s->workers), .events = POLLIN },
			{ .fd = s->ep.context->async_fd, .events = POLLIN },
		};
		size_t nfds = 3;
		int timeout = 1000, n, held;

		if (s->fatal[0]) {
			*why = "error";
			return -1;
		}
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
		if (ud_arm(&s->ep)) {
			snprintf(s->fatal, sizeof(s->fatal), "cannot arm the "
				 "completion queue of %s", s->dev->name);
			continue;
		}
		handle_completions(s);
		take_reverse_results(s);
		reap_retired(s);
		if (s->fatal[0] || (opts.count && s->answered >= opts.count))
			continue;
		nfds += rendezvous_server_pollfds(&s->rendezvous, fds + 3,
						  1 + RENDEZVOUS_PENDING_MAX);
		held = rendezvous_server_timeout_ms(&s->rendezvous,
						    monotonic_ns());
		if (held >= 0 && held < timeout)
			timeout = held;
		n = poll(fds, nfds, timeout);
		if (n < 0 && errno != EINTR) {
			snprintf(s->fatal, sizeof(s->fatal), "waiting for "
				 "completions failed: %s", strerror(errno));
			continue;
		}
		/* Held rendezvous connections have deadlines: served on
		 * every wake-up, a timeout included. */
		rendezvous_server_service(&s->rendezvous, &s->info,
					  monotonic_ns());
		if (n <= 0)
			continue;
		if (fds[0].revents & POLLIN)
			ud_consume_event(&s->ep);
		if (fds[2].revents & POLLIN)
			handle_async_event(s);
	}
}

/* Verbs-facing set-up: endpoint, reply-AH cache and its workers, and the
 * asynchronous event fd (non-blocking, in the poll set). */
static int open_responder(struct server *s, char *err, size_t len)
{
	struct ud_config config = {
		.device = s->dev->name,
		.port_num = s->port->port_num,
		.pkey_index = s->pkey_index,
		.qkey = opts.qkey,
		.recv_depth = SERVE_RECV_DEPTH,
		.send_depth = SERVE_SEND_DEPTH,
		.max_payload = PROBE_MAX_SIZE,
	};
	struct ibv_device_attr attr;
	struct provider_facts facts;
	char driver[64];
	uint32_t seed;
	int flags;

	if (ud_endpoint_open(&s->ep, &config, err, len))
		return -1;
	/* Whose hop limit our replies leave with depends on the provider
	 * (provider_hop_limit_rule), as the prober's does. */
	if (ibv_query_device(s->ep.context, &attr))
		attr.vendor_id = 0;
	provider_facts_read(s->dev->name, attr.vendor_id, driver,
			    sizeof(driver), &facts);
	s->provider = provider_identify(&facts);
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint32_t)monotonic_ns();
	if (reverse_cache_init(&s->reverse, SERVE_AH_CACHE) ||
	    request_counts_init(&s->counts, REQUEST_COUNTS_MAX, seed) ||
	    load_local_gids(s)) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (ah_workers_start(&s->workers, s->ep.context, s->ep.pd,
			     s->port->port_num, s->port->link_layer, err, len))
		return -1;
	flags = fcntl(s->ep.context->async_fd, F_GETFL);
	if (flags < 0 ||
	    fcntl(s->ep.context->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		snprintf(err, len, "cannot watch %s's events: %s",
			 s->dev->name, strerror(errno));
		return -1;
	}
	return 0;
}

/* Workers first (one may still be creating an AH), then the AHs: after
 * the sends that use them, or after the QP when those never finish. */
static void close_responder(struct server *s)
{
	struct reverse_retired left[32];
	size_t n;

	ah_workers_stop(&s->workers);
	if (s->ep.qp && ud_drain_sends(&s->ep, 1000, NULL, NULL))
		ud_endpoint_destroy_qp(&s->ep);
	for (size_t i = 0; i < s->retired_count; i++)
		ibv_destroy_ah(s->retired[i].ah);
	s->retired_count = 0;
	while (s->reverse.entries &&
	       (n = reverse_cache_drop_ready(&s->reverse, left, 32)) > 0)
		for (size_t i = 0; i < n; i++)
			ibv_destroy_ah(left[i].ah);
	reverse_cache_free(&s->reverse);
	ud_endpoint_close(&s->ep);
	free(s->local_gids);
	s->local_gids = NULL;
	request_counts_free(&s->counts);
}

/* The rendezvous' count question: a set absent from the table was never
 * seen when nothing evicted was used since the run began. */
static void answer_count(void *ctx, const struct rendezvous_count_question *q,
			 struct rendezvous_count_answer *a)
{
	struct server *s = ctx;
	struct request_set_key key = {
		.probe_id = q->probe_id,
		.sgid = q->gid,
		.slid = s->port->link_layer == LINK_LAYER_IB ? q->lid : 0,
		.src_qp = q->qpn,
		.asked = q->asked,
	};
	const struct request_set_count *set =
		request_counts_find(&s->counts, &key);
	uint64_t now = monotonic_ns(), age = (uint64_t)q->age_ms * 1000000ull;

	memset(a, 0, sizeof(*a));
	if (set) {
		a->state = RENDEZVOUS_COUNT_KNOWN;
		a->received = set->received;
		a->answered = set->answered;
	} else if (request_counts_absent_means_unseen(
			   &s->counts, now > age ? now - age : 0)) {
		a->state = RENDEZVOUS_COUNT_KNOWN;
	} else {
		a->state = RENDEZVOUS_COUNT_FORGOTTEN;
	}
	diag_verbose(2, "count question for run 0x%08x qp 0x%x: %s %u/%u",
		     q->probe_id, q->qpn,
		     a->state == RENDEZVOUS_COUNT_KNOWN ? "received/answered"
							: "forgotten",
		     a->received, a->answered);
}

/* The responder from device to summary; with --pidfile, the pid goes
 * into the taken PIDFILE once the ready line is out. */
static int serve_responder(const struct common_opts *common,
			   struct pidfile *pidfile)
{
	struct server s = { .listen_fd = -1,
			    .reg_lock = PTHREAD_MUTEX_INITIALIZER };
	struct sigaction sa = { .sa_handler = on_signal };
	char err[DIAG_MSG_MAX + PATH_MAX], note[DIAG_MSG_MAX], bound[128] = "";
	const char *why = "?";
	int rc;

	if (device_discover(&s.devices, common->device, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	s.port = device_pick_port(&s.devices, common->device, common->port,
				  &s.dev, note, sizeof(note), err,
				  sizeof(err));
	if (s.port && note[0])
		diag_warn("%s", note);
	if (!s.port) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out_devices;
	}
	if (s.dev->source != DEVICE_FROM_VERBS) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s is visible through umad "
			      "only: serve needs a verbs device", s.dev->name);
		goto out_devices;
	}
	if (opts.register_sa && s.port->link_layer == LINK_LAYER_ETHERNET) {
		rc = cli_fail(EXIT_ENVIRONMENT, "--register needs an InfiniBand "
			      "port: %s port %u is RoCE, which has no SA; "
			      "probers find this responder through the "
			      "rendezvous instead", s.dev->name,
			      s.port->port_num);
		goto out_devices;
	}
	if (opts.has_pkey) {
		struct pkey_table pkeys;
		int index = -1;

		if (pkey_table_read(s.dev, s.port->port_num, &pkeys, err,
				    sizeof(err)) == 0 &&
		    (index = pkey_table_find(&pkeys, opts.pkey)) < 0)
			snprintf(err, sizeof(err), "%s port %u is not a member "
				 "of partition 0x%04x (--pkey)", s.dev->name,
				 s.port->port_num, opts.pkey);
		if (index < 0) {
			rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
			goto out_devices;
		}
		s.pkey_index = (uint16_t)index;
	}
	if (open_responder(&s, err, sizeof(err))) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out_responder;
	}
	if (!opts.no_listen) {
		s.listen_fd = rendezvous_listen(opts.listen, bound,
						sizeof(bound), err,
						sizeof(err));
		if (s.listen_fd < 0) {
			rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
			goto out_responder;
		}
	}
	rendezvous_server_init(&s.rendezvous, s.listen_fd, answer_count, &s);
	fill_info(&s, s.dev->name);
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
	if (pidfile->fd >= 0 &&
	    pidfile_write(pidfile, getpid(), err, sizeof(err))) {
		unregister_responder(&s);
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out_listen;
	}
	rc = serve_loop(&s, &why);
	/* Unregister first: a dead responder must not stay advertised. */
	unregister_responder(&s);
	print_summary(&s, why);
	rc = rc ? cli_fail(EXIT_ENVIRONMENT, "%s", s.fatal) : EXIT_FINE;
out_listen:
	stop_renewer(&s);
	registration_close(&s.reg);
	rendezvous_server_close(&s.rendezvous, &s.info);
	if (s.listen_fd >= 0)
		close(s.listen_fd);
out_responder:
	close_responder(&s);
out_devices:
	device_list_free(&s.devices);
	return rc;
}

static int serve_run(const struct common_opts *common, int argc, char **argv)
{
	struct pidfile pidfile = { .fd = -1 };
	char err[DIAG_MSG_MAX + PATH_MAX];
	pid_t holder;
	int rc;

	(void)argv;
	if (argc > 0)
		return cli_usage_error("serve takes no arguments");
	if (opts.no_listen && opts.listen)
		return cli_usage_error("--listen and --no-listen contradict "
				       "each other");
	if (common->json)
		out_init(OUT_JSONL, false);
	/* Before any device is opened: a second responder on the same
	 * file is refused at once, and touches no port. */
	if (opts.pidfile) {
		switch (pidfile_take(&pidfile, opts.pidfile, &holder, err,
				     sizeof(err))) {
		case PIDFILE_TAKEN:
			break;
		case PIDFILE_HELD:
			if (holder)
				return cli_fail(EXIT_ENVIRONMENT, "--pidfile %s "
						"is held by pid %ld, which is "
						"running: stop it (kill -TERM "
						"%ld) or give another file",
						opts.pidfile, (long)holder,
						(long)holder);
			return cli_fail(EXIT_ENVIRONMENT, "--pidfile %s is "
					"locked by a running process (its pid "
					"not written yet): stop it or give "
					"another file", opts.pidfile);
		case PIDFILE_ERROR:
			return cli_fail(EXIT_ENVIRONMENT, "%s", err);
		}
	}
	rc = serve_responder(common, &pidfile);
	pidfile_release(&pidfile);
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
