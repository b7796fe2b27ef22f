/* A continuous run's rounds: see probe_round.h. */
#include "probe/probe_round.h"

void probe_round_close(struct probe_round_cell *r,
		       const struct probe_round_input *in)
{
	r->sent = in->resolved - r->resolved_mark;
	r->received = in->received - r->received_mark;
	r->resolved_mark = in->resolved;
	r->received_mark = in->received;
	r->sent_total += r->sent;
	r->received_total += r->received;
	/* Every reply in time left one sample, the newest last: the round's
	 * are the latest `received` (fewer if the store dropped some). */
	r->has_rtt = in->rtt && r->received &&
		     rtt_summarize_latest(in->rtt, r->received, &r->rtt) == 0;
	if (r->has_rtt) {
		r->rtt_count += r->rtt.count;
		r->rtt_sum_s += r->rtt.mean_us * (double)r->rtt.count / 1e6;
	}
	/* The monotonic reply time, placed on the wall clock by its age. */
	if (in->last_reply_ns && in->last_reply_ns <= in->now_ns)
		r->last_success_unix = in->now_unix -
				       (double)(in->now_ns - in->last_reply_ns) /
					       1e9;
}

bool probe_round_loss_ratio(const struct probe_round_cell *r, double *ratio)
{
	if (r->sent == 0)
		return false;
	/* A reply of an earlier round's probe can land in this one: never
	 * report a negative loss. */
	*ratio = r->received >= r->sent
			 ? 0.0
			 : (double)(r->sent - r->received) / (double)r->sent;
	return true;
}
