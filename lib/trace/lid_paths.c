/* The DLIDs of a port under LMC, from the SA's records; see lid_paths.h. */
#include <stdio.h>

#include "trace/lid_paths.h"

#define NODE_TYPE_SWITCH 2
#define UNICAST_LID_TOP 0xbfff

enum lid_paths_state lid_paths_lmc(const struct trace_store *store,
				   uint16_t base, uint8_t *lmc,
				   struct trace_key *need, char *why,
				   size_t whylen)
{
	struct trace_key key = { TRACE_REC_NODE, base, 0 };
	const struct trace_record *node = trace_store_find(store, &key);
	const struct trace_record *pi;
	uint8_t port;

	*lmc = 0;
	if (!node) {
		*need = key;
		return LID_PATHS_NEED;
	}
	if (node->state != TRACE_REC_PRESENT) {
		snprintf(why, whylen, "the SA gives no NodeRecord of LID %u%s%s",
			 base, node->state == TRACE_REC_FAILED ? ": " : "",
			 node->state == TRACE_REC_FAILED ? node->error : "");
		return LID_PATHS_UNKNOWN;
	}
	/* A CA's or router's LID is its port's; a switch's is port 0's. */
	port = node->u.node.node_type == NODE_TYPE_SWITCH
		       ? 0 : node->u.node.local_port;
	key = (struct trace_key){ TRACE_REC_PORTINFO, base, port };
	pi = trace_store_find(store, &key);
	if (!pi) {
		*need = key;
		return LID_PATHS_NEED;
	}
	if (pi->state != TRACE_REC_PRESENT) {
		snprintf(why, whylen, "the SA gives no PortInfoRecord of LID %u "
			 "port %u%s%s", base, port,
			 pi->state == TRACE_REC_FAILED ? ": " : "",
			 pi->state == TRACE_REC_FAILED ? pi->error : "");
		return LID_PATHS_UNKNOWN;
	}
	*lmc = pi->u.portinfo.lmc & 7;
	return LID_PATHS_KNOWN;
}

uint16_t lid_paths_base(uint16_t lid, uint8_t lmc)
{
	return lid & (uint16_t)~((1u << (lmc & 7)) - 1);
}

unsigned lid_paths_count(uint16_t base, uint8_t lmc)
{
	unsigned n = 1u << (lmc & 7);

	if (base == 0 || base > UNICAST_LID_TOP)
		return 1;
	if ((unsigned)base + n - 1 > UNICAST_LID_TOP)
		n = UNICAST_LID_TOP - base + 1;
	return n;
}
