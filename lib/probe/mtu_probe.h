/* probe --mtu: MTU discovery over a probe session. Every destination
 * (one cell each) runs its own search (mtu_search); one engine run per
 * step carries each searching destination's next size, so many
 * destinations are searched in parallel and a step costs one deadline
 * at most. Only requests grow: the reply is always PROBE_REPLY_SIZE
 * bytes, so the way back is not measured. */
#ifndef IBAHPROBE_MTU_PROBE_H
#define IBAHPROBE_MTU_PROBE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "probe/mtu_search.h"
#include "probe/mtu_verdict.h"
#include "probe/probe_engine.h"

#define MTU_SCHEMA "ibahprobe.probe_mtu.v1"
#define MTU_DEFAULT_PROBES 3	/* per size: a lost size means 3 lost */

enum mtu_dest_state {
	MTU_DEST_SEARCHING,
	MTU_DEST_DONE,		/* search over: see search.result */
	MTU_DEST_SKIPPED,	/* the probing port itself */
	MTU_DEST_UNREACHABLE,	/* the responder was not reached: error */
	MTU_DEST_ERROR,		/* AH or local send failed: error */
	MTU_DEST_INTERRUPTED,	/* a signal ended the run mid-search */
};

struct mtu_dest {
	enum mtu_dest_state state;
	struct mtu_search search;
	/* The bounds known (0: not known) and the one that bounds. */
	uint32_t port_mtu, path_mtu, responder_mtu;
	uint32_t netdev_mtu;	/* the source GID's netdev (RoCE) */
	uint32_t bound;
	enum mtu_bound_source source;
	enum mtu_encap encap;
	char error[DIAG_MSG_MAX * 2];
	struct mtu_verdict verdict;	/* MTU_DEST_DONE */
};

/* The largest request a session in MTU mode may send: our port's active
 * MTU (PROBE_MAX_SIZE when unknown or larger). Set it as settings.size
 * before probe_session_open: the endpoint's buffers follow it. */
uint32_t mtu_probe_port_bound(uint32_t port_mtu);

/* Each cell's bounds and starting state (d: one per cell), after
 * probe_session_prepare. */
void mtu_probe_setup(const struct probe_session *s, struct mtu_dest *d);

/* Steps until every search is over or *stop is set. Returns 0, or the
 * engine's negative errno (s->fatal says why: the local host's
 * failure). */
int mtu_probe_run(struct probe_session *s, struct mtu_dest *d,
		  const volatile sig_atomic_t *stop);

/* The JSON key of a destination's outcome: no_blackhole, blackhole,
 * unreachable, error, interrupted ("" for a skipped one). */
const char *mtu_dest_key(const struct mtu_dest *d);

/* Carries its bound (exit 0 when every destination does). */
bool mtu_dest_fine(const struct mtu_dest *d);

#endif
