/* A UD endpoint: one UD QP with its CQ, completion channel and registered
 * buffers, shared by serve and probe. Receive slots are GRH (40 bytes) +
 * payload, pre-filled with the GRH sentinel before posting; waits are
 * bounded (completion channel + poll, or a busy poll against the clock),
 * so a lost packet never hangs. Each completion can carry its own time
 * stamps: when it was polled and, where the device has them, the device's
 * completion timestamp. */
#ifndef IBAHPROBE_UD_ENDPOINT_H
#define IBAHPROBE_UD_ENDPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "base/stamp_source.h"
#include "verbs/completion_clock.h"

/* Bytes the HCA writes before the payload of every UD receive. */
#define UD_GRH_BYTES 40
/* Unprivileged by default: a Q_Key with bit 31 set needs CAP_NET_RAW. */
#define UD_DEFAULT_QKEY 0x1ab4e0beu

struct ud_config {
	const char *device;
	uint8_t port_num;
	uint16_t pkey_index;
	uint32_t qkey;
	unsigned recv_depth;	/* receive slots kept posted */
	unsigned send_depth;	/* sends in flight at most */
	size_t max_payload;	/* largest message, without the GRH */
	/* ud_poll spins on the CQ instead of sleeping on the completion
	 * channel: no wake-up in the RTT, one CPU busy. */
	bool busy_poll;
	/* Ask for device completion timestamps where the device has them;
	 * clock.why_not says why not when it has none. */
	bool hw_stamps;
	/* Ask the CQ for each receive's VLAN tag (IBV_WC_EX_WITH_CVLAN)
	 * where the device gives it (Ethernet ports); cvlan_why_not says
	 * why not when it does not. */
	bool want_cvlan;
	/* 0 or 1: every send asks for its completion. N: only every Nth
	 * does while the CQ has no device stamps (ud_signal_wanted), one
	 * CQE fewer per send to poll; ud_drain_sends then cannot always
	 * wait for the last ones (see there). */
	unsigned signal_every;
};

struct ud_endpoint {
	struct ibv_context *context;
	struct ibv_pd *pd;
	struct ibv_comp_channel *channel;
	struct ibv_cq *cq;
	struct ibv_cq_ex *cq_ex;	/* the same CQ when created extended */
	uint64_t cq_ex_wc_flags;	/* what cq_ex was created to report */
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buffers;
	size_t slot_size;
	struct ud_config config;
	unsigned sends_in_flight;
	uint64_t sends_posted, sends_completed;	/* since open */
	unsigned next_send_slot;
	unsigned oldest_send_slot;	/* the oldest send in flight */
	unsigned unsignaled_run;	/* sends posted unsignalled since the
					 * last signalled one */
	uint32_t max_inline;	/* the QP's max_inline_data: sends up to
				 * this size go IBV_SEND_INLINE */
	uint64_t *send_tags;	/* per send slot: ud_send_tagged's tag */
	bool cq_armed;
	/* hw only when the CQ really was created with timestamps. */
	struct completion_clock clock;
	/* Receives carry their VLAN tag (ud_completion.cvlan). */
	bool cvlan;
	char cvlan_why_not[160];
};

/* One completion and when it was taken. */
struct ud_completion {
	struct ibv_wc wc;
	/* CLOCK_MONOTONIC (monotonic_ns) as this completion was taken from
	 * the CQ, not once per batch. */
	uint64_t polled_ns;
	bool hw_valid;
	uint64_t hw_stamp;	/* device units; differences: ud_stamp_delta_ns */
	uint64_t tag;		/* a send: ud_send_tagged's tag; 0 otherwise */
	/* A receive's VLAN tag as ibv_wc_read_cvlan gives it (wc_vlan.h
	 * decodes it), where the endpoint's CQ reports it. */
	bool cvlan_valid;
	uint16_t cvlan;
};

int ud_endpoint_open(struct ud_endpoint *ep, const struct ud_config *config,
		     char *err, size_t errlen);
void ud_endpoint_close(struct ud_endpoint *ep);

/* What a completion was for; wr_id is decoded by these. */
bool ud_wc_is_recv(const struct ibv_wc *wc);
/* The receive slot of a receive completion: GRH area at [0, 40), payload
 * from 40, wc->byte_len bytes in all. */
uint8_t *ud_recv_buffer(struct ud_endpoint *ep, const struct ibv_wc *wc);
/* Posts the slot of a receive completion again (after use). */
int ud_repost_recv(struct ud_endpoint *ep, const struct ibv_wc *wc);

/* Copies payload into a free send slot and posts it. Returns 0, -EAGAIN
 * when every send slot is in flight (poll first), or -errno. */
int ud_send(struct ud_endpoint *ep, struct ibv_ah *ah, uint32_t remote_qpn,
	    uint32_t remote_qkey, const void *payload, size_t len);
/* ud_send whose send completion carries tag (ud_completion.tag): the
 * prober names the probe whose send stamp it is. ud_send is tag 0. */
int ud_send_tagged(struct ud_endpoint *ep, struct ibv_ah *ah,
		   uint32_t remote_qpn, uint32_t remote_qkey,
		   const void *payload, size_t len, uint64_t tag);

/* The fd to watch for completions (with other fds in one poll()). */
int ud_event_fd(const struct ud_endpoint *ep);
/* Arms the CQ for the next event; 0 or -EIO. Poll the CQ once more after
 * arming before sleeping on ud_event_fd(): a completion that landed
 * before the arm raises no event. */
int ud_arm(struct ud_endpoint *ep);
/* After ud_event_fd() polled readable: consumes the event. */
void ud_consume_event(struct ud_endpoint *ep);

/* Waits up to timeout_ms (0: just look) for completions; returns how many
 * were stored in wcs (send completions are counted back to free slots
 * here and also returned), or -errno. */
int ud_poll(struct ud_endpoint *ep, struct ibv_wc *wcs, int max,
	    int timeout_ms);
/* ud_poll with each completion's time stamps (struct ud_completion). */
int ud_poll_stamped(struct ud_endpoint *ep, struct ud_completion *out,
		    int max, int timeout_ms);

/* Where this endpoint's completion stamps come from: STAMP_HW when the CQ
 * carries device timestamps, else STAMP_SW_BUSY when busy polling, else
 * STAMP_SW_EVENT. */
enum stamp_source ud_stamp_source(const struct ud_endpoint *ep);
/* to - from of two hw_stamp values of this endpoint, in ns. */
uint64_t ud_stamp_delta_ns(const struct ud_endpoint *ep, uint64_t from,
			   uint64_t to);

/* Fills wc from the completion that ibv_start_poll/ibv_next_poll made
 * current on cq, through the ibv_wc_read_* readers of the fields the CQ
 * was created with (wc_flags: enum ibv_create_cq_wc_flags); a field not
 * asked for stays 0. pkey_index has no reader: the QP's own pkey_index
 * is stored (see ud_endpoint.c). */
void ud_wc_from_cq_ex(struct ibv_cq_ex *cq, uint64_t wc_flags,
		      uint16_t pkey_index, struct ibv_wc *wc);

/* Waits until every posted send has completed, at most timeout_ms: call
 * before destroying an AH those sends used. Receives that complete
 * meanwhile go to on_recv (when given) and are reposted after it: a reply
 * that arrives while draining still counts. Returns 0, -ETIMEDOUT, or
 * -ENODATA at once when the sends left were all posted unsignalled (no
 * completion will say they ended). After an error, destroy the QP
 * (ud_endpoint_destroy_qp) before those AHs. */
int ud_drain_sends(struct ud_endpoint *ep, int timeout_ms,
		   void (*on_recv)(void *ctx, const struct ibv_wc *wc),
		   void *ctx);

/* Destroys the QP ahead of the rest: after a drain that timed out, the
 * AHs its outstanding sends use can only be destroyed once the QP that
 * holds those sends is gone. */
void ud_endpoint_destroy_qp(struct ud_endpoint *ep);

/* The QP's current state; false when the query failed. */
bool ud_qp_state(struct ud_endpoint *ep, enum ibv_qp_state *state);

#endif
