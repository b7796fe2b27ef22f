/* trace --nic: the trace's datagrams are our UD QP's own sends, one AH per
 * hop limit, so the routers see the very packets the probes are (the
 * NIC's UDP source port, IPv6 flow label, queue and LAG member). Only
 * where the provider puts the AH's hop limit on the wire (mlx4, mlx5,
 * hns: provider_hop_limit_rule); a kernel-built AH (rxe, irdma, bnxt_re)
 * carries the route's. The NIC writes BTH and DETH itself, so no answer
 * comes back on a socket's error queue: routers' time exceeded is read
 * from the raw ICMP socket (CAP_NET_RAW) and matched by the quoted
 * destination, UDP ports and BTH destination QPN; serve's answer comes on
 * our QP as for the socket method.
 *
 * A send/receive backend of its own beside roce_tracer.c's socket: the
 * schedule is lib/trace/roce_trace.h's, one query at a time. */
#ifndef IBAHPROBE_NIC_TRACER_H
#define IBAHPROBE_NIC_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <infiniband/verbs.h>

#include "wire/icmp_quote.h"
#include "verbs/provider.h"
#include "trace/roce_trace.h"
#include "trace/roce_tracer.h"

/* Whether --nic can run where the hop limit rule is rule (why_rule its
 * sentence): only HOP_LIMIT_RULE_AH. false with a sentence in why. */
bool nic_trace_possible(enum hop_limit_rule rule, const char *why_rule,
			char *why, size_t len);

/* Whether a router's quote is of one of our UD sends to dst: UDP to port
 * 4791 of dst, from udp_sport when known (>= 0: the port the provider
 * puts on the wire, provider_wire_udp_sport), and as far as the BTH is
 * quoted a UD SEND_ONLY to dest_qpn. The PSN is the QP's, not ours to
 * tag with: one query is in flight at a time. Pure. */
bool nic_quote_is_ours(const struct icmp_quote *q,
		       const struct sockaddr_storage *dst, int32_t udp_sport,
		       uint32_t dest_qpn);

/* A quote's ICMP message as the answer of a hop (from: its sender, as
 * recvfrom gave it); false for a type a trace does not show. Pure. */
bool nic_quote_answer(const struct icmp_quote *q,
		      const struct sockaddr_storage *from,
		      struct roce_answer *a);

/* Traces flow f with UD sends from tr->ep: the AH of hop limit h is base
 * with grh.hop_limit = h; wire_sport as for nic_quote_is_ours. Needs
 * tr's raw ICMP socket of the family (opened here on first use). 0, or
 * -1 with f->error. */
int nic_tracer_trace_flow(struct roce_tracer *tr, struct roce_flow *f,
			  const struct ibv_ah_attr *base, int32_t wire_sport);

#endif
