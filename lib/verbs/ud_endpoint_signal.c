/* Selective signalling of UD sends: see ud_endpoint_signal.h. */
#include "verbs/ud_endpoint_signal.h"

bool ud_signal_wanted(bool hw_stamps, unsigned signal_every,
		      unsigned send_depth, unsigned unsignaled_run)
{
	unsigned every = signal_every ? signal_every : 1;

	if (hw_stamps)
		return true;
	if (send_depth && every > send_depth)
		every = send_depth;
	return unsignaled_run + 1 >= every;
}

unsigned ud_sends_freed(unsigned oldest, unsigned completed, unsigned depth,
			unsigned in_flight)
{
	unsigned freed;

	if (!depth || oldest >= depth || completed >= depth)
		return in_flight ? 1 : 0;
	freed = (completed + depth - oldest) % depth + 1;
	return freed < in_flight ? freed : in_flight;
}
