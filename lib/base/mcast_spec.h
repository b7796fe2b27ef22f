/* serve --mcast's GROUP list: which multicast groups, as the user types
 * them, and which link layer each can live on.
 *   MGID (ff..)        an InfiniBand group; on RoCE the same text is an
 *                      IPv6 multicast address, whose GID it also is
 *   ipoib[:PKEY]       IPoIB's IPv4 broadcast group of a partition
 *   ipoib6[:PKEY]      IPoIB's IPv6 all-nodes group (base/mgid.h)
 *   IPv4 224.0.0.0/4   a RoCE group; its GID is the IPv4-mapped address
 *                      (::ffff:a.b.c.d), as the kernel's cma_iboe_set_mgid
 *                      and rxe take it */
#ifndef IBAHPROBE_MCAST_SPEC_H
#define IBAHPROBE_MCAST_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#define MCAST_SPEC_MAX 16
#define MCAST_SPEC_TEXT_MAX 64

enum mcast_spec_family {
	MCAST_SPEC_MGID,	/* ff.. text: IB MGID, or IPv6 group on RoCE */
	MCAST_SPEC_IPOIB,	/* ipoib[6][:PKEY]: InfiniBand only */
	MCAST_SPEC_IPV4,	/* a.b.c.d: RoCE only */
};

struct mcast_spec {
	char text[MCAST_SPEC_TEXT_MAX];	/* as given */
	enum mcast_spec_family family;
	union ibv_gid gid;	/* the MGID, or the address as a GID */
};

struct mcast_spec_list {
	size_t count;
	struct mcast_spec specs[MCAST_SPEC_MAX];
};

/* Whether gid names a group: an MGID / IPv6 multicast address (ff..) or
 * an IPv4-mapped address in 224.0.0.0/4. */
bool mcast_gid_is_group(const union ibv_gid *gid);

/* One GROUP. -1 with err set for anything else. */
int mcast_spec_parse(const char *text, struct mcast_spec *spec, char *err,
		     size_t errlen);
/* A comma-separated list, appended to list (repeated --mcast add up):
 * refuses empty items, duplicates (by GID), more than MCAST_SPEC_MAX
 * groups, and a list that mixes InfiniBand-only (ipoib) with RoCE-only
 * (IPv4) groups. */
int mcast_spec_list_add(struct mcast_spec_list *list, const char *text,
			char *err, size_t errlen);

#endif
