/* Unit tests of what a failed completion on our own UD QP means: the
 * local host's failure (exit 3), never an unreachable destination. */
#include <string.h>

#include "tap.h"
#include "verbs/wc_failure.h"

int main(void)
{
	char msg[512];

	is_int(wc_failure_judge(IBV_WC_WR_FLUSH_ERR, true, true, IBV_QPS_RTS),
	       WC_FAILURE_FATAL, "a flushed receive: the QP is in error");
	is_int(wc_failure_judge(IBV_WC_LOC_QP_OP_ERR, false, true,
				IBV_QPS_ERR), WC_FAILURE_FATAL,
	       "a send error with the QP in ERR (rxe on a namespaced veth)");
	is_int(wc_failure_judge(IBV_WC_LOC_LEN_ERR, true, true, IBV_QPS_RTS),
	       WC_FAILURE_COUNT, "a receive error, QP still RTS: counted");
	is_int(wc_failure_judge(IBV_WC_LOC_LEN_ERR, false, true, IBV_QPS_SQE),
	       WC_FAILURE_FATAL, "a send error leaving SQE: no more sends");
	is_int(wc_failure_judge(IBV_WC_GENERAL_ERR, false, false, IBV_QPS_RTS),
	       WC_FAILURE_FATAL, "a send error, state unknown: fatal");
	is_int(wc_failure_judge(IBV_WC_GENERAL_ERR, true, false, IBV_QPS_RTS),
	       WC_FAILURE_COUNT, "a receive error, state unknown: counted");
	wc_failure_describe(IBV_WC_WR_FLUSH_ERR, true, true, IBV_QPS_ERR,
			    "rxe0", msg, sizeof(msg));
	ok(strstr(msg, "rxe0") && strstr(msg, "ERR") &&
		   strstr(msg, "not the destination"),
	   "the message names the device, the state, whose fault: %s", msg);
	return tap_done();
}
