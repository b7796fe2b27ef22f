/* The IPv6 flow label of a trace's UDP socket: see flowlabel_lease.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/small_file.h"
#include "trace/flowlabel_lease.h"

enum flowlabel_plan flowlabel_plan_decide(const struct flowlabel_facts *f,
					  char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	if (f->label == 0) {
		if (f->auto_flowlabels != FLOWLABEL_AUTO_FORCED)
			return FLOWLABEL_PLAN_AUTO_OFF;
		snprintf(why, len, "net.ipv6.auto_flowlabels is 3 (forced): "
			 "the kernel writes its own label where 0 is sent");
		return FLOWLABEL_PLAN_IMPOSSIBLE;
	}
	if (f->state_ranges && (f->label & FLOWLABEL_STATELESS_FLAG)) {
		snprintf(why, len, "net.ipv6.flowlabel_state_ranges is on: "
			 "labels from 0x80000 up cannot be leased");
		return FLOWLABEL_PLAN_IMPOSSIBLE;
	}
	return FLOWLABEL_PLAN_LEASE;
}

void flowlabel_lease_request(uint32_t label, const struct in6_addr *dst,
			     struct in6_flowlabel_req *req)
{
	memset(req, 0, sizeof(*req));
	req->flr_dst = *dst;
	req->flr_label = htonl(label & IPV6_FLOWINFO_FLOWLABEL);
	req->flr_action = IPV6_FL_A_GET;
	req->flr_flags = IPV6_FL_F_CREATE;
	req->flr_share = IPV6_FL_S_ANY;
	/* 0: FL_MIN_LINGER (check_linger), what any user may ask. */
	req->flr_linger = 0;
	req->flr_expires = 0;
}

static int sysctl_int(const char *path, int fallback)
{
	char text[32];
	int value;

	if (small_file_read(path, text, sizeof(text)) < 0 ||
	    sscanf(text, "%d", &value) != 1)
		return fallback;
	return value;
}

void flowlabel_facts_read(uint32_t label, struct flowlabel_facts *f)
{
	f->label = label;
	f->auto_flowlabels =
		sysctl_int("/proc/sys/net/ipv6/auto_flowlabels", -1);
	f->state_ranges =
		sysctl_int("/proc/sys/net/ipv6/flowlabel_state_ranges", 0) != 0;
}

static bool refused(const char *what, char *why, size_t len)
{
	const char *cause = errno == EPERM
		? " (held exclusively, or under another share mode, by "
		  "another socket)"
		: errno == ERANGE ? " (net.ipv6.flowlabel_state_ranges)" : "";

	snprintf(why, len, "%s refused: %s%s", what, strerror(errno), cause);
	return false;
}

bool flowlabel_apply(int fd, const struct flowlabel_facts *f,
		     struct sockaddr_storage *dest, char *why, size_t len)
{
	struct sockaddr_in6 *to = (struct sockaddr_in6 *)dest;
	struct in6_flowlabel_req req;
	int off = 0, on = 1;

	switch (flowlabel_plan_decide(f, why, len)) {
	case FLOWLABEL_PLAN_IMPOSSIBLE:
		return false;
	case FLOWLABEL_PLAN_AUTO_OFF:
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_AUTOFLOWLABEL, &off,
			       sizeof(off)))
			return refused("IPV6_AUTOFLOWLABEL", why, len);
		return true;
	case FLOWLABEL_PLAN_LEASE:
		break;
	}
	flowlabel_lease_request(f->label, &to->sin6_addr, &req);
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_FLOWLABEL_MGR, &req,
		       sizeof(req)))
		return refused("the lease of the flow label (IPV6_FLOWLABEL_MGR)",
			       why, len);
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_FLOWINFO_SEND, &on, sizeof(on)))
		return refused("IPV6_FLOWINFO_SEND", why, len);
	to->sin6_flowinfo = htonl(f->label & IPV6_FLOWINFO_FLOWLABEL);
	return true;
}
