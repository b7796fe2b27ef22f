/* Failed completions on the local UD QP; see wc_failure.h. */
#include <stdio.h>

#include "verbs/wc_failure.h"

enum wc_failure_action wc_failure_judge(enum ibv_wc_status status,
					bool is_recv, bool qp_state_known,
					enum ibv_qp_state qp_state)
{
	if (status == IBV_WC_SUCCESS)
		return WC_FAILURE_COUNT;
	if (status == IBV_WC_WR_FLUSH_ERR)
		return WC_FAILURE_FATAL;
	if (qp_state_known && (qp_state == IBV_QPS_ERR ||
			       (!is_recv && qp_state == IBV_QPS_SQE)))
		return WC_FAILURE_FATAL;
	/* Not known: a send error on UD moves the QP to SQE or ERR (IBA
	 * 10.8.3), so no further send works; a receive error that left
	 * the QP running (a too long message, say) is only counted. */
	if (!qp_state_known && !is_recv)
		return WC_FAILURE_FATAL;
	return WC_FAILURE_COUNT;
}

static const char *qp_state_name(enum ibv_qp_state s)
{
	switch (s) {
	case IBV_QPS_RESET: return "RESET";
	case IBV_QPS_INIT: return "INIT";
	case IBV_QPS_RTR: return "RTR";
	case IBV_QPS_RTS: return "RTS";
	case IBV_QPS_SQD: return "SQD";
	case IBV_QPS_SQE: return "SQE";
	case IBV_QPS_ERR: return "ERR";
	default: return "?";
	}
}

static const char *likely_cause(enum ibv_wc_status status)
{
	switch (status) {
	case IBV_WC_WR_FLUSH_ERR:
	case IBV_WC_LOC_QP_OP_ERR:
		return "the device could not send from this port: its netdev "
		       "is down, in another network namespace (soft-RoCE "
		       "sends only from the initial one), or the device was "
		       "reset";
	case IBV_WC_LOC_LEN_ERR:
		return "a message larger than the receive buffer or the path "
		       "MTU";
	case IBV_WC_LOC_PROT_ERR:
		return "a memory registration problem on this host";
	default:
		return "a fault of this host's device or driver";
	}
}

void wc_failure_describe(enum ibv_wc_status status, bool is_recv,
			 bool qp_state_known, enum ibv_qp_state qp_state,
			 const char *device, char *buf, size_t len)
{
	snprintf(buf, len, "the local UD QP on %s failed: %s on a %s "
		 "completion (QP state %s); likely %s; this is not the "
		 "destination's fault", device, ibv_wc_status_str(status),
		 is_recv ? "receive" : "send",
		 qp_state_known ? qp_state_name(qp_state) : "unknown",
		 likely_cause(status));
}
