/* Building and checking struct ibv_ah_attr; see ah_attr.h and the notes
 * on what ibv_create_ah rejects with EINVAL. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "verbs/ah_attr.h"
#include "base/gid.h"

/* Unicast LIDs end below the multicast range. */
#define LID_UNICAST_MAX 0xbfff
#define LID_MULTICAST_MIN 0xc000
#define LID_PERMISSIVE 0xffff
#define FLOW_LABEL_MAX 0xfffff

void ah_port_facts_from_port(const struct port_info *port,
			     struct ah_port_facts *facts)
{
	memset(facts, 0, sizeof(*facts));
	facts->from_device = true;
	facts->link_layer = port->link_layer;
	facts->grh_required = port->grh_required;
	facts->port_num = port->port_num;
	facts->lmc = port->lmc;
	facts->lid = port->lid;
	facts->gid_table_known = true;
	facts->gid_table_len = port->gid_table_len;
	facts->gid_count = port->gid_count;
	facts->gids = port->gids;
}

void ah_port_facts_assumed(enum link_layer ll, bool grh_required,
			   uint8_t port_num, struct ah_port_facts *facts)
{
	memset(facts, 0, sizeof(*facts));
	facts->link_layer = ll;
	facts->grh_required = grh_required;
	facts->port_num = port_num ? port_num : 1;
}

const struct gid_info *ah_facts_gid(const struct ah_port_facts *facts,
				    uint32_t index)
{
	for (size_t i = 0; i < facts->gid_count; i++)
		if (facts->gids[i].index == index)
			return &facts->gids[i];
	return NULL;
}

static bool grh_mandatory(const struct ah_port_facts *facts)
{
	return facts->link_layer == LINK_LAYER_ETHERNET || facts->grh_required;
}

/* Overrides that every build honours the same way. */
static void apply_fields(const struct ah_fields *f, struct ibv_ah_attr *attr)
{
	if (f->has_dlid)
		attr->dlid = f->dlid;
	if (f->has_sl)
		attr->sl = f->sl;
	if (f->has_src_path_bits)
		attr->src_path_bits = f->src_path_bits;
	if (f->has_static_rate)
		attr->static_rate = f->static_rate;
	if (f->has_port_num)
		attr->port_num = f->port_num;
	if (f->has_dgid)
		attr->grh.dgid = f->dgid;
	if (f->has_sgid_index)
		attr->grh.sgid_index = f->sgid_index;
	if (f->has_hop_limit)
		attr->grh.hop_limit = f->hop_limit;
	if (f->has_traffic_class)
		attr->grh.traffic_class = f->traffic_class;
	if (f->has_flow_label)
		attr->grh.flow_label = f->flow_label;
}

static void start(const struct ah_port_facts *facts, struct ibv_ah_attr *attr)
{
	/* Zero everything: stale static_rate is a classic EINVAL. */
	memset(attr, 0, sizeof(*attr));
	attr->port_num = facts->port_num ? facts->port_num : 1;
}

void ah_build_from_fields(const struct ah_fields *fields,
			  const struct ah_port_facts *facts,
			  struct ibv_ah_attr *attr)
{
	start(facts, attr);
	if (fields->has_dgid)
		attr->grh.hop_limit = AH_DEFAULT_HOP_LIMIT;
	apply_fields(fields, attr);
	/* Built as asked: a GRH only with a DGID, so that a port that needs
	 * one gets the rule that says so, not a made-up empty DGID. */
	attr->is_global = fields->has_dgid;
}

void ah_build_from_gid(const union ibv_gid *dgid, const struct ah_fields *fields,
		       const struct ah_port_facts *facts,
		       struct ibv_ah_attr *attr)
{
	start(facts, attr);
	attr->is_global = 1;
	attr->grh.dgid = *dgid;
	attr->grh.hop_limit = AH_DEFAULT_HOP_LIMIT;
	apply_fields(fields, attr);
}

int ah_facts_find_gid(const struct ah_port_facts *facts,
		      const union ibv_gid *gid)
{
	for (size_t i = 0; i < facts->gid_count; i++)
		if (memcmp(facts->gids[i].gid.raw, gid->raw, 16) == 0 &&
		    (facts->link_layer != LINK_LAYER_IB ||
		     facts->gids[i].kind == GID_KIND_IB))
			return (int)facts->gids[i].index;
	return -1;
}

int ah_build_from_path(const struct ah_path *path, const struct ah_fields *fields,
		       const struct ah_port_facts *facts,
		       struct ibv_ah_attr *attr)
{
	int sgid_index = ah_facts_find_gid(facts, &path->sgid);
	int rc = 0;

	start(facts, attr);
	/* The kernel's init_ah_attr_grh_fields looks the path's SGID up in
	 * the port's GID table (rdma_find_gid_by_port) and fails without
	 * it: the SGID is where the path starts, so index 0 would be a
	 * guess. An assumed port (dry run) has no table to look in. */
	if (sgid_index >= 0 && sgid_index <= UINT8_MAX)
		attr->grh.sgid_index = (uint8_t)sgid_index;
	else if (facts->gid_table_known && !gid_is_zero(&path->sgid))
		rc = -1;
	attr->dlid = path->dlid;
	attr->sl = path->sl;
	attr->static_rate = path->rate;
	/* The low LMC bits of our SLID select which of our LIDs we send as. */
	attr->src_path_bits = (uint8_t)(path->slid & ((1u << facts->lmc) - 1));
	attr->grh.dgid = path->dgid;
	attr->grh.hop_limit = path->hop_limit;
	attr->grh.traffic_class = path->traffic_class;
	attr->grh.flow_label = path->flow_label;
	/* The kernel's rule (ib_init_ah_attr_from_path): a GRH iff the path
	 * leaves the subnet (hop_limit > 0) or the port needs one. */
	attr->is_global = path->hop_limit > 0 || grh_mandatory(facts);
	if (attr->is_global && attr->grh.hop_limit == 0 &&
	    facts->link_layer == LINK_LAYER_ETHERNET)
		attr->grh.hop_limit = AH_DEFAULT_HOP_LIMIT;
	if (facts->link_layer == LINK_LAYER_ETHERNET)
		attr->dlid = 0;
	apply_fields(fields, attr);
	if (fields->has_dgid)
		attr->is_global = 1;
	return rc;
}

static const char *const rule_names[AH_RULE_COUNT] = {
	[AH_RULE_ROCE_NEEDS_GRH] = "roce_needs_grh",
	[AH_RULE_PORT_REQUIRES_GRH] = "port_requires_grh",
	[AH_RULE_DGID_EMPTY] = "dgid_set",
	[AH_RULE_DGID_IPV4_MAPPED_ON_IB] = "dgid_not_ipv4_mapped_on_ib",
	[AH_RULE_DLID_VALID] = "dlid_valid",
	[AH_RULE_MULTICAST_NEEDS_GRH] = "multicast_needs_grh",
	[AH_RULE_FLOW_LABEL_WIDTH] = "flow_label_20_bits",
	[AH_RULE_SL_RANGE] = "sl_range",
	[AH_RULE_PORT_NUM] = "port_num_valid",
	[AH_RULE_STATIC_RATE] = "static_rate_valid",
	[AH_RULE_SGID_INDEX_RANGE] = "sgid_index_in_table",
	[AH_RULE_SGID_INDEX_EMPTY] = "sgid_index_populated",
	[AH_RULE_SGID_FAMILY] = "sgid_dgid_same_family",
	[AH_RULE_SGID_TYPE] = "sgid_type_matches_link",
	[AH_RULE_HOP_LIMIT_ROUTED] = "hop_limit_crosses_routers",
	[AH_RULE_SL_ROCE_PCP] = "sl_fits_roce_pcp",
	[AH_RULE_SRC_PATH_BITS_LMC] = "src_path_bits_within_lmc",
};

const char *ah_rule_name(enum ah_rule rule)
{
	return rule < AH_RULE_COUNT ? rule_names[rule] : "?";
}

const char *ah_severity_name(enum ah_severity severity)
{
	return severity == AH_ERROR ? "error" : "warning";
}

static void broken(struct ah_check *result, enum ah_rule rule,
		   enum ah_severity severity, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void broken(struct ah_check *result, enum ah_rule rule,
		   enum ah_severity severity, const char *fmt, ...)
{
	struct ah_violation *v = &result->items[result->count++];
	va_list ap;

	v->rule = rule;
	v->severity = severity;
	va_start(ap, fmt);
	vsnprintf(v->message, sizeof(v->message), fmt, ap);
	va_end(ap);
	if (severity == AH_ERROR)
		result->errors++;
}

static void check_grh_presence(const struct ibv_ah_attr *attr,
			       const struct ah_port_facts *f,
			       struct ah_check *r)
{
	r->checked[AH_RULE_ROCE_NEEDS_GRH] = true;
	if (f->link_layer == LINK_LAYER_ETHERNET && !attr->is_global)
		broken(r, AH_RULE_ROCE_NEEDS_GRH, AH_ERROR,
		       "RoCE (link layer Ethernet) needs a GRH: is_global is "
		       "0; give --dgid or a GID/IP destination");
	r->checked[AH_RULE_PORT_REQUIRES_GRH] = f->from_device || f->grh_required;
	if (f->grh_required && !attr->is_global)
		broken(r, AH_RULE_PORT_REQUIRES_GRH, AH_ERROR,
		       "port %u requires a GRH (IBV_QPF_GRH_REQUIRED) but "
		       "is_global is 0; give --dgid",
		       attr->port_num);
	r->checked[AH_RULE_DGID_EMPTY] = true;
	if (attr->is_global && gid_is_zero(&attr->grh.dgid))
		broken(r, AH_RULE_DGID_EMPTY, AH_ERROR,
		       "is_global is 1 but dgid is ::, which addresses no "
		       "port; give --dgid");
	/* No InfiniBand port has an IPv4-mapped GID: the responder's
	 * ibv_init_ah_from_wc finds no such entry in its GID table and the
	 * reply is never sent. An IP address only names a host on IB. */
	r->checked[AH_RULE_DGID_IPV4_MAPPED_ON_IB] =
		f->link_layer == LINK_LAYER_IB;
	if (f->link_layer == LINK_LAYER_IB && attr->is_global &&
	    gid_is_ipv4_mapped(&attr->grh.dgid)) {
		char text[GID_TEXT_MAX];

		broken(r, AH_RULE_DGID_IPV4_MAPPED_ON_IB, AH_ERROR,
		       "dgid %s is an IPv4-mapped GID, which no InfiniBand "
		       "port has: on InfiniBand an IP address or host name is "
		       "not a GID; give the port GID (gid:, from 'ibahprobe "
		       "ports' there) or a LID",
		       gid_format(&attr->grh.dgid, text, sizeof(text)));
	}
}

static void check_lid(const struct ibv_ah_attr *attr,
		      const struct ah_port_facts *f, struct ah_check *r)
{
	bool mcast_lid = attr->dlid >= LID_MULTICAST_MIN &&
			 attr->dlid != LID_PERMISSIVE;

	if (f->link_layer == LINK_LAYER_ETHERNET)
		return;	/* RoCE ignores LIDs */
	r->checked[AH_RULE_DLID_VALID] = true;
	if (attr->dlid == 0)
		broken(r, AH_RULE_DLID_VALID, AH_ERROR,
		       "dlid 0 is not a valid destination on InfiniBand; give "
		       "--dlid, or a destination the SA resolves");
	else if (attr->dlid == LID_PERMISSIVE)
		broken(r, AH_RULE_DLID_VALID, AH_ERROR,
		       "dlid 0xffff is the permissive LID, for directed-route "
		       "SMPs only, not for UD data");
	r->checked[AH_RULE_MULTICAST_NEEDS_GRH] = true;
	if (mcast_lid && !attr->is_global)
		broken(r, AH_RULE_MULTICAST_NEEDS_GRH, AH_ERROR,
		       "dlid 0x%x is a multicast LID: a multicast AH needs "
		       "is_global 1 with the MGID as dgid",
		       attr->dlid);
	else if (attr->is_global && gid_is_multicast(&attr->grh.dgid) &&
		 !mcast_lid)
		broken(r, AH_RULE_MULTICAST_NEEDS_GRH, AH_ERROR,
		       "dgid is a multicast GID but dlid 0x%x is not a "
		       "multicast LID (0xc000-0xfffe)",
		       attr->dlid);
	r->checked[AH_RULE_SRC_PATH_BITS_LMC] = f->from_device;
	if (f->from_device && attr->src_path_bits >> f->lmc)
		broken(r, AH_RULE_SRC_PATH_BITS_LMC, AH_WARNING,
		       "src_path_bits %u is wider than the port's LMC %u: "
		       "the HCA uses only the low %u bits",
		       attr->src_path_bits, f->lmc, f->lmc);
}

static void check_widths(const struct ibv_ah_attr *attr,
			 const struct ah_port_facts *f, struct ah_check *r)
{
	r->checked[AH_RULE_FLOW_LABEL_WIDTH] = true;
	if (attr->is_global && attr->grh.flow_label > FLOW_LABEL_MAX)
		broken(r, AH_RULE_FLOW_LABEL_WIDTH, AH_ERROR,
		       "flow_label 0x%x is wider than 20 bits (0-0xfffff)",
		       attr->grh.flow_label);
	r->checked[AH_RULE_SL_RANGE] = true;
	if (attr->sl > 15)
		broken(r, AH_RULE_SL_RANGE, AH_ERROR,
		       "sl %u is out of range: expected 0-15", attr->sl);
	r->checked[AH_RULE_SL_ROCE_PCP] = true;
	if (f->link_layer == LINK_LAYER_ETHERNET && attr->sl > 7)
		broken(r, AH_RULE_SL_ROCE_PCP, AH_WARNING,
		       "sl %u: RoCE carries only 3 bits (VLAN PCP 0-7)",
		       attr->sl);
	r->checked[AH_RULE_STATIC_RATE] = true;
	if (attr->static_rate == 1 || attr->static_rate > IBV_RATE_1200_GBPS)
		broken(r, AH_RULE_STATIC_RATE, AH_ERROR,
		       "static_rate %u is not an enum ibv_rate value (0, "
		       "2-24)",
		       attr->static_rate);
	r->checked[AH_RULE_PORT_NUM] = true;
	if (attr->port_num == 0 ||
	    (f->from_device && attr->port_num != f->port_num))
		broken(r, AH_RULE_PORT_NUM, AH_ERROR,
		       "port_num %u is not the port in use (%u)",
		       attr->port_num, f->port_num);
}

static void check_sgid(const struct ibv_ah_attr *attr,
		       const struct ah_port_facts *f, struct ah_check *r)
{
	const struct gid_info *sgid;
	uint8_t idx = attr->grh.sgid_index;

	if (!attr->is_global || !f->gid_table_known)
		return;
	r->checked[AH_RULE_SGID_INDEX_RANGE] = true;
	if (idx >= f->gid_table_len) {
		broken(r, AH_RULE_SGID_INDEX_RANGE, AH_ERROR,
		       "sgid_index %u is beyond the GID table of port %u "
		       "(%u entries); 'ibahprobe ports' lists the valid ones",
		       idx, f->port_num, f->gid_table_len);
		return;
	}
	r->checked[AH_RULE_SGID_INDEX_EMPTY] = true;
	sgid = ah_facts_gid(f, idx);
	if (!sgid) {
		broken(r, AH_RULE_SGID_INDEX_EMPTY, AH_ERROR,
		       "sgid_index %u is empty on port %u; 'ibahprobe ports' "
		       "lists the valid ones",
		       idx, f->port_num);
		return;
	}
	r->checked[AH_RULE_SGID_TYPE] = true;
	if ((f->link_layer == LINK_LAYER_ETHERNET) != (sgid->kind != GID_KIND_IB))
		broken(r, AH_RULE_SGID_TYPE, AH_ERROR,
		       "sgid_index %u is a %s GID on a %s port", idx,
		       gid_kind_name(sgid->kind),
		       link_layer_name(f->link_layer));
	r->checked[AH_RULE_SGID_FAMILY] = true;
	/* RoCE v2 is UDP over IPv4 or IPv6: both ends in one family. */
	if (sgid->kind == GID_KIND_ROCE_V2 &&
	    gid_is_ipv4_mapped(&sgid->gid) !=
		    gid_is_ipv4_mapped(&attr->grh.dgid))
		broken(r, AH_RULE_SGID_FAMILY, AH_ERROR,
		       "sgid_index %u is an %s RoCE v2 GID but dgid is %s: "
		       "choose a source GID of the same family (-g auto)",
		       idx, gid_is_ipv4_mapped(&sgid->gid) ? "IPv4" : "IPv6",
		       gid_is_ipv4_mapped(&attr->grh.dgid) ? "IPv4" : "IPv6");
}

/* Visibly another subnet: a different /64 prefix. An IPv4-mapped GID
 * has no prefix length in it, so an IPv4 destination is never visibly
 * off-subnet here (the route, where the prober knows it, says more). */
static bool gid_visibly_other_subnet(const union ibv_gid *a,
				     const union ibv_gid *b)
{
	if (gid_is_ipv4_mapped(a) || gid_is_ipv4_mapped(b))
		return false;
	return memcmp(a->raw, b->raw, 8) != 0;
}

static void check_hop_limit(const struct ibv_ah_attr *attr,
			    const struct ah_port_facts *f, struct ah_check *r)
{
	const struct gid_info *sgid;

	/* Multicast stays on the subnet, and dgid :: is its own error. */
	if (!attr->is_global || attr->grh.hop_limit > 1 ||
	    gid_is_multicast(&attr->grh.dgid) || gid_is_zero(&attr->grh.dgid))
		return;
	sgid = f->gid_table_known ? ah_facts_gid(f, attr->grh.sgid_index)
				  : NULL;
	r->checked[AH_RULE_HOP_LIMIT_ROUTED] = true;
	/* Only say so where the DGID is visibly off our subnet. */
	if (sgid && !gid_is_link_local(&attr->grh.dgid) &&
	    gid_visibly_other_subnet(&sgid->gid, &attr->grh.dgid))
		broken(r, AH_RULE_HOP_LIMIT_ROUTED, AH_WARNING,
		       "hop_limit %u: no router forwards the packet, so a "
		       "routed destination is unreachable",
		       attr->grh.hop_limit);
}

size_t ah_check(const struct ibv_ah_attr *attr,
		const struct ah_port_facts *facts, struct ah_check *result)
{
	memset(result, 0, sizeof(*result));
	check_grh_presence(attr, facts, result);
	check_lid(attr, facts, result);
	check_widths(attr, facts, result);
	check_sgid(attr, facts, result);
	check_hop_limit(attr, facts, result);
	return result->errors;
}

void ah_explain_errno(int err, const struct ibv_ah_attr *attr,
		      const struct ah_port_facts *facts, char *buf, size_t len)
{
	const struct gid_info *sgid =
		ah_facts_gid(facts, attr->grh.sgid_index);
	const char *netdev = sgid && sgid->netdev[0] ? sgid->netdev : "?";

	switch (err) {
	case 0:
		/* Some providers return NULL without setting errno (a
		 * create_ah that fails before any system call). */
		snprintf(buf, len,
			 "ibv_create_ah failed and the driver gave no reason "
			 "(errno 0) although every check passed: compare with "
			 "'ibahprobe ports' and the driver's limits");
		break;
	case EINVAL:
		snprintf(buf, len,
			 "the driver rejected an attribute (EINVAL) although "
			 "every check passed: compare with 'ibahprobe ports' "
			 "(GID table, port state) and the driver's limits");
		break;
	case EHOSTUNREACH:
	case ENETUNREACH:
		snprintf(buf, len,
			 "no route to %s from %s, the netdev of sgid_index %u "
			 "(%s): check 'ip route get' on that netdev, or pick "
			 "another source GID",
			 facts->link_layer == LINK_LAYER_ETHERNET
				 ? "the destination"
				 : "the destination's subnet",
			 netdev, attr->grh.sgid_index, strerror(err));
		break;
	case ETIMEDOUT:
		snprintf(buf, len,
			 "resolving the next hop's MAC address timed out "
			 "(ARP/neighbour discovery on %s): the destination or "
			 "its router does not answer",
			 netdev);
		break;
	case ENODATA:
	case ENOENT:
		snprintf(buf, len,
			 "sgid_index %u has no usable GID or netdev (%s)",
			 attr->grh.sgid_index, strerror(err));
		break;
	case EPERM:
	case EACCES:
		snprintf(buf, len, "not permitted (%s): run as root or grant "
			 "access to /dev/infiniband", strerror(err));
		break;
	case ENOMEM:
	case EAGAIN:
		snprintf(buf, len, "the device is out of AH resources (%s)",
			 strerror(err));
		break;
	case EOPNOTSUPP:
		snprintf(buf, len, "the driver does not support this kind of "
			 "AH (%s)", strerror(err));
		break;
	default:
		snprintf(buf, len, "ibv_create_ah failed: %s", strerror(err));
		break;
	}
}
