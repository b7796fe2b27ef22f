/* Source GID choice per destination (-g auto): exchange GIDs, never
 * indexes, because GID table layouts differ per vendor and per node. */
#ifndef IBAHPROBE_SGID_SELECT_H
#define IBAHPROBE_SGID_SELECT_H

#include <stddef.h>

#include "ah_attr.h"

/* Picks the source GID for dgid: on RoCE a RoCE v2 entry first (v1 only
 * when no v2 fits), of the destination's address family, and not
 * link-local unless the destination is link-local too; on IB the first
 * GID whose prefix matches, else GID 0. Returns 0 and sets *index and a
 * short reason, or -1 with the reason why none fits. */
int sgid_select(const struct ah_port_facts *facts, const union ibv_gid *dgid,
		uint8_t *index, char *reason, size_t len);

#endif
