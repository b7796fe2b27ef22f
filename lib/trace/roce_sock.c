/* The socket of a RoCE v2 trace's flow: see roce_sock.h for why each
 * option. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "trace/roce_sock.h"

static int set_int(int fd, int level, int name, int value)
{
	return setsockopt(fd, level, name, &value, sizeof(value));
}

int roce_sock_priority_of_tclass(uint8_t tclass)
{
	/* TC_PRIO_BESTEFFORT 0, TC_PRIO_BULK 2, TC_PRIO_INTERACTIVE 6,
	 * TC_PRIO_INTERACTIVE_BULK 4 (include/uapi/linux/pkt_sched.h);
	 * ECN_OR_COST(class) is the class itself since Linux 2.6.37. */
	static const uint8_t tos2prio[16] = {
		0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4,
	};

	return tos2prio[(tclass & 0x1e) >> 1];
}

static socklen_t addr_len(const struct sockaddr_storage *a)
{
	return a->ss_family == AF_INET ? sizeof(struct sockaddr_in)
				       : sizeof(struct sockaddr_in6);
}

/* The output netdev: IP_UNICAST_IF first (any kernel, no capability),
 * SO_BINDTODEVICE when it is refused. */
static int pin_netdev(int fd, const struct roce_sock_params *p)
{
	int v4 = p->source.ss_family == AF_INET;
	int index_be = (int)htonl(p->ifindex);

	if (setsockopt(fd, v4 ? IPPROTO_IP : IPPROTO_IPV6,
		       v4 ? IP_UNICAST_IF : IPV6_UNICAST_IF, &index_be,
		       sizeof(index_be)) == 0)
		return 0;
	if (!p->ifname)
		return -1;
	return setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, p->ifname,
			  (socklen_t)strlen(p->ifname) + 1);
}

int roce_sock_open(const struct roce_sock_params *p, char *err,
		   size_t errlen)
{
	struct sockaddr_storage bound = p->source;
	int v4 = p->source.ss_family == AF_INET;
	int fd = socket(p->source.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	const char *step;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open a UDP socket: %s",
			 strerror(errno));
		return -1;
	}
	if (v4)
		((struct sockaddr_in *)&bound)->sin_port = htons(p->udp_sport);
	else
		((struct sockaddr_in6 *)&bound)->sin6_port =
			htons(p->udp_sport);
	step = "IPV6_V6ONLY";
	if (!v4 && set_int(fd, IPPROTO_IPV6, IPV6_V6ONLY, 1))
		goto fail;
	step = "the netdev (IP_UNICAST_IF, SO_BINDTODEVICE)";
	if (pin_netdev(fd, p))
		goto fail;
	step = "IP_RECVERR";
	if (set_int(fd, v4 ? IPPROTO_IP : IPPROTO_IPV6,
		    v4 ? IP_RECVERR : IPV6_RECVERR, 1))
		goto fail;
	step = "the hop limit of ICMP answers (IP_RECVTTL)";
	if (set_int(fd, v4 ? IPPROTO_IP : IPPROTO_IPV6,
		    v4 ? IP_RECVTTL : IPV6_RECVHOPLIMIT, 1))
		goto fail;
	step = "IP_MTU_DISCOVER";
	if (set_int(fd, v4 ? IPPROTO_IP : IPPROTO_IPV6,
		    v4 ? IP_MTU_DISCOVER : IPV6_MTU_DISCOVER,
		    v4 ? IP_PMTUDISC_PROBE : IPV6_PMTUDISC_PROBE))
		goto fail;
	step = "IPV6_DONTFRAG";
	if (!v4 && set_int(fd, IPPROTO_IPV6, IPV6_DONTFRAG, 1))
		goto fail;
	step = "the traffic class (IP_TOS)";
	if (set_int(fd, v4 ? IPPROTO_IP : IPPROTO_IPV6,
		    v4 ? IP_TOS : IPV6_TCLASS, p->traffic_class))
		goto fail;
	step = "the queue priority (SO_PRIORITY)";
	if (set_int(fd, SOL_SOCKET, SO_PRIORITY,
		    roce_sock_priority_of_tclass(p->traffic_class)))
		goto fail;
	if (bind(fd, (const struct sockaddr *)&bound, addr_len(&bound))) {
		char addr[INET6_ADDRSTRLEN] = "?";

		inet_ntop(bound.ss_family,
			  v4 ? (const void *)&((struct sockaddr_in *)&bound)
				       ->sin_addr
			     : (const void *)&((struct sockaddr_in6 *)&bound)
				       ->sin6_addr,
			  addr, sizeof(addr));
		snprintf(err, errlen, "cannot bind UDP %s port %u (the "
			 "flow label's source port): %s", addr,
			 p->udp_sport, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
fail:
	snprintf(err, errlen, "cannot set %s on a UDP socket: %s", step,
		 strerror(errno));
	close(fd);
	return -1;
}

int roce_sock_send(int fd, const struct sockaddr_storage *dest,
		   unsigned hop_limit, const void *buf, size_t len)
{
	struct sockaddr_storage to = *dest;
	int v4 = to.ss_family == AF_INET;

	if (v4)
		((struct sockaddr_in *)&to)->sin_port = htons(ROCE_V2_UDP_PORT);
	else
		((struct sockaddr_in6 *)&to)->sin6_port =
			htons(ROCE_V2_UDP_PORT);
	/* The socket is this flow's alone: its hop limit is the query's. */
	if (set_int(fd, v4 ? IPPROTO_IP : IPPROTO_IPV6,
		    v4 ? IP_TTL : IPV6_UNICAST_HOPS, (int)hop_limit))
		return -1;
	return sendto(fd, buf, len, 0, (const struct sockaddr *)&to,
		      addr_len(&to)) == (ssize_t)len
		       ? 0
		       : -1;
}

int roce_sock_read_error(int fd, struct roce_sock_error *out)
{
	struct iovec iov = { .iov_base = out->quote,
			     .iov_len = sizeof(out->quote) };
	struct msghdr msg = {
		.msg_name = &out->name, .msg_namelen = sizeof(out->name),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = out->control,
		.msg_controllen = sizeof(out->control),
	};
	ssize_t n;

	memset(out, 0, sizeof(*out));
	n = recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	out->quote_len = (size_t)n;
	out->name_len = msg.msg_namelen;
	out->control_len = msg.msg_controllen;
	return 1;
}
