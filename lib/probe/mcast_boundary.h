/* Where a multicast group stops: an expected member that is silent to the
 * group but answers unicast names, from its unicast path's routers and
 * the hops of the members that did answer the group, the first router
 * the group does not cross (the group's boundary). Pure logic: the
 * unicast paths are traced by the caller (probe/mcast_unicast.h). */
#ifndef IBAHPROBE_MCAST_BOUNDARY_H
#define IBAHPROBE_MCAST_BOUNDARY_H

#include <stdbool.h>
#include <stddef.h>

/* A member's unicast path: the routers in order (an entry NULL where
 * that hop was silent), the member itself not among them. */
struct mcast_unicast_path {
	const char *const *routers;
	size_t count;
};

/* A member that answered the group: the routers the group crossed to
 * it (hops; -1 unknown) and, where traced, its unicast path (count 0,
 * routers NULL: not traced). */
struct mcast_answered_member {
	int hops;
	struct mcast_unicast_path path;
};

/* An expected member silent to the group, as probed unicast. */
struct mcast_silent_member {
	bool unicast_probed;	/* false: its unicast reach is unknown */
	bool unicast_reached;	/* its responder answered unicast */
	struct mcast_unicast_path path;
};

enum mcast_boundary_verdict {
	/* path.routers[router] does not route the group on: the group
	 * reaches members on this side of it, the member behind it
	 * answers unicast through it. */
	MCAST_BOUNDARY_ROUTER,
	/* No router between us and the member: no router is to blame
	 * (its join, or a snooping switch). */
	MCAST_BOUNDARY_SAME_LINK,
	/* Silent unicast too: down or unreachable, not a multicast
	 * matter. */
	MCAST_BOUNDARY_MEMBER_DOWN,
	/* Nothing can be named (why says why). */
	MCAST_BOUNDARY_UNKNOWN,
};

struct mcast_boundary {
	enum mcast_boundary_verdict verdict;
	size_t router;		/* MCAST_BOUNDARY_ROUTER: its index */
	/* The group crosses every router of the member's path to reach
	 * another member: the last one routes it, only not onto the
	 * member's link. */
	bool routes_elsewhere;
	const char *why;	/* MCAST_BOUNDARY_UNKNOWN: a static reason */
};

/* The boundary for silent member s, given the n members that answered
 * the group. A member answering from h routers away shows the group
 * crosses the first h routers of its own unicast path (a multicast
 * route follows the unicast one: RPF); the boundary is the first router
 * of s's path past the longest such prefix it shares with one of them.
 * Without an answered member nothing shows the group left us at all. */
void mcast_boundary_infer(const struct mcast_answered_member *answered,
			  size_t n, const struct mcast_silent_member *s,
			  struct mcast_boundary *b);

const char *mcast_boundary_verdict_name(enum mcast_boundary_verdict v);

/* One line on it: "C (198.18.3.2) answers unicast over 198.18.1.1 (r1)
 * but not 239.1.2.3: r1 does not route the group (the boundary)".
 * member_host, router_host: names or NULL. */
void mcast_boundary_describe(const struct mcast_boundary *b,
			     const struct mcast_silent_member *s,
			     const char *member, const char *member_host,
			     const char *router_host, const char *group,
			     char *buf, size_t len);

#endif
