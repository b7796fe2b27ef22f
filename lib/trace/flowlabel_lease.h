/* The IPv6 flow label of a trace's UDP socket: the kernel writes its own
 * unless told otherwise, so routers that hash the flow label would send
 * the trace elsewhere than the NIC's packets. How (Linux net/ipv6):
 * - ip6_make_flowlabel (include/net/ipv6.h, from __ip6_make_skb): a
 *   datagram sent with flow label 0 gets a hash of its flow when
 *   net.ipv6.auto_flowlabels is 3 (forced), or 1 (opt-out) and the socket
 *   did not opt out; IPV6_AUTOFLOWLABEL 0 opts out (ip6_autoflowlabel).
 * - a nonzero label is sent only when IPV6_FLOWINFO_SEND is on and the
 *   destination's sin6_flowinfo carries it (udpv6_sendmsg), and the label
 *   must be leased on the socket (fl6_sock_lookup fails the send with
 *   EINVAL otherwise, once any exclusive label exists in the namespace).
 * - the lease: IPV6_FLOWLABEL_MGR with IPV6_FL_A_GET and IPV6_FL_F_CREATE
 *   (ipv6_flowlabel_opt -> ipv6_flowlabel_get, fl_create). We share it
 *   with anyone (IPV6_FL_S_ANY): ipv6_flowlabel_get refuses a label that
 *   another socket holds exclusively (IPV6_FL_S_EXCL) or under another
 *   share mode with EPERM, and one of the stateless half (0x80000 and up)
 *   with ERANGE while net.ipv6.flowlabel_state_ranges is on. There is no
 *   other consent to ask: the share check is it. flowlabel_reflect
 *   (net.ipv6.flowlabel_reflect) concerns TCP and ICMP echo answers and
 *   does not apply to a UDP sender. */
#ifndef IBAHPROBE_FLOWLABEL_LEASE_H
#define IBAHPROBE_FLOWLABEL_LEASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/in6.h>

/* net.ipv6.auto_flowlabels (IP6_AUTO_FLOW_LABEL_*). */
#define FLOWLABEL_AUTO_OFF 0
#define FLOWLABEL_AUTO_OPTOUT 1
#define FLOWLABEL_AUTO_OPTIN 2
#define FLOWLABEL_AUTO_FORCED 3
/* IPV6_FLOWLABEL_STATELESS_FLAG (include/net/ipv6.h), host order. */
#define FLOWLABEL_STATELESS_FLAG 0x80000u

struct flowlabel_facts {
	uint32_t label;		/* the flow label to put on the wire */
	int auto_flowlabels;	/* the sysctl; -1 not known */
	bool state_ranges;	/* net.ipv6.flowlabel_state_ranges */
};

enum flowlabel_plan {
	FLOWLABEL_PLAN_AUTO_OFF,	/* label 0: opt out of the kernel's */
	FLOWLABEL_PLAN_LEASE,		/* lease it, send it */
	FLOWLABEL_PLAN_IMPOSSIBLE,	/* the kernel will not let us */
};

/* What to do for an IPv6 socket; IMPOSSIBLE with a sentence in why. */
enum flowlabel_plan flowlabel_plan_decide(const struct flowlabel_facts *f,
					  char *why, size_t len);

/* The lease request of label (host order) towards dst: IPV6_FL_A_GET,
 * IPV6_FL_F_CREATE, IPV6_FL_S_ANY, the shortest linger. */
void flowlabel_lease_request(uint32_t label, const struct in6_addr *dst,
			     struct in6_flowlabel_req *req);

/* Reads the two sysctls of this network namespace (/proc/sys/net/ipv6). */
void flowlabel_facts_read(uint32_t label, struct flowlabel_facts *f);

/* Makes fd (an AF_INET6 UDP socket) send f->label: the plan, then the
 * socket options; for a lease it also puts the label into dest's
 * sin6_flowinfo (what each sendto must carry). true when done; false
 * with why (the plan, or the refused option and its errno). */
bool flowlabel_apply(int fd, const struct flowlabel_facts *f,
		     struct sockaddr_storage *dest, char *why, size_t len);

#endif
