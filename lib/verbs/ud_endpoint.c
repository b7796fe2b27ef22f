/* UD QP life cycle, receive posting with the GRH sentinel, sends from a
 * ring of registered slots, bounded waits on a completion channel or a
 * busy poll, and each completion's time stamps (polled, and the device's
 * where its CQ has them). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/grh.h"
#include "base/monotonic.h"
#include "verbs/ud_endpoint.h"
#include "verbs/ud_endpoint_signal.h"

/* wr_id: bit 63 tells receives from sends, the low bits are the slot. */
#define WR_RECV (1ull << 63)
/* ud_poll takes completions through a stack batch of this many. */
#define POLL_CHUNK 16
/* Inline data asked for at QP creation: a probe of the default size, a
 * reply and a stamps message fit; the QP may grant more or less. */
#define UD_INLINE_WANTED 256u

static uint8_t *slot(struct ud_endpoint *ep, unsigned index)
{
	return ep->buffers + (size_t)index * ep->slot_size;
}

/* Receive slots come first, then send slots. */
static unsigned send_slot_index(const struct ud_endpoint *ep, unsigned i)
{
	return ep->config.recv_depth + i;
}

static int post_recv(struct ud_endpoint *ep, unsigned index)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)slot(ep, index),
		.length = (uint32_t)ep->slot_size,
		.lkey = ep->mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = WR_RECV | index,
		.sg_list = &sge,
		.num_sge = 1,
	}, *bad;

	/* The GRH area is undefined unless IBV_WC_GRH; a sentinel lets the
	 * decoder tell an IPv4 header from an IPv6-format one. */
	grh_prefill_sentinel(slot(ep, index));
	return ibv_post_recv(ep->qp, &wr, &bad);
}

static int modify(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		  const char *state, char *err, size_t errlen)
{
	int rc = ibv_modify_qp(qp, attr, mask);

	if (rc)
		snprintf(err, errlen, "cannot move the UD QP to %s: %s%s",
			 state, strerror(rc),
			 rc == EPERM ? " (a Q_Key with bit 31 set needs "
				       "CAP_NET_RAW)" : "");
	return rc;
}

static int bring_up(struct ud_endpoint *ep, char *err, size_t errlen)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = ep->config.pkey_index,
		.port_num = ep->config.port_num,
		.qkey = ep->config.qkey,
	};

	if (modify(ep->qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
		   IBV_QP_PORT | IBV_QP_QKEY, "INIT", err, errlen))
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	if (modify(ep->qp, &attr, IBV_QP_STATE, "RTR", err, errlen))
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.sq_psn = 0;
	return modify(ep->qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN, "RTS", err,
		      errlen) ? -1 : 0;
}

/* ibv_query_device_ex's completion_timestamp_mask and hca_core_clock
 * decide, never the provider's name (completion_clock_decide). */
static void decide_clock(struct ud_endpoint *ep)
{
	struct ibv_device_attr_ex attr;
	struct completion_clock_caps caps;
	int rc;

	memset(&ep->clock, 0, sizeof(ep->clock));
	if (!ep->config.hw_stamps) {
		snprintf(ep->clock.why_not, sizeof(ep->clock.why_not),
			 "hardware completion timestamps were not asked for");
		return;
	}
	memset(&attr, 0, sizeof(attr));
	rc = ibv_query_device_ex(ep->context, NULL, &attr);
	if (rc) {
		snprintf(ep->clock.why_not, sizeof(ep->clock.why_not),
			 "ibv_query_device_ex failed: %s", strerror(rc));
		return;
	}
	caps.timestamp_mask = attr.completion_timestamp_mask;
	caps.core_clock_khz = attr.hca_core_clock;
	completion_clock_decide(&caps, &ep->clock);
}

/*
 * An extended CQ that reports the standard fields and what extra asks for:
 * the raw completion timestamp (the free-running counter: see
 * completion_clock.c on why not _WALLCLOCK) and/or the VLAN tag of each
 * receive (IBV_WC_EX_WITH_CVLAN). Providers refuse flags they lack with
 * EOPNOTSUPP (rxe's rxe_create_cq_ex against RXE_SUP_WC_FLAGS, mlx5's
 * against CREATE_CQ_SUPPORTED_WC_FLAGS, hns's verify_cq_create_attr,
 * irdma_ucreate_cq_ex): the refusal is the device's answer to whether it
 * can. irdma takes the standard flags except
 * IBV_WC_EX_WITH_DLID_PATH_BITS, a field that has no meaning on its
 * RoCE/iWARP ports, so that one is asked again without it. Returns 0 or
 * the errno of the last refusal.
 */
static int create_cq_ex(struct ud_endpoint *ep, int cqe, uint64_t extra)
{
	const uint64_t wanted[] = {
		IBV_WC_STANDARD_FLAGS | extra,
		(IBV_WC_STANDARD_FLAGS & ~IBV_WC_EX_WITH_DLID_PATH_BITS) |
			extra,
	};
	int rc = 0;

	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
		struct ibv_cq_init_attr_ex attr = {
			.cqe = (uint32_t)cqe,
			.channel = ep->channel,
			.wc_flags = wanted[i],
		};

		ep->cq_ex = ibv_create_cq_ex(ep->context, &attr);
		if (ep->cq_ex) {
			ep->cq = ibv_cq_ex_to_cq(ep->cq_ex);
			ep->cq_ex_wc_flags = wanted[i];
			return 0;
		}
		rc = errno;
		if (rc != EOPNOTSUPP && rc != EINVAL)
			break;
	}
	return rc;
}

/* The CQ with as much as the device gives of what was asked: stamps and
 * VLAN tags, stamps alone, VLAN tags alone, then today's plain CQ; on the
 * way back clock.hw and cvlan are true only for what the CQ really
 * reports, and each why_not says why not. extended_ok false: a plain CQ
 * (the QP refused an extended one). */
static int create_cq(struct ud_endpoint *ep, int cqe, bool extended_ok)
{
	uint64_t stamps = extended_ok && ep->clock.hw
				  ? IBV_WC_EX_WITH_COMPLETION_TIMESTAMP : 0;
	uint64_t cvlan = extended_ok && ep->config.want_cvlan
				 ? IBV_WC_EX_WITH_CVLAN : 0;
	int rc;

	ep->cvlan = false;
	if (stamps && cvlan && create_cq_ex(ep, cqe, stamps | cvlan) == 0) {
		ep->cvlan = true;
		return 0;
	}
	if (stamps) {
		rc = create_cq_ex(ep, cqe, stamps);
		if (rc == 0)
			goto no_cvlan;
		snprintf(ep->clock.why_not, sizeof(ep->clock.why_not),
			 "ibv_create_cq_ex with completion timestamps failed: "
			 "%s", strerror(rc));
	}
	ep->clock.hw = false;
	if (cvlan && create_cq_ex(ep, cqe, cvlan) == 0) {
		ep->cvlan = true;
		return 0;
	}
	ep->cq = ibv_create_cq(ep->context, cqe, NULL, ep->channel, 0);
	if (!ep->cq)
		return -1;
no_cvlan:
	if (cvlan)
		snprintf(ep->cvlan_why_not, sizeof(ep->cvlan_why_not),
			 "%s does not report the VLAN tag of a receive (its "
			 "CQ refused IBV_WC_EX_WITH_CVLAN%s)", ep->config.device,
			 ep->clock.hw ? " beside completion timestamps" : "");
	return 0;
}

/* Each send says whether it is signalled (ud_signal_wanted). Inline data
 * as perftest asks for it (its inline_size): the HCA takes the bytes with
 * the work request instead of reading the slot; a provider that refuses
 * the size gets the QP without. max_inline is what was granted. */
static struct ibv_qp *create_qp(struct ud_endpoint *ep)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp *qp = NULL;
	uint32_t wanted = ep->config.max_payload < UD_INLINE_WANTED
				  ? (uint32_t)ep->config.max_payload
				  : UD_INLINE_WANTED;

	for (int with_inline = 1; with_inline >= 0 && !qp; with_inline--) {
		memset(&init, 0, sizeof(init));
		init.send_cq = ep->cq;
		init.recv_cq = ep->cq;
		init.qp_type = IBV_QPT_UD;
		init.sq_sig_all = 0;
		init.cap.max_send_wr = ep->config.send_depth;
		init.cap.max_recv_wr = ep->config.recv_depth;
		init.cap.max_send_sge = 1;
		init.cap.max_recv_sge = 1;
		init.cap.max_inline_data = with_inline ? wanted : 0;
		qp = ibv_create_qp(ep->pd, &init);
	}
	ep->max_inline = qp ? init.cap.max_inline_data : 0;
	return qp;
}

/*
 * The QP can refuse a stamping CQ even where the CQ was made: mlx5 binds
 * a QP to the timestamp format of its CQs and fails with EOPNOTSUPP when
 * the device lacks the free-running format (kernel get_ts_format, from
 * get_qp_ts_format). The endpoint then goes on with a plain CQ and says
 * why.
 */
static int create_qp_falling_back(struct ud_endpoint *ep, int cqe)
{
	int rc;

	ep->qp = create_qp(ep);
	if (ep->qp || !ep->cq_ex)
		return ep->qp ? 0 : -1;
	rc = errno;
	ibv_destroy_cq(ep->cq);
	ep->cq = NULL;
	ep->cq_ex = NULL;
	ep->cq_ex_wc_flags = 0;
	ep->clock.hw = false;
	snprintf(ep->clock.why_not, sizeof(ep->clock.why_not),
		 "the UD QP refused a CQ with completion timestamps: %s",
		 strerror(rc));
	if (create_cq(ep, cqe, false))
		return -1;
	if (ep->config.want_cvlan)
		snprintf(ep->cvlan_why_not, sizeof(ep->cvlan_why_not),
			 "the UD QP refused an extended CQ: no VLAN tags");
	ep->qp = create_qp(ep);
	return ep->qp ? 0 : -1;
}

static int open_device(struct ud_endpoint *ep, char *err, size_t errlen)
{
	struct ibv_device **devs;
	int n;

	devs = ibv_get_device_list(&n);
	if (!devs) {
		snprintf(err, errlen, "cannot list RDMA devices: %s",
			 strerror(errno));
		return -1;
	}
	for (int i = 0; i < n && !ep->context; i++)
		if (strcmp(ibv_get_device_name(devs[i]), ep->config.device) == 0)
			ep->context = ibv_open_device(devs[i]);
	ibv_free_device_list(devs);
	if (!ep->context) {
		snprintf(err, errlen, "cannot open RDMA device %s", ep->config.device);
		return -1;
	}
	return 0;
}

int ud_endpoint_open(struct ud_endpoint *ep, const struct ud_config *config,
		     char *err, size_t errlen)
{
	unsigned slots = config->recv_depth + config->send_depth;
	size_t bytes;

	memset(ep, 0, sizeof(*ep));
	ep->config = *config;
	ep->slot_size = UD_GRH_BYTES + config->max_payload;
	if (open_device(ep, err, errlen))
		return -1;
	decide_clock(ep);
	ep->pd = ibv_alloc_pd(ep->context);
	ep->channel = ep->pd ? ibv_create_comp_channel(ep->context) : NULL;
	if (!ep->channel || create_cq(ep, (int)slots, true)) {
		snprintf(err, errlen, "cannot create PD/CQ on %s: %s",
			 config->device, strerror(errno));
		goto fail;
	}
	bytes = ep->slot_size * slots;
	ep->buffers = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
	ep->mr = ep->buffers ? ibv_reg_mr(ep->pd, ep->buffers, bytes,
					  IBV_ACCESS_LOCAL_WRITE)
			     : NULL;
	if (!ep->mr) {
		snprintf(err, errlen, "cannot register %zu bytes on %s: %s",
			 bytes, config->device, strerror(errno));
		goto fail;
	}
	ep->send_tags = calloc(config->send_depth ? config->send_depth : 1,
			       sizeof(*ep->send_tags));
	if (!ep->send_tags) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (create_qp_falling_back(ep, (int)slots)) {
		snprintf(err, errlen, "cannot create a UD QP on %s: %s",
			 config->device, strerror(errno));
		goto fail;
	}
	if (bring_up(ep, err, errlen))
		goto fail;
	for (unsigned i = 0; i < config->recv_depth; i++) {
		if (post_recv(ep, i)) {
			snprintf(err, errlen, "cannot post receives on %s",
				 config->device);
			goto fail;
		}
	}
	return 0;
fail:
	ud_endpoint_close(ep);
	return -1;
}

void ud_endpoint_destroy_qp(struct ud_endpoint *ep)
{
	if (ep->qp)
		ibv_destroy_qp(ep->qp);
	ep->qp = NULL;
	ep->sends_in_flight = 0;
	ep->unsignaled_run = 0;
}

bool ud_qp_state(struct ud_endpoint *ep, enum ibv_qp_state *state)
{
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;

	if (!ep->qp || ibv_query_qp(ep->qp, &attr, IBV_QP_STATE, &init))
		return false;
	*state = attr.qp_state;
	return true;
}

void ud_endpoint_close(struct ud_endpoint *ep)
{
	ud_endpoint_destroy_qp(ep);
	if (ep->mr)
		ibv_dereg_mr(ep->mr);
	free(ep->buffers);
	free(ep->send_tags);
	if (ep->cq) {
		/* Events we armed for must be acknowledged before destroy. */
		ibv_destroy_cq(ep->cq);
	}
	if (ep->channel)
		ibv_destroy_comp_channel(ep->channel);
	if (ep->pd)
		ibv_dealloc_pd(ep->pd);
	if (ep->context)
		ibv_close_device(ep->context);
	memset(ep, 0, sizeof(*ep));
}

bool ud_wc_is_recv(const struct ibv_wc *wc)
{
	return wc->wr_id & WR_RECV;
}

uint8_t *ud_recv_buffer(struct ud_endpoint *ep, const struct ibv_wc *wc)
{
	return slot(ep, (unsigned)(wc->wr_id & ~WR_RECV));
}

int ud_repost_recv(struct ud_endpoint *ep, const struct ibv_wc *wc)
{
	return post_recv(ep, (unsigned)(wc->wr_id & ~WR_RECV));
}

int ud_send(struct ud_endpoint *ep, struct ibv_ah *ah, uint32_t remote_qpn,
	    uint32_t remote_qkey, const void *payload, size_t len)
{
	return ud_send_tagged(ep, ah, remote_qpn, remote_qkey, payload, len, 0);
}

int ud_send_tagged(struct ud_endpoint *ep, struct ibv_ah *ah,
		   uint32_t remote_qpn, uint32_t remote_qkey,
		   const void *payload, size_t len, uint64_t tag)
{
	unsigned index;
	struct ibv_sge sge;
	struct ibv_send_wr wr = { 0 }, *bad;
	bool signaled;
	int rc;

	if (len > ep->config.max_payload)
		return -EMSGSIZE;
	if (ep->sends_in_flight >= ep->config.send_depth)
		return -EAGAIN;
	/* Completions come back in order on one QP: a ring suffices. */
	index = send_slot_index(ep, ep->next_send_slot);
	memcpy(slot(ep, index), payload, len);
	sge.addr = (uintptr_t)slot(ep, index);
	sge.length = (uint32_t)len;
	sge.lkey = ep->mr->lkey;
	wr.wr_id = index;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	signaled = ud_signal_wanted(ep->clock.hw, ep->config.signal_every,
				    ep->config.send_depth, ep->unsignaled_run);
	wr.send_flags = signaled ? IBV_SEND_SIGNALED : 0;
	if (len <= ep->max_inline)
		wr.send_flags |= IBV_SEND_INLINE;
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = remote_qpn;
	wr.wr.ud.remote_qkey = remote_qkey;
	ep->send_tags[ep->next_send_slot] = tag;
	rc = ibv_post_send(ep->qp, &wr, &bad);
	if (rc)
		return -rc;
	ep->next_send_slot = (ep->next_send_slot + 1) % ep->config.send_depth;
	ep->unsignaled_run = signaled ? 0 : ep->unsignaled_run + 1;
	ep->sends_in_flight++;
	ep->sends_posted++;
	return 0;
}

/*
 * struct ibv_cq_ex has no reader for pkey_index: the IBA defines a work
 * completion's P_Key index for GSI QPs only (ibv_poll_cq(3), "valid only
 * for GSI QPs"; the kernel's struct ib_wc says the same). On any other UD
 * QP the HCA accepted the packet only because its P_Key matched the entry
 * at the QP's own pkey_index (IBA vol. 1, 10.9 partitioning, the P_Key
 * check on receive), so that index is what is stored.
 *
 * Which fields are valid follows ibv_poll_cq(3): after an error only
 * wr_id, status, qp_num and vendor_err; vendor_err only after an error
 * (mlx5_cq_read_wc_vendor_err reads the error CQE's syndrome).
 */
void ud_wc_from_cq_ex(struct ibv_cq_ex *cq, uint64_t wc_flags,
		      uint16_t pkey_index, struct ibv_wc *wc)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = cq->wr_id;
	wc->status = cq->status;
	if (wc_flags & IBV_WC_EX_WITH_QP_NUM)
		wc->qp_num = ibv_wc_read_qp_num(cq);
	if (wc->status != IBV_WC_SUCCESS) {
		wc->vendor_err = ibv_wc_read_vendor_err(cq);
		return;
	}
	wc->opcode = ibv_wc_read_opcode(cq);
	wc->wc_flags = ibv_wc_read_wc_flags(cq);
	if (wc_flags & IBV_WC_EX_WITH_BYTE_LEN)
		wc->byte_len = ibv_wc_read_byte_len(cq);
	if ((wc_flags & IBV_WC_EX_WITH_IMM) &&
	    (wc->wc_flags & (IBV_WC_WITH_IMM | IBV_WC_WITH_INV)))
		wc->imm_data = ibv_wc_read_imm_data(cq);
	if (wc_flags & IBV_WC_EX_WITH_SRC_QP)
		wc->src_qp = ibv_wc_read_src_qp(cq);
	if (wc_flags & IBV_WC_EX_WITH_SLID)
		wc->slid = (uint16_t)ibv_wc_read_slid(cq);
	if (wc_flags & IBV_WC_EX_WITH_SL)
		wc->sl = ibv_wc_read_sl(cq);
	if (wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
		wc->dlid_path_bits = ibv_wc_read_dlid_path_bits(cq);
	wc->pkey_index = pkey_index;
}

/* A taken completion: its send slot, and those of the unsignalled sends
 * before it, back to the ring; its tag out. */
static void account(struct ud_endpoint *ep, struct ud_completion *c)
{
	uint64_t index = c->wc.wr_id;
	unsigned ring = ep->config.send_depth, freed;

	c->tag = 0;
	if (ud_wc_is_recv(&c->wc))
		return;
	if (index >= ep->config.recv_depth &&
	    index < (uint64_t)ep->config.recv_depth + ring) {
		unsigned at = (unsigned)(index - ep->config.recv_depth);

		c->tag = ep->send_tags[at];
		freed = ud_sends_freed(ep->oldest_send_slot, at, ring,
				       ep->sends_in_flight);
	} else {
		freed = ud_sends_freed(0, 0, 0, ep->sends_in_flight);
	}
	ep->sends_in_flight -= freed;
	ep->sends_completed += freed;
	if (ring)
		ep->oldest_send_slot = (ep->oldest_send_slot + freed) % ring;
	/* A completion of the last one posted: none unsignalled is left. */
	if (!ep->sends_in_flight)
		ep->unsignaled_run = 0;
}

/* The VLAN tag of a receive, where the CQ was created to report it. */
static void read_cvlan(struct ud_endpoint *ep, struct ud_completion *c)
{
	c->cvlan_valid = ep->cvlan && c->wc.status == IBV_WC_SUCCESS &&
			 ud_wc_is_recv(&c->wc);
	c->cvlan = c->cvlan_valid ? ibv_wc_read_cvlan(ep->cq_ex) : 0;
}

/* The extended CQ: ibv_start_poll, ibv_next_poll, ibv_end_poll, as in
 * rc_pingpong.c's main loop (-t, timestamps); each completion stamped as
 * it is made current. ENOENT from start_poll means empty, and after a
 * successful start_poll end_poll must follow whatever next_poll says. */
static int take_completions_ex(struct ud_endpoint *ep,
			       struct ud_completion *out, int max)
{
	struct ibv_poll_cq_attr attr = { 0 };
	int n = 0, rc;

	rc = ibv_start_poll(ep->cq_ex, &attr);
	if (rc == ENOENT)
		return 0;
	if (rc)
		return -EIO;
	for (;;) {
		struct ud_completion *c = &out[n++];

		c->polled_ns = monotonic_ns();
		ud_wc_from_cq_ex(ep->cq_ex, ep->cq_ex_wc_flags,
				 ep->config.pkey_index, &c->wc);
		c->hw_valid = c->wc.status == IBV_WC_SUCCESS;
		c->hw_stamp = c->hw_valid ?
			ibv_wc_read_completion_ts(ep->cq_ex) : 0;
		read_cvlan(ep, c);
		account(ep, c);
		if (n == max)
			break;
		rc = ibv_next_poll(ep->cq_ex);
		if (rc)
			break;	/* ENOENT: empty; an error shows next time */
	}
	ibv_end_poll(ep->cq_ex);
	return n;
}

/* One ibv_poll_cq per completion, so each gets its own stamp. */
static int take_completions(struct ud_endpoint *ep, struct ud_completion *out,
			    int max)
{
	int n = 0;

	if (max <= 0)
		return 0;
	if (ep->cq_ex)
		return take_completions_ex(ep, out, max);
	while (n < max) {
		struct ud_completion *c = &out[n];
		int got = ibv_poll_cq(ep->cq, 1, &c->wc);

		if (got < 0)
			return n ? n : -EIO;
		if (got == 0)
			break;
		c->polled_ns = monotonic_ns();
		c->hw_valid = false;
		c->hw_stamp = 0;
		c->cvlan_valid = false;
		c->cvlan = 0;
		account(ep, c);
		n++;
	}
	return n;
}

static int64_t now_ms(void)
{
	return (int64_t)(monotonic_ns() / 1000000u);
}

int ud_event_fd(const struct ud_endpoint *ep)
{
	return ep->channel->fd;
}

int ud_arm(struct ud_endpoint *ep)
{
	if (!ep->cq_armed) {
		if (ibv_req_notify_cq(ep->cq, 0))
			return -EIO;
		ep->cq_armed = true;
	}
	return 0;
}

void ud_consume_event(struct ud_endpoint *ep)
{
	struct ibv_cq *ev_cq;
	void *ev_ctx;

	if (ibv_get_cq_event(ep->channel, &ev_cq, &ev_ctx) == 0) {
		ibv_ack_cq_events(ev_cq, 1);
		ep->cq_armed = false;
	}
}

/* perftest's latency loops (run_iter_lat_send): ibv_poll_cq until
 * something comes, no arm, no sleep; only the deadline reads the clock,
 * and a plain look (timeout 0, serve's spin) reads none: a clock read
 * per empty poll is what a spinner does most. */
static int poll_busy(struct ud_endpoint *ep, struct ud_completion *out,
		     int max, int timeout_ms)
{
	uint64_t deadline;

	if (timeout_ms <= 0)
		return take_completions(ep, out, max);
	deadline = monotonic_ns() + (uint64_t)timeout_ms * 1000000u;
	for (;;) {
		int n = take_completions(ep, out, max);

		if (n != 0 || monotonic_ns() >= deadline)
			return n;
	}
}

int ud_poll_stamped(struct ud_endpoint *ep, struct ud_completion *out,
		    int max, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	int n;

	if (ep->config.busy_poll)
		return poll_busy(ep, out, max, timeout_ms);
	for (;;) {
		struct pollfd pfd = { .fd = ep->channel->fd, .events = POLLIN };
		int left;

		n = take_completions(ep, out, max);
		if (n != 0)
			return n;
		if (ud_arm(ep) < 0)
			return -EIO;
		/* Look again: the arm may have raced a completion. */
		n = take_completions(ep, out, max);
		if (n != 0)
			return n;
		left = (int)(deadline - now_ms());
		if (left <= 0)
			return 0;
		n = poll(&pfd, 1, left);
		if (n < 0)
			return errno == EINTR ? 0 : -errno;
		if (n == 0)
			return 0;
		ud_consume_event(ep);
	}
}

static void copy_wcs(struct ibv_wc *wcs, const struct ud_completion *c, int n)
{
	for (int i = 0; i < n; i++)
		wcs[i] = c[i].wc;
}

/* ud_poll_stamped through a stack batch, stamps dropped; as many as max
 * when that many are there, like one ibv_poll_cq of max. */
int ud_poll(struct ud_endpoint *ep, struct ibv_wc *wcs, int max,
	    int timeout_ms)
{
	struct ud_completion batch[POLL_CHUNK];
	int want = max < POLL_CHUNK ? max : POLL_CHUNK;
	int n = ud_poll_stamped(ep, batch, want, timeout_ms), total;

	if (n <= 0)
		return n;
	copy_wcs(wcs, batch, n);
	total = n;
	while (n == want && total < max) {
		want = max - total < POLL_CHUNK ? max - total : POLL_CHUNK;
		n = take_completions(ep, batch, want);
		if (n <= 0)
			break;
		copy_wcs(wcs + total, batch, n);
		total += n;
	}
	return total;
}

enum stamp_source ud_stamp_source(const struct ud_endpoint *ep)
{
	if (ep->clock.hw)
		return STAMP_HW;
	return ep->config.busy_poll ? STAMP_SW_BUSY : STAMP_SW_EVENT;
}

uint64_t ud_stamp_delta_ns(const struct ud_endpoint *ep, uint64_t from,
			   uint64_t to)
{
	return completion_clock_delta_ns(&ep->clock, from, to);
}

int ud_drain_sends(struct ud_endpoint *ep, int timeout_ms,
		   void (*on_recv)(void *ctx, const struct ibv_wc *wc),
		   void *ctx)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct ibv_wc wcs[16];

	while (ep->sends_in_flight && ep->qp) {
		int left = (int)(deadline - now_ms());
		int n;

		/* Only unsignalled sends left: nothing will come for them. */
		if (ep->unsignaled_run >= ep->sends_in_flight)
			return -ENODATA;
		if (left <= 0)
			return -ETIMEDOUT;
		n = ud_poll(ep, wcs, 16, left);
		if (n < 0)
			return n;
		for (int i = 0; i < n; i++) {
			if (!ud_wc_is_recv(&wcs[i]))
				continue;
			if (on_recv)
				on_recv(ctx, &wcs[i]);
			/* A flushed receive means the QP is in error:
			 * posting it again would only be flushed again. */
			if (wcs[i].status == IBV_WC_SUCCESS)
				ud_repost_recv(ep, &wcs[i]);
		}
	}
	return 0;
}
