/* What a failed work completion on our own UD QP means. UD has no
 * acknowledgements: a send completes in error only for a local reason,
 * and receives complete in error when the QP itself failed (a flushed
 * receive: the QP is in the error state and takes no more packets). Such
 * a failure is the local host's, and must be said so, never reported as
 * an unreachable destination. */
#ifndef IBAHPROBE_WC_FAILURE_H
#define IBAHPROBE_WC_FAILURE_H

#include <stdbool.h>
#include <stddef.h>

#include <infiniband/verbs.h>

enum wc_failure_action {
	WC_FAILURE_COUNT,	/* the QP still works: count it, go on */
	WC_FAILURE_FATAL,	/* the QP is unusable: stop, exit 3 */
};

/* qp_state_known: whether ibv_query_qp told the QP's state. The QP is
 * unusable in ERR (and in SQE for sends, until recovered, which we do
 * not do). A flushed completion means ERR whatever the query said. */
enum wc_failure_action wc_failure_judge(enum ibv_wc_status status,
					bool is_recv, bool qp_state_known,
					enum ibv_qp_state qp_state);

/* "the local UD QP failed: work request flushed error on a receive (QP
 * in state ERR)" with the likely causes for the status. */
void wc_failure_describe(enum ibv_wc_status status, bool is_recv,
			 bool qp_state_known, enum ibv_qp_state qp_state,
			 const char *device, char *buf, size_t len);

#endif
