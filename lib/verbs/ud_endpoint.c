/* UD QP life cycle, receive posting with the GRH sentinel, sends from a
 * ring of registered slots, and bounded waits on a completion channel. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/grh.h"
#include "base/monotonic.h"
#include "verbs/ud_endpoint.h"

/* wr_id: bit 63 tells receives from sends, the low bits are the slot. */
#define WR_RECV (1ull << 63)

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
	struct ibv_qp_init_attr init = { 0 };
	unsigned slots = config->recv_depth + config->send_depth;
	size_t bytes;

	memset(ep, 0, sizeof(*ep));
	ep->config = *config;
	ep->slot_size = UD_GRH_BYTES + config->max_payload;
	if (open_device(ep, err, errlen))
		return -1;
	ep->pd = ibv_alloc_pd(ep->context);
	ep->channel = ep->pd ? ibv_create_comp_channel(ep->context) : NULL;
	ep->cq = ep->channel ? ibv_create_cq(ep->context, (int)slots, NULL,
					     ep->channel, 0)
			     : NULL;
	if (!ep->cq) {
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
	init.send_cq = ep->cq;
	init.recv_cq = ep->cq;
	init.qp_type = IBV_QPT_UD;
	init.sq_sig_all = 1;
	init.cap.max_send_wr = config->send_depth;
	init.cap.max_recv_wr = config->recv_depth;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	ep->qp = ibv_create_qp(ep->pd, &init);
	if (!ep->qp) {
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
	unsigned index;
	struct ibv_sge sge;
	struct ibv_send_wr wr = { 0 }, *bad;
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
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = remote_qpn;
	wr.wr.ud.remote_qkey = remote_qkey;
	rc = ibv_post_send(ep->qp, &wr, &bad);
	if (rc)
		return -rc;
	ep->next_send_slot = (ep->next_send_slot + 1) % ep->config.send_depth;
	ep->sends_in_flight++;
	ep->sends_posted++;
	return 0;
}

static int take_completions(struct ud_endpoint *ep, struct ibv_wc *wcs, int max)
{
	int n = ibv_poll_cq(ep->cq, max, wcs);

	if (n < 0)
		return -EIO;
	for (int i = 0; i < n; i++)
		if (!ud_wc_is_recv(&wcs[i]) && ep->sends_in_flight) {
			ep->sends_in_flight--;
			ep->sends_completed++;
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

int ud_poll(struct ud_endpoint *ep, struct ibv_wc *wcs, int max,
	    int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	int n;

	for (;;) {
		struct pollfd pfd = { .fd = ep->channel->fd, .events = POLLIN };
		int left;

		n = take_completions(ep, wcs, max);
		if (n != 0)
			return n;
		if (ud_arm(ep) < 0)
			return -EIO;
		/* Look again: the arm may have raced a completion. */
		n = take_completions(ep, wcs, max);
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

int ud_drain_sends(struct ud_endpoint *ep, int timeout_ms,
		   void (*on_recv)(void *ctx, const struct ibv_wc *wc),
		   void *ctx)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct ibv_wc wcs[16];

	while (ep->sends_in_flight && ep->qp) {
		int left = (int)(deadline - now_ms());
		int n;

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
