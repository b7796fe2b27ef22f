/* One message of a UDP socket's error queue (recvmsg MSG_ERRQUEUE with
 * IP_RECVERR / IPV6_RECVERR set) as a plain struct: who answered (the
 * ICMP message's source: a router whose hop limit ran out, or the
 * destination host), what (time exceeded, port unreachable, too big with
 * the MTU, another unreachable, or a local EMSGSIZE), the datagram's
 * original destination, the hop limit the ICMP message arrived with, and
 * the start of our datagram as the router quoted it; and which of a
 * trace's outstanding queries it answers.
 *
 * Pure functions over the bytes recvmsg gave (ancillary data, msg_name,
 * data), so tests feed them made-up messages
 * (tests/unit/test_icmp_errqueue.c). Linux fills them in ip_icmp_error /
 * ip_recv_error (net/ipv4/ip_sockglue.c) and ipv6_icmp_error /
 * ipv6_recv_error (net/ipv6/datagram.c). */
#ifndef IBAHPROBE_ICMP_ERRQUEUE_H
#define IBAHPROBE_ICMP_ERRQUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* The largest ancillary data decoded: the error (16 bytes + a sockaddr_in6)
 * and a hop limit, with room to spare. */
#define ICMP_ERRQUEUE_CONTROL_MAX 512

enum icmp_err_kind {
	/* Time exceeded in transit (IPv4 11/0, IPv6 3/0): a router. */
	ICMP_ERR_TIME_EXCEEDED,
	/* Port unreachable (IPv4 3/3, IPv6 1/4) from the destination
	 * itself: nothing listens on UDP 4791 there, no RoCE device (or
	 * none on that address). */
	ICMP_ERR_PORT_UNREACHABLE,
	/* Fragmentation needed (IPv4 3/4) or packet too big (IPv6 2/0): a
	 * link on the way is narrower than the datagram; mtu as the router
	 * said (0 when it did not). */
	ICMP_ERR_TOO_BIG,
	/* Any other destination unreachable (no route, prohibited, a
	 * port unreachable from someone other than the destination). */
	ICMP_ERR_UNREACHABLE,
	/* Our own host refused to send it: bigger than the netdev's MTU
	 * (mtu), the datagram never left. */
	ICMP_ERR_LOCAL_EMSGSIZE,
	/* Anything else (parameter problem, reassembly time exceeded,
	 * other local errors): type, code and errno say what. */
	ICMP_ERR_OTHER,
};

struct icmp_err {
	enum icmp_err_kind kind;
	uint8_t origin;		/* SO_EE_ORIGIN_LOCAL, _ICMP, _ICMP6 */
	uint8_t type, code;	/* ICMP or ICMPv6 numbers (they differ) */
	uint32_t err_no;	/* ee_errno: EHOSTUNREACH, ECONNREFUSED... */
	uint32_t info;		/* ee_info as given */
	uint32_t mtu;		/* TOO_BIG, LOCAL_EMSGSIZE; 0 otherwise */
	/* The ICMP message's source address (SO_EE_OFFENDER); false when
	 * the kernel did not know one (AF_UNSPEC, local errors). */
	bool has_offender;
	struct sockaddr_storage offender;
	/* Where our datagram was going (msg_name): address and port. */
	bool has_dest;
	struct sockaddr_storage dest;
	/* The ICMP message's own hop limit on arrival (IP_RECVTTL /
	 * IPV6_RECVHOPLIMIT), -1 when not given. */
	int reply_ttl;
	/* The quoted datagram from the BTH on: how much, and as far as it
	 * goes its opcode (1 byte), dest QPN (8) and PSN (12: has_bth). */
	size_t quote_len;
	bool has_bth;
	uint8_t quote_opcode;
	uint32_t quote_dest_qpn, quote_psn;
};

/* Decodes one message. -1 when the ancillary data holds no extended
 * error (IP_RECVERR / IPV6_RECVERR), or it is malformed. */
int icmp_errqueue_decode(const uint8_t *control, size_t control_len,
			 const struct sockaddr_storage *name,
			 socklen_t name_len, const uint8_t *quote,
			 size_t quote_len, struct icmp_err *out);

const char *icmp_err_kind_name(enum icmp_err_kind kind);

/* Whether two socket addresses are the same address (and port, when
 * with_port). */
bool icmp_sockaddr_equal(const struct sockaddr_storage *a,
			 const struct sockaddr_storage *b, bool with_port);

/* Which outstanding query (index into psns, n of them) the error
 * answers, for datagrams sent to target (address and port 4791) and the
 * responder's dest_qpn; -1: not ours, ignore it. The original
 * destination must be the target; with the BTH quoted, the opcode (UD
 * SEND_ONLY), dest QPN and PSN must be ours (an error for rxe's own
 * traffic from the same source port reaches this socket too); with less
 * quoted (RFC 792 routers quote 8 bytes past the IP header, which the
 * kernel does not return: nothing at all), the only outstanding query. */
int icmp_errqueue_match(const struct icmp_err *e,
			const struct sockaddr_storage *target,
			uint32_t dest_qpn, const uint32_t *psns, size_t n);

#endif
