/* The raw ICMP listener of a trace: see icmp_raw.h. */
#include <errno.h>
#include <linux/icmp.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <string.h>
#include <unistd.h>

#include "trace/icmp_raw.h"

/* Destination unreachable (3) and time exceeded (11); a set bit blocks
 * its type (raw_icmp_filter, net/ipv4/raw.c). */
#define ICMP4_PASS ((1u << 3) | (1u << 11))

int icmp_raw_open(int family)
{
	int fd;

	if (family == AF_INET) {
		struct icmp_filter filter = { .data = ~ICMP4_PASS };

		fd = socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    IPPROTO_ICMP);
		if (fd < 0)
			return -1;
		if (setsockopt(fd, SOL_RAW, ICMP_FILTER, &filter,
			       sizeof(filter)) == 0)
			return fd;
	} else {
		struct icmp6_filter filter;

		fd = socket(AF_INET6, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    IPPROTO_ICMPV6);
		if (fd < 0)
			return -1;
		ICMP6_FILTER_SETBLOCKALL(&filter);
		ICMP6_FILTER_SETPASS(ICMP6_DST_UNREACH, &filter);
		ICMP6_FILTER_SETPASS(ICMP6_PACKET_TOO_BIG, &filter);
		ICMP6_FILTER_SETPASS(ICMP6_TIME_EXCEEDED, &filter);
		if (setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &filter,
			       sizeof(filter)) == 0)
			return fd;
	}
	{
		int saved = errno;

		close(fd);
		errno = saved;
	}
	return -1;
}

int icmp_raw_read(int fd, int family, struct icmp_quote *q, bool *decoded)
{
	struct sockaddr_storage from;

	return icmp_raw_read_from(fd, family, q, decoded, &from);
}

int icmp_raw_read_from(int fd, int family, struct icmp_quote *q,
		       bool *decoded, struct sockaddr_storage *from)
{
	/* icmp_send quotes at most 576 bytes in all; ICMPv6 up to the
	 * minimum MTU. The header and BTH are at the front: a longer
	 * message is cut, which is fine (MSG_TRUNC not needed). */
	uint8_t buf[1280];
	socklen_t from_len = sizeof(*from);
	ssize_t n;

	memset(from, 0, sizeof(*from));
	n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT,
		     (struct sockaddr *)from, &from_len);

	*decoded = false;
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	*decoded = (family == AF_INET
			    ? icmp_quote_decode_ipv4(buf, (size_t)n, q)
			    : icmp_quote_decode_ipv6(buf, (size_t)n, q)) == 0;
	return 1;
}
