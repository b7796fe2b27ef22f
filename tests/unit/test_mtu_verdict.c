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

int main(void)
{
	test_no_blackhole();
	test_blackhole();
	test_unreachable();
	test_random_loss_said();
	return tap_done();
}
