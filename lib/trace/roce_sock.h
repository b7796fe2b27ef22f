/* The kernel UDP socket a RoCE v2 trace sends its datagrams from, one per
 * flow (a fixed 5-tuple): bound to the source GID's address and the UDP
 * source port of the flow label, sent out of the GID's netdev, with the
 * traffic class as IP TOS and the hop limit of each query; ICMP errors
 * come back on its error queue (IP_RECVERR), which needs no privilege.
 *
 * Why a kernel socket: rxe derives a UD QP's UDP source port from the
 * QPN (rxe_qp_init_req), not from the flow label, and no verbs provider
 * lets the hop limit through on a kernel-built AH (vmfabric notes); the
 * socket sets both. Why these options (Linux net/ipv4 and net/ipv6):
 * - no connect(), and IP_MTU_DISCOVER = IP_PMTUDISC_PROBE: the kernel then
 *   writes IPv4 ID 0 with DF (ip_select_ident_segs), which the ICRC the
 *   destination checks covers; a connected socket's ID is a per-socket
 *   counter from a random start. PROBE also ignores a learnt path MTU.
 * - IP_UNICAST_IF / IPV6_UNICAST_IF (no capability needed; the value is
 *   the ifindex in network byte order, do_ip_setsockopt and
 *   do_ipv6_setsockopt), SO_BINDTODEVICE when that fails (unprivileged
 *   since Linux 5.7, sock_bindtoindex_locked): a route lookup without the
 *   netdev takes a local destination through lo, where rxe drops it
 *   (rxe_udp_encap_recv finds no device on lo).
 * - IP_RECVERR / IPV6_RECVERR: without it an unconnected UDP socket never
 *   sees time exceeded (__udp4_lib_err); IP_RECVTTL / IPV6_RECVHOPLIMIT
 *   give the hop limit the ICMP message arrived with (how far back the
 *   answering router is).
 * - SO_PRIORITY from the traffic class (roce_sock_priority_of_tclass):
 *   the queue the socket's datagrams wait in on this host. IP_TOS sets it
 *   for IPv4 already (do_ip_setsockopt: sk_priority =
 *   rt_tos2priority(tos)); IPV6_TCLASS does not, so it is set for both.
 *   Values 0-6 need no capability (sk_setsockopt, SO_PRIORITY). */
#ifndef IBAHPROBE_ROCE_SOCK_H
#define IBAHPROBE_ROCE_SOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define ROCE_V2_UDP_PORT 4791

struct roce_sock_params {
	/* The source GID's address (IPv4 for an IPv4-mapped GID) and its
	 * netdev; the destination's. */
	struct sockaddr_storage source, dest;
	unsigned ifindex;
	const char *ifname;	/* for SO_BINDTODEVICE */
	uint16_t udp_sport;	/* the flow label's (bound) */
	uint8_t traffic_class;	/* IP TOS / IPv6 traffic class, ECN too */
};

/* An error queue message as the kernel gave it: the ancillary data, the
 * original destination (msg_name) and the quoted datagram from the BTH on
 * (as far as the router quoted it). */
#define ROCE_SOCK_CONTROL_MAX 512
#define ROCE_SOCK_QUOTE_MAX 64

struct roce_sock_error {
	uint8_t control[ROCE_SOCK_CONTROL_MAX];
	size_t control_len;
	struct sockaddr_storage name;
	socklen_t name_len;
	uint8_t quote[ROCE_SOCK_QUOTE_MAX];
	size_t quote_len;
};

/* The queue priority (skb->priority) Linux gives a traffic class: the
 * kernel's rt_tos2priority (include/net/route.h: ip_tos2prio[IPTOS_TOS(tos)
 * >> 1], net/ipv4/route.c), the mapping rdma_cm starts from for a RoCE
 * connection's priority (iboe_tos_to_sl, include/rdma/ib_addr.h, then the
 * VLAN egress map). It reads the RFC 1349 TOS bits 1-4 only: 0, 2, 4 or 6. */
int roce_sock_priority_of_tclass(uint8_t tclass);

/* The socket of one flow, or -1 with err set (the address or port in use,
 * the netdev gone). */
int roce_sock_open(const struct roce_sock_params *p, char *err,
		   size_t errlen);
/* Sends len bytes to dest port 4791 with the given hop limit; 0, or -1
 * with errno (EMSGSIZE: bigger than the netdev's MTU; a pending ICMP
 * error the caller has not read fails one send, so it reads the error
 * queue first). */
int roce_sock_send(int fd, const struct sockaddr_storage *dest,
		   unsigned hop_limit, const void *buf, size_t len);
/* The next error queue message: 1, 0 when there is none, -1 with errno. */
int roce_sock_read_error(int fd, struct roce_sock_error *out);

#endif
