/* Where a multicast group stops: see mcast_boundary.h. */
#include <stdio.h>
#include <string.h>

#include "probe/mcast_boundary.h"

/* How many of the first hops routers of a's path (those the group is
 * shown to cross) s's path shares, router for router. */
static size_t shared_prefix(const struct mcast_unicast_path *a, size_t hops,
			    const struct mcast_unicast_path *s)
{
	size_t k = 0;

	while (k < hops && k < a->count && k < s->count && a->routers[k] &&
	       s->routers[k] && strcmp(a->routers[k], s->routers[k]) == 0)
		k++;
	return k;
}

void mcast_boundary_infer(const struct mcast_answered_member *answered,
			  size_t n, const struct mcast_silent_member *s,
			  struct mcast_boundary *b)
{
	size_t crossed = 0;

	memset(b, 0, sizeof(*b));
	b->verdict = MCAST_BOUNDARY_UNKNOWN;
	if (!s->unicast_probed) {
		b->why = "its unicast reach was not probed";
		return;
	}
	if (!s->unicast_reached) {
		b->verdict = MCAST_BOUNDARY_MEMBER_DOWN;
		return;
	}
	if (s->path.count == 0) {
		b->verdict = MCAST_BOUNDARY_SAME_LINK;
		return;
	}
	if (n == 0) {
		b->why = "no member answered the group: nothing shows it "
			 "left this host";
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct mcast_answered_member *a = &answered[i];
		size_t k;

		if (a->hops < 0) {
			b->why = "a member answered without a hop count: "
				 "how far the group goes is not known";
			return;
		}
		if (a->hops == 0)
			continue;
		if (a->path.count < (size_t)a->hops) {
			b->why = "a member answered from behind routers "
				 "whose path is not known";
			return;
		}
		k = shared_prefix(&a->path, (size_t)a->hops, &s->path);
		if (k > crossed)
			crossed = k;
	}
	if (crossed == s->path.count) {
		/* Every router towards it forwards the group elsewhere:
		 * the last one's link to the member is where it stops. */
		b->routes_elsewhere = true;
		crossed = s->path.count - 1;
	}
	if (!s->path.routers[crossed]) {
		b->why = "the router where the group stops did not answer "
			 "the trace";
		return;
	}
	b->verdict = MCAST_BOUNDARY_ROUTER;
	b->router = crossed;
}

const char *mcast_boundary_verdict_name(enum mcast_boundary_verdict v)
{
	switch (v) {
	case MCAST_BOUNDARY_ROUTER: return "router";
	case MCAST_BOUNDARY_SAME_LINK: return "same_link";
	case MCAST_BOUNDARY_MEMBER_DOWN: return "member_down";
	case MCAST_BOUNDARY_UNKNOWN: return "unknown";
	}
	return "?";
}

void mcast_boundary_describe(const struct mcast_boundary *b,
			     const struct mcast_silent_member *s,
			     const char *member, const char *member_host,
			     const char *router_host, const char *group,
			     char *buf, size_t len)
{
	char who[160];
	const char *router;
	const char *rname;

	if (member_host && member_host[0])
		snprintf(who, sizeof(who), "%s (%s)", member_host, member);
	else
		snprintf(who, sizeof(who), "%s", member);
	switch (b->verdict) {
	case MCAST_BOUNDARY_ROUTER:
		router = s->path.routers[b->router];
		rname = router_host && router_host[0] ? router_host : router;
		if (router_host && router_host[0])
			snprintf(buf, len, "%s answers unicast over %s (%s) "
				 "but not %s: %s does not route the group%s "
				 "(the boundary)", who, router, router_host,
				 group, rname,
				 b->routes_elsewhere ? " onto its link" : "");
		else
			snprintf(buf, len, "%s answers unicast over %s but "
				 "not %s: %s does not route the group%s (the "
				 "boundary)", who, router, group, rname,
				 b->routes_elsewhere ? " onto its link" : "");
		return;
	case MCAST_BOUNDARY_SAME_LINK:
		snprintf(buf, len, "%s answers unicast with no router between "
			 "but not %s: it has not joined the group, or a "
			 "switch does not pass it", who, group);
		return;
	case MCAST_BOUNDARY_MEMBER_DOWN:
		snprintf(buf, len, "%s answers neither %s nor unicast: it is "
			 "down or unreachable, not a multicast boundary", who,
			 group);
		return;
	case MCAST_BOUNDARY_UNKNOWN:
		snprintf(buf, len, "%s is silent to %s; no boundary named: %s",
			 who, group, b->why);
		return;
	}
}
