/* An ICMP error as a raw ICMP socket receives it, read for the header of
 * our datagram that it quotes: the traffic class (DSCP and ECN) and hop
 * limit as the answering router received the datagram, its addresses,
 * UDP ports and as much of the BTH as was quoted.
 *
 * Why a raw socket at all: the UDP socket's error queue (IP_RECVERR,
 * lib/wire/icmp_errqueue.h) hands back our datagram's payload only, never its
 * IP header (ip_icmp_error queues the bytes after the UDP header), so the
 * DSCP a router saw is known only from the ICMP message itself. Linux
 * routers quote the header as it arrived, before their own changes:
 * ip_forward (net/ipv4/ip_forward.c) calls icmp_send() on the received
 * skb when the TTL is at most 1, before ip_decrease_ttl and before any
 * postrouting mangle; ip6_forward (net/ipv6/ip6_output.c) does the same
 * with icmpv6_send(). icmp_send quotes up to 576 bytes of it
 * (net/ipv4/icmp.c), icmp6_send up to the IPv6 minimum MTU; RFC 792
 * routers may quote only 8 bytes past the IP header (the UDP header).
 *
 * Pure: bytes in, struct out (tests/unit/test_icmp_quote.c). IPv4 raw
 * sockets (SOCK_RAW, IPPROTO_ICMP) receive the outer IP header too
 * (raw_rcv); ICMPv6 raw sockets start at the ICMPv6 header (rawv6_rcv
 * pulls the IPv6 header off). IPv6 extension headers in the quoted
 * datagram are not walked: our datagrams carry none, so a quote with one
 * is not ours. */
#ifndef IBAHPROBE_ICMP_QUOTE_H
#define IBAHPROBE_ICMP_QUOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct icmp_quote {
	bool ipv6;
	uint8_t type, code;	/* the ICMP / ICMPv6 message's */
	/* IPv4 only: who sent the ICMP message (its outer header) and the
	 * hop limit it arrived with; for IPv6 recvfrom's address and
	 * IPV6_HOPLIMIT tell these. */
	uint8_t from[4];
	uint8_t reply_ttl;
	/* The quoted IP header of our datagram, as the router received
	 * it. Addresses are 4 bytes for IPv4, 16 for IPv6. */
	uint8_t tclass;		/* IPv4 TOS byte / IPv6 traffic class */
	uint8_t hop_limit;	/* IPv4 TTL / IPv6 hop limit */
	uint8_t src[16], dst[16];
	/* The quoted UDP header (8 bytes past the IP header). */
	bool has_udp;
	uint16_t sport, dport;
	/* The quoted BTH: opcode, dest QPN, PSN (all 12 bytes quoted). */
	bool has_bth;
	uint8_t opcode;
	uint32_t dest_qpn, psn;
};

/* The ICMP types that quote a datagram: destination unreachable, time
 * exceeded (and for IPv6 packet too big). Anything else, a truncated or
 * malformed message, or a quote of something other than UDP: -1. */
int icmp_quote_decode_ipv4(const uint8_t *packet, size_t len,
			   struct icmp_quote *out);
int icmp_quote_decode_ipv6(const uint8_t *message, size_t len,
			   struct icmp_quote *out);

#endif
