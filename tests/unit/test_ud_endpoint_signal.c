/* Unit tests of selective signalling: which sends ask for a completion
 * and how many ring slots one completion gives back. */
#include "verbs/ud_endpoint_signal.h"
#include "tap.h"

static void test_signal_wanted(void)
{
	/* Device stamps: every send's CQE is a stamp. */
	ok(ud_signal_wanted(true, 16, 64, 0), "hw stamps: signalled at once");
	ok(ud_signal_wanted(true, 16, 64, 3), "hw stamps: signalled mid-run");
	/* 0 and 1: every send, as before selective signalling. */
	ok(ud_signal_wanted(false, 0, 64, 0), "every 0: each send");
	ok(ud_signal_wanted(false, 1, 64, 0), "every 1: each send");
	/* Every 4th: three without, the fourth with. */
	ok(!ud_signal_wanted(false, 4, 64, 0), "every 4: 1st unsignalled");
	ok(!ud_signal_wanted(false, 4, 64, 2), "every 4: 3rd unsignalled");
	ok(ud_signal_wanted(false, 4, 64, 3), "every 4: 4th signalled");
	/* The ring bounds it: one in send_depth at least. */
	ok(!ud_signal_wanted(false, 16, 2, 0), "depth 2: 1st unsignalled");
	ok(ud_signal_wanted(false, 16, 2, 1), "depth 2: 2nd signalled");
	ok(ud_signal_wanted(false, 16, 1, 0), "depth 1: every send");
	/* A run longer than asked (never made here): signalled. */
	ok(ud_signal_wanted(false, 4, 64, 9), "overlong run signalled");
}

static void test_sends_freed(void)
{
	is_int(ud_sends_freed(0, 0, 8, 1), 1, "one signalled send frees one");
	is_int(ud_sends_freed(2, 5, 8, 4), 4, "slots 2..5 freed by 5");
	/* Wrapped: oldest 6, completed 1 in a ring of 8: 6 7 0 1. */
	is_int(ud_sends_freed(6, 1, 8, 5), 4, "wrapped ring");
	is_int(ud_sends_freed(3, 3, 8, 8), 1, "completed the oldest only");
	/* Never more than are in flight (a stray or repeated CQE). */
	is_int(ud_sends_freed(0, 7, 8, 3), 3, "bounded by in flight");
	is_int(ud_sends_freed(0, 0, 8, 0), 0, "nothing in flight");
	is_int(ud_sends_freed(9, 0, 8, 2), 1, "out-of-range slot: one");
}

int main(void)
{
	test_signal_wanted();
	test_sends_freed();
	return tap_done();
}
