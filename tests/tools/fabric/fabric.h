/* A model of a routed RoCE fabric for the localisation benchmark
 * (tests/bench/localise, tests/tools/fabric_model): topology, per-flow
 * ECMP, per-element loss, remarking and ICMP silence, and the faults a
 * scenario injects. Test infrastructure, not part of libibahprobe. */
#ifndef IBAHPROBE_TESTS_FABRIC_H
#define IBAHPROBE_TESTS_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* splitmix64: each scenario carries its own state, so the same seed
 * gives the same bytes whatever ran before. */
struct fabric_rng {
	uint64_t state;
};

uint64_t fabric_rng_next(struct fabric_rng *r);
double fabric_rng_unit(struct fabric_rng *r);		/* [0, 1) */
unsigned fabric_rng_below(struct fabric_rng *r, unsigned n);

enum fabric_shape {
	FABRIC_CLOS,	/* one NIC per host, a rack of hosts under one ToR */
	FABRIC_RAIL,	/* FABRIC_RAILS NICs per host, NIC r on rail ToR r */
};

#define FABRIC_RAILS 4
#define FABRIC_MAX_PATH 8	/* nodes: NIC, up to 5 routers, NIC */

enum fabric_tier { FABRIC_TOR, FABRIC_SPINE, FABRIC_CORE };

struct fabric_router {
	enum fabric_tier tier;
	char name[24];		/* "tor12", "spine3", "core1" */
	char addr[24];		/* the address it answers traceroute from */
	bool silent;		/* never sends ICMP */
	double answer_rate;	/* 1, or below for a rate-limited one */
};

struct fabric_nic {
	unsigned host, rail, tor;
	char addr[24];
};

/* A node of a path: NICs first, then routers (fabric_node_router). */
struct fabric {
	enum fabric_shape shape;
	unsigned hosts, rails, hosts_per_rack, racks_per_pod, spines_per_pod,
		cores_per_plane;
	unsigned tors, spines, cores, pods;
	unsigned nic_count, router_count;
	struct fabric_nic *nics;
	struct fabric_router *routers;	/* ToRs, spines, cores */
};

/* hosts: 64, 512, 2048 or any multiple of a rack; silent_share and
 * limited_share: the shares of routers that never answer ICMP and that
 * answer only some queries. 0 on success, -1 on a size that does not
 * fit the shape or no memory. */
int fabric_build(struct fabric *f, enum fabric_shape shape, unsigned hosts,
		 double silent_share, double limited_share,
		 struct fabric_rng *rng);
void fabric_free(struct fabric *f);

static inline unsigned fabric_node_router(const struct fabric *f, unsigned r)
{
	return f->nic_count + r;
}

const char *fabric_node_addr(const struct fabric *f, unsigned node);

/* The routers linked to router r (indexes into f->routers) in out (room
 * for f->router_count): their count. */
size_t fabric_router_neighbours(const struct fabric *f, unsigned r,
				unsigned *out);

/* The ECMP hash of a 5-tuple at one router: each router has its own
 * seed, as switches do against polarisation. */
uint32_t fabric_ecmp_hash(uint32_t src, uint32_t dst, uint16_t sport,
			  uint16_t dport, uint32_t router_seed);

/* The nodes a datagram from NIC src to NIC dst with that UDP source port
 * (RoCE v2: destination port 4791) crosses, both NICs included: their
 * count. */
size_t fabric_route(const struct fabric *f, unsigned src, unsigned dst,
		    uint16_t sport, unsigned *nodes);

/* Faults. A link is one direction, from node a to node b, unless
 * FAULT_DEAD_LINK (both). */
enum fault_kind {
	FAULT_LOSSY_LINK,
	FAULT_DEAD_LINK,
	FAULT_ROUTER_DROP,
	FAULT_ROUTER_REMARK,
	FAULT_DEAD_HOST,
	FAULT_LOSSY_NIC,
	FAULT_KIND_COUNT,
};

const char *fault_kind_name(enum fault_kind k);
int fault_kind_parse(const char *name, enum fault_kind *k);

struct fault {
	enum fault_kind kind;
	unsigned a, b;		/* link: nodes; router: router index; host;
				 * NIC: nic index */
	double rate;		/* loss rate, 1 for dead */
	uint8_t remark_tclass;	/* FAULT_ROUTER_REMARK: the class it writes */
};

#define FABRIC_MAX_FAULTS 2

struct fabric_state {
	const struct fabric *fabric;
	double background;	/* per element and datagram */
	size_t fault_count;
	struct fault faults[FABRIC_MAX_FAULTS];
};

/* Place a fault of that kind at random, on an element no other fault of
 * the state holds; its loss rate drawn from [0.05, 0.5] (lossy) or 1. */
int fabric_fault_place(struct fabric_state *s, enum fault_kind kind,
		       struct fabric_rng *rng);

/* Loss rates of the elements a datagram meets: a NIC (as sender or
 * receiver), the link a -> b, a router forwarding. */
double fabric_nic_loss(const struct fabric_state *s, unsigned nic);
double fabric_link_loss(const struct fabric_state *s, unsigned a, unsigned b);
double fabric_router_loss(const struct fabric_state *s, unsigned router);
bool fabric_host_dead(const struct fabric_state *s, unsigned host);
/* The traffic class a router forwards a datagram with. */
uint8_t fabric_router_tclass(const struct fabric_state *s, unsigned router,
			     uint8_t tclass);

/* Whether a datagram crosses nodes[from..to] (to inclusive), the link
 * into nodes[from] not counted; losses drawn from rng. The routers at
 * from (when it is not the sender) forward, so their drop applies; the
 * last node only receives (a NIC's receive loss, no router drop). */
bool fabric_cross(const struct fabric_state *s, const unsigned *nodes,
		  size_t from, size_t to, struct fabric_rng *rng);

/* What probing one flow shows (probe's counts and verdict inputs). */
#define FABRIC_TTL 64

struct fabric_result {
	unsigned src, dst;		/* NICs */
	uint32_t flow_label;
	uint16_t sport;
	uint8_t tclass, seen_tclass;	/* sent, and as it arrived */
	unsigned sent, received, responder_received, lost_there, lost_back;
	bool responder_alive;
	size_t path_len, back_len;
	unsigned path[FABRIC_MAX_PATH], back[FABRIC_MAX_PATH];
};

void fabric_probe(const struct fabric_state *s, unsigned src, unsigned dst,
		  uint32_t flow_label, uint8_t tclass, unsigned count,
		  struct fabric_result *r, struct fabric_rng *rng);

/* One query of a trace, as trace -j gives it. */
enum fabric_answer { FABRIC_SILENT, FABRIC_TIME_EXCEEDED, FABRIC_RESPONDER };

#define FABRIC_TRACE_QUERIES 3
#define FABRIC_TRACE_MAX_HOPS (FABRIC_MAX_PATH + 3)

struct fabric_hop {
	enum fabric_answer kind[FABRIC_TRACE_QUERIES];
	unsigned from;			/* the node that answers */
	uint8_t seen_tclass;		/* as it arrived there */
	int seen_hop_limit;		/* the responder's */
};

struct fabric_trace {
	unsigned hop_count;
	bool reached;
	struct fabric_hop hops[FABRIC_TRACE_MAX_HOPS];
};

/* Trace the flow of r hop by hop (its forward path, ICMP back over the
 * same links reversed, the responder's reply over r's return path). */
void fabric_trace(const struct fabric_state *s, const struct fabric_result *r,
		  struct fabric_trace *t, struct fabric_rng *rng);

#endif
