/* Source GID choice per destination (-g auto): exchange GIDs, never
 * indexes, because GID table layouts differ per vendor and per node. On
 * RoCE the choice follows the kernel's route to the destination, because
 * the kernel resolves the next hop of an AH through the GID's netdev and
 * address (drivers/infiniband/core/addr.c: rdma_addr_find_l2_eth_by_grh ->
 * rdma_resolve_ip -> addr_resolve, whose set_addr_netns_by_gid_rcu binds
 * the lookup to the GID's ndev and addr4_resolve / addr6_resolve to its
 * address): a GID whose netdev does not route to the destination makes an
 * AH that fails or leaves through the wrong interface. */
#ifndef IBAHPROBE_SGID_SELECT_H
#define IBAHPROBE_SGID_SELECT_H

#include <net/if.h>
#include <netinet/in.h>
#include <stddef.h>

#include "verbs/ah_attr.h"
#include "verbs/route_info.h"

/* Which rule decided; the JSON "rule" key names it. */
enum sgid_rule {
	SGID_RULE_ROUTE,	/* the route's netdev and source address */
	SGID_RULE_LOCAL,	/* a local destination: its own GID */
	SGID_RULE_ROUTE_NETDEV,	/* the route's netdev, another address */
	SGID_RULE_FAMILY,	/* route not usable: a GID of the family */
	SGID_RULE_IB_PREFIX,	/* IB: the destination's subnet prefix */
	SGID_RULE_IB_PORT_GID,	/* IB: GID 0 */
	SGID_RULE_TABLE_UNKNOWN,	/* no device: index 0 */
	SGID_RULE_NONE,		/* no GID fits */
};

struct sgid_choice {
	bool chosen;		/* false: no GID fits (rule NONE) */
	uint8_t index;
	enum sgid_rule rule;
	enum gid_kind kind;	/* of the chosen GID */
	bool has_gid;		/* false when the GID table is unknown */
	union ibv_gid gid;
	char netdev[IF_NAMESIZE];	/* the chosen GID's, "" when none */
	bool route_known;	/* the kernel answered the route query */
	char route_oif[IF_NAMESIZE];
	char route_source[INET6_ADDRSTRLEN];	/* "" when none */
	char reason[DIAG_MSG_MAX * 2];	/* why, in words */
};

/*
 * The decision, from plain inputs: the port's GID table (types and
 * netdevs), the destination GID and the kernel's route to it (route: NULL
 * when there is none; no_route says why). On RoCE, among the GIDs of the
 * destination's family (IPv6: link-local only for a link-local
 * destination), RoCE v2 before v1, and within a type:
 *   1. the GID on the route's egress netdev with the route's source
 *      address (for a local destination, the GID with its address, as
 *      rdma_set_src_addr_rcu finds the netdev owning it);
 *   2. another GID of the family on that netdev;
 *   3. the first GID of the family (the route was not usable: no answer,
 *      or it leaves through a netdev without a GID on this port).
 * A VLAN, bond or macvlan upper device is its GIDs' own netdev: the
 * kernel records the netdev that owns the address (roce_gid_mgmt.c:
 * update_gid_ip, gid_attr.ndev), which is what the route names.
 * On IB (no route) the first GID whose prefix matches, else GID 0.
 * Returns 0, or -1 when no GID fits (choice->reason says why).
 */
int sgid_choose(const struct ah_port_facts *facts, const union ibv_gid *dgid,
		const struct route_info *route, const char *no_route,
		struct sgid_choice *choice);

/* sgid_choose with the kernel's answer: on RoCE it asks for the route to
 * dgid (route_lookup, bound to no interface; scope names the interface of
 * a link-local destination, "" or NULL when none). */
int sgid_select(const struct ah_port_facts *facts, const union ibv_gid *dgid,
		const char *scope, struct sgid_choice *choice);

const char *sgid_rule_name(enum sgid_rule rule);

/* "sgid_index 3 (::ffff:10.0.0.1, eth1, because ...)" for -v. */
const char *sgid_choice_describe(const struct sgid_choice *choice, char *buf,
				 size_t len);

/* Whether a source GID index given by the user (-g N) names a GID of
 * the port whose facts f holds (device dev_name): 0 when it does or when
 * the table is not known; -1 with "sgid_index 9 is empty on mlx5_0 port
 * 1; 'ibahprobe ports' lists the valid ones" (or beyond the table) in
 * err. Known before anything is sent, so the whole run is refused with
 * one message, not each destination's AH. */
int sgid_index_check(const struct ah_port_facts *f, const char *dev_name,
		     uint32_t index, char *err, size_t len);

#endif
