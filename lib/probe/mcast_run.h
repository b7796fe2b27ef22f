/* Probing a multicast group: probes sent to the group's AH (QPN
 * 0xFFFFFF, the members' Q_Key) on our own UD QP, and every member's
 * unicast reply credited to it (probe/mcast_members.h) until the last
 * probe's deadline. The AH and the Q_Key come from the caller: on IB
 * from the group's MCMemberRecord after a SendOnlyNonMember join (the
 * SM routes a sender's packets into the group only once it joined), on
 * RoCE from the group's address (no membership is needed to send). */
#ifndef IBAHPROBE_MCAST_RUN_H
#define IBAHPROBE_MCAST_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "probe/mcast_members.h"
#include "wire/probe_wire.h"

/* IBA 9.6.1.1: a packet to QPN 0xFFFFFF is delivered to every QP
 * attached to the DLID's (the MGID's) group. */
#define MCAST_QPN 0xffffffu

struct mcast_run_config {
	const char *device;
	uint8_t port_num;
	uint16_t pkey_index;	/* of the group's partition */
	uint32_t qkey;		/* the members' QPs' Q_Key */
	struct ibv_ah_attr attr;	/* the group's AH */
	/* Our own GID (attr's sgid): the replies' DGID, which tells the
	 * GRH's form (IPv4 or IPv6) apart. */
	union ibv_gid sgid;
	uint32_t count, interval_ms, timeout_ms, size;
	bool busy_poll;
	struct probe_params asked;
	/* The hop limit the probes leave with; -1: unknown. A multicast
	 * AH's is sent as given (the kernel's ib_resolve_eth_dmac maps a
	 * multicast DGID to its MAC and resolves no route). */
	int hop_limit_sent;
};

/* Runs the probes into t (mcast_tally_init'ed by this call: free it
 * after). Returns 0, or -1 with err set when the QP or the AH could not
 * be made or a send failed. */
int mcast_run(const struct mcast_run_config *c, struct mcast_tally *t,
	      char *err, size_t errlen);

#endif
