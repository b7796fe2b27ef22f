/* Completion timestamps: the decision to use them from the device's
 * capabilities, and the arithmetic from two stamps to nanoseconds. */
#include <stdio.h>

#include "verbs/completion_clock.h"

/*
 * Follows libibverbs/examples/rc_pingpong.c (pp_init_ctx): a device is
 * timestamp capable iff ibv_query_device_ex() reports a non-zero
 * completion_timestamp_mask. We also need hca_core_clock (kHz) to turn
 * cycles into time: irdma GEN_2 once reported a mask (0x1ffff) without a
 * clock, and a stamp we cannot scale is of no use for an RTT. Upstream
 * values: mlx5_ib_query_device mask 0x7fffffffffffffff with
 * hca_core_clock = device_frequency_khz; irdma_query_device GEN_3 mask
 * GENMASK(31, 0) with 1000000 kHz; rxe_init_device_param sets neither
 * (and rdma-core's rxe_create_cq_ex refuses the timestamp flag with
 * EOPNOTSUPP).
 *
 * wallclock stays false: no capability says whether a CQ may be created
 * with IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK. mlx5 (mlx5_cq_fill_pfns)
 * gives ns from the CQE only in its real-time mode and when the raw flag
 * is *not* also asked; otherwise it converts per poll through the clock
 * info page, or fails with EOPNOTSUPP. An RTT needs only differences of
 * stamps of one device, which the raw free-running counter and its kHz
 * give exactly; completion_clock_delta_ns still honours wallclock for a
 * caller that sets it.
 */
void completion_clock_decide(const struct completion_clock_caps *caps,
			     struct completion_clock *clk)
{
	clk->hw = false;
	clk->wallclock = false;
	clk->mask = caps->timestamp_mask;
	clk->khz = caps->core_clock_khz;
	clk->why_not[0] = '\0';
	if (!caps->timestamp_mask)
		snprintf(clk->why_not, sizeof(clk->why_not),
			 "the device reports no completion timestamps "
			 "(completion_timestamp_mask 0)");
	else if (!caps->core_clock_khz)
		snprintf(clk->why_not, sizeof(clk->why_not),
			 "the device reports completion timestamps but no "
			 "clock to scale them (hca_core_clock 0)");
	else
		clk->hw = true;
}

/* cycles * 1e6 / khz, split so no intermediate overflows: the remainder
 * is below khz, so rem * 1e6 fits for any clock under 18 THz. A result
 * beyond 64 bits of ns (584 years) saturates. */
static uint64_t cycles_to_ns(uint64_t cycles, uint64_t khz)
{
	uint64_t whole = cycles / khz, rem = cycles % khz;

	if (whole > UINT64_MAX / 1000000u)
		return UINT64_MAX;
	whole *= 1000000u;
	if (whole > UINT64_MAX - rem * 1000000u / khz)
		return UINT64_MAX;
	return whole + rem * 1000000u / khz;
}

/* The wrap follows libibverbs/examples/rc_pingpong.c parse_single_wc:
 * to >= from: to - from, else mask - from + to + 1 (the counter passed
 * the mask once). Without a kHz clock the difference stays in device
 * units: there is nothing to scale by. */
uint64_t completion_clock_delta_ns(const struct completion_clock *clk,
				   uint64_t from, uint64_t to)
{
	uint64_t mask = clk->mask ? clk->mask : UINT64_MAX;
	uint64_t delta;

	from &= mask;
	to &= mask;
	delta = to >= from ? to - from : mask - from + to + 1;
	if (clk->wallclock || !clk->khz)
		return delta;
	return cycles_to_ns(delta, clk->khz);
}
