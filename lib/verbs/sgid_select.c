/* Source GID selection; see sgid_select.h for the order of preference. */
#include <stdio.h>
#include <string.h>

#include "base/gid.h"
#include "base/parse.h"
#include "verbs/sgid_select.h"

const char *sgid_rule_name(enum sgid_rule rule)
{
	switch (rule) {
	case SGID_RULE_ROUTE: return "route";
	case SGID_RULE_LOCAL: return "local";
	case SGID_RULE_ROUTE_NETDEV: return "route_netdev";
	case SGID_RULE_FAMILY: return "family";
	case SGID_RULE_IB_PREFIX: return "ib_prefix";
	case SGID_RULE_IB_PORT_GID: return "ib_port_gid";
	case SGID_RULE_TABLE_UNKNOWN: return "table_unknown";
	case SGID_RULE_NONE: return "none";
	}
	return "?";
}

static const char *family_name(const union ibv_gid *dgid)
{
	if (gid_is_ipv4_mapped(dgid))
		return "IPv4";
	return gid_is_link_local(dgid) ? "IPv6 link-local" : "IPv6";
}

/* RoCE v2 cannot mix IPv4 and IPv6, and fe80:: does not cross a router:
 * a GID of another family or scope never fits. */
static bool fits_family(const struct gid_info *g, const union ibv_gid *dgid)
{
	bool want_v4 = gid_is_ipv4_mapped(dgid);

	if (g->kind != GID_KIND_ROCE_V1 && g->kind != GID_KIND_ROCE_V2)
		return false;
	if (g->index > 255)
		return false;	/* sgid_index is 8 bits in ibv_ah_attr */
	if (gid_is_ipv4_mapped(&g->gid) != want_v4)
		return false;
	return want_v4 || gid_is_link_local(&g->gid) == gid_is_link_local(dgid);
}

static bool on_netdev(const struct gid_info *g, const char *netdev)
{
	return netdev[0] && strcmp(g->netdev, netdev) == 0;
}

/* How well a GID follows the route: 2 its netdev and address (for a
 * local destination: the destination's own address), 1 its netdev, 0
 * neither. */
static int route_tier(const struct gid_info *g, const union ibv_gid *dgid,
		      const struct route_info *route,
		      const union ibv_gid *source, bool has_source)
{
	if (!route)
		return 0;
	/* rdma_set_src_addr_rcu: a route through loopback is translated to
	 * the netdev that owns the address (rdma_find_ndev_for_src_ip_rcu). */
	if (route->local)
		return memcmp(g->gid.raw, dgid->raw, 16) == 0 ? 2 : 0;
	if (!on_netdev(g, route->oif))
		return 0;
	if (has_source && memcmp(g->gid.raw, source->raw, 16) == 0)
		return 2;
	return 1;
}

static void ib_choose(const struct ah_port_facts *facts,
		      const union ibv_gid *dgid, struct sgid_choice *choice)
{
	const struct gid_info *g = NULL;

	for (size_t i = 0; i < facts->gid_count && !g; i++)
		if (memcmp(facts->gids[i].gid.raw, dgid->raw, 8) == 0 &&
		    facts->gids[i].index <= 255)
			g = &facts->gids[i];
	if (g) {
		choice->rule = SGID_RULE_IB_PREFIX;
		snprintf(choice->reason, sizeof(choice->reason),
			 "IB GID with the destination's subnet prefix");
	} else {
		g = ah_facts_gid(facts, 0);
		choice->rule = SGID_RULE_IB_PORT_GID;
		snprintf(choice->reason, sizeof(choice->reason),
			 "IB: GID 0, the port GID");
	}
	choice->chosen = true;
	choice->index = g ? (uint8_t)g->index : 0;
	if (g) {
		choice->has_gid = true;
		choice->gid = g->gid;
		choice->kind = g->kind;
	}
}

/* Why the route did not lead to a GID, in words. */
static void route_problem(const struct ah_port_facts *facts,
			  const union ibv_gid *dgid, const char *addr,
			  const struct route_info *route, const char *no_route,
			  char *buf, size_t len)
{
	if (!route)
		snprintf(buf, len, "%s", no_route && *no_route ? no_route
							 : "no route answer");
	else if (route->local)
		snprintf(buf, len, "%s is local to this host but no %s GID of "
			 "port %u has that address", addr, family_name(dgid),
			 facts->port_num);
	else if (!route->oif[0])
		snprintf(buf, len, "the kernel's route to %s names no "
			 "interface", addr);
	else
		snprintf(buf, len, "the route to %s leaves via %s, which has "
			 "no %s GID on port %u", addr, route->oif,
			 family_name(dgid), facts->port_num);
}

static void explain(const struct ah_port_facts *facts,
		    const union ibv_gid *dgid, const char *addr,
		    const struct route_info *route, const char *no_route,
		    bool v2_exists, struct sgid_choice *c)
{
	char problem[DIAG_MSG_MAX];
	const char *v1 = "";

	if (c->kind == GID_KIND_ROCE_V1 && !v2_exists)
		v1 = "; RoCE v1, as the port has no RoCE v2 GID of the family";
	switch (c->rule) {
	case SGID_RULE_ROUTE:
		snprintf(c->reason, sizeof(c->reason),
			 "the route to %s leaves via %s with source %s%s", addr,
			 route->oif, route->source, v1);
		break;
	case SGID_RULE_LOCAL:
		snprintf(c->reason, sizeof(c->reason),
			 "%s is a local address of %s%s", addr, c->netdev, v1);
		break;
	case SGID_RULE_ROUTE_NETDEV:
		if (route->source[0])
			snprintf(c->reason, sizeof(c->reason),
				 "the route to %s leaves via %s with source %s, "
				 "which has no GID there: another %s address "
				 "of %s%s", addr, route->oif, route->source,
				 family_name(dgid), route->oif, v1);
		else
			snprintf(c->reason, sizeof(c->reason),
				 "the route to %s leaves via %s (no source "
				 "address): an %s address of %s%s", addr,
				 route->oif, family_name(dgid), route->oif, v1);
		break;
	default:
		route_problem(facts, dgid, addr, route, no_route, problem,
			      sizeof(problem));
		snprintf(c->reason, sizeof(c->reason),
			 "the route was not usable (%s): the first %s %s GID",
			 problem, gid_kind_name(c->kind), family_name(dgid));
		break;
	}
}

int sgid_choose(const struct ah_port_facts *facts, const union ibv_gid *dgid,
		const struct route_info *route, const char *no_route,
		struct sgid_choice *choice)
{
	const struct gid_info *best = NULL;
	union ibv_gid source = { .raw = { 0 } };
	char addr[GID_TEXT_MAX], err[DIAG_MSG_MAX];
	bool has_source = false, v2_exists = false;
	int best_score = -1, best_tier = 0;

	memset(choice, 0, sizeof(*choice));
	if (route) {
		choice->route_known = true;
		snprintf(choice->route_oif, sizeof(choice->route_oif), "%s",
			 route->oif);
		snprintf(choice->route_source, sizeof(choice->route_source),
			 "%s", route->source);
		has_source = route->source[0] &&
			     parse_gid(route->source, &source, err,
				       sizeof(err)) == 0;
	}
	if (!facts->gid_table_known) {
		choice->chosen = true;
		choice->rule = SGID_RULE_TABLE_UNKNOWN;
		snprintf(choice->reason, sizeof(choice->reason),
			 "GID table unknown (no device): index 0");
		return 0;
	}
	if (facts->link_layer != LINK_LAYER_ETHERNET) {
		ib_choose(facts, dgid, choice);
		return 0;
	}
	gid_format_address(dgid, addr, sizeof(addr));
	for (size_t i = 0; i < facts->gid_count; i++) {
		const struct gid_info *g = &facts->gids[i];
		int tier, score;

		if (!fits_family(g, dgid))
			continue;
		v2_exists = v2_exists || g->kind == GID_KIND_ROCE_V2;
		tier = route_tier(g, dgid, route, &source, has_source);
		/* The type first: RoCE v1 only when no v2 fits at all. */
		score = (g->kind == GID_KIND_ROCE_V2 ? 10 : 0) + tier;
		if (score > best_score) {
			best = g;
			best_score = score;
			best_tier = tier;
		}
	}
	if (!best) {
		choice->rule = SGID_RULE_NONE;
		snprintf(choice->reason, sizeof(choice->reason),
			 "no RoCE GID of the destination's family (%s%s) on "
			 "port %u; 'ibahprobe ports' lists the GID table",
			 gid_is_ipv4_mapped(dgid) ? "IPv4" : "IPv6",
			 gid_is_ipv4_mapped(dgid) ? ""
			 : gid_is_link_local(dgid) ? ", link-local"
						   : ", not link-local",
			 facts->port_num);
		return -1;
	}
	choice->chosen = true;
	choice->index = (uint8_t)best->index;
	choice->has_gid = true;
	choice->gid = best->gid;
	choice->kind = best->kind;
	snprintf(choice->netdev, sizeof(choice->netdev), "%s", best->netdev);
	if (best_tier == 2)
		choice->rule = route->local ? SGID_RULE_LOCAL : SGID_RULE_ROUTE;
	else if (best_tier == 1)
		choice->rule = SGID_RULE_ROUTE_NETDEV;
	else
		choice->rule = SGID_RULE_FAMILY;
	explain(facts, dgid, addr, route, no_route, v2_exists, choice);
	return 0;
}

/* A link-local destination without a scope: when the port's link-local
 * GIDs all sit on one netdev, that netdev is the only place it can be. */
static const char *only_link_local_netdev(const struct ah_port_facts *facts,
					  const union ibv_gid *dgid)
{
	const char *netdev = NULL;

	for (size_t i = 0; i < facts->gid_count; i++) {
		const struct gid_info *g = &facts->gids[i];

		if (!fits_family(g, dgid) || !g->netdev[0])
			continue;
		if (netdev && strcmp(netdev, g->netdev) != 0)
			return NULL;
		netdev = g->netdev;
	}
	return netdev;
}

int sgid_select(const struct ah_port_facts *facts, const union ibv_gid *dgid,
		const char *scope, struct sgid_choice *choice)
{
	struct route_info route;
	char addr[GID_TEXT_MAX], err[DIAG_MSG_MAX];
	bool link_local = !gid_is_ipv4_mapped(dgid) && gid_is_link_local(dgid);

	/* IB has no route: its rule is the subnet prefix. */
	if (!facts->gid_table_known || facts->link_layer != LINK_LAYER_ETHERNET)
		return sgid_choose(facts, dgid, NULL, NULL, choice);
	if (!link_local) {
		scope = NULL;
	} else if (!scope || !*scope) {
		scope = only_link_local_netdev(facts, dgid);
		if (!scope)
			return sgid_choose(facts, dgid, NULL,
					   "a link-local destination on a port "
					   "with several netdevs needs its "
					   "interface: write ADDR%IF",
					   choice);
	}
	gid_format_address(dgid, addr, sizeof(addr));
	if (route_lookup(addr, scope, &route, err, sizeof(err)))
		return sgid_choose(facts, dgid, NULL, err, choice);
	return sgid_choose(facts, dgid, &route, NULL, choice);
}

const char *sgid_choice_describe(const struct sgid_choice *choice, char *buf,
				 size_t len)
{
	char gid[GID_TEXT_MAX] = "";

	if (!choice->chosen) {
		snprintf(buf, len, "%s", choice->reason);
		return buf;
	}
	if (choice->has_gid)
		gid_format(&choice->gid, gid, sizeof(gid));
	snprintf(buf, len, "sgid_index %u (%s%s%s%sbecause %s)", choice->index,
		 gid, gid[0] ? ", " : "", choice->netdev,
		 choice->netdev[0] ? ", " : "", choice->reason);
	return buf;
}

int sgid_index_check(const struct ah_port_facts *f, const char *dev_name,
		     uint32_t index, char *err, size_t len)
{
	/* A device seen through umad only may report no table length. */
	if (!f->gid_table_known || !f->gid_table_len)
		return 0;
	if (index >= f->gid_table_len) {
		snprintf(err, len, "sgid_index %u is beyond the GID table of "
			 "%s port %u (%u entr%s); 'ibahprobe ports' lists "
			 "the valid ones", index, dev_name, f->port_num,
			 f->gid_table_len, f->gid_table_len == 1 ? "y" : "ies");
		return -1;
	}
	if (!ah_facts_gid(f, index)) {
		snprintf(err, len, "sgid_index %u is empty on %s port %u; "
			 "'ibahprobe ports' lists the valid ones", index,
			 dev_name, f->port_num);
		return -1;
	}
	return 0;
}
