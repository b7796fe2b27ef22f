/* A RoCE trace flow (trace/roce_tracer.h) from a probe cell of the
 * engine's session: where the datagrams go (destination, DGID, QPN and
 * Q_Key from the rendezvous), the source GID and the set it asked. What
 * `trace` on RoCE and probe's multicast boundary trace both start from. */
#ifndef IBAHPROBE_ROCE_FLOW_CELL_H
#define IBAHPROBE_ROCE_FLOW_CELL_H

#include "probe/probe_engine.h"
#include "trace/roce_tracer.h"

void roce_flow_from_cell(const struct probe_session *s, struct roce_flow *f,
			 const struct probe_cell *c);

#endif
