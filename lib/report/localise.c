/* Localisation over a report's results and traces (localise.h): the
 * fit over the model (localise_model.h) run, refitted without what its
 * naming withdrew, and its picks named as suspects; remarks
 * (localise_remark.c) and what traces cannot see (localise_unseen.c)
 * named by their own files. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/localise_model.h"
#include "report/report_traces.h"

/* A link past which a tenth more of the trace queries go unanswered
 * than before it shows where loss starts (name_pick). */
#define ANSWER_DROP_MIN 0.1

/* An unseen hop beside a router named for loss is that router's silence
 * when it has at most a tenth of the router's failing results
 * (silent_named_router). */
#define SILENT_SHARE_MAX 10

/* Fits at most: the first, and again after a pick was withdrawn. */
#define LOCALISE_REFITS_MAX 3

const char *localise_cause_name(enum localise_cause cause)
{
	switch (cause) {
	case LOCALISE_LOSS: return "loss";
	case LOCALISE_UNSEEN: return "unseen";
	case LOCALISE_REMARK: return "remark";
	}
	return "?";
}

int loc_add_name(char ***list, size_t *count, const char *name)
{
	char **x = realloc(*list, (*count + 1) * sizeof(*x));

	if (!x)
		return -1;
	*list = x;
	if (!(x[*count] = strdup(name)))
		return -1;
	(*count)++;
	return 0;
}

struct localise_suspect *loc_new_suspect(struct localise *l)
{
	struct localise_suspect *x = realloc(l->items, (l->count + 1) *
							       sizeof(*x));

	if (!x)
		return NULL;
	l->items = x;
	x = &x[l->count++];
	memset(x, 0, sizeof(*x));
	return x;
}

/* Pick k of the fit is the same fault as suspect s (its failing results
 * stop where s's do): its evidence added to s's, and it is named no
 * more. */
void loc_absorb(struct localise_suspect *s, const struct loc_fit *fit, size_t k,
		bool *used)
{
	const struct loc_pick *q = &fit->picks[k];

	used[k] = true;
	s->failing += q->stats.failing;
	s->explained += q->explained;
	s->llr += q->stats.llr;
}

static void fill_evidence(struct localise_suspect *s, const struct loc_pick *p)
{
	const struct loc_stats *st = &p->stats;

	s->failing = st->failing;
	s->passing = st->passing;
	s->explained = p->explained;
	s->loss_rate = st->exposed > 0 ? st->lost / st->exposed : 0;
	s->expected_rate = st->exposed > 0 ? st->expected / st->exposed : 0;
	s->llr = st->llr;
	s->confidence = p->confidence;
}

/* A hop's share of queries answered (answered << 4 | asked). */
static double answered_share(unsigned a)
{
	return (double)(a >> 4) / (a & 15);
}

/* How much fewer of the trace queries are answered past link e than
 * before it, over the failing traces through it: where loss starts, the
 * hops after it answer less (a link tied with the next one on the same
 * flows is told apart so). With rate (answer_shares: router x's share
 * of queries answered), each answer is weighed against how its router
 * answers, so that a rate-limited router, answering less whatever is
 * lost, weighs nothing. */
static double answers_drop(const struct model *m, size_t e,
			   const double *rate)
{
	double sum = 0;
	size_t n = 0;

	for (size_t k = 0; k < m->n; k++) {
		const struct report_trace_flow *f = m->flow_of[k];

		if (!f || !m->obs[k].failing || !f->answered)
			continue;
		for (size_t i = 1; i < f->element_count; i++) {
			unsigned a = f->answered[i - 1], b = f->answered[i];
			size_t from, to;

			if (f->elements[i] != e || !(a & 15) || !(b & 15))
				continue;
			if (!rate) {
				sum += answered_share(a) - answered_share(b);
				n++;
				continue;
			}
			if (i + 1 >= f->element_count)
				continue;
			from = f->elements[i - 1];
			to = f->elements[i + 1];
			if (rate[from] <= 0 || rate[to] <= 0)
				continue;
			sum += answered_share(a) / rate[from] -
			       answered_share(b) / rate[to];
			n++;
		}
	}
	return n ? sum / n : 0;
}

static void count_answers(const struct report_trace_flow *f, double *asked,
			  double *answered)
{
	for (size_t i = 0; f->answered && i < f->element_count; i++) {
		asked[f->elements[i]] += f->answered[i] & 15;
		answered[f->elements[i]] += f->answered[i] >> 4;
	}
}

/* Per element of the traces, the share of its hop's queries answered
 * (answers_drop's rate): over the traces of passing results, which a
 * lossy element's loss spares (the traces of failing ones cross it, and
 * its routers past it would seem to answer less), or over every trace
 * for a router no passing result's trace shows. NULL when memory ran
 * out. */
static double *answer_shares(const struct model *m)
{
	const struct report_traces *t = m->t;
	size_t count = t->element_count;
	double *asked = calloc(2 * (count + 1), sizeof(*asked));
	double *answered = calloc(2 * (count + 1), sizeof(*answered));
	double *all_asked = asked + count + 1, *all_answered = answered + count + 1;

	if (!asked || !answered) {
		free(asked);
		free(answered);
		return NULL;
	}
	for (size_t k = 0; k < m->n; k++)
		if (m->flow_of[k] && !m->obs[k].failing)
			count_answers(m->flow_of[k], asked, answered);
	for (size_t k = 0; k < t->count; k++)
		count_answers(&t->flows[k], all_asked, all_answered);
	for (size_t x = 0; x < count; x++)
		answered[x] = asked[x] > 0 ? answered[x] / asked[x]
			      : all_asked[x] > 0 ? all_answered[x] / all_asked[x]
						 : 0;
	free(asked);
	return answered;
}

/* Of a link pick and its link rivals, the one where the answers drop
 * most (against each router's answering rate: rate, answer_shares),
 * when clearly more than the pick's. */
static size_t where_answers_drop(const struct model *m,
				 const struct loc_pick *p, const double *rate)
{
	size_t best = p->element;
	double top;

	if (strcmp(m->el[best].kind, "link") != 0)
		return best;
	top = answers_drop(m, best, rate) + 0.1;
	/* The links before and after it on its failing flows (the most
	 * common of each), rivals or not: a link's LLR may trail only for
	 * hops that did not answer, and the links past a lossy one carry
	 * the same failing flows. */
	for (int after = 0; after < 2; after++) {
		size_t next = SIZE_MAX, votes = 0, pick = p->element;

		for (size_t k = 0; k < m->n; k++) {
			const struct report_trace_flow *f = m->flow_of[k];

			if (!f || !m->obs[k].failing)
				continue;
			for (size_t i = 0; i + 2 < f->element_count; i++) {
				size_t x = f->elements[after ? i + 2 : i];

				if (f->elements[after ? i : i + 2] != pick ||
				    strcmp(m->el[x].kind, "link") != 0)
					continue;
				if (!votes)
					next = x;
				votes += x == next ? 1 : (size_t)-1;
			}
		}
		if (next != SIZE_MAX && answers_drop(m, next, rate) > top) {
			top = answers_drop(m, next, rate);
			best = next;
		}
	}
	for (size_t i = 0; i < p->rival_count; i++) {
		double d;

		if (strcmp(m->el[p->rivals[i]].kind, "link") != 0)
			continue;
		d = answers_drop(m, p->rivals[i], rate);
		if (d > top) {
			top = d;
			best = p->rivals[i];
		}
	}
	return best;
}

/* The element after e on o's forward path (SIZE_MAX: none). */
static size_t next_on_path(const struct loc_obs *o, size_t e)
{
	for (size_t i = 0; i + 1 < o->fwd_count; i++)
		if (o->fwd[i] == e)
			return o->fwd[i + 1];
	return SIZE_MAX;
}

/* A router picked for loss whose failing results all leave it one way,
 * over one link out of it or the unseen hop after it (the same way, its
 * far end unanswered), while its results over its other links pass: one
 * of its ports loses, not the router. That link, with the failing
 * results that took it and the passing ones that left r elsewhere; r
 * when not so. */
static size_t way_out(const struct model *m, size_t r, size_t *failing,
		      size_t *elsewhere)
{
	size_t link = SIZE_MAX, unseen = SIZE_MAX, one_way = 0;
	char key[32];
	void *u;

	*failing = *elsewhere = 0;
	if (r >= m->t->element_count ||
	    m->t->elements[r].kind == REPORT_PATH_LINK)
		return r;
	snprintf(key, sizeof(key), "u:%zu", r);
	u = strmap_get(&m->index, key);
	if (u)
		unseen = (size_t)(uintptr_t)u - 1;
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < m->n; k++) {
			const struct loc_obs *o = &m->obs[k];
			size_t next = next_on_path(o, r);

			if (next == SIZE_MAX)
				continue;
			if (!pass) {
				if (o->failing && link == SIZE_MAX &&
				    next != unseen &&
				    next < m->t->element_count)
					link = next;
				continue;
			}
			if (!o->failing) {
				*elsewhere += next != link && next != unseen;
				continue;
			}
			++*failing;
			one_way += next == link || next == unseen;
		}
	if (link == SIZE_MAX || *failing < LOC_FAILING_MIN ||
	    10 * one_way < 9 * *failing || !*elsewhere)
		return r;
	return link;
}

/* The router a trace link leaves (SIZE_MAX: none, or no link). */
static size_t link_from(const struct model *m, size_t e)
{
	const struct report_traces *t = m->t;

	if (e >= t->element_count || t->elements[e].kind != REPORT_PATH_LINK)
		return SIZE_MAX;
	return loc_node_element(t, t->elements[e].from);
}

/* Of pick k (the unseen hop after router h, or a link out of h) the
 * unused pick of the other kind at h: a link that loses datagrams loses
 * the trace queries to its far end too, whose hop then looks unanswered
 * (or the traces stop there): one fault, picked twice. SIZE_MAX: none. */
static size_t same_fault(const struct model *m, const struct loc_fit *fit,
			 const bool *used, size_t k)
{
	size_t e = fit->picks[k].element, h = m->el[e].after;
	bool unseen = h != SIZE_MAX;

	if (!unseen)
		h = link_from(m, e);
	if (h == SIZE_MAX)
		return SIZE_MAX;
	for (size_t j = 0; j < fit->count; j++) {
		size_t x = fit->picks[j].element;

		if (j == k || used[j])
			continue;
		if (unseen ? link_from(m, x) == h : m->el[x].after == h)
			return j;
	}
	return SIZE_MAX;
}

/* Whether the failing traces that stop after router h (the unseen pick
 * stop) are as many as link pick link out of h can stop. It loses a
 * share p of what crosses it: a trace query past it is lost there, or
 * its answer on the way back over it (routes back are most often the
 * same links), with q = 1 - (1 - p)^2 at most; of the datagrams whose
 * traces would cross it, about a share q stop before its far end
 * answers and 1 - q are seen crossing (a hop is unanswered when all its
 * queries are, with q^k <= q: this bounds from above). Counted in
 * datagrams (a sample's passing results stand for few): beyond twice
 * that and LOC_PASSING_SLACK results' worth, the stops are not that
 * link's doing: h loses what it forwards on its other ways too. */
static bool stops_by_link(const struct loc_pick *stop,
			  const struct loc_pick *link)
{
	const struct loc_stats *st = &link->stats;
	double p = st->exposed > 0 ? st->lost / st->exposed : 0;
	double q = 1 - (1 - p) * (1 - p);
	double per_stop = stop->stats.failing
				  ? stop->stats.exposed / stop->stats.failing
				  : 0;

	if (q >= 1)
		return true;
	return stop->stats.exposed <=
	       2 * st->exposed * q / (1 - q) + LOC_PASSING_SLACK * per_stop;
}

/* The router link pick k leaves toward another router (SIZE_MAX: none,
 * or a link to or from a host). */
static size_t router_link_from(const struct model *m,
			       const struct loc_fit *fit, size_t k)
{
	size_t e = fit->picks[k].element, h = link_from(m, e);

	if (h == SIZE_MAX ||
	    loc_node_element(m->t, m->t->elements[e].to) == SIZE_MAX)
		return SIZE_MAX;
	return h;
}

/* The unseen pick after router h named as h (it answers but does not
 * forward: its flows toward several next hops fail): a later pick of h
 * itself, or of a link out of h toward another router, is h's loss seen
 * through the few flows whose traces went on past it (stops_by_link
 * kept them apart), absorbed into h's suspect. */
static void absorb_links_out(const struct model *m, struct localise *l,
			     const struct loc_fit *fit, size_t h, bool *used)
{
	struct localise_suspect *s = &l->items[l->count - 1];

	if (!s->kind || strcmp(s->kind, "router") != 0 || !s->name ||
	    strcmp(s->name, m->el[h].name) != 0)
		return;
	for (size_t j = 0; j < fit->count; j++)
		if (!used[j] && (fit->picks[j].element == h ||
				 router_link_from(m, fit, j) == h))
			loc_absorb(s, fit, j, used);
}

/* The suspect an unseen hop pick p is part of: a router already named
 * for loss that traces show right before the router the hop precedes,
 * or right after the one it follows, with SILENT_SHARE_MAX times p's
 * failing results or more. That router did not answer those traces: one
 * that drops what it forwards often answers few trace queries too, so
 * some of its failing flows show a silent hop where it sits, too few to
 * be a fault of their own. Likewise an unseen hop after a router that
 * one named for loss or for its stops (kind router) forwards to, or
 * right before the one named. NULL: none. */
static struct localise_suspect *silent_named_router(const struct model *m,
						    struct localise *l,
						    const struct loc_pick *p)
{
	const struct report_traces *t = m->t;
	const struct elem *e = &m->el[p->element];

	if (e->after == SIZE_MAX && e->before == SIZE_MAX)
		return NULL;
	for (size_t k = 0; k < l->count; k++) {
		struct localise_suspect *s = &l->items[k];

		if (!s->kind || strcmp(s->kind, "router") != 0 ||
		    s->cause == LOCALISE_REMARK ||
		    SILENT_SHARE_MAX * p->stats.failing > s->failing)
			continue;
		/* (the hop after a router it forwards to, where the few
		 * flows it let through stopped: their later queries crossed
		 * it too, and were lost there) */
		if (e->after != SIZE_MAX &&
		    loc_link_seen(t, s->name, t->elements[e->after].name))
			return s;
		/* (the hop before it: the flows over that hop crossed it
		 * too) */
		if (e->before != SIZE_MAX &&
		    strcmp(s->name, t->elements[e->before].name) == 0)
			return s;
		if (s->cause != LOCALISE_LOSS)
			continue;
		if ((e->before != SIZE_MAX &&
		     loc_link_seen(t, s->name, t->elements[e->before].name)) ||
		    (e->after != SIZE_MAX &&
		     loc_link_seen(t, t->elements[e->after].name, s->name)))
			return s;
	}
	return NULL;
}

/* The fit of m's results over its elements as they stand. 0, or -1
 * when memory ran out. */
static int model_fit(const struct model *m, struct loc_fit *fit)
{
	return loc_fit_run(fit, m->obs, m->n, m->count,
			   &(struct loc_relations){
				   .prefer = m->prefer,
				   .touch = (const size_t(*)[2])m->touch,
				   .edge_of = m->edge_of,
				   .stands_for = m->stands_for,
				   .excluded = m->excluded,
				   .near_first = m->near_first,
				   .near = m->near },
			   -1);
}

/* Whether router h is a pick of fit. */
static bool picked(const struct loc_fit *fit, size_t h)
{
	for (size_t k = 0; k < fit->count; k++)
		if (fit->picks[k].element == h)
			return true;
	return false;
}

/* Two or more picks are links from one router H to others, and H is no
 * pick: H may lose what it forwards, toward each next hop alike, the fit
 * having taken its links one by one because each carries fewer of H's
 * passing flows than H does. The fit again without those links (and
 * the unseen hop after H) weighs H with all their failing flows: when
 * it picks H, that fit stands (H named, the links its alternatives:
 * behind_alternatives); else the links stay. Links to hosts are left
 * alone (two bad cables or NICs in a rack are no ToR fault). 0, or -1
 * when memory ran out. */
static int router_behind_links(struct model *m, struct loc_fit *fit)
{
	for (size_t k = 0; k < fit->count; k++) {
		size_t h = router_link_from(m, fit, k), links = 0;
		bool *left = NULL;
		struct loc_fit trial = { 0 };

		if (h == SIZE_MAX || m->excluded[h] || m->behind[h] ||
		    picked(fit, h))
			continue;
		for (size_t j = 0; j < fit->count; j++)
			links += router_link_from(m, fit, j) == h;
		if (links < 2)
			continue;
		m->behind[h] = true;
		left = calloc(fit->count + 1, sizeof(*left));
		if (!left)
			return -1;
		for (size_t j = 0; j < fit->count; j++) {
			size_t x = fit->picks[j].element;

			left[j] = !m->excluded[x] &&
				  (router_link_from(m, fit, j) == h ||
				   m->el[x].after == h);
			m->excluded[x] = m->excluded[x] || left[j];
		}
		if (model_fit(m, &trial)) {
			free(left);
			return -1;
		}
		if (picked(&trial, h)) {
			loc_fit_free(fit);
			*fit = trial;
			free(left);
			return 0;
		}
		for (size_t j = 0; j < fit->count; j++)
			if (left[j])
				m->excluded[fit->picks[j].element] = false;
		loc_fit_free(&trial);
		free(left);
	}
	return 0;
}

/* Of a link pick and the links tied with it (the same evidence, the
 * pick only the tie-break's), the one past which the answers drop most
 * (where loss starts, the hops after it answer less), however little
 * (against each router's answering rate: answered, answer_shares). */
static size_t tied_answers_drop(const struct model *m,
				const struct loc_pick *p,
				const double *answered)
{
	size_t best = p->element;
	double top;

	if (!p->ties || strcmp(m->el[best].kind, "link") != 0)
		return best;
	top = answers_drop(m, best, answered);
	for (size_t i = 0; i < p->ties; i++) {
		size_t e = p->rivals[i];
		double d;

		if (strcmp(m->el[e].kind, "link") != 0)
			continue;
		d = answers_drop(m, e, answered);
		if (d > top) {
			top = d;
			best = e;
		}
	}
	return best;
}

/* shares: answer_shares. */
static int name_pick(struct model *m, struct localise *l,
		     const struct loc_fit *fit, size_t k, bool *used,
		     const double *shares)
{
	const struct loc_pick *p = &fit->picks[k], *other = NULL;
	size_t named, twin, out_failing, out_elsewhere;
	const struct elem *e;
	struct localise_suspect *s;

	if (used[k])
		return 0;
	s = silent_named_router(m, l, p);
	if (s) {
		loc_absorb(s, fit, k, used);
		return 0;
	}
	used[k] = true;
	/* An unseen hop after h and a lossy link out of h: the link,
	 * named where the stronger of the two ranks, with both's
	 * evidence. */
	twin = same_fault(m, fit, used, k);
	/* (unless the stops are far more than the link can make) */
	if (twin != SIZE_MAX) {
		bool unseen = m->el[p->element].after != SIZE_MAX;
		const struct loc_pick *q = &fit->picks[twin];

		if (!stops_by_link(unseen ? p : q, unseen ? q : p))
			twin = SIZE_MAX;
	}
	if (twin != SIZE_MAX) {
		used[twin] = true;
		other = p;
		if (m->el[p->element].after != SIZE_MAX) {
			p = &fit->picks[twin];
		} else {
			other = &fit->picks[twin];
		}
	}
	named = tied_answers_drop(m, p, shares);
	if (named == p->element)
		named = where_answers_drop(m, p, shares);
	/* (where answers drop tells apart links the loss does not; one
	 * the fit tells apart from the pick is named only when its answers
	 * do drop: past a rate-limited router they merely rise) */
	if (named != p->element &&
	    answers_drop(m, named, NULL) <= ANSWER_DROP_MIN) {
		bool rival = false;

		for (size_t i = 0; i < p->rival_count; i++)
			rival |= p->rivals[i] == named;
		if (!rival)
			named = p->element;
	}
	named = way_out(m, named, &out_failing, &out_elsewhere);
	e = &m->el[named];
	s = loc_new_suspect(l);
	if (!s)
		return -1;
	fill_evidence(s, p);
	if (other) {
		s->failing += other->stats.failing;
		s->explained += other->explained;
		s->llr += other->stats.llr;
	}
	if (e->after != SIZE_MAX) {
		if (loc_name_unseen(m, l, p, fit, used))
			return -1;
		absorb_links_out(m, l, fit, e->after, used);
	} else if (named != p->element &&
		   strcmp(m->el[p->element].kind, "router") == 0) {
		s->cause = LOCALISE_LOSS;
		s->kind = e->kind;
		s->name = strdup(e->name);
		if (!s->name ||
		    asprintf(&s->reason, "the %zu failing results through %s "
			     "leave it over this link (or a hop that did not "
			     "answer after it); %zu passing ones leave it over "
			     "its other links; it would lose %.1f%% of their "
			     "datagrams, the background %.2f%%", out_failing,
			     m->el[p->element].name, out_elsewhere,
			     100 * s->loss_rate, 100 * s->expected_rate) < 0)
			return -1;
	} else {
		s->cause = LOCALISE_LOSS;
		s->kind = e->kind;
		s->name = strdup(e->name);
		if (e->address && !(s->address = strdup(e->address)))
			return -1;
		if (!s->name ||
		    asprintf(&s->reason, "%zu failing and %zu passing results "
			     "cross it; it would lose %.1f%% of their "
			     "datagrams, the background %.2f%%", s->failing,
			     s->passing, 100 * s->loss_rate,
			     100 * s->expected_rate) < 0)
			return -1;
	}
	bool listed = named == p->element;

	for (size_t i = 0; i < p->rival_count; i++) {
		const char *alt = m->el[p->rivals[i] == named
					       ? p->element
					       : p->rivals[i]].name;

		listed |= p->rivals[i] == named;
		/* (an unseen hop named as its router is no alternative to
		 * itself) */
		if (s->name && strcmp(alt, s->name) == 0)
			continue;
		if (loc_add_name(&s->alternatives, &s->alternative_count, alt))
			return -1;
	}
	if (!listed && loc_add_name(&s->alternatives, &s->alternative_count,
				    m->el[p->element].name))
		return -1;
	s->cannot_localise = p->one_path && p->rival_count > 0;
	return 0;
}

/* The suspects name_unseen withdrew (kind NULL: a hop silent by
 * policy) taken out, the order of the others kept. */
static void drop_withdrawn(struct localise *l)
{
	size_t kept = 0;

	for (size_t k = 0; k < l->count; k++) {
		struct localise_suspect *s = &l->items[k];

		if (s->kind) {
			l->items[kept++] = *s;
			continue;
		}
		loc_suspect_free(s);
	}
	l->count = kept;
}

/* A router named for loss after the fit took its links one by one
 * (router_behind_links): those links are its alternatives, the data
 * alone cannot tell one router that loses toward each next hop from
 * lossy links out of it. */
static int behind_alternatives(const struct model *m, struct localise *l)
{
	const struct report_traces *t = m->t;

	for (size_t k = 0; k < l->count; k++) {
		struct localise_suspect *s = &l->items[k];
		size_t h;

		if (s->cause != LOCALISE_LOSS || strcmp(s->kind, "router") != 0)
			continue;
		h = loc_node_element(t, s->name);
		if (h == SIZE_MAX || !m->behind[h])
			continue;
		for (size_t e = 0; e < t->element_count; e++)
			if (m->excluded[e] &&
			    t->elements[e].kind == REPORT_PATH_LINK &&
			    link_from(m, e) == h &&
			    loc_add_name(&s->alternatives,
					 &s->alternative_count,
					 t->elements[e].name))
				return -1;
	}
	return 0;
}

/* Each router or link suspect's other names in the traces (a router
 * answering from the address of each interface: trace_aliases.h). */
static int suspect_aliases(const struct report_traces *t, struct localise *l)
{
	for (size_t k = 0; k < l->count; k++) {
		struct localise_suspect *s = &l->items[k];
		enum report_path_kind kind = REPORT_PATH_ROUTER;
		size_t e;

		if (strcmp(s->kind, "link") == 0)
			kind = REPORT_PATH_LINK;
		else if (strcmp(s->kind, "router") != 0)
			continue;
		e = report_traces_element_find(t, kind, s->name);
		for (size_t i = 0; e != SIZE_MAX &&
				   i < t->elements[e].alias_count; i++)
			if (loc_add_name(&s->aliases, &s->alias_count,
					 t->elements[e].aliases[i]))
				return -1;
	}
	return 0;
}

void loc_suspect_free(struct localise_suspect *s)
{
	free(s->name);
	free(s->address);
	free(s->reason);
	for (size_t i = 0; i < s->alternative_count; i++)
		free(s->alternatives[i]);
	free(s->alternatives);
	for (size_t i = 0; i < s->alias_count; i++)
		free(s->aliases[i]);
	free(s->aliases);
	for (size_t i = 0; i < s->member_count; i++)
		free(s->members[i]);
	free(s->members);
}

/* The suspects freed, the counts of the model kept. */
static void suspects_free(struct localise *l)
{
	for (size_t k = 0; k < l->count; k++)
		loc_suspect_free(&l->items[k]);
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

/* Candidates (cand[e]: unseen hop e may be kept) one unanswered hop
 * apart in some trace, the routers they follow next to each other with
 * no link between: joined in m->kept_group; partnered[e]: e has one.
 * 0, or -1 when memory ran out. */
static int join_kept(struct model *m, const bool *cand, bool *partnered)
{
	const struct report_traces *t = m->t;
	size_t *after = malloc((t->element_count + 1) * sizeof(*after));

	if (!after)
		return -1;
	for (size_t x = 0; x < t->element_count; x++)
		after[x] = SIZE_MAX;
	for (size_t e = 0; e < m->count; e++)
		if (cand[e])
			after[m->el[e].after] = e;
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];

		for (size_t i = 0; i + 1 < f->element_count; i++) {
			size_t a = after[f->elements[i]], b;

			if (a == SIZE_MAX || t->elements[f->elements[i + 1]].kind ==
						     REPORT_PATH_LINK)
				continue;
			b = after[f->elements[i + 1]];
			if (b == SIZE_MAX || b == a)
				continue;
			partnered[a] = partnered[b] = true;
			m->kept_group[loc_kept_first(m, a)] =
				loc_kept_first(m, b);
		}
	}
	free(after);
	return 0;
}

/* The withdrawn unseen hops whose failing results no pick of fit put
 * aside, at least LOC_FAILING_MIN and half of them: their silence was
 * taken for a policy's, or for the shadow of a fault elsewhere, and
 * nothing else explains what their flows lost. Those with a partner one
 * unanswered hop away (a router that answers no trace seen from two of
 * its neighbours: join_kept), whose group left half as many failing
 * results as the strongest suspect of l has or more (fewer may be that
 * fault's shadow: its flows crossing a hop silent by policy, their loss
 * on the way back not placed), are kept, put back and named as one per
 * group (localise_unseen.c). 1 when one was, 0 when none, -1 when
 * memory ran out. */
static int keep_unexplained(struct model *m, const struct loc_fit *fit,
			    const struct localise *l)
{
	size_t *failing = NULL, *left = NULL, *group_left = NULL;
	size_t *group_most = NULL, strongest = 0;
	bool *cand = NULL, *partnered = NULL, any = false;
	int kept = -1;

	for (size_t e = 0; e < m->count && !any; e++)
		any = m->withdrawn[e];
	if (!any)
		return 0;
	failing = calloc(m->count + 1, sizeof(*failing));
	left = calloc(m->count + 1, sizeof(*left));
	group_left = calloc(m->count + 1, sizeof(*group_left));
	group_most = calloc(m->count + 1, sizeof(*group_most));
	cand = calloc(m->count + 1, sizeof(*cand));
	partnered = calloc(m->count + 1, sizeof(*partnered));
	if (!failing || !left || !group_left || !group_most || !cand ||
	    !partnered || !fit->left)
		goto out;
	for (size_t k = 0; k < l->count; k++)
		if (l->items[k].failing > strongest)
			strongest = l->items[k].failing;
	for (size_t k = 0; k < m->n; k++) {
		const struct loc_obs *o = &m->obs[k];

		if (!o->failing)
			continue;
		for (size_t i = 0; i < o->fwd_count; i++) {
			size_t e = o->fwd[i];

			/* (after the destination's edge router the hop is
			 * the destination: a lost reply stops a trace there
			 * too, so that stop is no evidence of the way
			 * there) */
			if (!m->withdrawn[e] ||
			    loc_dest_edge(m, k) == m->el[e].after)
				continue;
			failing[e]++;
			left[e] += fit->left[k];
		}
	}
	for (size_t e = 0; e < m->count; e++)
		cand[e] = m->withdrawn[e] && m->el[e].after != SIZE_MAX &&
			  left[e] >= LOC_FAILING_MIN && 2 * left[e] >= failing[e];
	if (join_kept(m, cand, partnered))
		goto out;
	for (size_t e = 0; e < m->count; e++) {
		size_t g = loc_kept_first(m, e);

		if (!cand[e])
			continue;
		group_left[g] += left[e];
		if (left[e] > group_most[g])
			group_most[g] = left[e];
	}
	kept = 0;
	for (size_t e = 0; e < m->count; e++) {
		size_t g = loc_kept_first(m, e);

		/* (a member with a tenth of the most any has, or fewer, is
		 * joined by a hop silent elsewhere: a silent router's
		 * neighbours each send it their share of its flows) */
		if (!cand[e] || !partnered[e] || 2 * group_left[g] < strongest ||
		    SILENT_SHARE_MAX * left[e] <= group_most[g])
			continue;
		m->withdrawn[e] = m->excluded[e] = false;
		m->kept[e] = true;
		kept = 1;
	}
out:
	free(failing);
	free(left);
	free(group_left);
	free(group_most);
	free(cand);
	free(partnered);
	return kept;
}

int localise_run(struct localise *l, const struct report *r,
		 const struct report_traces *t)
{
	struct model m = { .r = r, .t = t };
	struct loc_fit fit = { 0 };
	double *shares = NULL;
	bool *used = NULL, keep_round = false;
	int rc = -1;

	memset(l, 0, sizeof(*l));
	if (loc_model_elements(&m) || loc_model_answer_rates(&m) ||
	    loc_model_results(&m, l) || loc_model_touch(&m) ||
	    loc_model_near(&m) || loc_model_edges(&m))
		goto out;
	m.excluded = calloc(m.count + 1, sizeof(*m.excluded));
	m.behind = calloc(m.count + 1, sizeof(*m.behind));
	m.withdrawn = calloc(m.count + 1, sizeof(*m.withdrawn));
	m.kept = calloc(m.count + 1, sizeof(*m.kept));
	m.kept_group = malloc((m.count + 1) * sizeof(*m.kept_group));
	m.group_named = calloc(m.count + 1, sizeof(*m.group_named));
	shares = answer_shares(&m);
	if (!m.excluded || !m.behind || !m.withdrawn || !m.kept ||
	    !m.kept_group || !m.group_named || !shares)
		goto out;
	for (size_t e = 0; e < m.count; e++)
		m.kept_group[e] = e;
	/* A pick the naming withdraws took results that something else
	 * may explain: fit again without it (each round leaves out at
	 * least one more element). */
	for (unsigned round = 0;; round++) {
		int kept = 0;

		m.withdrew = false;
		memset(m.group_named, 0, m.count * sizeof(*m.group_named));
		if (model_fit(&m, &fit) || router_behind_links(&m, &fit))
			goto out;
		used = calloc(fit.count + 1, sizeof(*used));
		if (!used)
			goto out;
		for (size_t k = 0; k < fit.count; k++)
			if (name_pick(&m, l, &fit, k, used, shares))
				goto out;
		drop_withdrawn(l);
		/* (once, after the refits: the withdrawn hops that nothing
		 * else explained put back) */
		if ((!m.withdrew || round + 1 >= LOCALISE_REFITS_MAX) &&
		    (keep_round ||
		     (kept = keep_unexplained(&m, &fit, l)) == 0))
			break;
		if (kept < 0)
			goto out;
		keep_round = keep_round || kept > 0;
		suspects_free(l);
		free(used);
		used = NULL;
		loc_fit_free(&fit);
	}
	l->background = fit.background;
	l->failing = fit.failing;
	l->explained = fit.explained;
	if (loc_group_silent_edges(&m, l) || behind_alternatives(&m, l) ||
	    loc_find_remarks(&m, l) ||
	    suspect_aliases(t, l))
		goto out;
	l->folded_routers = t->folded_routers;
	l->folded_addresses = t->folded_addresses;
	rc = 0;
out:
	free(used);
	free(shares);
	loc_fit_free(&fit);
	loc_model_free(&m);
	if (rc)
		localise_free(l);
	return rc;
}

void localise_free(struct localise *l)
{
	suspects_free(l);
	memset(l, 0, sizeof(*l));
}
