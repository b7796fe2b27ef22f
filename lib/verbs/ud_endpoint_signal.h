/* Which UD sends ask for a completion (selective signalling, as perftest
 * does) and how many ring slots one completion gives back. */
#ifndef IBAHPROBE_UD_ENDPOINT_SIGNAL_H
#define IBAHPROBE_UD_ENDPOINT_SIGNAL_H

#include <stdbool.h>

/* Whether the next send is posted with IBV_SEND_SIGNALED. hw_stamps: the
 * CQ carries device timestamps, and a send's CQE is then a stamp (the
 * prober's t1, the responder's t3), so every send asks for one. Else at
 * most every signal_every-th (0 or 1: every send), and never fewer than
 * one in send_depth, or the ring's slots never come back. unsignaled_run
 * counts the sends posted without a completion since the last with one. */
bool ud_signal_wanted(bool hw_stamps, unsigned signal_every,
		      unsigned send_depth, unsigned unsignaled_run);

/* Sends known complete by one completion of ring slot completed, the
 * oldest send in flight being in slot oldest (of depth): a QP completes
 * its sends in order, so it covers the unsignalled ones before it (an
 * unsignalled send that fails completes with an error all the same).
 * Never more than in_flight. */
unsigned ud_sends_freed(unsigned oldest, unsigned completed, unsigned depth,
			unsigned in_flight);

#endif
