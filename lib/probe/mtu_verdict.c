/* MTU discovery's verdict: see mtu_verdict.h.
 *
 * The netdev bound: on RoCE the port's active MTU is what the driver
 * derives from the netdev MTU, and not every driver takes the headers
 * off. mlx5 (mlx5_query_port_roce) and bnxt_re (bnxt_re_query_port)
 * report iboe_get_mtu(netdev->mtu), which subtracts GRH, UDP, BTH, XRC,
 * AtomicETH and ICRC (96 bytes) before rounding down to an IB MTU; rxe
 * (rxe_set_mtu, eth_mtu_int_to_enum) subtracts RXE_MAX_HDR_LENGTH (80).
 * irdma (irdma_query_port) reports ib_mtu_int_to_enum(netdev->mtu) with
 * nothing subtracted, so a netdev MTU of 4096..4147 gives an active MTU
 * of 4096 whose largest UD payload does not fit in one frame: the search
 * would find the host's own netdev as a narrow link. Hence the netdev
 * MTU less the headers bounds the search too. */
#include "probe/mtu_verdict.h"

#include <stdio.h>
#include <string.h>

#include "out/text_layout.h"
#include "wire/grh.h"
#include "wire/roce_packet.h"

uint32_t mtu_netdev_payload_max(uint32_t netdev_mtu, enum mtu_encap encap)
{
	uint32_t headers;

	switch (encap) {
	case MTU_ENCAP_ROCE_V2_IPV4:
		headers = mtu_roce_v2_ip_overhead(false);
		break;
	case MTU_ENCAP_ROCE_V2_IPV6:
		headers = mtu_roce_v2_ip_overhead(true);
		break;
	case MTU_ENCAP_ROCE_V1:
		headers = GRH_BYTES + ROCE_UD_HEADER_BYTES + ROCE_ICRC_BYTES;
		break;
	case MTU_ENCAP_IB:
	default:
		return 0;
	}
	return netdev_mtu > headers ? netdev_mtu - headers : 0;
}

uint32_t mtu_bound_choose(const struct mtu_bounds *b, enum mtu_encap encap,
			  uint32_t max, enum mtu_bound_source *source)
{
	const struct {
		uint32_t bytes;
		enum mtu_bound_source source;
	} known[] = {
		{ b->port_mtu, MTU_BOUND_PORT },
		{ mtu_netdev_payload_max(b->netdev_mtu, encap),
		  MTU_BOUND_NETDEV },
		{ b->path_mtu, MTU_BOUND_PATH },
		{ b->responder_mtu, MTU_BOUND_RESPONDER },
	};
	uint32_t bound = max;

	*source = MTU_BOUND_PORT;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].bytes && known[i].bytes < bound) {
			bound = known[i].bytes;
			*source = known[i].source;
		}
	return bound;
}

const char *mtu_bound_source_words(enum mtu_bound_source source)
{
	switch (source) {
	case MTU_BOUND_PATH:
		return "path MTU";
	case MTU_BOUND_RESPONDER:
		return "responder's port MTU";
	case MTU_BOUND_NETDEV:
		return "limit of this host's netdev MTU";
	case MTU_BOUND_PORT:
		break;
	}
	return "port MTU";
}

const char *mtu_bound_source_key(enum mtu_bound_source source)
{
	switch (source) {
	case MTU_BOUND_PATH:
		return "path";
	case MTU_BOUND_RESPONDER:
		return "responder";
	case MTU_BOUND_NETDEV:
		return "netdev";
	case MTU_BOUND_PORT:
		break;
	}
	return "port";
}

/* On RoCE v2 the edge gives the narrow link's IP MTU exactly: the
 * largest payload that passes plus the headers around it. On InfiniBand
 * and RoCE v1 the link MTU is not an IP MTU; the edge says enough. */
static void narrower_link(const struct mtu_search *m, enum mtu_encap encap,
			  struct mtu_verdict *v, size_t *used)
{
	bool v6 = encap == MTU_ENCAP_ROCE_V2_IPV6;

	if (encap != MTU_ENCAP_ROCE_V2_IPV4 && !v6) {
		text_append(v->text, sizeof(v->text), used,
			    "; a link on the way is narrower");
		return;
	}
	v->ip_mtu = m->largest_arrived + mtu_roce_v2_ip_overhead(v6);
	text_append(v->text, sizeof(v->text), used,
		    "; a link on the way is narrower (IP MTU %u with %s "
		    "RoCE v2 headers)", v->ip_mtu, v6 ? "IPv6" : "IPv4");
}

void mtu_verdict_judge(const struct mtu_search *m, enum mtu_bound_source source,
		       enum mtu_encap encap, struct mtu_verdict *v)
{
	size_t used = 0;

	memset(v, 0, sizeof(*v));
	switch (m->result) {
	case MTU_BOUND_ARRIVES:
		v->key = "no_blackhole";
		v->fine = true;
		text_append(v->text, sizeof(v->text), &used,
			    "no blackhole: the %s %u arrives",
			    mtu_bound_source_words(source), m->upper);
		break;
	case MTU_BLACKHOLE:
		v->key = "blackhole";
		text_append(v->text, sizeof(v->text), &used,
			    "blackhole: %u arrives, %u lost; %s %u",
			    m->largest_arrived, m->smallest_lost,
			    mtu_bound_source_words(source), m->upper);
		narrower_link(m, encap, v, &used);
		break;
	case MTU_UNREACHABLE:
	case MTU_SEARCHING:
		v->key = "unreachable";
		text_append(v->text, sizeof(v->text), &used,
			    "unreachable: not even %u bytes arrive", m->lower);
		break;
	}
	if (m->random_losses)
		text_append(v->text, sizeof(v->text), &used,
			    "; %u size%s lost once arrived when tried again "
			    "(random loss, not the MTU)", m->random_losses,
			    m->random_losses == 1 ? "" : "s");
}
