/* serve's UD responder: it echoes each valid probe with what it observed
 * (decoded GRH, work completion) over the reverse path a worker builds
 * from the completion (ibv_init_ah_from_wc), answers the rendezvous, and
 * follows the port through the device's asynchronous events. The state
 * is one struct responder handed to every call. */
#ifndef IBAHPROBE_RESPONDER_H
#define IBAHPROBE_RESPONDER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "base/diag.h"
#include "peer/ah_worker.h"
#include "peer/rendezvous.h"
#include "peer/rendezvous_server.h"
#include "peer/request_counts.h"
#include "peer/responder_rules.h"
#include "peer/responder_vlan.h"
#include "peer/reverse_cache.h"
#include "peer/rq_drops.h"
#include "verbs/device.h"
#include "verbs/provider.h"
#include "verbs/ud_endpoint.h"

#define RESPONDER_SEND_DEPTH 128
/* Larger than RESPONDER_SEND_DEPTH: some entry always has no send in
 * flight and can be evicted. */
#define RESPONDER_AH_CACHE 256
#define RESPONDER_POLL_BATCH 32
/* The default age bound of a reply AH: a neighbour that moves without
 * an rtnetlink event this host sees (another namespace's failover, a
 * peer's NIC swap behind a router that keeps its MAC) costs at most
 * this long of replies to a dead MAC. */
#define RESPONDER_AH_MAX_AGE_S 30

/* What the command asked for. */
struct responder_config {
	uint32_t qkey;
	uint64_t count;		/* stop after this many answers (0: never) */
	uint32_t duration_s;	/* stop after this long (0: never) */
	uint32_t max_rate;	/* replies per second at most */
	/* Spin on the CQ instead of sleeping on completion events: the
	 * probers' network RTT loses this host's wake-up; a core spins. */
	bool busy_poll;
	/* Receive WQEs kept posted (0: RESPONDER_RECV_DEPTH, within the
	 * device's max_qp_wr). */
	uint32_t rq_depth;
	/* Reply AHs are made again once this old (0: RESPONDER_AH_MAX_AGE_S;
	 * see reverse_entry_refresh_due). */
	uint32_t ah_max_age_s;
};

/* A reply sent whose stamps message goes out on its send completion:
 * the request's header and receive stamp, and the reply AH's entry. */
struct stamps_due {
	bool used;
	struct probe_header header;
	uint64_t request_hw_stamp;
	uint32_t remote_qpn;
	size_t entry;
	uint32_t generation;
};

/* Told after a port event re-read the port (the SA record follows it);
 * reregister: the SM asked for the records again. */
typedef void (*responder_port_changed_fn)(void *ctx,
					  const struct port_info *port,
					  bool reregister);

struct responder {
	struct responder_config config;
	/* The device and port, picked by the caller, who frees the list
	 * at the end: a port event replaces them (reload_port). */
	struct device_list devices;
	const struct device_info *dev;
	const struct port_info *port;
	uint16_t pkey_index;	/* the QP's partition (--pkey) */
	responder_port_changed_fn port_changed;
	void *port_changed_ctx;

	struct ud_endpoint ep;
	enum provider provider;	/* whose hop limit our replies leave with */
	/* Requests received and answered per prober set, for the count in
	 * each reply and the rendezvous' count question. */
	struct request_counts counts;
	/* The port's receive drops over time, for the count answer. */
	struct rq_drop_history rq_drops;
	uint32_t rq_depth;	/* receives posted, as opened */
	struct rendezvous_server rendezvous;
	struct reverse_cache reverse;
	struct ah_workers workers;
	uint32_t epoch;		/* bumped when cached reply AHs are dropped */
	/* The neighbour watch (RoCE; -1: none): a next hop that moves
	 * marks the reply AHs through it for making again. */
	int neigh_fd;
	uint64_t ahs_refreshed, neigh_moves;
	/* Dropped AHs whose sends are still in flight: destroyed once they
	 * complete, so a port event never blocks the loop on a drain. */
	struct reverse_retired retired[RESPONDER_AH_CACHE];
	size_t retired_count;
	/* The port's GIDs, as the GRH decoder compares them. */
	union ibv_gid *local_gids;
	size_t local_gid_count;
	/* The GIDs' VLANs, for the reply's source and the VLAN report. */
	struct responder_vlan vlan;
	struct responder_info info;	/* what the rendezvous tells */
	struct reply_rate rate;	/* --max-rate, from responder_run() on */
	/* By send slot: replies whose stamps message is due (hw stamps). */
	struct stamps_due stamps[RESPONDER_SEND_DEPTH];
	uint64_t stamps_sent;
	uint64_t answered;
	uint64_t dropped[DROP_COUNT];
	uint64_t repost_failed, send_errors, async_events;
	char fatal[DIAG_MSG_MAX * 2];	/* set: stop, exit 3 */
};

/* Verbs-facing set-up on r->dev and r->port: endpoint, reply-AH cache
 * and its workers, and the asynchronous event fd (non-blocking, in the
 * poll set). -1 with err set on failure; responder_close() undoes what
 * was done either way. */
int responder_open(struct responder *r, char *err, size_t len);
/* The rendezvous server on listen_fd (-1: none; the caller owns it),
 * answering with r->info, which is filled now. */
void responder_start_rendezvous(struct responder *r, int listen_fd);
void responder_stop_rendezvous(struct responder *r);
/* Answers until stopped: by *stop_signal (set by the caller's handler),
 * the count or duration of the config, or an error (r->fatal). *why names
 * the cause for the summary. 0, or -1 on an error. */
int responder_run(struct responder *r, const volatile sig_atomic_t *stop_signal,
		  const char **why);
/* Closes what responder_open() made (not the device list). */
void responder_close(struct responder *r);

/* r->info from the port's facts, as the rendezvous and ready line say. */
void responder_fill_info(struct responder *r);

/* Asynchronous events of the device (responder_events.c). */
void responder_handle_async_event(struct responder *r);
/* For the events: the reply AHs of the old port retired (responder.c),
 * and the GRH decoder's copy of the port's GIDs read again. */
void responder_drop_reverse_ahs(struct responder *r);
int responder_load_local_gids(struct responder *r);

/* Upkeep beside the loop (responder_upkeep.c): the receive queue's
 * depth for r->config.rq_depth against the device (-1 with err), the
 * port's receive-drop counter (NULL: none), the receives a poll took,
 * a sample of the drops, and the neighbour watch's news. */
int responder_pick_rq_depth(struct responder *r, char *err, size_t len);
const char *responder_rq_drop_counter(const struct responder *r);
void responder_note_receives_taken(struct responder *r,
				   const struct ud_completion *comps, int n);
void responder_sample_rq_drops(struct responder *r, uint64_t now);
void responder_open_neighbour_watch(struct responder *r);
void responder_watch_neighbours(struct responder *r);

#endif
