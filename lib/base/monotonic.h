/* The one clock for deadlines, timeouts and RTTs: CLOCK_MONOTONIC, which
 * neither NTP steps nor an admin's date(1) can move. */
#ifndef IBAHPROBE_MONOTONIC_H
#define IBAHPROBE_MONOTONIC_H

#include <stdint.h>

uint64_t monotonic_ns(void);

#endif
