/* Probing and tracing one flow through the modelled fabric: the counts
 * probe would report and the answers trace would get. */
#include "fabric.h"
#include "wire/roce_packet.h"

static uint8_t tclass_at(const struct fabric_state *s, const unsigned *nodes,
			 size_t upto, uint8_t tclass)
{
	const struct fabric *f = s->fabric;

	/* The routers before nodes[upto] forwarded it. */
	for (size_t i = 1; i < upto; i++)
		if (nodes[i] >= f->nic_count)
			tclass = fabric_router_tclass(s, nodes[i] - f->nic_count,
						      tclass);
	return tclass;
}

void fabric_probe(const struct fabric_state *s, unsigned src, unsigned dst,
		  uint32_t flow_label, uint8_t tclass, unsigned count,
		  struct fabric_result *r, struct fabric_rng *rng)
{
	const struct fabric *f = s->fabric;

	*r = (struct fabric_result){ .src = src, .dst = dst,
				     .flow_label = flow_label,
				     .tclass = tclass, .sent = count };
	/* As the probes carry it: the library's fold of the label. */
	r->sport = roce_flow_label_to_udp_sport(flow_label);
	r->path_len = fabric_route(f, src, dst, r->sport, r->path);
	r->back_len = fabric_route(f, dst, src, r->sport, r->back);
	r->seen_tclass = tclass_at(s, r->path, r->path_len - 1, tclass);
	r->responder_alive = !fabric_host_dead(s, f->nics[dst].host);
	for (unsigned k = 0; k < count; k++) {
		bool there = fabric_cross(s, r->path, 0, r->path_len - 1, rng);
		bool back = fabric_cross(s, r->back, 0, r->back_len - 1, rng);

		if (!there || !r->responder_alive) {
			r->lost_there++;
			continue;
		}
		r->responder_received++;
		if (back)
			r->received++;
		else
			r->lost_back++;
	}
}

static void reverse(const unsigned *nodes, size_t n, unsigned *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = nodes[n - 1 - i];
}

void fabric_trace(const struct fabric_state *s, const struct fabric_result *r,
		  struct fabric_trace *t, struct fabric_rng *rng)
{
	const struct fabric *f = s->fabric;
	size_t routers = r->path_len - 2;
	unsigned silent_after = 0;

	*t = (struct fabric_trace){ 0 };
	for (unsigned h = 1; h <= FABRIC_TRACE_MAX_HOPS && !t->reached &&
			     silent_after < 3; h++) {
		struct fabric_hop *hop = &t->hops[t->hop_count++];
		size_t at = h <= routers ? h : r->path_len - 1;
		unsigned icmp_back[FABRIC_MAX_PATH];
		bool any = false;

		hop->from = r->path[at];
		hop->seen_tclass = tclass_at(s, r->path, at, r->tclass);
		hop->seen_hop_limit = FABRIC_TTL - (int)routers;
		reverse(r->path, at + 1, icmp_back);
		for (unsigned q = 0; q < FABRIC_TRACE_QUERIES; q++) {
			bool there = fabric_cross(s, r->path, 0, at, rng);
			bool answers, back;

			if (h <= routers) {
				const struct fabric_router *x =
					&f->routers[hop->from - f->nic_count];

				answers = !x->silent &&
					  fabric_rng_unit(rng) < x->answer_rate;
				back = fabric_cross(s, icmp_back, 0, at, rng);
			} else {
				answers = r->responder_alive;
				back = fabric_cross(s, r->back, 0,
						    r->back_len - 1, rng);
			}
			hop->kind[q] = FABRIC_SILENT;
			if (there && answers && back) {
				hop->kind[q] = h <= routers
						       ? FABRIC_TIME_EXCEEDED
						       : FABRIC_RESPONDER;
				any = true;
			}
		}
		if (h > routers) {
			t->reached = any;
			silent_after = any ? 0 : silent_after + 1;
		}
	}
}
