/* What a RoCE trace of one flow reproduces of the NIC's own packets, and
 * what it cannot: the method that sent the datagrams (a kernel UDP socket,
 * or real UD sends from our QP), the IPv6 flow label, the socket's queue
 * priority and, on a bonded netdev, the LAG member. Each trace prints it
 * (roce_trace_print.c: method, not_reproduced). */
#ifndef IBAHPROBE_TRACE_FIDELITY_H
#define IBAHPROBE_TRACE_FIDELITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "verbs/provider.h"

enum trace_method {
	TRACE_METHOD_SOCKET,	/* crafted datagrams, kernel UDP socket */
	TRACE_METHOD_NIC,	/* UD sends from our QP (trace --nic) */
};

/* What cannot be reproduced, as JSON words (not_reproduced) and text. */
enum trace_gap {
	TRACE_GAP_FLOW_LABEL,	/* the IPv6 flow label differs, or may */
	TRACE_GAP_LAG_MEMBER,	/* the bond may pick another member */
	TRACE_GAP_COUNT,
};

struct trace_fidelity {
	enum trace_method method;
	/* IPv6 only: the flow label the datagrams carry (the NIC's, when
	 * reproduced), and why not when not. */
	bool flow_label_applies;
	bool flow_label_reproduced;
	uint32_t flow_label;
	char flow_label_why[200];
	/* The socket's SO_PRIORITY (from the traffic class); -1 for --nic. */
	int priority;
	/* The netdev aggregates links (a bond or team, or a VLAN on one):
	 * which, for the text. */
	bool lag;
	char lag_netdev[32];
};

/* What the socket method does about the flow label, as plain facts: the
 * provider and the AH's flow label (port_given: a --udp-sport flow, whose
 * AH's label is not known). */
struct trace_fidelity_input {
	enum provider provider;
	uint32_t ah_flow_label;
	bool port_given;
	const char *netdev;	/* the source GID's */
	uint8_t traffic_class;	/* the socket's priority comes from it */
};

/* Sets up fd (the flow's UDP socket, to dest) to carry the NIC's flow
 * label where it can, and records in out what was and was not
 * reproduced. dest gets the flowinfo each send must carry. */
void trace_fidelity_socket(int fd, struct sockaddr_storage *dest,
			   const struct trace_fidelity_input *in,
			   struct trace_fidelity *out);

/* The flow label of provider p's packets, for an IPv6 socket trace: true
 * with *label when known, false with why (a --udp-sport flow on a
 * provider that sends the AH's label; an unknown provider). Pure. */
bool trace_fidelity_wire_label(const struct trace_fidelity_input *in,
			       uint32_t *label, char *why, size_t len);

/* Whether a netdev of this kind aggregates links: DEVTYPE "bond" or
 * "team" in its uevent, or two or more lower devices (lower_* links).
 * Pure. */
bool netdev_level_is_lag(const char *devtype, unsigned lowers);
/* Reads sysfs for ifname, going down through devices with one lower
 * (a VLAN, a macvlan): true when one level is a LAG, its name in lag. */
bool netdev_is_lag(const char *ifname, char *lag, size_t len);

/* The gaps of a trace, in order; their count. Pure. */
size_t trace_fidelity_gaps(const struct trace_fidelity *f,
			   enum trace_gap *gaps);
const char *trace_gap_key(enum trace_gap gap);
const char *trace_method_key(enum trace_method method);

#endif
