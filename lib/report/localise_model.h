/* The localisation's model of a report's results over its traces, shared
 * by the files that build it (localise_model.c), fit and name it
 * (localise.c), name what traces cannot see (localise_unseen.c) and
 * remarks (localise_remark.c): one model element per router, link,
 * host and unseen hop, one loc_obs per result. Internal to localise. */
#ifndef IBAHPROBE_LOCALISE_MODEL_H
#define IBAHPROBE_LOCALISE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/strmap.h"
#include "base/u64map.h"
#include "report/localise.h"
#include "report/localise_fit.h"
#include "report/report_traces.h"

/* A pair whose traced flows show more forward paths than this spreads
 * its untraced results over none of them (each share too thin to tell). */
#define PAIR_PATHS_MAX 8

struct elem {
	const char *kind;
	char *name, *address;
	size_t after;		/* unseen: the router (trace element) it
				 * follows; SIZE_MAX otherwise */
	size_t before;		/* unseen before: the router it precedes,
				 * reached over a hop that did not answer
				 * after another; SIZE_MAX otherwise */
	/* Routers: the hops (1: the first, up to 64; a hop that did not
	 * answer counts, hop_at) it was seen at; unseen: those of its
	 * router where traces stopped. */
	uint64_t at;
	size_t gaps;		/* unseen: failing traces that go on past it */
};

/* The forward paths a pair of addresses' own traces show (each once),
 * and what its untraced results are spread over (loc_obs spread). */
struct pair_paths {
	const struct report_trace_flow *flow[PAIR_PATHS_MAX];
	unsigned count;
	bool too_many;
	const size_t *spread;	/* in the model's lists */
	const double *share;
	uint32_t spread_count;
};

/* A list of elements being built (list_add), its room kept for the
 * next. */
struct idlist {
	size_t *ids;
	size_t count, capacity;
};

/* A list kept in the model's lists (list_keep_again). */
struct kept_list {
	const size_t *ids;
	uint32_t count;
};

/* A result's two ends as the model sees them (result_ends): the
 * addresses (the sgid's; the dgid's, else the destination text's), their
 * ids, their edge routers, and the lists made of them for the results
 * that share them. A source's results come together, one destination's
 * flow labels one after another, all with the same strings: those are
 * looked up, normalised and listed once for the run of them. */
struct result_ends {
	const char *sgid, *dgid, *dest_text;	/* the record's, as last seen */
	bool have_src, have_dst;
	char src[64], dst[64];
	uint32_t src_id, dst_id;	/* address ids (model.address_ids) */
	/* The source's first router and the destination's last
	 * (model_access); SIZE_MAX: not known. */
	size_t src_edge, dst_edge;
	/* model_result's lists of these ends, NULL until made: the two
	 * hosts; the access lists, the destination reached [1] or not. */
	const size_t *ends;
	uint32_t end_count;
	const size_t *access[2];
	uint32_t access_count[2], access_there[2];
};

struct model {
	const struct report *r;
	const struct report_traces *t;
	struct elem *el;
	size_t count, capacity;
	unsigned char *prefer;
	size_t (*touch)[2];	/* localise_fit.h loc_relations */
	size_t *edge_of, *stands_for;	/* the same */
	size_t *near_first, *near;	/* the same */
	/* per trace element: a router some host's access link ends at,
	 * after which no trace shows a router (its onward hops are its
	 * hosts) */
	bool *edge_router;
	/* per element: a pick the naming withdrew (its evidence is
	 * another's), left out of the next fit; withdrew: one was */
	bool *excluded;
	/* per element: a router whose links the fit took one by one, left
	 * out for it (router_behind_links) */
	bool *behind;
	/* per element: excluded by the naming's withdraw (an unseen hop
	 * taken for silence by policy, or for the shadow of a fault named
	 * elsewhere); kept: one put back, as nothing else explained its
	 * failing results (localise.c keep_unexplained) */
	bool *withdrawn, *kept;
	/* per kept element: the first of its group (kept hops one
	 * unanswered hop apart in some trace: one silent router seen from
	 * its neighbours); per such first: its suspect's index + 1 in the
	 * round's suspects, 0 none yet */
	size_t *kept_group, *group_named;
	bool withdrew;
	struct strmap index;	/* "h:ADDR", "u:N" -> element + 1 */
	struct strmap hosts;	/* address -> host name (borrowed) */
	struct strmap sources;	/* host name -> source number + 1 */
	size_t source_count;
	/* per trace flow: the number of its path (flow_paths.h) */
	uint32_t *path_of;
	struct loc_obs *obs;
	/* The obs' lists of elements (but a trace's own path, which they
	 * borrow) and the pairs' spreads, each where it is made; the lists
	 * being made. */
	struct arena lists;
	struct idlist ends, fwd, back, edges, spread, hits;
	struct result_ends last;
	struct kept_list last_back, last_edges;	/* list_keep_again */
	/* normalised address -> id + 1 (result_ends) */
	struct strmap address_ids;
	size_t address_count;
	const struct report_trace_flow **flow_of;	/* per result */
	size_t n;
	/* Links by where they start: the first's number + 1 in out_first
	 * (by node name), the next in out_next[link], SIZE_MAX the last. */
	struct strmap out_first;
	size_t *out_next;
	/* Per trace element (router): whether a hop that did not answer
	 * may be it (fill_gap), from how often it leaves queries
	 * unanswered (model_answer_rates). */
	bool *may_be_gap;
	/* Per trace element (router): traces from two or more routers
	 * reach it over one hop that did not answer and that no one
	 * router fills (model_silent_before): a router there that never
	 * answers, or its link into this one. */
	bool *silent_before;
	/* Per trace element (router): traces of two or more sources reach
	 * it first, their first hop unanswered and filled by no router
	 * (model_silent_before): their edge router never answers, and the
	 * hop before this one is that edge or its link into this one. */
	bool *silent_first;
	/* Access links into a host, by its address: the link's number + 1,
	 * ACCESS_SEVERAL when traces show more than one (access_link). */
	struct strmap access_in;
	/* the two address ids of a pair -> pair number + 1 (model_pairs) */
	struct u64map pair_index;
	struct pair_paths *pairs;
	size_t pair_count, pair_capacity;
};

/* The first of kept hop e's group (m->kept_group, a union-find). */
size_t loc_kept_first(const struct model *m, size_t e);
/* The router whose access link leads into the destination address of
 * result k's trace (its last router before the destination); SIZE_MAX
 * when no trace, or no one such link. */
size_t loc_dest_edge(const struct model *m, size_t k);
/* The router or switch named so in the traces (SIZE_MAX: none); the
 * traces key elements by kind, so a link's name never passes for one. */
size_t loc_node_element(const struct report_traces *t, const char *name);

bool loc_link_seen(const struct report_traces *t, const char *a, const char *b);

/* The hop (1: the first) at which element i of f answered: one per
 * router, one more for each hop that did not answer before it (two
 * routers without the link between them: one hop is taken to be
 * missing). 0 for a link. */
unsigned loc_hop_at(const struct report_traces *t,
		    const struct report_trace_flow *f, size_t i, unsigned prev);

int loc_model_elements(struct model *m);

size_t loc_first_router(const struct report_traces *t,
			const struct report_trace_flow *f, bool last);

/* Which routers a hop that did not answer may be. fill_gap finds the one
 * router other traces show between the routers around the hop, but a
 * router that never answers is in no trace, and the one that is may be
 * its neighbour on another branch. A hop is all unanswered by a router
 * that leaves a share m of its queries unanswered with probability m^k
 * (k queries a hop): about n m^k / (1 - m^k) of such hops beside its n
 * answered ones. A router to which far more hops would be attributed is
 * not what those hops are (the ones it answers all but never). */
int loc_model_answer_rates(struct model *m);

int loc_model_results(struct model *m, struct localise *l);

int loc_add_name(char ***list, size_t *count, const char *name);

struct localise_suspect *loc_new_suspect(struct localise *l);
/* What suspect s holds (not s itself: it is one of a list's items). */
void loc_suspect_free(struct localise_suspect *s);

/* Pick k of the fit is the same fault as suspect s (its failing results
 * stop where s's do): its evidence added to s's, and it is named no
 * more. */
void loc_absorb(struct localise_suspect *s, const struct loc_fit *fit, size_t k,
		bool *used);

/* An unseen element after router h: paired with another unseen pick
 * after x when no trace crosses h -> x either way (a dead link, seen
 * from both ends); else the next hops of h's flows as candidates. */
int loc_name_unseen(struct model *m, struct localise *l,
		    const struct loc_pick *p, const struct loc_fit *fit,
		    bool *used);

/* Remarking: each remarked trace names the last hop that saw the
 * traffic class sent and the first that saw another. The router that
 * most of them share (as either) rewrites; greedy as the loss fit. */
int loc_find_remarks(const struct model *m, struct localise *l);
/* Whether traces show a router next to host address addr (its edge). */
bool loc_edge_seen(const struct model *m, const char *addr);
/* The host suspects behind edge routers that answer no trace, alike,
 * one suspect (localise_edge.c). 0, or -1 when memory ran out. */
int loc_group_silent_edges(const struct model *m, struct localise *l);

/* The routers each link and unseen hop touch (loc_relations.touch). */
int loc_model_touch(struct model *m);

/* The routers seen next to each router (loc_relations.near): a pick of
 * a router explains the results that lost replies coming in over them. */
int loc_model_near(struct model *m);

/* A host's edge router: the router at the other end of a link from or
 * to its address in any trace (its access link). What a pick stands for
 * (loc_relations): a router, itself; the unseen hop after router R, R
 * when R is an edge router and no trace shows a router after R (its
 * onward hops are its hosts, and it forwards to none of them); after a
 * router with other routers beyond, one of its links (a dead uplink) is
 * as likely, and the rack's flows are left to name it. */
int loc_model_edges(struct model *m);

void loc_model_free(struct model *m);

#endif
