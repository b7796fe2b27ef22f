/* The fabric's shape: routers and NICs of a 3-tier Clos or a
 * rail-optimized fabric, their addresses, and per-flow ECMP routing. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>

#include "fabric.h"

uint64_t fabric_rng_next(struct fabric_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double fabric_rng_unit(struct fabric_rng *r)
{
	return (double)(fabric_rng_next(r) >> 11) / 9007199254740992.0;
}

unsigned fabric_rng_below(struct fabric_rng *r, unsigned n)
{
	return n ? (unsigned)(fabric_rng_next(r) % n) : 0;
}

static const char *const tier_names[] = {
	[FABRIC_TOR] = "tor", [FABRIC_SPINE] = "spine", [FABRIC_CORE] = "core",
};

static void add_router(struct fabric *f, enum fabric_tier tier,
		       unsigned number, double silent_share,
		       double limited_share, struct fabric_rng *rng)
{
	unsigned r = f->router_count++;
	struct fabric_router *x = &f->routers[r];

	x->tier = tier;
	snprintf(x->name, sizeof(x->name), "%s%u", tier_names[tier], number);
	snprintf(x->addr, sizeof(x->addr), "172.16.%u.%u", r / 250,
		 r % 250 + 1);
	x->silent = fabric_rng_unit(rng) < silent_share;
	x->answer_rate = !x->silent && fabric_rng_unit(rng) < limited_share
				 ? 0.3 : 1.0;
}

int fabric_build(struct fabric *f, enum fabric_shape shape, unsigned hosts,
		 double silent_share, double limited_share,
		 struct fabric_rng *rng)
{
	*f = (struct fabric){ .shape = shape, .hosts = hosts };
	f->rails = shape == FABRIC_RAIL ? FABRIC_RAILS : 1;
	f->hosts_per_rack = hosts <= 64 ? 8 : 16;
	f->racks_per_pod = shape == FABRIC_RAIL ? 2 * FABRIC_RAILS : 4;
	f->spines_per_pod = 4;
	f->cores_per_plane = hosts <= 64 ? 2 : 4;
	if (!hosts || hosts % f->hosts_per_rack)
		return -1;
	f->tors = hosts / f->hosts_per_rack * f->rails;
	if (f->tors % f->racks_per_pod)
		return -1;
	f->pods = f->tors / f->racks_per_pod;
	f->spines = f->pods * f->spines_per_pod;
	f->cores = f->spines_per_pod * f->cores_per_plane;
	f->nic_count = hosts * f->rails;
	f->nics = calloc(f->nic_count, sizeof(*f->nics));
	f->routers = calloc(f->tors + f->spines + f->cores,
			    sizeof(*f->routers));
	if (!f->nics || !f->routers) {
		fabric_free(f);
		return -1;
	}
	for (unsigned n = 0; n < f->nic_count; n++) {
		struct fabric_nic *x = &f->nics[n];
		unsigned rack;

		x->host = n / f->rails;
		x->rail = n % f->rails;
		rack = x->host / f->hosts_per_rack;
		x->tor = rack * f->rails + x->rail;
		snprintf(x->addr, sizeof(x->addr), "10.%u.%u.%u", n / 62500,
			 n / 250 % 250, n % 250 + 1);
	}
	for (unsigned t = 0; t < f->tors; t++)
		add_router(f, FABRIC_TOR, t, silent_share, limited_share, rng);
	for (unsigned s = 0; s < f->spines; s++)
		add_router(f, FABRIC_SPINE, s, silent_share, limited_share,
			   rng);
	for (unsigned c = 0; c < f->cores; c++)
		add_router(f, FABRIC_CORE, c, silent_share, limited_share, rng);
	return 0;
}

void fabric_free(struct fabric *f)
{
	free(f->nics);
	free(f->routers);
	f->nics = NULL;
	f->routers = NULL;
}

const char *fabric_node_addr(const struct fabric *f, unsigned node)
{
	return node < f->nic_count ? f->nics[node].addr
				   : f->routers[node - f->nic_count].addr;
}

size_t fabric_router_neighbours(const struct fabric *f, unsigned r,
				unsigned *out)
{
	unsigned spine0 = f->tors, core0 = f->tors + f->spines;
	size_t n = 0;

	if (r < spine0) {		/* a ToR: its pod's spines */
		unsigned pod = r / f->racks_per_pod;

		for (unsigned j = 0; j < f->spines_per_pod; j++)
			out[n++] = spine0 + pod * f->spines_per_pod + j;
	} else if (r < core0) {		/* a spine: its pod's ToRs, its plane */
		unsigned pod = (r - spine0) / f->spines_per_pod;
		unsigned j = (r - spine0) % f->spines_per_pod;

		for (unsigned t = 0; t < f->racks_per_pod; t++)
			out[n++] = pod * f->racks_per_pod + t;
		for (unsigned k = 0; k < f->cores_per_plane; k++)
			out[n++] = core0 + j * f->cores_per_plane + k;
	} else {			/* a core: its plane's spine per pod */
		unsigned j = (r - core0) / f->cores_per_plane;

		for (unsigned pod = 0; pod < f->pods; pod++)
			out[n++] = spine0 + pod * f->spines_per_pod + j;
	}
	return n;
}

uint32_t fabric_ecmp_hash(uint32_t src, uint32_t dst, uint16_t sport,
			  uint16_t dport, uint32_t router_seed)
{
	uint64_t h = ((uint64_t)src << 32 | dst) ^
		     ((uint64_t)router_seed << 40 | (uint64_t)sport << 16 |
		      dport) * 0x9e3779b97f4a7c15ULL;

	/* IPPROTO_UDP folded in; the finaliser of splitmix64 mixes it. */
	h ^= 17;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)(h ^ (h >> 31));
}

static uint32_t addr_value(const char *text)
{
	struct in_addr a;

	return inet_pton(AF_INET, text, &a) == 1 ? ntohl(a.s_addr) : 0;
}

#define ROCE_V2_PORT 4791

static unsigned pick(const struct fabric *f, unsigned src, unsigned dst,
		     uint16_t sport, unsigned router, unsigned choices)
{
	return fabric_ecmp_hash(addr_value(f->nics[src].addr),
				addr_value(f->nics[dst].addr), sport,
				ROCE_V2_PORT, router) % choices;
}

size_t fabric_route(const struct fabric *f, unsigned src, unsigned dst,
		    uint16_t sport, unsigned *nodes)
{
	unsigned ts = f->nics[src].tor, td = f->nics[dst].tor;
	unsigned ps = ts / f->racks_per_pod, pd = td / f->racks_per_pod;
	unsigned spine0 = f->tors, core0 = f->tors + f->spines;
	size_t n = 0;

	nodes[n++] = src;
	nodes[n++] = fabric_node_router(f, ts);
	if (ts != td) {
		unsigned j = pick(f, src, dst, sport, ts, f->spines_per_pod);
		unsigned sp = spine0 + ps * f->spines_per_pod + j;

		nodes[n++] = fabric_node_router(f, sp);
		if (ps != pd) {
			unsigned k = pick(f, src, dst, sport, sp,
					  f->cores_per_plane);

			nodes[n++] = fabric_node_router(
				f, core0 + j * f->cores_per_plane + k);
			nodes[n++] = fabric_node_router(
				f, spine0 + pd * f->spines_per_pod + j);
		}
		nodes[n++] = fabric_node_router(f, td);
	}
	nodes[n++] = dst;
	return n;
}
