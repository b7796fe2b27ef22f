/* Unit tests of MTU discovery's verdicts: the exact sentences and keys
 * for a bound that arrives, a blackhole on RoCE v2 over IPv4 and IPv6,
 * on InfiniBand, nothing arriving, and random loss mentioned. */
#include "probe/mtu_verdict.h"
#include "tap.h"

/* A finished search over a path whose edge is `edge` (0: nothing). */
static struct mtu_search searched(uint32_t upper, uint32_t edge)
{
	struct mtu_search m;
	uint32_t size;

	mtu_search_init(&m, 136, upper);
	while ((size = mtu_search_next(&m)) != 0)
		mtu_search_record(&m, size, 3, size <= edge ? 1 : 0);
	return m;
}

static void test_no_blackhole(void)
{
	struct mtu_search m = searched(1024, 4096);
	struct mtu_verdict v;

	mtu_verdict_judge(&m, MTU_BOUND_PORT, MTU_ENCAP_ROCE_V2_IPV4, &v);
	is_str(v.key, "no_blackhole", "key");
	ok(v.fine, "fine");
	is_str(v.text, "no blackhole: the port MTU 1024 arrives", "words");
	is_int(v.ip_mtu, 0, "no IP MTU derived");
	mtu_verdict_judge(&m, MTU_BOUND_RESPONDER, MTU_ENCAP_ROCE_V2_IPV4, &v);
	is_str(v.text, "no blackhole: the responder's port MTU 1024 arrives",
	       "the responder's bound named");
}

static void test_blackhole(void)
{
	struct mtu_search m = searched(1024, 648);
	struct mtu_verdict v;

	mtu_verdict_judge(&m, MTU_BOUND_PORT, MTU_ENCAP_ROCE_V2_IPV4, &v);
	is_str(v.key, "blackhole", "key");
	ok(!v.fine, "not fine");
	is_str(v.text, "blackhole: 648 arrives, 649 lost; port MTU 1024; a link "
	       "on the way is narrower (IP MTU 700 with IPv4 RoCE v2 headers)",
	       "IPv4 words");
	is_int(v.ip_mtu, 700, "IP MTU 700");
	m = searched(1024, 1208);	/* never: the bound is 1024 */
	is_str(m.result == MTU_BOUND_ARRIVES ? "yes" : "no", "yes",
	       "an edge above the bound is no blackhole");
	m = searched(4096, 1428);
	mtu_verdict_judge(&m, MTU_BOUND_PATH, MTU_ENCAP_ROCE_V2_IPV6, &v);
	is_str(v.text, "blackhole: 1428 arrives, 1429 lost; path MTU 4096; a "
	       "link on the way is narrower (IP MTU 1500 with IPv6 RoCE v2 "
	       "headers)", "IPv6 words");
	is_int(v.ip_mtu, 1500, "IPv6: 1428 + 72");
	m = searched(4096, 2048);
	mtu_verdict_judge(&m, MTU_BOUND_PATH, MTU_ENCAP_IB, &v);
	is_str(v.text, "blackhole: 2048 arrives, 2049 lost; path MTU 4096; a "
	       "link on the way is narrower", "InfiniBand: no IP MTU");
	is_int(v.ip_mtu, 0, "none derived on InfiniBand");
}

static void test_unreachable(void)
{
	struct mtu_search m = searched(1024, 0);
	struct mtu_verdict v;

	mtu_verdict_judge(&m, MTU_BOUND_PORT, MTU_ENCAP_ROCE_V2_IPV4, &v);
	is_str(v.key, "unreachable", "key");
	is_str(v.text, "unreachable: not even 136 bytes arrive", "words");
	ok(!v.fine, "not fine");
}

static void test_random_loss_said(void)
{
	struct mtu_search m;
	struct mtu_verdict v;

	mtu_search_init(&m, 136, 1024);
	mtu_search_record(&m, 1024, 3, 0);	/* lost by chance */
	while (mtu_search_next(&m))
		mtu_search_record(&m, mtu_search_next(&m), 3, 3);
	mtu_verdict_judge(&m, MTU_BOUND_PORT, MTU_ENCAP_ROCE_V2_IPV4, &v);
	is_str(v.text, "no blackhole: the port MTU 1024 arrives; 1 size lost "
	       "once arrived when tried again (random loss, not the MTU)",
	       "random loss named");
}

/* The active MTU each driver reports for a netdev MTU, as upstream
 * computes it (bytes of the IB MTU enum). */
static uint32_t ib_mtu_floor(int payload)
{
	static const uint32_t mtus[] = { 4096, 2048, 1024, 512, 256 };

	for (size_t i = 0; i < sizeof(mtus) / sizeof(mtus[0]); i++)
		if (payload >= (int)mtus[i])
			return mtus[i];
	return 0;
}

/* kernel include/rdma/ib_addr.h iboe_get_mtu: GRH 40 + UDP 8 + BTH 12 +
 * XRC 4 + AtomicETH 28 + ICRC 4 off; mlx5_query_port_roce and
 * bnxt_re_query_port report it. */
static uint32_t mlx5_bnxt_re_active_mtu(uint32_t netdev_mtu)
{
	return ib_mtu_floor((int)netdev_mtu - 96);
}

/* kernel irdma_query_port: ib_mtu_int_to_enum(netdev->mtu), nothing off. */
static uint32_t irdma_active_mtu(uint32_t netdev_mtu)
{
	return ib_mtu_floor((int)netdev_mtu);
}

/* kernel rxe_set_mtu, eth_mtu_int_to_enum: RXE_MAX_HDR_LENGTH 80 off. */
static uint32_t rxe_active_mtu(uint32_t netdev_mtu)
{
	return ib_mtu_floor((int)netdev_mtu - 80);
}

static uint32_t bound_for(uint32_t active_mtu, uint32_t netdev_mtu,
			  enum mtu_encap encap, enum mtu_bound_source *source)
{
	const struct mtu_bounds b = { .port_mtu = active_mtu,
				      .netdev_mtu = netdev_mtu };

	return mtu_bound_choose(&b, encap, 4096, source);
}

static void test_netdev_bound(void)
{
	enum mtu_bound_source src;
	struct mtu_search m;
	struct mtu_verdict v;

	is_int(mtu_netdev_payload_max(4100, MTU_ENCAP_ROCE_V2_IPV4), 4048,
	       "IPv4 payload: 4100 - 52");
	is_int(mtu_netdev_payload_max(4100, MTU_ENCAP_ROCE_V2_IPV6), 4028,
	       "IPv6 payload: 4100 - 72");
	is_int(mtu_netdev_payload_max(4100, MTU_ENCAP_ROCE_V1), 4036,
	       "RoCE v1 payload: 4100 - 64 (GRH, BTH, DETH, ICRC)");
	is_int(mtu_netdev_payload_max(4100, MTU_ENCAP_IB), 0,
	       "no netdev bound on InfiniBand");
	is_int(mtu_netdev_payload_max(0, MTU_ENCAP_ROCE_V2_IPV4), 0,
	       "unknown netdev MTU: no bound");
	is_int(mtu_netdev_payload_max(40, MTU_ENCAP_ROCE_V2_IPV4), 0,
	       "headers that do not fit: no bound");

	/* irdma on a 4100-byte netdev says 4096: the netdev binds. */
	is_int(irdma_active_mtu(4100), 4096, "irdma: active MTU 4096");
	is_int(bound_for(irdma_active_mtu(4100), 4100, MTU_ENCAP_ROCE_V2_IPV4,
			 &src), 4048, "irdma 4100: bound 4048");
	is_int(src, MTU_BOUND_NETDEV, "irdma 4100: the netdev binds");
	is_int(bound_for(irdma_active_mtu(4147), 4147, MTU_ENCAP_ROCE_V2_IPV6,
			 &src), 4075, "irdma 4147 over IPv6: bound 4075");
	is_int(src, MTU_BOUND_NETDEV, "irdma 4147: the netdev binds");
	is_int(bound_for(irdma_active_mtu(1500), 1500, MTU_ENCAP_ROCE_V2_IPV4,
			 &src), 1024, "irdma 1500: the port's 1024");
	is_int(src, MTU_BOUND_PORT, "irdma 1500: the port binds");
	is_int(bound_for(irdma_active_mtu(9000), 9000, MTU_ENCAP_ROCE_V2_IPV4,
			 &src), 4096, "irdma 9000: the port's 4096");
	is_int(src, MTU_BOUND_PORT, "irdma 9000: the port binds");

	/* mlx5 and bnxt_re take the headers off: the port binds. */
	is_int(bound_for(mlx5_bnxt_re_active_mtu(4100), 4100,
			 MTU_ENCAP_ROCE_V2_IPV4, &src), 2048,
	       "mlx5/bnxt_re 4100: the port's 2048");
	is_int(src, MTU_BOUND_PORT, "mlx5/bnxt_re 4100: the port binds");
	is_int(bound_for(mlx5_bnxt_re_active_mtu(1500), 1500,
			 MTU_ENCAP_ROCE_V2_IPV6, &src), 1024,
	       "mlx5/bnxt_re 1500: the port's 1024");
	is_int(src, MTU_BOUND_PORT, "mlx5/bnxt_re 1500: the port binds");
	is_int(bound_for(mlx5_bnxt_re_active_mtu(9000), 9000,
			 MTU_ENCAP_ROCE_V2_IPV6, &src), 4096,
	       "mlx5/bnxt_re 9000: the port's 4096");
	is_int(src, MTU_BOUND_PORT, "mlx5/bnxt_re 9000: the port binds");

	/* rxe takes 80 off: the port binds. */
	is_int(bound_for(rxe_active_mtu(4100), 4100, MTU_ENCAP_ROCE_V2_IPV6,
			 &src), 2048, "rxe 4100: the port's 2048");
	is_int(src, MTU_BOUND_PORT, "rxe 4100: the port binds");
	is_int(bound_for(rxe_active_mtu(1500), 1500, MTU_ENCAP_ROCE_V2_IPV4,
			 &src), 1024, "rxe 1500: the port's 1024");
	is_int(src, MTU_BOUND_PORT, "rxe 1500: the port binds");

	/* Unknown netdev MTU (InfiniBand, umad view): the port as before. */
	is_int(bound_for(4096, 0, MTU_ENCAP_IB, &src), 4096,
	       "InfiniBand: the port's 4096");
	is_int(src, MTU_BOUND_PORT, "InfiniBand: the port binds");

	/* The words name this host's netdev as the cause. */
	mtu_search_init(&m, 136, 4048);
	while (mtu_search_next(&m))
		mtu_search_record(&m, mtu_search_next(&m), 3, 3);
	mtu_verdict_judge(&m, MTU_BOUND_NETDEV, MTU_ENCAP_ROCE_V2_IPV4, &v);
	is_str(v.text, "no blackhole: the limit of this host's netdev MTU "
	       "4048 arrives", "the netdev's limit named");
	is_str(mtu_bound_source_key(MTU_BOUND_NETDEV), "netdev", "JSON key");
}

int main(void)
{
	test_netdev_bound();
	test_no_blackhole();
	test_blackhole();
	test_unreachable();
	test_random_loss_said();
	return tap_done();
}
