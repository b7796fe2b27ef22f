/* The responder's decisions; see responder_rules.h. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "peer/responder_rules.h"

const char *const responder_drop_names[DROP_COUNT] = {
	[DROP_TRUNCATED] = "truncated", [DROP_BAD_MAGIC] = "bad_magic",
	[DROP_BAD_VERSION] = "bad_version", [DROP_BAD_KIND] = "bad_kind",
	[DROP_BAD_LENGTH] = "bad_length", [DROP_NOT_REQUEST] = "not_request",
	[DROP_RECV_ERROR] = "recv_error", [DROP_REVERSE_AH] = "reverse_ah",
	[DROP_REVERSE_BUSY] = "reverse_ah_busy", [DROP_BAD_GRH] = "bad_grh",
	[DROP_RATE_LIMIT] = "rate_limited", [DROP_SEND_FAILED] = "send_failed",
};

enum responder_drop responder_drop_for(enum probe_decode_error err)
{
	switch (err) {
	case PROBE_ERR_MAGIC: return DROP_BAD_MAGIC;
	case PROBE_ERR_VERSION: return DROP_BAD_VERSION;
	case PROBE_ERR_KIND: return DROP_BAD_KIND;
	case PROBE_ERR_LENGTH: return DROP_BAD_LENGTH;
	default: return DROP_TRUNCATED;
	}
}

void reply_rate_start(struct reply_rate *b, uint64_t now_ns)
{
	b->last_refill_ns = now_ns;
	b->tokens = 1;
}

bool reply_rate_take(struct reply_rate *b, uint32_t max_rate, uint64_t now_ns)
{
	b->tokens += (double)(now_ns - b->last_refill_ns) * max_rate / 1e9;
	if (b->tokens > max_rate / 10.0 + 1)
		b->tokens = max_rate / 10.0 + 1;	/* 100 ms burst */
	b->last_refill_ns = now_ns;
	if (b->tokens < 1)
		return false;
	b->tokens -= 1;
	return true;
}

enum reply_route reply_route_for(const struct reverse_entry *e,
				 uint64_t now_ns)
{
	if (!e)
		return REPLY_START;
	switch (e->state) {
	case REVERSE_READY:
		return REPLY_SEND;
	case REVERSE_PENDING:
		return REPLY_PARK;
	default:
		/* Failed a moment ago: tried again once its back-off is
		 * over, by a worker, so a sender that stays unreachable
		 * costs nobody else anything. */
		return reverse_entry_due(e, now_ns) ? REPLY_RETRY
						    : REPLY_BACK_OFF;
	}
}

enum ah_refresh_fate ah_refresh_fate_of(const struct reverse_entry *e,
					uint32_t job_epoch, uint32_t epoch,
					bool made_ah)
{
	if (!e || !e->refreshing || job_epoch != epoch)
		return AH_REFRESH_STALE;
	/* A neighbour that cannot be resolved now is no reason to stop
	 * answering over the AH that worked: it goes on, and the next
	 * bound (or event) tries again. */
	return made_ah ? AH_REFRESH_SWAP : AH_REFRESH_KEEP_OLD;
}

enum ah_result_fate ah_result_fate_of(const struct reverse_entry *e,
				      uint32_t job_epoch, uint32_t epoch,
				      bool made_ah)
{
	/* The port changed meanwhile: the AH may point the old way. */
	if (!e || job_epoch != epoch)
		return AH_RESULT_STALE;
	return made_ah ? AH_RESULT_READY : AH_RESULT_FAILED;
}

bool reverse_retry_at_once_wanted(const struct reverse_entry *e)
{
	return e->failures == 1 && e->parked_count > 0;
}

bool reverse_retired_done(const struct reverse_retired *r,
			  uint64_t sends_completed)
{
	return r->last_send <= sends_completed;
}

enum responder_event_action responder_event_action_of(enum ibv_event_type type,
						      int event_port,
						      uint8_t our_port)
{
	switch (type) {
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_CQ_ERR:
	case IBV_EVENT_DEVICE_FATAL:
		return EVENT_FATAL;
	case IBV_EVENT_PORT_ERR:
	case IBV_EVENT_PORT_ACTIVE:
	case IBV_EVENT_LID_CHANGE:
	case IBV_EVENT_PKEY_CHANGE:
	case IBV_EVENT_GID_CHANGE:
	case IBV_EVENT_SM_CHANGE:
	case IBV_EVENT_CLIENT_REREGISTER:
		if (event_port != our_port)
			return EVENT_OTHER_PORT;
		if (type == IBV_EVENT_CLIENT_REREGISTER ||
		    type == IBV_EVENT_SM_CHANGE)
			return EVENT_PORT_REREGISTER;
		return EVENT_PORT_CHANGED;
	default:
		return EVENT_LOGGED;
	}
}

const char *responder_stop_reason(bool fatal, int stop_signal, uint64_t count,
				  uint64_t answered, uint64_t end_ns,
				  uint64_t now_ns)
{
	if (fatal)
		return "error";
	if (stop_signal)
		return stop_signal == SIGINT ? "SIGINT" : "SIGTERM";
	if (count && answered >= count)
		return "count";
	if (end_ns && now_ns >= end_ns)
		return "duration";
	return NULL;
}

int responder_wait_ms(uint64_t end_ns, uint64_t now_ns)
{
	int timeout = 1000;

	if (end_ns && now_ns < end_ns &&
	    (end_ns - now_ns) / 1000000 < (uint64_t)timeout)
		timeout = (int)((end_ns - now_ns) / 1000000) + 1;
	return timeout;
}

void responder_count_answer(const struct request_counts *counts,
			    bool infiniband,
			    const struct rendezvous_count_question *q,
			    uint64_t now_ns, struct rendezvous_count_answer *a)
{
	struct request_set_key key = {
		.probe_id = q->probe_id,
		.sgid = q->gid,
		.slid = infiniband ? q->lid : 0,
		.src_qp = q->qpn,
		.asked = q->asked,
	};
	const struct request_set_count *set = request_counts_find(counts, &key);
	uint64_t age = (uint64_t)q->age_ms * 1000000ull;

	memset(a, 0, sizeof(*a));
	if (set) {
		a->state = RENDEZVOUS_COUNT_KNOWN;
		a->received = set->received;
		a->answered = set->answered;
		a->reasons_known = true;
		memcpy(a->unanswered, set->unanswered, sizeof(a->unanswered));
		a->after_park_known = true;
		a->answered_after_park = set->answered_after_park;
		/* A reply still parked is not answered yet either. */
		a->unanswered[UNANSWERED_RESOLVING] += set->parked;
	} else if (request_counts_absent_means_unseen(
			   counts, now_ns > age ? now_ns - age : 0)) {
		a->state = RENDEZVOUS_COUNT_KNOWN;
		a->reasons_known = true;
		a->after_park_known = true;
	} else {
		a->state = RENDEZVOUS_COUNT_FORGOTTEN;
	}
}

int responder_rq_depth_for(uint32_t asked, uint32_t max_qp_wr,
			   const char *device, uint32_t *depth, char *err,
			   size_t errlen)
{
	if (asked && max_qp_wr && asked > max_qp_wr) {
		snprintf(err, errlen, "--rq-depth %u is more than %s allows "
			 "(max_qp_wr %u): give at most %u", asked, device,
			 max_qp_wr, max_qp_wr);
		return -1;
	}
	*depth = asked ? asked : RESPONDER_RECV_DEPTH;
	if (!asked && max_qp_wr && *depth > max_qp_wr)
		*depth = max_qp_wr;
	return 0;
}
