/* The network's share of a round trip; see rtt_split.h. */
#include <string.h>

#include "probe/rtt_split.h"

void rtt_split(const struct rtt_stamps *in, struct rtt_split *out)
{
	enum stamp_source prober, responder;
	uint64_t outer, inner;

	memset(out, 0, sizeof(*out));
	out->rtt_ns = in->received_ns > in->sent_ns
			      ? in->received_ns - in->sent_ns : 0;
	/* Each end's best: device stamps where both of its completions
	 * had them, else its software stamps. */
	if (in->prober_hw) {
		outer = in->prober_hw_ns;
		prober = STAMP_HW;
	} else {
		outer = out->rtt_ns;
		prober = in->prober_wait;
	}
	if (in->responder_hw) {
		inner = in->responder_hw_ns;
		responder = STAMP_HW;
	} else if (in->dwell_known) {
		inner = in->dwell_ns;
		responder = in->responder_wait;
	} else {
		/* An older responder: its share cannot be taken off. */
		return;
	}
	out->dwell_known = true;
	out->dwell_ns = inner;
	out->network_known = true;
	out->source = stamp_source_weaker(prober, responder);
	if (inner > outer) {
		out->clock_error = true;
		out->network_ns = 0;
		return;
	}
	out->network_ns = outer - inner;
}
