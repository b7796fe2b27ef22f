/* Unit tests of trace --nic's decisions (lib/trace/nic_tracer.c): where it
 * may run (the provider's hop limit rule, mlx5-like and rxe-like), which
 * routers' quotes are of our UD sends, and what each ICMP message says. */
#include <arpa/inet.h>
#include <string.h>

#include "trace/nic_tracer.h"
#include "trace/roce_sock.h"
#include "tap.h"

static enum hop_limit_rule rule_of(enum provider p, char *why, size_t len)
{
	struct hop_limit_rule_input in = { .provider = p,
					   .link_layer = LINK_LAYER_ETHERNET };

	return provider_hop_limit_rule(&in, why, len);
}

static void test_possible(void)
{
	char rule_why[200], why[400];

	ok(nic_trace_possible(rule_of(PROVIDER_MLX5, rule_why,
				      sizeof(rule_why)),
			      rule_why, why, sizeof(why)) && !why[0],
	   "mlx5 (AV in user space): --nic runs");
	ok(nic_trace_possible(rule_of(PROVIDER_HNS, rule_why,
				      sizeof(rule_why)),
			      rule_why, why, sizeof(why)),
	   "hns: --nic runs");
	ok(!nic_trace_possible(rule_of(PROVIDER_RXE, rule_why,
				       sizeof(rule_why)),
			       rule_why, why, sizeof(why)),
	   "rxe (kernel AH, the route's hop limit): refused");
	ok(strstr(why, "rxe creates AHs in the kernel") &&
		   strstr(why, "without --nic"),
	   "the refusal names the rule and the way out: %s", why);
	ok(!nic_trace_possible(rule_of(PROVIDER_IRDMA, rule_why,
				       sizeof(rule_why)),
			       rule_why, why, sizeof(why)),
	   "irdma: refused");
	ok(!nic_trace_possible(rule_of(PROVIDER_UNKNOWN, rule_why,
				       sizeof(rule_why)),
			       rule_why, why, sizeof(why)),
	   "unknown provider: refused (not known to send the AH's)");
}

static struct icmp_quote quote4(void)
{
	struct icmp_quote q = { .ipv6 = false, .type = 11, .code = 0,
				.from = { 198, 18, 1, 254 }, .reply_ttl = 64,
				.tclass = 0x68, .has_udp = true,
				.sport = 0xc005, .dport = ROCE_V2_UDP_PORT,
				.has_bth = true, .opcode = 0x64,
				.dest_qpn = 0x11, .psn = 0x123456 };

	inet_pton(AF_INET, "198.18.4.4", q.dst);
	return q;
}

static void test_quote_is_ours(void)
{
	struct sockaddr_storage dst = { 0 }, other = { 0 };
	struct icmp_quote q = quote4();

	((struct sockaddr_in *)&dst)->sin_family = AF_INET;
	inet_pton(AF_INET, "198.18.4.4",
		  &((struct sockaddr_in *)&dst)->sin_addr);
	((struct sockaddr_in *)&other)->sin_family = AF_INET;
	inet_pton(AF_INET, "198.18.3.3",
		  &((struct sockaddr_in *)&other)->sin_addr);
	ok(nic_quote_is_ours(&q, &dst, 0xc005, 0x11),
	   "dst, port, opcode, QPN: ours (whatever the PSN)");
	ok(nic_quote_is_ours(&q, &dst, -1, 0x11),
	   "UDP source port not known (mlx5 label 0): ours");
	ok(!nic_quote_is_ours(&q, &dst, 0xc006, 0x11),
	   "another UDP source port: not ours");
	ok(!nic_quote_is_ours(&q, &other, 0xc005, 0x11),
	   "another destination: not ours");
	ok(!nic_quote_is_ours(&q, &dst, 0xc005, 0x12),
	   "another QPN: another application's");
	q.opcode = 0x04;	/* RC SEND_ONLY */
	ok(!nic_quote_is_ours(&q, &dst, 0xc005, 0x11), "RC: not ours");
	q.has_bth = false;
	ok(nic_quote_is_ours(&q, &dst, 0xc005, 0x11),
	   "an RFC 792 quote (UDP header only): ours by the ports");
	q.dport = 53;
	ok(!nic_quote_is_ours(&q, &dst, 0xc005, 0x11), "not UDP 4791");
	q = quote4();
	q.has_udp = false;
	ok(!nic_quote_is_ours(&q, &dst, 0xc005, 0x11), "no UDP header");
	q = quote4();
	q.ipv6 = true;
	ok(!nic_quote_is_ours(&q, &dst, 0xc005, 0x11), "another family");
}

static void test_answer(void)
{
	struct sockaddr_storage from = { 0 };
	struct icmp_quote q = quote4();
	struct roce_answer a;

	ok(nic_quote_answer(&q, &from, &a) &&
		   a.kind == ROCE_ANSWER_TIME_EXCEEDED,
	   "IPv4 type 11: time exceeded");
	is_str(a.from, "198.18.1.254", "from the outer header");
	is_int(a.reply_ttl, 64, "its TTL on arrival");
	q.type = 3;
	q.code = 3;
	ok(nic_quote_answer(&q, &from, &a) &&
		   a.kind == ROCE_ANSWER_PORT_UNREACHABLE,
	   "3/3: port unreachable");
	q.code = 4;
	ok(nic_quote_answer(&q, &from, &a) && a.kind == ROCE_ANSWER_TOO_BIG,
	   "3/4: too big");
	q.code = 1;
	ok(nic_quote_answer(&q, &from, &a) &&
		   a.kind == ROCE_ANSWER_UNREACHABLE && a.icmp_code == 1,
	   "3/1: unreachable, code kept");
	q.type = 12;
	ok(!nic_quote_answer(&q, &from, &a), "parameter problem: not shown");

	q = quote4();
	q.ipv6 = true;
	q.type = 3;
	((struct sockaddr_in6 *)&from)->sin6_family = AF_INET6;
	inet_pton(AF_INET6, "2001:db8:12::2",
		  &((struct sockaddr_in6 *)&from)->sin6_addr);
	ok(nic_quote_answer(&q, &from, &a) &&
		   a.kind == ROCE_ANSWER_TIME_EXCEEDED,
	   "ICMPv6 type 3: time exceeded");
	is_str(a.from, "2001:db8:12::2", "from recvfrom's address");
	is_int(a.reply_ttl, -1, "ICMPv6 hop limit not read");
	q.type = 1;
	q.code = 4;
	ok(nic_quote_answer(&q, &from, &a) &&
		   a.kind == ROCE_ANSWER_PORT_UNREACHABLE,
	   "ICMPv6 1/4: port unreachable");
	q.type = 2;
	ok(nic_quote_answer(&q, &from, &a) && a.kind == ROCE_ANSWER_TOO_BIG,
	   "ICMPv6 2: too big");
}

int main(void)
{
	test_possible();
	test_quote_is_ours();
	test_answer();
	return tap_done();
}
