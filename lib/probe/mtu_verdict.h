/* MTU discovery's verdict in words and keys: what a finished search
 * (mtu_search) means for one destination, given where its upper bound
 * came from and how the payload is wrapped on the wire. */
#ifndef IBAHPROBE_MTU_VERDICT_H
#define IBAHPROBE_MTU_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "probe/mtu_search.h"

/* Where the upper bound came from (the smallest of them; a tie names
 * the first). */
enum mtu_bound_source {
	MTU_BOUND_PORT,		/* our port's active MTU */
	MTU_BOUND_PATH,		/* the SA PathRecord's MTU (InfiniBand) */
	MTU_BOUND_RESPONDER,	/* the responder's port (its rendezvous) */
	MTU_BOUND_NETDEV,	/* this host's netdev MTU less the headers */
};

/* How the payload travels: which headers a narrower link counts. */
enum mtu_encap {
	MTU_ENCAP_IB,
	MTU_ENCAP_ROCE_V2_IPV4,
	MTU_ENCAP_ROCE_V2_IPV6,
	MTU_ENCAP_ROCE_V1,
};

/* The bounds known of one destination, in bytes (0: not known). */
struct mtu_bounds {
	uint32_t port_mtu;	/* our port's active MTU */
	uint32_t netdev_mtu;	/* the source GID's netdev MTU (RoCE) */
	uint32_t path_mtu;
	uint32_t responder_mtu;
};

/* The largest UD payload a RoCE netdev of MTU netdev_mtu carries: the
 * netdev MTU less the headers around the payload (RoCE v2: IP, UDP,
 * BTH, DETH, ICRC; RoCE v1: GRH, BTH, DETH, ICRC). 0 when unknown, on
 * InfiniBand, or when the headers do not fit. */
uint32_t mtu_netdev_payload_max(uint32_t netdev_mtu, enum mtu_encap encap);

/* The search's upper bound: the smallest of the bounds known, capped at
 * max (the largest probe), and its source. A tie names our port first,
 * then the netdev, the path, the responder. */
uint32_t mtu_bound_choose(const struct mtu_bounds *b, enum mtu_encap encap,
			  uint32_t max, enum mtu_bound_source *source);

struct mtu_verdict {
	const char *key;	/* no_blackhole, blackhole, unreachable */
	bool fine;		/* the bound arrives */
	uint32_t ip_mtu;	/* RoCE v2 blackhole: the narrow IP MTU; 0 */
	char text[400];
};

/* "port MTU", "path MTU", "responder's port MTU", "limit of this
 * host's netdev MTU". */
const char *mtu_bound_source_words(enum mtu_bound_source source);
/* "port", "path", "responder", "netdev" (JSON). */
const char *mtu_bound_source_key(enum mtu_bound_source source);

/* m: a finished search (m->result is not MTU_SEARCHING). */
void mtu_verdict_judge(const struct mtu_search *m, enum mtu_bound_source source,
		       enum mtu_encap encap, struct mtu_verdict *v);

#endif
