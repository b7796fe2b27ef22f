/* The device's count of packets dropped because no receive was posted,
 * read from /sys/class/infiniband/DEV/ports/N/hw_counters/ (what `rdma
 * statistic show link DEV/N` prints, iproute2 rdma/stat.c), so serve can
 * tell a prober that its probes died in our receive queue, not on the
 * way. Which counter means that differs per driver: the choice is a pure
 * function of the counter names the port exposes. */
#ifndef IBAHPROBE_HW_COUNTERS_H
#define IBAHPROBE_HW_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A counter that counts receives dropped for want of a posted receive
 * WQE, and the upstream code that defines it. */
struct rq_drop_counter {
	const char *name;	/* file name under hw_counters/ */
	const char *driver;	/* whose counter it is, for messages */
	const char *source;	/* the upstream definition */
};

/* The known counter among names (the files of hw_counters/), or NULL
 * when the port has none of them (rxe: no counter at all for a UD
 * packet that finds no receive, see hw_counters.c). */
const struct rq_drop_counter *rq_drop_counter_pick(const char *const *names,
						   size_t count);

/* Every known counter, for the documentation test. */
extern const struct rq_drop_counter rq_drop_counters[];
extern const size_t rq_drop_counter_count;

/* Sysfs root of the hw_counters of device/port under root (normally
 * "/sys/class/infiniband"; tests give a directory of their own). */
#define HW_COUNTERS_ROOT "/sys/class/infiniband"

/* The counter of device port that rq_drop_counter_pick() chooses from
 * the port's hw_counters/ directory: NULL when it has none, or no such
 * directory (a kernel without rdma_hw_stats for the driver). */
const struct rq_drop_counter *rq_drop_counter_find(const char *root,
						   const char *device,
						   unsigned port);

/* Reads one counter: 0 with *value, -1 when it cannot be read. */
int hw_counter_read(const char *root, const char *device, unsigned port,
		    const char *name, uint64_t *value);

#endif
