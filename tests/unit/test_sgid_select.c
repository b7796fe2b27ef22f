/* Unit tests of the source-GID choice (-g auto): RoCE v2 before v1, the
 * destination's address family, link-local only for link-local, the IB
 * subnet prefix, and a reason in words either way. */
#include "port_fixture.h"
#include "sgid_select.h"
#include "tap.h"

static char reason[256];

static int pick(const struct ah_port_facts *f, const char *dgid, uint8_t *index)
{
	union ibv_gid gid = fixture_gid(dgid);

	*index = 0xff;
	return sgid_select(f, &gid, index, reason, sizeof(reason));
}

int main(void)
{
	struct ah_port_facts f;
	uint8_t index;

	roce_facts(&f);
	is_int(pick(&f, "10.0.0.9", &index), 0, "IPv4 destination");
	is_int(index, 3, "the IPv4 RoCE v2 GID, not v1 (2) nor IPv6");
	is_str(reason, "RoCE v2 IPv4 GID on eth1", "reason");

	is_int(pick(&f, "2001:db8:7::9", &index), 0, "routed IPv6 destination");
	is_int(index, 5, "the global IPv6 GID, not link-local");
	is_str(reason, "RoCE v2 IPv6 GID on eth1", "reason");

	is_int(pick(&f, "fe80::9", &index), 0, "link-local destination");
	is_int(index, 1, "the link-local RoCE v2 GID");

	/* Without v2 GIDs, v1 is the fallback. */
	roce_gids[3].kind = GID_KIND_ROCE_V1;
	is_int(pick(&f, "10.0.0.9", &index), 0, "only RoCE v1 for IPv4");
	ok(index == 2 || index == 3, "a v1 IPv4 GID (%u)", index);
	ok(strncmp(reason, "RoCE v1 IPv4 GID", 16) == 0, "reason says v1: %s", reason);
	roce_facts(&f);

	/* No IPv4 GID at all: refused, with the reason. */
	f.gid_count = 2;	/* only the link-local ones */
	is_int(pick(&f, "10.0.0.9", &index), -1, "no IPv4 GID");
	is_str(reason, "no RoCE GID of the destination's family (IPv4) on port "
		       "1; 'ibahprobe ports' lists the GID table", "reason");
	is_int(pick(&f, "2001:db8:7::9", &index), -1,
	       "only link-local for a routed IPv6 destination");
	is_str(reason, "no RoCE GID of the destination's family (IPv6, not "
		       "link-local) on port 1; 'ibahprobe ports' lists the GID "
		       "table", "reason names link-local");

	ib_facts(&f);
	is_int(pick(&f, "fec0:0:0:1::10:3", &index), 0, "IB, site prefix");
	is_int(index, 1, "the GID with the destination's prefix");
	is_int(pick(&f, "fe80::10:3", &index), 0, "IB, default prefix");
	is_int(index, 0, "GID 0");
	is_int(pick(&f, "fec0:0:0:9::1", &index), 0, "IB, foreign prefix");
	is_int(index, 0, "the port GID");
	is_str(reason, "IB: GID 0, the port GID", "reason");

	ah_port_facts_assumed(LINK_LAYER_ETHERNET, false, 1, &f);
	is_int(pick(&f, "10.0.0.9", &index), 0, "no device: index 0");
	is_int(index, 0, "index 0");
	is_str(reason, "GID table unknown (no device): index 0", "and says so");
	return tap_done();
}
