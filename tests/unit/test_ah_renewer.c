/* Unit tests of when probe --continuous makes a destination's AH again:
 * after a round with loss (a stale next-hop MAC loses everything), once
 * older than the bound, never twice at once. */
#include "verbs/ah_renewer.h"
#include "tap.h"

#define S 1000000000ull

int main(void)
{
	uint64_t made = 100 * S, age = 30 * S;

	ok(!ah_renew_due(false, false, made, made + age - 1, age),
	   "younger than the bound, no loss: kept");
	ok(ah_renew_due(false, false, made, made + age, age),
	   "at the bound: made again");
	ok(ah_renew_due(false, true, made, made + 1, age),
	   "a round with loss: made again at once");
	ok(!ah_renew_due(true, true, made, made + age, age),
	   "one being made already: not twice");
	ok(!ah_renew_due(false, false, made, made + 1000 * age, 0),
	   "no bound and no loss: kept");
	ok(!ah_renew_due(false, false, made, made - 1, age),
	   "a clock before the making: kept");
	return tap_done();
}
