/* A trace flow from a probe cell: see roce_flow_cell.h. */
#include "probe/roce_flow_cell.h"

void roce_flow_from_cell(const struct probe_session *s, struct roce_flow *f,
			 const struct probe_cell *c)
{
	f->dest = c->target->dest->text;
	f->dgid = c->attr.is_global ? c->attr.grh.dgid : c->target->dgid;
	f->dgid_known = c->attr.is_global || c->target->has_dgid;
	f->dest_qpn = c->target->info.qpn;
	/* From the rendezvous, or given (--qpn): else never learnt. */
	f->qpn_known = c->target->ready || c->target->from_rendezvous ||
		       c->target->has_qpn;
	f->qkey = c->target->info.qkey;
	f->asked = c->asked;
	f->sgid_index = c->attr.grh.sgid_index;
	f->sgid = ah_facts_gid(&s->facts, c->attr.grh.sgid_index);
	f->has_grh = c->attr.is_global;
}
