/* Route lookups over rtnetlink, the way `ip route get ADDR oif DEV` asks:
 * one RTM_GETROUTE request, one answer, bounded by a receive timeout. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "verbs/route_info.h"

struct route_request {
	struct nlmsghdr nh;
	struct rtmsg rt;
	char attrs[64];
};

static void add_attr(struct route_request *req, unsigned short type,
		     const void *data, size_t len)
{
	struct rtattr *rta = (struct rtattr *)((char *)req +
					       NLMSG_ALIGN(req->nh.nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	req->nh.nlmsg_len = NLMSG_ALIGN(req->nh.nlmsg_len) + RTA_ALIGN(rta->rta_len);
}

/* The address as the kernel's family and bytes; IPv4-mapped is IPv4, as
 * rxe sends RoCE v2 over IPv4 for such GIDs. */
static int parse_address(const char *text, int *family, unsigned char *bytes)
{
	struct in6_addr v6;

	if (inet_pton(AF_INET, text, bytes) == 1) {
		*family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, text, &v6) != 1)
		return -1;
	if (IN6_IS_ADDR_V4MAPPED(&v6)) {
		*family = AF_INET;
		memcpy(bytes, &v6.s6_addr[12], 4);
	} else {
		*family = AF_INET6;
		memcpy(bytes, &v6, 16);
	}
	return 0;
}

static int read_sysctl_u8(const char *path, uint8_t *value)
{
	FILE *f = fopen(path, "r");
	unsigned int v;
	int rc = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%u", &v) == 1 && v <= 255) {
		*value = (uint8_t)v;
		rc = 0;
	}
	fclose(f);
	return rc;
}

static void default_hop_limit(struct route_info *info)
{
	char path[128];

	info->hop_limit = 64;
	if (info->family == AF_INET) {
		read_sysctl_u8("/proc/sys/net/ipv4/ip_default_ttl", &info->hop_limit);
		return;
	}
	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/hop_limit",
		 info->oif[0] ? info->oif : "default");
	read_sysctl_u8(path, &info->hop_limit);
}

static void parse_metrics(struct rtattr *metrics, struct route_info *info)
{
	int len = (int)RTA_PAYLOAD(metrics);

	for (struct rtattr *m = RTA_DATA(metrics); RTA_OK(m, len);
	     m = RTA_NEXT(m, len)) {
		if (m->rta_type == RTAX_HOPLIMIT &&
		    RTA_PAYLOAD(m) >= sizeof(uint32_t)) {
			uint32_t v;

			memcpy(&v, RTA_DATA(m), sizeof(v));
			if (v > 0 && v <= 255) {
				info->hop_limit = (uint8_t)v;
				info->hop_limit_from_route = true;
			}
		}
	}
}

static int parse_answer(struct nlmsghdr *nh, int len, struct route_info *info,
			char *err, size_t errlen)
{
	for (; NLMSG_OK(nh, (unsigned int)len); nh = NLMSG_NEXT(nh, len)) {
		struct rtmsg *rt = NLMSG_DATA(nh);
		int alen;

		if (nh->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *e = NLMSG_DATA(nh);

			snprintf(err, errlen, "no route: %s", strerror(-e->error));
			return -1;
		}
		if (nh->nlmsg_type != RTM_NEWROUTE)
			continue;
		info->local = rt->rtm_type == RTN_LOCAL;
		alen = (int)RTM_PAYLOAD(nh);
		for (struct rtattr *a = RTM_RTA(rt); RTA_OK(a, alen);
		     a = RTA_NEXT(a, alen)) {
			switch (a->rta_type) {
			case RTA_OIF: {
				int ifindex;

				memcpy(&ifindex, RTA_DATA(a), sizeof(ifindex));
				if (!if_indextoname((unsigned)ifindex, info->oif))
					info->oif[0] = '\0';
				break;
			}
			case RTA_GATEWAY:
				info->has_gateway = true;
				inet_ntop(info->family, RTA_DATA(a), info->gateway,
					  sizeof(info->gateway));
				break;
			case RTA_PREFSRC:
				inet_ntop(info->family, RTA_DATA(a), info->source,
					  sizeof(info->source));
				break;
			case RTA_METRICS:
				parse_metrics(a, info);
				break;
			}
		}
		return 0;
	}
	snprintf(err, errlen, "no route: the kernel sent no answer");
	return -1;
}

/* The kernel's source address for a datagram to dst, when the route
 * answer named none: connect(2) on a UDP socket runs the same source
 * selection (ip_route_connect, ip6_dst_lookup) without sending anything.
 * scope_id binds a link-local destination to its interface. */
static void source_by_connect(int family, const unsigned char *dst,
			      unsigned int scope_id, struct route_info *info)
{
	struct sockaddr_storage peer = { 0 }, self;
	socklen_t len = sizeof(self);
	socklen_t peer_len;
	int sock;

	if (family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&peer;

		in->sin_family = AF_INET;
		in->sin_port = htons(4791);	/* any port: nothing is sent */
		memcpy(&in->sin_addr, dst, 4);
		peer_len = sizeof(*in);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&peer;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(4791);
		memcpy(&in6->sin6_addr, dst, 16);
		in6->sin6_scope_id = scope_id;
		peer_len = sizeof(*in6);
	}
	sock = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return;
	if (connect(sock, (struct sockaddr *)&peer, peer_len) == 0 &&
	    getsockname(sock, (struct sockaddr *)&self, &len) == 0) {
		const void *addr = family == AF_INET
			? (const void *)&((struct sockaddr_in *)&self)->sin_addr
			: (const void *)&((struct sockaddr_in6 *)&self)->sin6_addr;

		inet_ntop(family, addr, info->source, sizeof(info->source));
	}
	close(sock);
}

int route_lookup(const char *address, const char *oif, struct route_info *info,
		 char *err, size_t errlen)
{
	unsigned int ifindex = 0;
	struct route_request req = { 0 };
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct timeval timeout = { .tv_sec = 1 };
	unsigned char dst[16];
	char answer[8192];
	int sock, len, rc;
	bool metric_seen;

	memset(info, 0, sizeof(*info));
	if (parse_address(address, &info->family, dst)) {
		snprintf(err, errlen, "'%s' is not an IP address", address);
		return -1;
	}
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req.nh.nlmsg_type = RTM_GETROUTE;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.nh.nlmsg_seq = 1;
	req.rt.rtm_family = (unsigned char)info->family;
	req.rt.rtm_dst_len = info->family == AF_INET ? 32 : 128;
	add_attr(&req, RTA_DST, dst, info->family == AF_INET ? 4 : 16);
	if (oif) {
		int oif_index;

		ifindex = if_nametoindex(oif);
		if (!ifindex) {
			snprintf(err, errlen, "no interface '%s'", oif);
			return -1;
		}
		oif_index = (int)ifindex;
		add_attr(&req, RTA_OIF, &oif_index, sizeof(oif_index));
	}
	sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (sock < 0) {
		snprintf(err, errlen, "rtnetlink socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	if (sendto(sock, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0) {
		snprintf(err, errlen, "rtnetlink request: %s", strerror(errno));
		close(sock);
		return -1;
	}
	len = (int)recv(sock, answer, sizeof(answer), 0);
	close(sock);
	if (len < 0) {
		snprintf(err, errlen, "rtnetlink answer: %s", strerror(errno));
		return -1;
	}
	rc = parse_answer((struct nlmsghdr *)answer, len, info, err, errlen);
	if (rc)
		return rc;
	/* A socket bound to an interface needs privileges; a link-local
	 * destination's scope is bound through sin6_scope_id instead. */
	if (!info->source[0] &&
	    (!oif || (info->family == AF_INET6 && dst[0] == 0xfe &&
		      (dst[1] & 0xc0) == 0x80)))
		source_by_connect(info->family, dst, ifindex, info);
	metric_seen = info->hop_limit_from_route;
	if (!metric_seen)
		default_hop_limit(info);
	return 0;
}
