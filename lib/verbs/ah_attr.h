/* Address-handle rules: build a struct ibv_ah_attr from a path record, from
 * a GID plus port facts, or from explicit fields, and check it before
 * ibv_create_ah, which answers most mistakes with a bare EINVAL. Each rule
 * names its cause; after a failure the passed checks are known too. */
#ifndef IBAHPROBE_AH_ATTR_H
#define IBAHPROBE_AH_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "verbs/device.h"
#include "base/diag.h"

/* What the local port contributes to the rules. */
struct ah_port_facts {
	bool from_device;	/* false: assumed (dry run without a device) */
	enum link_layer link_layer;
	bool grh_required;
	uint8_t port_num;
	uint8_t lmc;
	uint16_t lid;
	bool gid_table_known;
	uint32_t gid_table_len;
	size_t gid_count;
	const struct gid_info *gids;
};

void ah_port_facts_from_port(const struct port_info *port,
			     struct ah_port_facts *facts);
/* Facts for a dry run without a device: only the link layer is known. */
void ah_port_facts_assumed(enum link_layer ll, bool grh_required,
			   uint8_t port_num, struct ah_port_facts *facts);
const struct gid_info *ah_facts_gid(const struct ah_port_facts *facts,
				    uint32_t index);

/* The user's wishes; unset fields take the defaults of the build. */
struct ah_fields {
	bool has_dlid, has_sl, has_src_path_bits, has_static_rate;
	bool has_port_num, has_dgid, has_sgid_index, has_hop_limit;
	bool has_traffic_class, has_flow_label;
	uint16_t dlid;
	uint8_t sl, src_path_bits, static_rate, port_num;
	union ibv_gid dgid;
	uint8_t sgid_index, hop_limit, traffic_class;
	uint32_t flow_label;
};

/* Default hop limit for a GRH built from a GID (as rdma_cm uses). */
#define AH_DEFAULT_HOP_LIMIT 64

/* (c) Explicit fields, built as given: is_global iff a DGID is given
 * (ah_check then says when the port needs a GRH). */
void ah_build_from_fields(const struct ah_fields *fields,
			  const struct ah_port_facts *facts,
			  struct ibv_ah_attr *attr);

/* (b) A GID destination (RoCE, or IB with a known DLID in fields): GRH
 * always; fields override hop limit, traffic class, flow label, SL... */
void ah_build_from_gid(const union ibv_gid *dgid, const struct ah_fields *fields,
		       const struct ah_port_facts *facts,
		       struct ibv_ah_attr *attr);

/* (a) A path record's fields, following the kernel's rule for path
 * records (ib_init_ah_attr_from_path): GRH iff hop_limit > 0, RoCE, or the
 * port requires a GRH; sgid_index is the index of the path's SGID in the
 * port's GID table. Fields override what the path says. Returns 0, or -1
 * when the GID table is known and lacks the path's SGID (the kernel fails
 * there too; sgid_index is then 0). */
struct ah_path {
	uint16_t dlid, slid;
	union ibv_gid dgid, sgid;
	uint8_t sl, hop_limit, traffic_class, rate;	/* rate: ibv_rate */
	uint32_t flow_label;
};
int ah_build_from_path(const struct ah_path *path, const struct ah_fields *fields,
		       const struct ah_port_facts *facts,
		       struct ibv_ah_attr *attr);
/* The index of gid in the port's GID table (of the port's link layer's
 * kind on IB); -1 when it is not there. */
int ah_facts_find_gid(const struct ah_port_facts *facts,
		      const union ibv_gid *gid);

enum ah_severity {
	AH_ERROR,	/* ibv_create_ah would fail, or the AH cannot work */
	AH_WARNING,	/* accepted, but probably not what was meant */
};

enum ah_rule {
	AH_RULE_ROCE_NEEDS_GRH,
	AH_RULE_PORT_REQUIRES_GRH,
	AH_RULE_DGID_EMPTY,
	AH_RULE_DGID_IPV4_MAPPED_ON_IB,
	AH_RULE_DLID_VALID,
	AH_RULE_MULTICAST_NEEDS_GRH,
	AH_RULE_FLOW_LABEL_WIDTH,
	AH_RULE_SL_RANGE,
	AH_RULE_PORT_NUM,
	AH_RULE_STATIC_RATE,
	AH_RULE_SGID_INDEX_RANGE,
	AH_RULE_SGID_INDEX_EMPTY,
	AH_RULE_SGID_FAMILY,
	AH_RULE_SGID_TYPE,
	AH_RULE_HOP_LIMIT_ROUTED,
	AH_RULE_SL_ROCE_PCP,
	AH_RULE_SRC_PATH_BITS_LMC,
	AH_RULE_COUNT,
};

struct ah_violation {
	enum ah_rule rule;
	enum ah_severity severity;
	char message[DIAG_MSG_MAX];
};

struct ah_check {
	size_t count;
	size_t errors;
	struct ah_violation items[AH_RULE_COUNT];
	bool checked[AH_RULE_COUNT];	/* rule applied (else: unknown facts) */
};

/* Applies every rule to attr; returns the number of errors. */
size_t ah_check(const struct ibv_ah_attr *attr,
		const struct ah_port_facts *facts, struct ah_check *result);

const char *ah_rule_name(enum ah_rule rule);
const char *ah_severity_name(enum ah_severity severity);

/* Explains an errno from ibv_create_ah in words, given what the checks
 * found (the likely causes differ by link layer). */
void ah_explain_errno(int err, const struct ibv_ah_attr *attr,
		      const struct ah_port_facts *facts, char *buf,
		      size_t len);

#endif
