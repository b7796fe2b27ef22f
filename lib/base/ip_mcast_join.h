/* An IP multicast membership held by a socket, so that the host's IGMP
 * (IPv4) or MLD (IPv6) reports tell snooping switches and multicast
 * routers that this interface wants the group: RoCE v2 datagrams to a
 * group travel as UDP/IP and are forwarded by what IGMP/MLD taught.
 * The kernel's cma_iboe_join_multicast() does the same for rdma_cm
 * (cma_igmp_send(): ip_mc_inc_group/ipv6_sock_mc_join on the GID's
 * netdev); ibv_attach_mcast alone only opens the device's MAC filter,
 * and on rxe (rxe_mcast.c rxe_mcast_add) with the MAC ipv6_eth_mc_map
 * makes of the GID, 33:33:.. even for an IPv4-mapped group. The socket's
 * membership is also what lets the IP layer hand a datagram to a group
 * (ip_check_mc_rcu) to rxe's UDP socket on 4791. Closing the socket
 * leaves the group (the kernel sends the IGMP leave / MLD done). */
#ifndef IBAHPROBE_IP_MCAST_JOIN_H
#define IBAHPROBE_IP_MCAST_JOIN_H

#include <stddef.h>

#include <infiniband/verbs.h>

/* group: an IPv4-mapped GID (IPv4 group) or an IPv6 multicast address.
 * Returns the socket holding the membership on netdev, or -1 with err
 * set. */
int ip_mcast_join(const union ibv_gid *group, const char *netdev, char *err,
		  size_t errlen);

#endif
