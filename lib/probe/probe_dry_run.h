/* probe --dry-run: per destination, how it was resolved (rendezvous
 * answer, where the DGID came from, the SA PathRecord, the partition)
 * and the AH each parameter set would be sent with; nothing is sent. */
#ifndef IBAHPROBE_PROBE_DRY_RUN_H
#define IBAHPROBE_PROBE_DRY_RUN_H

#include <stdbool.h>

#include "probe/probe_engine.h"

/* Prints every target (targets resolved, cells prepared with
 * settings.dry_run). Returns true when every destination resolved and
 * every AH passed its checks. */
bool probe_dry_run_print(const struct probe_session *s);

#endif
