/* Warnings a probe run gives before it sends anything: what it was asked
 * that it will not do as written. The AH rules are ah_check's, the same
 * `ah` applies (sl 8 on RoCE, a hop limit of 0 or 1 towards another
 * subnet), so both commands warn alike; a destination's rendezvous port
 * is ignored under --qpn. Pure over the session's cells, printed once per
 * finding with the destinations it concerns. */
#ifndef IBAHPROBE_PROBE_WARNINGS_H
#define IBAHPROBE_PROBE_WARNINGS_H

#include <stddef.h>

#include "base/diag.h"
#include "probe/probe_engine.h"

/* The most distinct warnings one run collects; more are counted. */
#define PROBE_WARNINGS_MAX 32

struct probe_warning {
	char text[DIAG_MSG_MAX * 3];	/* "DEST[ and N more]: what" */
};

struct probe_warnings {
	size_t count;
	size_t dropped;		/* findings beyond PROBE_WARNINGS_MAX */
	struct probe_warning items[PROBE_WARNINGS_MAX];
};

/* Collects the warnings of the session's cells (after
 * probe_session_prepare: their AH checks are done). Each distinct
 * message once, naming its first destination and how many more share it,
 * in the order of the cells. */
void probe_warnings_collect(const struct probe_session *s,
			    struct probe_warnings *out);
/* Collects and prints them on stderr (diag_warn). */
void probe_warnings_print(const struct probe_session *s);

#endif
