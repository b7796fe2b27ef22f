/* Unit tests of the completion clock: the decision from mlx5-like, irdma-like
 * and rxe-like capabilities, and cycles to ns with the mask's wrap. */
#include <string.h>

#include "verbs/completion_clock.h"
#include "tap.h"

#define MASK48 ((1ull << 48) - 1)
#define MASK63 0x7fffffffffffffffull	/* mlx5_ib_query_device */

static struct completion_clock decided(uint64_t mask, uint64_t khz)
{
	struct completion_clock_caps caps = { .timestamp_mask = mask,
					      .core_clock_khz = khz };
	struct completion_clock clk;

	memset(&clk, 0x5a, sizeof(clk));
	completion_clock_decide(&caps, &clk);
	return clk;
}

int main(void)
{
	struct completion_clock clk;

	/* rxe: rxe_init_device_param sets no timestamp mask, no clock. */
	clk = decided(0, 0);
	ok(!clk.hw, "rxe-like caps (mask 0): no hw stamps");
	ok(strstr(clk.why_not, "completion_timestamp_mask 0") != NULL,
	   "why_not names the mask: %s", clk.why_not);
	ok(!clk.wallclock, "no wallclock either");
	/* A mask without a clock (irdma GEN_2 reported 0x1ffff and no kHz). */
	clk = decided(0x1ffff, 0);
	ok(!clk.hw, "a mask without a clock: no hw stamps");
	ok(strstr(clk.why_not, "hca_core_clock 0") != NULL,
	   "why_not names the clock: %s", clk.why_not);
	/* A clock without a mask is no timestamp either. */
	clk = decided(0, 156250);
	ok(!clk.hw && strstr(clk.why_not, "completion_timestamp_mask 0"),
	   "a clock without a mask: no hw stamps");

	/* mlx5-like: 156.25 MHz, 48-bit counter. */
	clk = decided(MASK48, 156250);
	ok(clk.hw, "mlx5-like caps: hw stamps");
	is_str(clk.why_not, "", "why_not empty when hw");
	ok(!clk.wallclock, "raw cycles, not wallclock");
	is_int(clk.mask, MASK48, "mask kept");
	is_int(clk.khz, 156250, "kHz kept");
	is_int(completion_clock_delta_ns(&clk, 1000, 1000), 0, "zero delta");
	/* 156.25 MHz: 6.4 ns per cycle; 1.7 us = 265.625 cycles. */
	is_int(completion_clock_delta_ns(&clk, 1000, 1266), 1702,
	       "266 cycles at 156250 kHz are 1702 ns (rounded down)");
	is_int(completion_clock_delta_ns(&clk, 0, 156250), 1000000,
	       "156250 cycles are 1 ms");
	/* Wrapped: 9 cycles up to the top, 1 to zero, 5 more: 15 cycles. */
	is_int(completion_clock_delta_ns(&clk, MASK48 - 9, 5), 96,
	       "a wrapped 48-bit stamp: 15 cycles, 96 ns");
	/* Bits above the mask are not part of the stamp. */
	is_int(completion_clock_delta_ns(&clk, (1ull << 50) | 100, 200),
	       100 * 64 / 10, "bits above the mask ignored");
	/* Big: the whole 48-bit range, (2^48 - 1) * 6.4 ns, needs more than
	 * 64 bits if multiplied first by 1e6. */
	is_int(completion_clock_delta_ns(&clk, 0, MASK48), 1801439850948192ull,
	       "whole 48-bit range, 6.4 ns a cycle, without overflow");

	/* 1 GHz clock (irdma GEN_3: GENMASK(31, 0), 1000000 kHz). */
	clk = decided(0xffffffffull, 1000000);
	ok(clk.hw, "irdma-like caps: hw stamps");
	is_int(completion_clock_delta_ns(&clk, 0, 1700), 1700,
	       "1 GHz: cycles are ns");
	is_int(completion_clock_delta_ns(&clk, 0xffffff00u, 0x100), 0x200,
	       "a wrapped 32-bit stamp");

	/* mlx5's 63-bit mask and a full 64-bit one at 1 GHz and slower. */
	clk = decided(MASK63, 1000000);
	is_int(completion_clock_delta_ns(&clk, 5, MASK63), MASK63 - 5,
	       "63-bit mask, 1 GHz: large delta exact");
	is_int(completion_clock_delta_ns(&clk, MASK63, 0), 1,
	       "63-bit mask wraps from the top to zero in one cycle");
	clk = decided(UINT64_MAX, 1000000);
	is_int(completion_clock_delta_ns(&clk, UINT64_MAX - 1, 3), 5,
	       "64-bit mask: wrap by unsigned arithmetic");
	clk = decided(UINT64_MAX, 156250);
	ok(completion_clock_delta_ns(&clk, 0, UINT64_MAX) == UINT64_MAX,
	   "64-bit mask at 156250 kHz: beyond 64 bits of ns saturates");
	ok(completion_clock_delta_ns(&clk, 0, 1ull << 60) ==
		   7378697629483820646ull,
	   "2^60 cycles at 156250 kHz: exact ns, no overflow");

	/* Stamps that are ns already (wallclock): only the wrap applies. */
	clk = decided(MASK63, 156250);
	clk.wallclock = true;
	is_int(completion_clock_delta_ns(&clk, 1000, 2700), 1700,
	       "wallclock stamps are ns: no scaling");
	return tap_done();
}
