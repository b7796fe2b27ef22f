/* A multicast group's AH from its MCMemberRecord; see ah_mcast.h. */
#include "verbs/ah_mcast.h"

int ah_build_from_mcmember(const struct mcmember_record *group,
			   const union ibv_gid *sgid,
			   const struct ah_fields *fields,
			   const struct ah_port_facts *facts,
			   struct ibv_ah_attr *attr)
{
	struct ah_path path = {
		.dlid = group->mlid,
		/* No path bits: ib_init_ah_from_mcmember() sets none. */
		.slid = 0,
		.dgid = group->mgid,
		.sgid = *sgid,
		.sl = group->sl,
		.hop_limit = group->hop_limit,
		.traffic_class = group->traffic_class,
		.rate = group->rate,
		.flow_label = group->flow_label,
	};
	int rc = ah_build_from_path(&path, fields, facts, attr);

	/* ib_init_ah_from_mcmember() sets the GRH whatever the hop limit:
	 * a group is addressed by its MGID. */
	attr->is_global = 1;
	return rc;
}
