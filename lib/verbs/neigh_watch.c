/* rtnetlink neighbour changes; see neigh_watch.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>

#include "verbs/neigh_watch.h"

/* Read with fixed offsets, never by casting the buffer: struct nlmsghdr
 * (len 4, type 2, flags 2, seq 4, pid 4), struct ndmsg (family 1, pad 3,
 * ifindex 4, state 2, flags 1, type 1), struct rtattr (len 2, type 2),
 * all in host order, 4-byte aligned (NLMSG_ALIGN, RTA_ALIGN). */
#define NLMSG_HDR 16
#define NDMSG_SIZE 12
#define RTA_HDR 4

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static bool decode_neigh(const uint8_t *msg, size_t len, bool deleted,
			 struct neigh_change *c)
{
	const uint8_t *nd = msg + NLMSG_HDR;
	uint8_t family;
	bool has_dst = false;
	size_t at;

	if (len < NLMSG_HDR + NDMSG_SIZE)
		return false;
	family = nd[0];
	if (family != AF_INET && family != AF_INET6)
		return false;
	memset(c, 0, sizeof(*c));
	c->deleted = deleted;
	c->ifindex = (int)get32(nd + 4);
	c->state = get16(nd + 8);
	for (at = NLMSG_HDR + align4(NDMSG_SIZE); at + RTA_HDR <= len;) {
		size_t rta_len = get16(msg + at);
		uint16_t type = get16(msg + at + 2);
		const uint8_t *data = msg + at + RTA_HDR;
		size_t data_len;

		/* Lengths compared, never pointers (a huge rta_len). */
		if (rta_len < RTA_HDR || rta_len > len - at)
			break;
		data_len = rta_len - RTA_HDR;
		if (type == NDA_DST && family == AF_INET && data_len == 4) {
			c->addr[10] = c->addr[11] = 0xff;
			memcpy(c->addr + 12, data, 4);
			has_dst = true;
		} else if (type == NDA_DST && family == AF_INET6 &&
			   data_len == 16) {
			memcpy(c->addr, data, 16);
			has_dst = true;
		} else if (type == NDA_LLADDR && data_len > 0 &&
			   data_len <= NEIGH_LLADDR_MAX) {
			memcpy(c->lladdr, data, data_len);
			c->lladdr_len = (uint8_t)data_len;
		}
		at += align4(rta_len);
	}
	return has_dst;
}

size_t neigh_changes_decode(const void *buf, size_t len,
			    struct neigh_change *out, size_t max)
{
	const uint8_t *p = buf;
	size_t at = 0, n = 0;

	while (n < max && len - at >= NLMSG_HDR) {
		size_t msg_len = get32(p + at);
		uint16_t type = get16(p + at + 4);

		if (msg_len < NLMSG_HDR || msg_len > len - at)
			break;
		if ((type == RTM_NEWNEIGH || type == RTM_DELNEIGH) &&
		    decode_neigh(p + at, msg_len, type == RTM_DELNEIGH,
				 &out[n]))
			n++;
		if (align4(msg_len) > len - at)
			break;
		at += align4(msg_len);
	}
	return n;
}

bool neigh_change_moves(const struct neigh_change *c,
			const uint8_t *known_mac, size_t known_mac_len)
{
	if (c->deleted || (c->state & (NUD_FAILED | NUD_INCOMPLETE)))
		return true;
	if (!c->lladdr_len)
		return false;	/* no MAC said: nothing moved that we know */
	return known_mac_len != c->lladdr_len ||
	       memcmp(known_mac, c->lladdr, known_mac_len) != 0;
}

int neigh_watch_open(char *err, size_t errlen)
{
	struct sockaddr_nl sa = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1u << (RTNLGRP_NEIGH - 1),
	};
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
			NETLINK_ROUTE);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		snprintf(err, errlen, "cannot watch the neighbour table "
			 "(rtnetlink): %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

size_t neigh_watch_read(int fd, struct neigh_change *out, size_t max,
			bool *overrun)
{
	uint8_t buf[16384] __attribute__((aligned(4)));
	size_t n = 0;

	*overrun = false;
	while (n < max) {
		ssize_t got = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (got < 0 && errno == ENOBUFS) {
			*overrun = true;
			continue;
		}
		if (got <= 0)
			break;
		n += neigh_changes_decode(buf, (size_t)got, out + n, max - n);
	}
	return n;
}
