/* The IPv6 flow label a provider's RoCE v2 packets carry on the wire, as a
 * function of the AH's: what a trace from a kernel socket has to send for
 * routers that hash the flow label to take the probes' path. */
#ifndef IBAHPROBE_PROVIDER_FLOW_LABEL_H
#define IBAHPROBE_PROVIDER_FLOW_LABEL_H

#include <stdint.h>

#include "verbs/provider.h"

enum wire_flow_label_rule {
	/* The AH's flow label: the provider writes it into the address
	 * vector the HCA reads (mlx4_create_ah: av.sl_tclass_flowlabel;
	 * mlx5_create_ah: av.grh_gid_fl; hns_roce_u_create_ah:
	 * av.flowlabel). */
	WIRE_FLOW_LABEL_AH,
	/* Always 0, whatever the AH says: rxe's prepare_ipv6_hdr
	 * (drivers/infiniband/sw/rxe/rxe_net.c) writes ip6_flow_hdr(ip6h,
	 * prio, htonl(0)). */
	WIRE_FLOW_LABEL_ZERO,
	/* Not known (firmware or an unread driver): the AH's is the best
	 * guess, and a trace says it could not be sure. */
	WIRE_FLOW_LABEL_UNKNOWN,
};

/* The rule of provider p, and in *label the flow label its packets of an
 * AH with ah_flow_label carry (the AH's when unknown). */
enum wire_flow_label_rule provider_wire_flow_label(enum provider p,
						   uint32_t ah_flow_label,
						   uint32_t *label);

#endif
