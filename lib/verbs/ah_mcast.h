/* The address handle of a multicast group, built from its MCMemberRecord
 * as the kernel builds it (core/multicast.c ib_init_ah_from_mcmember()):
 * dlid = MLID, is_global = 1 with dgid = MGID, and the record's SL,
 * rate, hop limit, traffic class and flow label; the source GID is the
 * port's own (the one the join named as PortGID). ibv_create_ah(3): the
 * GRH "is useful when sending packets to another subnet or to a multicast
 * group", and a multicast DLID without one fails (ah_check's
 * multicast_needs_grh). */
#ifndef IBAHPROBE_AH_MCAST_H
#define IBAHPROBE_AH_MCAST_H

#include "verbs/ah_attr.h"
#include "wire/mcmember.h"

/* Fields override the record, as for a path. Returns 0, or -1 when the
 * port's GID table is known and lacks sgid. */
int ah_build_from_mcmember(const struct mcmember_record *group,
			   const union ibv_gid *sgid,
			   const struct ah_fields *fields,
			   const struct ah_port_facts *facts,
			   struct ibv_ah_attr *attr);

#endif
