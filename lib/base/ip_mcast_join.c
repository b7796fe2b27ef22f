/* IP multicast memberships held by a socket; see ip_mcast_join.h. */
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/gid.h"
#include "base/ip_mcast_join.h"

int ip_mcast_join(const union ibv_gid *group, const char *netdev, char *err,
		  size_t errlen)
{
	bool v4 = gid_is_ipv4_mapped(group);
	unsigned ifindex = if_nametoindex(netdev);
	char text[GID_TEXT_MAX];
	int fd, rc;

	gid_format_address(group, text, sizeof(text));
	if (!ifindex) {
		snprintf(err, errlen, "cannot join %s on %s: no such "
			 "interface", text, netdev);
		return -1;
	}
	fd = socket(v4 ? AF_INET : AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "cannot join %s: socket: %s", text,
			 strerror(errno));
		return -1;
	}
	if (v4) {
		struct ip_mreqn mreq = { .imr_ifindex = (int)ifindex };

		memcpy(&mreq.imr_multiaddr, group->raw + 12, 4);
		rc = setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mreq,
				sizeof(mreq));
	} else {
		struct ipv6_mreq mreq = { .ipv6mr_interface = ifindex };

		memcpy(&mreq.ipv6mr_multiaddr, group->raw, 16);
		rc = setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &mreq,
				sizeof(mreq));
	}
	if (rc) {
		snprintf(err, errlen, "cannot join %s on %s (%s): %s", text,
			 netdev, v4 ? "IP_ADD_MEMBERSHIP" : "IPV6_JOIN_GROUP",
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}
