/* MTU discovery's verdict: see mtu_verdict.h. */
#include "probe/mtu_verdict.h"

#include <stdio.h>
#include <string.h>

#include "out/text_layout.h"

const char *mtu_bound_source_words(enum mtu_bound_source source)
{
	switch (source) {
	case MTU_BOUND_PATH:
		return "path MTU";
	case MTU_BOUND_RESPONDER:
		return "responder's port MTU";
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
