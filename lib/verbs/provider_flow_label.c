/* The IPv6 flow label of a provider's RoCE v2 packets: see
 * provider_flow_label.h. */
#include "verbs/provider_flow_label.h"
#include "wire/roce_packet.h"

enum wire_flow_label_rule provider_wire_flow_label(enum provider p,
						   uint32_t ah_flow_label,
						   uint32_t *label)
{
	*label = ah_flow_label & ROCE_FLOW_LABEL_MASK;
	switch (p) {
	case PROVIDER_MLX4:
	case PROVIDER_MLX5:
	case PROVIDER_HNS:
		return WIRE_FLOW_LABEL_AH;
	case PROVIDER_RXE:
		*label = 0;
		return WIRE_FLOW_LABEL_ZERO;
	default:
		return WIRE_FLOW_LABEL_UNKNOWN;
	}
}
