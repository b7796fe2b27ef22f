/* Unit tests of what a RoCE trace reproduces of the NIC's packets: the
 * provider's IPv6 flow label (lib/verbs/provider_flow_label.c), the flow
 * label lease and its plan (lib/trace/flowlabel_lease.c), the socket's
 * queue priority (roce_sock_priority_of_tclass), the LAG decision and the
 * gaps a trace reports (lib/trace/trace_fidelity.c); then the lease on a
 * real IPv6 socket over loopback, read back from the received header. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "trace/flowlabel_lease.h"
#include "trace/roce_sock.h"
#include "trace/trace_fidelity.h"
#include "verbs/provider_flow_label.h"
#include "tap.h"

/* mlx4/mlx5/hns write the AH's label into the AV; rxe's prepare_ipv6_hdr
 * writes 0; irdma is firmware: not known. */
static void test_wire_label(void)
{
	uint32_t label;

	is_int(provider_wire_flow_label(PROVIDER_MLX5, 0x12345, &label),
	       WIRE_FLOW_LABEL_AH, "mlx5: the AH's");
	is_int((int)label, 0x12345, "mlx5: label as the AH's");
	is_int(provider_wire_flow_label(PROVIDER_MLX4, 0x7, &label),
	       WIRE_FLOW_LABEL_AH, "mlx4: the AH's");
	is_int(provider_wire_flow_label(PROVIDER_HNS, 0x7, &label),
	       WIRE_FLOW_LABEL_AH, "hns: the AH's");
	is_int(provider_wire_flow_label(PROVIDER_RXE, 0x12345, &label),
	       WIRE_FLOW_LABEL_ZERO, "rxe: always 0");
	is_int((int)label, 0, "rxe: label 0 whatever the AH says");
	is_int(provider_wire_flow_label(PROVIDER_IRDMA, 0x5, &label),
	       WIRE_FLOW_LABEL_UNKNOWN, "irdma: not known");
	is_int((int)label, 5, "irdma: the AH's as the guess");
	provider_wire_flow_label(PROVIDER_MLX5, 0xfff12345, &label);
	is_int((int)label, 0x12345, "20 bits only");
}

static void test_fidelity_wire_label(void)
{
	struct trace_fidelity_input in = { .provider = PROVIDER_MLX5,
					   .ah_flow_label = 9 };
	uint32_t label = 0;
	char why[200];

	ok(trace_fidelity_wire_label(&in, &label, why, sizeof(why)) &&
		   label == 9 && !why[0],
	   "mlx5, label 9: known, 9");
	in.port_given = true;
	ok(!trace_fidelity_wire_label(&in, &label, why, sizeof(why)) &&
		   strstr(why, "UDP source port"),
	   "mlx5 with --udp-sport: the AH's label is not known");
	in.provider = PROVIDER_RXE;
	ok(trace_fidelity_wire_label(&in, &label, why, sizeof(why)) &&
		   label == 0,
	   "rxe with --udp-sport: 0 all the same");
	in = (struct trace_fidelity_input){ .provider = PROVIDER_BNXT_RE,
					    .ah_flow_label = 3 };
	ok(!trace_fidelity_wire_label(&in, &label, why, sizeof(why)) &&
		   label == 3 && strstr(why, "bnxt_re"),
	   "bnxt_re: not known, said so, the AH's sent");
}

static void test_plan(void)
{
	struct flowlabel_facts f = { .label = 0, .auto_flowlabels = 1 };
	char why[200];

	is_int(flowlabel_plan_decide(&f, why, sizeof(why)),
	       FLOWLABEL_PLAN_AUTO_OFF, "label 0, auto opt-out: opt out");
	f.auto_flowlabels = FLOWLABEL_AUTO_FORCED;
	is_int(flowlabel_plan_decide(&f, why, sizeof(why)),
	       FLOWLABEL_PLAN_IMPOSSIBLE, "label 0, auto forced: impossible");
	ok(strstr(why, "auto_flowlabels") != NULL, "the sysctl named");
	f.auto_flowlabels = -1;
	is_int(flowlabel_plan_decide(&f, why, sizeof(why)),
	       FLOWLABEL_PLAN_AUTO_OFF, "sysctl unknown: opt out anyway");
	f.label = 0x12345;
	is_int(flowlabel_plan_decide(&f, why, sizeof(why)),
	       FLOWLABEL_PLAN_LEASE, "label 0x12345: lease");
	f.label = 0x80001;
	is_int(flowlabel_plan_decide(&f, why, sizeof(why)),
	       FLOWLABEL_PLAN_LEASE, "0x80001 without state ranges: lease");
	f.state_ranges = true;
	is_int(flowlabel_plan_decide(&f, why, sizeof(why)),
	       FLOWLABEL_PLAN_IMPOSSIBLE,
	       "0x80001 with state ranges: ERANGE, impossible");
	f.label = 0x7ffff;
	is_int(flowlabel_plan_decide(&f, why, sizeof(why)),
	       FLOWLABEL_PLAN_LEASE, "0x7ffff with state ranges: lease");
}

static void test_lease_request(void)
{
	struct in6_flowlabel_req req;
	struct in6_addr dst;
	const uint8_t want_label[4] = { 0x00, 0x01, 0x23, 0x45 };

	inet_pton(AF_INET6, "2001:db8:4::4", &dst);
	memset(&req, 0xaa, sizeof(req));
	flowlabel_lease_request(0x12345, &dst, &req);
	is_mem((const unsigned char *)&req.flr_label, want_label, 4,
	       "flr_label in network byte order");
	is_mem((const unsigned char *)&req.flr_dst, dst.s6_addr, 16,
	       "flr_dst the destination");
	is_int(req.flr_action, IPV6_FL_A_GET, "action GET");
	is_int(req.flr_flags, IPV6_FL_F_CREATE, "flags CREATE, not EXCL");
	is_int(req.flr_share, IPV6_FL_S_ANY, "shared with anyone");
	is_int(req.flr_linger, 0, "the shortest linger");
	is_int(req.flr_expires, 0, "no expiry asked");
	is_int((int)req.__flr_pad, 0, "the rest zero");
	flowlabel_lease_request(0xfff00001, &dst, &req);
	is_int((int)ntohl(req.flr_label), 1, "20 bits only");
}

/* rt_tos2priority: ip_tos2prio[IPTOS_TOS(tos) >> 1]. */
static void test_priority(void)
{
	is_int(roce_sock_priority_of_tclass(0x00), 0, "0x00: best effort");
	is_int(roce_sock_priority_of_tclass(0x02), 0, "ECN alone: 0");
	is_int(roce_sock_priority_of_tclass(0x08), 2, "0x08: bulk (2)");
	is_int(roce_sock_priority_of_tclass(0x10), 6,
	       "0x10 (low delay): interactive (6)");
	is_int(roce_sock_priority_of_tclass(0x18), 4,
	       "0x18: interactive bulk (4)");
	is_int(roce_sock_priority_of_tclass(0x68), 2,
	       "DSCP 26 (0x68): TOS bits 0x08, bulk");
	is_int(roce_sock_priority_of_tclass(0x60), 0,
	       "DSCP 24 (0x60): no TOS bits, 0");
	is_int(roce_sock_priority_of_tclass(0xb8), 4, "EF (0xb8): 4");
	is_int(roce_sock_priority_of_tclass(0x1f), 4, "0x1f: 4");
}

static void test_lag(void)
{
	ok(netdev_level_is_lag("bond", 2), "bond: LAG");
	ok(netdev_level_is_lag("bond", 0), "bond without slaves: still");
	ok(netdev_level_is_lag("team", 0), "team: LAG");
	ok(netdev_level_is_lag("", 2), "two lower devices: LAG");
	ok(!netdev_level_is_lag("vlan", 1), "VLAN: not itself");
	ok(!netdev_level_is_lag("", 0), "a plain port: no");
	ok(!netdev_is_lag("lo", (char[32]){ 0 }, 32), "lo: no");
}

static void test_gaps(void)
{
	struct trace_fidelity f = { .method = TRACE_METHOD_SOCKET };
	enum trace_gap g[TRACE_GAP_COUNT];

	is_int((int)trace_fidelity_gaps(&f, g), 0, "IPv4, no LAG: none");
	f.flow_label_applies = true;
	is_int((int)trace_fidelity_gaps(&f, g), 1, "IPv6 not reproduced");
	is_str(trace_gap_key(g[0]), "flow_label", "named flow_label");
	f.flow_label_reproduced = true;
	f.lag = true;
	is_int((int)trace_fidelity_gaps(&f, g), 1, "reproduced, on a bond");
	is_str(trace_gap_key(g[0]), "lag_member", "named lag_member");
	f.method = TRACE_METHOD_NIC;
	is_int((int)trace_fidelity_gaps(&f, g), 0,
	       "--nic on a bond: the QP's own member");
	is_str(trace_method_key(TRACE_METHOD_NIC), "nic", "method nic");
	is_str(trace_method_key(TRACE_METHOD_SOCKET), "socket",
	       "method socket");
}

/* The flow label a datagram from fd arrived with at rx (IPV6_FLOWINFO);
 * -1 when none came. */
static long received_label(int fd, int rx, struct sockaddr_storage *to)
{
	uint8_t control[128], byte = 1;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control,
			      .msg_controllen = sizeof(control) };
	struct pollfd p = { .fd = rx, .events = POLLIN };

	if (sendto(fd, &byte, 1, 0, (struct sockaddr *)to,
		   sizeof(struct sockaddr_in6)) != 1 ||
	    poll(&p, 1, 1000) != 1 || recvmsg(rx, &msg, 0) != 1)
		return -1;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c;
	     c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == IPPROTO_IPV6 &&
		    c->cmsg_type == IPV6_FLOWINFO) {
			uint32_t info;

			memcpy(&info, CMSG_DATA(c), sizeof(info));
			return (long)(ntohl(info) & IPV6_FLOWINFO_FLOWLABEL);
		}
	return -1;
}

/* The lease on a real socket: what arrives carries the label. */
static void test_lease_on_loopback(void)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6,
				  .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_storage to;
	socklen_t len = sizeof(a);
	struct flowlabel_facts f;
	char why[200];
	int rx = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int tx = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int on = 1;

	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(rx, (struct sockaddr *)&a, &len) ||
	    setsockopt(rx, IPPROTO_IPV6, IPV6_FLOWINFO, &on, sizeof(on))) {
		ok(true, "# SKIP no IPv6 loopback here (%s)", strerror(errno));
		ok(true, "# SKIP");
		ok(true, "# SKIP");
		ok(true, "# SKIP");
		goto out;
	}
	memset(&to, 0, sizeof(to));
	memcpy(&to, &a, sizeof(a));
	flowlabel_facts_read(0x5a5a5, &f);
	f.state_ranges = false;	/* 0x5a5a5 < 0x80000 anyway */
	ok(flowlabel_apply(tx, &f, &to, why, sizeof(why)), "leased: %s",
	   why[0] ? why : "no complaint");
	is_int((int)received_label(tx, rx, &to), 0x5a5a5,
	       "the datagram arrived with the leased label");
	{
		/* Another socket holds 0x5a5a6 exclusively: refused. */
		struct in6_flowlabel_req excl;
		int other = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		int third = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		flowlabel_lease_request(0x5a5a6, &a.sin6_addr, &excl);
		excl.flr_share = IPV6_FL_S_EXCL;
		ok(other >= 0 && third >= 0 &&
			   setsockopt(other, IPPROTO_IPV6, IPV6_FLOWLABEL_MGR,
				      &excl, sizeof(excl)) == 0,
		   "another socket leases 0x5a5a6 exclusively");
		f.label = 0x5a5a6;
		ok(!flowlabel_apply(third, &f, &to, why, sizeof(why)) &&
			   strstr(why, "exclusively"),
		   "then ours is refused, and says why: %s", why);
		if (other >= 0)
			close(other);
		if (third >= 0)
			close(third);
	}
out:
	if (rx >= 0)
		close(rx);
	if (tx >= 0)
		close(tx);
}

int main(void)
{
	test_wire_label();
	test_fidelity_wire_label();
	test_plan();
	test_lease_request();
	test_priority();
	test_lag();
	test_gaps();
	test_lease_on_loopback();
	return tap_done();
}
