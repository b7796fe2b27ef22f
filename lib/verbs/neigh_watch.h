/* The kernel's neighbour table changes, as rtnetlink tells them
 * (RTM_NEWNEIGH / RTM_DELNEIGH on a NETLINK_ROUTE socket bound to
 * RTNLGRP_NEIGH): a RoCE AH carries the next hop's MAC from the moment
 * it was made (rdma-core providers/mlx5/verbs.c mlx5_create_ah copies
 * resp.dmac, which the kernel's ib_resolve_eth_dmac /
 * rdma_addr_find_l2_eth_by_grh found), and no verbs event follows when
 * that neighbour moves (a gateway failover, a NIC swap): whoever caches
 * AHs watches the neighbours itself. The decoder is a pure function of
 * the bytes. */
#ifndef IBAHPROBE_NEIGH_WATCH_H
#define IBAHPROBE_NEIGH_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NEIGH_LLADDR_MAX 32

struct neigh_change {
	bool deleted;		/* RTM_DELNEIGH */
	int ifindex;
	uint16_t state;		/* NUD_* */
	/* NDA_DST as an IPv6 address (IPv4 mapped, ::ffff:a.b.c.d). */
	uint8_t addr[16];
	uint8_t lladdr_len;	/* 0: no NDA_LLADDR */
	uint8_t lladdr[NEIGH_LLADDR_MAX];
};

/* The neighbour changes in one datagram of rtnetlink messages (AF_INET
 * and AF_INET6 only; others, and messages that are not neighbour ones,
 * are skipped): up to max of them in out, the count returned. A message
 * whose lengths do not fit the datagram ends the walk. */
size_t neigh_changes_decode(const void *buf, size_t len,
			    struct neigh_change *out, size_t max);

/* Whether a change may mean the next hop's MAC is not the one an AH
 * made earlier carries: it was deleted, failed, or names a MAC other
 * than known_mac (known_mac_len 0: not known, so any MAC may differ). */
bool neigh_change_moves(const struct neigh_change *c,
			const uint8_t *known_mac, size_t known_mac_len);

/* A non-blocking NETLINK_ROUTE socket bound to RTNLGRP_NEIGH, or -1
 * with err. */
int neigh_watch_open(char *err, size_t errlen);
/* Reads what is waiting (never blocks): the changes decoded, up to max.
 * An overrun (ENOBUFS: the kernel dropped some) is reported as
 * *overrun true, after which every AH should be taken as moved. */
size_t neigh_watch_read(int fd, struct neigh_change *out, size_t max,
			bool *overrun);

#endif
