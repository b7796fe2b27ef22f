/* Unit tests of what `path` says when it cannot answer: the selectors a
 * path found without them misses (after "no records"), and the RoCE port
 * that has no SA. */
#include <string.h>

#include "base/ibrate.h"
#include "sa/path_resolve.h"
#include "tap.h"

/* The two-switch subnet's path from H1 to H3: MTU 2048, 10 Gb/s, SL 0. */
static struct path_record sim_path(void)
{
	return (struct path_record){
		.dlid = 5, .slid = 1, .sl = 0, .pkey = 0xffff,
		.mtu = ibrate_mtu_code(2048), .rate = 3 /* IBV_RATE_10_GBPS */,
		.hop_limit = 0, .reversible = true,
	};
}

static void test_selectors_missed(void)
{
	struct path_record p = sim_path();
	struct path_constraints w = { 0 };
	char buf[160];

	ok(!path_constraints_select(&w), "no selector: nothing to explain");
	w.has_dlid = w.has_slid = w.has_sgid = w.has_dgid = true;
	ok(!path_constraints_select(&w), "the two ends are not selectors");

	w.has_mtu = true;
	w.mtu_bytes = 4096;
	ok(path_constraints_select(&w), "--mtu is a selector");
	path_selectors_missed(&w, &p, buf, sizeof(buf));
	is_str(buf, "--mtu 4096 (the path's MTU is 2048)", "--mtu 4096 missed");

	w.has_rate = true;
	w.rate = 7;	/* IBV_RATE_40_GBPS */
	w.has_sl = true;
	w.sl = 3;
	path_selectors_missed(&w, &p, buf, sizeof(buf));
	is_str(buf, "--mtu 4096 (the path's MTU is 2048), --rate 40 (the "
	       "path's rate is 10 Gb/s), --sl 3 (the path's SL is 0)",
	       "each missed selector, in option order");

	/* Selectors the path meets are not named. */
	w.mtu_bytes = 2048;
	w.rate = 3;
	path_selectors_missed(&w, &p, buf, sizeof(buf));
	is_str(buf, "--sl 3 (the path's SL is 0)", "only the one missed");
	w.sl = 0;
	path_selectors_missed(&w, &p, buf, sizeof(buf));
	is_str(buf, "", "all met: nothing named");

	/* A full member P_Key (0xffff) meets --pkey 0x7fff. */
	w.has_pkey = true;
	w.pkey = 0x7fff;
	path_selectors_missed(&w, &p, buf, sizeof(buf));
	is_str(buf, "", "--pkey compares the key, not the membership bit");

	/* Too little room: whole items only, never half of one. */
	w.has_mtu = w.has_sl = true;
	w.mtu_bytes = 4096;
	w.sl = 3;
	path_selectors_missed(&w, &p, buf, 40);
	is_str(buf, "--mtu 4096 (the path's MTU is 2048)",
	       "an item that does not fit is left out whole");
}

static void test_roce_port(void)
{
	struct port_info roce1 = { .port_num = 1,
				   .link_layer = LINK_LAYER_ETHERNET };
	struct port_info ib1 = { .port_num = 1, .link_layer = LINK_LAYER_IB };
	struct port_info mixed[2] = {
		{ .port_num = 1, .link_layer = LINK_LAYER_ETHERNET },
		{ .port_num = 2, .link_layer = LINK_LAYER_IB },
	};
	struct device_info devs[2] = {
		{ .name = "rxe0", .port_count = 1, .ports = &roce1 },
		{ .name = "mlx5_1", .port_count = 1, .ports = &ib1 },
	};
	struct device_info dual = { .name = "mlx5_0", .port_count = 2,
				    .ports = mixed };
	struct device_list only_roce = { .count = 1, .devices = devs };
	struct device_list both = { .count = 2, .devices = devs };
	struct device_list one_dual = { .count = 1, .devices = &dual };
	const struct device_info *dev;
	const struct port_info *p;

	p = path_roce_port(&only_roce, 0, &dev);
	ok(p == &roce1 && dev == &devs[0], "only RoCE ports: rxe0 port 1 named");
	p = path_roce_port(&only_roce, 1, &dev);
	ok(p == &roce1, "-P 1 on a RoCE device: named");
	p = path_roce_port(&both, 0, &dev);
	ok(p == NULL && dev == NULL,
	   "an InfiniBand port is there: its failure is another one");
	p = path_roce_port(&one_dual, 1, &dev);
	ok(p == &mixed[0], "-P 1 of a dual-port device, port 1 RoCE: named");
	p = path_roce_port(&one_dual, 2, &dev);
	ok(p == NULL, "-P 2, the InfiniBand port: not a RoCE failure");
}

int main(void)
{
	test_selectors_missed();
	test_roce_port();
	return tap_done();
}
