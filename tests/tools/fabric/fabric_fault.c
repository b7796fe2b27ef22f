/* Faults of a scenario: where they go, and the loss, remarking and
 * silence each element of the fabric then shows. */
#include <string.h>

#include "fabric.h"

static const char *const kind_names[FAULT_KIND_COUNT] = {
	[FAULT_LOSSY_LINK] = "lossy_link",
	[FAULT_DEAD_LINK] = "dead_link",
	[FAULT_ROUTER_DROP] = "router_drop",
	[FAULT_ROUTER_REMARK] = "router_remark",
	[FAULT_DEAD_HOST] = "dead_host",
	[FAULT_LOSSY_NIC] = "lossy_nic",
};

const char *fault_kind_name(enum fault_kind k)
{
	return (unsigned)k < FAULT_KIND_COUNT ? kind_names[k] : "?";
}

int fault_kind_parse(const char *name, enum fault_kind *k)
{
	for (int i = 0; i < FAULT_KIND_COUNT; i++)
		if (strcmp(name, kind_names[i]) == 0) {
			*k = (enum fault_kind)i;
			return 0;
		}
	return -1;
}

static bool is_link(enum fault_kind k)
{
	return k == FAULT_LOSSY_LINK || k == FAULT_DEAD_LINK;
}

static bool is_router(enum fault_kind k)
{
	return k == FAULT_ROUTER_DROP || k == FAULT_ROUTER_REMARK;
}

/* Two faults on one element (a link in either direction, a router, a
 * host or one of its NICs) would blur what each explains. */
static bool overlaps(const struct fabric *f, const struct fault *x,
		     const struct fault *y)
{
	unsigned hx, hy;

	if (is_link(x->kind) && is_link(y->kind))
		return (x->a == y->a && x->b == y->b) ||
		       (x->a == y->b && x->b == y->a);
	if (is_router(x->kind) && is_router(y->kind))
		return x->a == y->a;
	if (is_link(x->kind) || is_link(y->kind) || is_router(x->kind) ||
	    is_router(y->kind))
		return false;
	hx = x->kind == FAULT_DEAD_HOST ? x->a : f->nics[x->a].host;
	hy = y->kind == FAULT_DEAD_HOST ? y->a : f->nics[y->a].host;
	return hx == hy;
}

/* A link between routers, one direction: a ToR's uplink to a spine of
 * its pod or a spine's to a core of its plane, either way round. */
static void random_link(const struct fabric *f, struct fault *x,
			struct fabric_rng *rng)
{
	unsigned spine0 = f->tors, core0 = f->tors + f->spines, lo, hi;

	if (f->pods > 1 && fabric_rng_below(rng, 2)) {
		unsigned s = fabric_rng_below(rng, f->spines);
		unsigned j = s % f->spines_per_pod;

		lo = spine0 + s;
		hi = core0 + j * f->cores_per_plane +
		     fabric_rng_below(rng, f->cores_per_plane);
	} else {
		unsigned t = fabric_rng_below(rng, f->tors);

		lo = t;
		hi = spine0 + t / f->racks_per_pod * f->spines_per_pod +
		     fabric_rng_below(rng, f->spines_per_pod);
	}
	if (fabric_rng_below(rng, 2)) {
		x->a = fabric_node_router(f, lo);
		x->b = fabric_node_router(f, hi);
	} else {
		x->a = fabric_node_router(f, hi);
		x->b = fabric_node_router(f, lo);
	}
}

int fabric_fault_place(struct fabric_state *s, enum fault_kind kind,
		       struct fabric_rng *rng)
{
	const struct fabric *f = s->fabric;
	struct fault x;

	if (s->fault_count == FABRIC_MAX_FAULTS)
		return -1;
	for (int tries = 0; tries < 100; tries++) {
		bool clash = false;

		x = (struct fault){ .kind = kind, .rate = 1.0 };
		switch (kind) {
		case FAULT_LOSSY_LINK:
		case FAULT_DEAD_LINK:
			random_link(f, &x, rng);
			break;
		case FAULT_ROUTER_DROP:
		case FAULT_ROUTER_REMARK:
			x.a = fabric_rng_below(rng, f->router_count);
			x.remark_tclass = 0;	/* DSCP 26 rewritten to 0 */
			break;
		case FAULT_DEAD_HOST:
			x.a = fabric_rng_below(rng, f->hosts);
			break;
		case FAULT_LOSSY_NIC:
			x.a = fabric_rng_below(rng, f->nic_count);
			break;
		case FAULT_KIND_COUNT:
			return -1;
		}
		if (kind == FAULT_LOSSY_LINK || kind == FAULT_LOSSY_NIC)
			x.rate = 0.05 + 0.45 * fabric_rng_unit(rng);
		else if (kind == FAULT_ROUTER_DROP)
			x.rate = 0.2 + 0.8 * fabric_rng_unit(rng);
		else if (kind == FAULT_ROUTER_REMARK)
			x.rate = 0;
		for (size_t i = 0; i < s->fault_count; i++)
			clash = clash || overlaps(f, &x, &s->faults[i]);
		if (!clash) {
			s->faults[s->fault_count++] = x;
			return 0;
		}
	}
	return -1;
}

static double with_background(const struct fabric_state *s, double rate)
{
	return 1.0 - (1.0 - s->background) * (1.0 - rate);
}

double fabric_nic_loss(const struct fabric_state *s, unsigned nic)
{
	double rate = 0;

	for (size_t i = 0; i < s->fault_count; i++) {
		const struct fault *x = &s->faults[i];

		if ((x->kind == FAULT_LOSSY_NIC && x->a == nic) ||
		    (x->kind == FAULT_DEAD_HOST &&
		     x->a == s->fabric->nics[nic].host))
			rate = x->rate;
	}
	return with_background(s, rate);
}

double fabric_link_loss(const struct fabric_state *s, unsigned a, unsigned b)
{
	double rate = 0;

	for (size_t i = 0; i < s->fault_count; i++) {
		const struct fault *x = &s->faults[i];

		if ((x->kind == FAULT_LOSSY_LINK && x->a == a && x->b == b) ||
		    (x->kind == FAULT_DEAD_LINK &&
		     ((x->a == a && x->b == b) || (x->a == b && x->b == a))))
			rate = x->rate;
	}
	return with_background(s, rate);
}

double fabric_router_loss(const struct fabric_state *s, unsigned router)
{
	double rate = 0;

	for (size_t i = 0; i < s->fault_count; i++)
		if (s->faults[i].kind == FAULT_ROUTER_DROP &&
		    s->faults[i].a == router)
			rate = s->faults[i].rate;
	return with_background(s, rate);
}

bool fabric_host_dead(const struct fabric_state *s, unsigned host)
{
	for (size_t i = 0; i < s->fault_count; i++)
		if (s->faults[i].kind == FAULT_DEAD_HOST &&
		    s->faults[i].a == host)
			return true;
	return false;
}

uint8_t fabric_router_tclass(const struct fabric_state *s, unsigned router,
			     uint8_t tclass)
{
	for (size_t i = 0; i < s->fault_count; i++)
		if (s->faults[i].kind == FAULT_ROUTER_REMARK &&
		    s->faults[i].a == router)
			/* DSCP rewritten, ECN kept. */
			return (uint8_t)(s->faults[i].remark_tclass & 0xfc) |
			       (tclass & 3);
	return tclass;
}

static bool survives(double loss, struct fabric_rng *rng)
{
	return fabric_rng_unit(rng) >= loss;
}

bool fabric_cross(const struct fabric_state *s, const unsigned *nodes,
		  size_t from, size_t to, struct fabric_rng *rng)
{
	const struct fabric *f = s->fabric;
	bool alive = true;

	/* Every draw is taken, lost or not, so one datagram's fate does not
	 * shift the random numbers of the next. */
	for (size_t i = from; i <= to; i++) {
		unsigned node = nodes[i];

		if (i > from)
			alive &= survives(fabric_link_loss(s, nodes[i - 1],
							   node), rng);
		if (node < f->nic_count) {
			if (i == from || i == to)
				alive &= survives(fabric_nic_loss(s, node),
						  rng);
		} else if (i > from && i < to) {
			alive &= survives(fabric_router_loss(
						  s, node - f->nic_count),
					  rng);
		}
	}
	return alive;
}
