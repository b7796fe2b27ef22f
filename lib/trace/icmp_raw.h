/* A raw ICMP socket that reads the ICMP errors a trace's datagrams cause,
 * for the header each router quotes (lib/wire/icmp_quote.h): the traffic class
 * as that router received it. It needs CAP_NET_RAW (inet_create,
 * inet6_create: SOCK_RAW); without it a trace still runs on the UDP
 * socket's error queue alone and knows the traffic class at the responder
 * only. Only the ICMP types that quote a datagram pass the socket's
 * filter (ICMP_FILTER, ICMP6_FILTER), so echo traffic on a busy host
 * never reaches us. */
#ifndef IBAHPROBE_ICMP_RAW_H
#define IBAHPROBE_ICMP_RAW_H

#include <stdbool.h>
#include <sys/socket.h>

#include "wire/icmp_quote.h"

/* family: AF_INET or AF_INET6. A non-blocking socket, or -1 with errno
 * (EPERM / EACCES without CAP_NET_RAW). */
int icmp_raw_open(int family);

/* The next message: 1 read (*decoded says whether it quotes a UDP
 * datagram, q then filled), 0 none waiting, -1 with errno. */
int icmp_raw_read(int fd, int family, struct icmp_quote *q, bool *decoded);
/* icmp_raw_read that also says who sent the message (from; for IPv6 the
 * only place the router's address is, rawv6_rcv having pulled the IPv6
 * header off). */
int icmp_raw_read_from(int fd, int family, struct icmp_quote *q,
		       bool *decoded, struct sockaddr_storage *from);

#endif
