/* Port facts for the AH and source-GID tests: a RoCE port laid out like
 * an rxe or mlx5 port (link-local, IPv4-mapped and global IPv6 GIDs, each
 * as RoCE v1 and v2) and an InfiniBand port with two subnet prefixes. */
#ifndef IBAHPROBE_PORT_FIXTURE_H
#define IBAHPROBE_PORT_FIXTURE_H

#include <arpa/inet.h>
#include <string.h>

#include "verbs/ah_attr.h"

static inline union ibv_gid fixture_gid(const char *text)
{
	union ibv_gid gid;
	struct in_addr v4;

	memset(&gid, 0, sizeof(gid));
	if (inet_pton(AF_INET, text, &v4) == 1) {
		gid.raw[10] = gid.raw[11] = 0xff;
		memcpy(&gid.raw[12], &v4, 4);
	} else {
		inet_pton(AF_INET6, text, gid.raw);
	}
	return gid;
}

/* Index: 0 fe80 v1, 1 fe80 v2, 2 10.0.0.1 v1, 3 10.0.0.1 v2, 5 2001:db8:1::1
 * v2 (4 is empty, as after an address was removed). */
static struct gid_info roce_gids[5];

static inline void roce_facts(struct ah_port_facts *f)
{
	static const struct {
		uint32_t index;
		const char *gid;
		enum gid_kind kind;
	} table[] = {
		{ 0, "fe80::1", GID_KIND_ROCE_V1 },
		{ 1, "fe80::1", GID_KIND_ROCE_V2 },
		{ 2, "10.0.0.1", GID_KIND_ROCE_V1 },
		{ 3, "10.0.0.1", GID_KIND_ROCE_V2 },
		{ 5, "2001:db8:1::1", GID_KIND_ROCE_V2 },
	};

	for (size_t i = 0; i < 5; i++) {
		roce_gids[i].index = table[i].index;
		roce_gids[i].gid = fixture_gid(table[i].gid);
		roce_gids[i].kind = table[i].kind;
		strcpy(roce_gids[i].netdev, "eth1");
	}
	memset(f, 0, sizeof(*f));
	f->from_device = true;
	f->link_layer = LINK_LAYER_ETHERNET;
	f->grh_required = true;
	f->port_num = 1;
	f->gid_table_known = true;
	f->gid_table_len = 16;
	f->gid_count = 5;
	f->gids = roce_gids;
}

static struct gid_info ib_gids[2];

static inline void ib_facts(struct ah_port_facts *f)
{
	ib_gids[0].index = 0;
	ib_gids[0].gid = fixture_gid("fe80::10:1");
	ib_gids[0].kind = GID_KIND_IB;
	ib_gids[1].index = 1;
	ib_gids[1].gid = fixture_gid("fec0:0:0:1::10:1");
	ib_gids[1].kind = GID_KIND_IB;
	memset(f, 0, sizeof(*f));
	f->from_device = true;
	f->link_layer = LINK_LAYER_IB;
	f->port_num = 1;
	f->lid = 1;
	f->lmc = 2;
	f->gid_table_known = true;
	f->gid_table_len = 128;
	f->gid_count = 2;
	f->gids = ib_gids;
}

#endif
