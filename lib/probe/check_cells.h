/* Which checklist entries probe the same set: the responder counts a
 * sender's requests per parameter set (request_counts), so two cells of
 * one run with one destination and the same parameters would share its
 * count, and each would read the other's probes as its own (a direction
 * of loss made up from the sum). check gives such entries one cell. */
#ifndef IBAHPROBE_CHECK_CELLS_H
#define IBAHPROBE_CHECK_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/checklist.h"

/* Whether a and b send the same set to the same responder: the same
 * destination (as written, or the same address and rendezvous port), the
 * same given QPN and Q_Key or none, the same hop limit, traffic class,
 * flow label and SL (given or the path's). Their counts may differ. */
bool check_entries_probe_alike(const struct check_entry *a,
			       const struct check_entry *b);

/* The probes the shared cell of entry `first` sends: the most that any
 * probing entry alike asks (count=, else default_count). */
uint32_t check_cell_count(const struct checklist *list, size_t first,
			  uint32_t default_count);

#endif
