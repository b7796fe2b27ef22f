/* Unit tests of the InfiniBand target decisions: which GID of a
 * rendezvous answer is the DGID, the P_Key table lookup as the kernel's
 * ib_find_cached_pkey does it, and the session's partition. */
#include <string.h>

#include "sa/ib_target.h"
#include "base/parse.h"
#include "port_fixture.h"
#include "tap.h"

static void add_gid(struct responder_info *info, uint32_t index,
		    const char *gid, const char *type)
{
	size_t n = info->gid_count++;

	info->gids[n].index = index;
	info->gids[n].gid = fixture_gid(gid);
	snprintf(info->gids[n].type, sizeof(info->gids[n].type), "%s", type);
}

static void test_responder_dgid(void)
{
	struct responder_info info = { .port_num = 1, .device = "mlx5_0",
				       .link_layer = "InfiniBand" };
	union ibv_gid dgid, named = fixture_gid("fe80::2:c903:a:1");
	char why[256];
	bool listed;

	/* serve lists what its port has: here an IPv4-mapped entry ahead of
	 * the IB ones (a confused or foreign peer), then GID 1 and GID 0. */
	add_gid(&info, 3, "10.0.0.7", "IB");
	add_gid(&info, 1, "fec0::2:c903:a:1", "IB");
	add_gid(&info, 0, "fe80::2:c903:a:1", "IB");
	is_int(ib_responder_dgid(&info, NULL, &dgid, &listed, why, sizeof(why)),
	       0, "an IB responder: a DGID");
	is_mem(dgid.raw, fixture_gid("fe80::2:c903:a:1").raw, 16,
	       "its GID at index 0, never the IPv4-mapped entry");
	ok(listed && strstr(why, "index 0"), "said why: %s", why);

	info.gid_count = 2;	/* no index 0 */
	ib_responder_dgid(&info, NULL, &dgid, &listed, why, sizeof(why));
	is_mem(dgid.raw, fixture_gid("fec0::2:c903:a:1").raw, 16,
	       "without index 0: the IB GID of lowest index");

	named = fixture_gid("fe80::2:c903:a:9");
	is_int(ib_responder_dgid(&info, &named, &dgid, &listed, why,
				 sizeof(why)), 0, "a gid: the user named");
	ok(!listed && memcmp(dgid.raw, named.raw, 16) == 0,
	   "is taken as given, noted as not listed");

	memset(&info, 0, sizeof(info));
	snprintf(info.link_layer, sizeof(info.link_layer), "Ethernet");
	add_gid(&info, 0, "fe80::1", "RoCE v1");
	add_gid(&info, 1, "10.0.0.7", "RoCE v2");
	is_int(ib_responder_dgid(&info, NULL, &dgid, &listed, why, sizeof(why)),
	       -1, "a RoCE responder has no DGID for an IB port");
	ok(strstr(why, "RoCE") != NULL, "and says it is on RoCE: %s", why);
}

static void test_pkey_find(void)
{
	struct pkey_table t = { .count = 5,
				.keys = { 0xffff, 0x0012, 0x8034, 0x0034,
					  0x8012 } };

	is_int(pkey_table_find(&t, 0xffff), 0, "default partition: index 0");
	is_int(pkey_table_find(&t, 0x7fff), 0,
	       "membership bit aside: 0x7fff is index 0 too");
	is_int(pkey_table_find(&t, 0x8012), 4,
	       "full member entry wins over a limited one before it");
	is_int(pkey_table_find(&t, 0x0034), 2, "the first full member");
	t.keys[4] = 0;
	is_int(pkey_table_find(&t, 0x8012), 1,
	       "only a limited entry: that one");
	is_int(pkey_table_find(&t, 0x1234), -1, "not a member: -1");
	is_int(pkey_table_find(&t, 0x8000), -1, "partition 0 is none");
	ok(pkey_same_partition(0x8012, 0x0012) &&
	   !pkey_same_partition(0x8012, 0x8013), "same partition: low 15 bits");
}

static void test_partition(void)
{
	struct pkey_table t = { .count = 2, .keys = { 0xffff, 0x8012 } };
	uint16_t pkey, index;
	char err[256];

	is_int(ib_partition_choose(false, 0, false, 0, &t, &pkey, &index, err,
				   sizeof(err)), 0, "nothing asked: fine");
	ok(pkey == 0 && index == 0, "index 0");
	ib_partition_choose(false, 0, true, 0x0012, &t, &pkey, &index, err,
			    sizeof(err));
	ok(pkey == 0x0012 && index == 1, "the path's P_Key: its index 1");
	ib_partition_choose(true, 0xffff, true, 0x0012, &t, &pkey, &index, err,
			    sizeof(err));
	ok(pkey == 0xffff && index == 0, "the user's P_Key wins over the path's");
	is_int(ib_partition_choose(true, 0x1234, false, 0, &t, &pkey, &index,
				   err, sizeof(err)), -1,
	       "a partition the port is not in");
	ok(strstr(err, "0x1234") != NULL, "named: %s", err);
	is_int(ib_partition_choose(true, 0x0012, false, 0, NULL, &pkey, &index,
				   err, sizeof(err)), -1,
	       "--pkey without a readable table: refused");
	is_int(ib_partition_choose(false, 0, true, 0x0012, NULL, &pkey, &index,
				   err, sizeof(err)), 0,
	       "a path's P_Key without a table: index 0, as before");
}

static void test_parse_partition(void)
{
	uint16_t pkey;
	char err[256];

	is_int(pkey_parse_partition("0x8012", &pkey, err, sizeof(err)), 0,
	       "0x8012 parses");
	is_int(pkey, 0x8012, "to 0x8012");
	is_int(pkey_parse_partition("0x8000", &pkey, err, sizeof(err)), -1,
	       "0x8000 names no partition");
	is_int(pkey_parse_partition("0x10000", &pkey, err, sizeof(err)), -1,
	       "out of range");
}

int main(void)
{
	test_responder_dgid();
	test_pkey_find();
	test_partition();
	test_parse_partition();
	return tap_done();
}
