/* The greedy likelihood-ratio fit of localise_fit.h: per element the
 * datagrams its results exposed it to, lost and would lose to the
 * background; the best element picked, its results put aside, again. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/localise_fit.h"

/* Where no source lost anything, the background is not zero: a rate of
 * zero would make one lost datagram infinitely unlikely. */
#define BACKGROUND_FLOOR 1e-5
/* A result whose path length is unknown crosses this many elements: two
 * hosts, two links and an edge router. */
#define LENGTH_DEFAULT 5

double loc_llr(double exposed, double expected, double lost)
{
	double p, p0;

	if (exposed <= 0 || lost <= 0)
		return 0;
	p = lost / exposed;
	p0 = expected / exposed;
	if (p0 <= 0)
		p0 = 1e-12;
	if (p <= p0)
		return 0;
	if (p >= 1)
		p = 1 - 1e-12;
	if (p0 >= 1)
		return 0;
	return lost * log(p / p0) + (exposed - lost) * log((1 - p) / (1 - p0));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static unsigned length_of(const struct loc_obs *o)
{
	return o->length ? o->length : LENGTH_DEFAULT;
}

/* The lower quartile over sources of lost datagrams per datagram and
 * element crossed: a fault harms some sources, a dead link in a small
 * fabric most of them; the quarter least harmed see the noise. */
static double estimate_background(const struct loc_obs *obs, size_t n)
{
	size_t sources = 0, used = 0;
	double *lost, *crossed, *rate, b;

	for (size_t k = 0; k < n; k++)
		if (obs[k].source + 1 > sources)
			sources = obs[k].source + 1;
	lost = calloc(sources + 1, sizeof(*lost));
	crossed = calloc(sources + 1, sizeof(*crossed));
	rate = calloc(sources + 1, sizeof(*rate));
	if (!lost || !crossed || !rate) {
		b = -1;
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		const struct loc_obs *o = &obs[k];

		lost[o->source] += o->lost_there + o->lost_back +
				   o->lost_unknown;
		crossed[o->source] += 2.0 * o->sent * length_of(o);
	}
	for (size_t s = 0; s < sources; s++)
		if (crossed[s] > 0)
			rate[used++] = lost[s] / crossed[s];
	if (!used) {
		b = BACKGROUND_FLOOR;
		goto out;
	}
	qsort(rate, used, sizeof(*rate), cmp_double);
	b = rate[(used - 1) / 4];
	/* A few sources cannot tell noise from a fault that harms them
	 * all: then noise is taken to be at most what a healthy fabric
	 * loses. */
	if (used < LOC_FEW_SOURCES && b > LOC_BACKGROUND_PRIOR)
		b = LOC_BACKGROUND_PRIOR;
	if (b < BACKGROUND_FLOOR)
		b = BACKGROUND_FLOOR;
out:
	free(lost);
	free(crossed);
	free(rate);
	return b;
}

struct work {
	const struct loc_obs *obs;
	size_t n, elements;
	double background;
	bool *active;		/* per result: not yet explained */
	struct loc_stats *st;	/* per element */
	size_t *stamp;		/* per element: last result counted + 1 */
	size_t *overlap;	/* per element: failing results shared */
	/* per element: its failing results, and of them those that lost
	 * every datagram (whole_losses) */
	size_t *failing, *whole;
	/* per element: its loss rate over all its results, once known
	 * (tally's first pass); negative: not yet; and ln(1 - rate) */
	double *rate, *keep_log;
};

/* Every datagram of o lost, one way or the other. */
static bool lost_whole(const struct loc_obs *o)
{
	return o->failing &&
	       o->lost_there + o->lost_back + o->lost_unknown >= o->sent;
}

/* An element that loses a share p of what it carries makes its results
 * lose about p of their datagrams each; a result that lost every one
 * needs p near 1. Where such results are the fewer of an element's
 * failing ones, they are another element's doing (a dead link or host
 * on their way, or on their way back, which no trace shows): the
 * element is not charged with them. Where they are the most, the
 * element may be that dead one. */
static void whole_losses(struct work *w)
{
	memset(w->failing, 0, w->elements * sizeof(*w->failing));
	memset(w->whole, 0, w->elements * sizeof(*w->whole));
	memset(w->stamp, 0, w->elements * sizeof(*w->stamp));
	for (size_t k = 0; k < w->n; k++) {
		const struct loc_obs *o = &w->obs[k];
		const size_t *lists[5] = { o->ends, o->access, o->fwd,
					   o->back, o->spread };
		size_t counts[5] = { o->end_count, o->access_count,
				     o->fwd_count, o->back_count,
				     o->spread_count };
		bool whole = lost_whole(o);

		if (!w->active[k] || !o->failing)
			continue;
		for (int l = 0; l < 5; l++)
			for (size_t i = 0; i < counts[l]; i++) {
				size_t e = lists[l][i];

				if (w->stamp[e] == k + 1)
					continue;
				w->stamp[e] = k + 1;
				w->failing[e]++;
				w->whole[e] += whole;
			}
	}
}

static bool charged_with(const struct work *w, size_t e,
			 const struct loc_obs *o)
{
	return !lost_whole(o) || 2 * w->whole[e] >= w->failing[e];
}

/* An element that loses a share p of its datagrams makes a result of n
 * lose about Binomial(n, p): lost beyond its mean plus 3.3 standard
 * deviations and one (a chance under 1 in 1000) is some other element's
 * doing, a dead or far lossier one on its way or its way back. */
static bool beyond_rate(double lost, unsigned n, double p)
{
	if (p >= 1)
		return false;
	return lost > n * p + LOC_BEYOND_SD * sqrt(n * p * (1 - p)) + 1;
}

static void charge(struct work *w, size_t e, size_t result,
		   double failing_expected, double exposed, double expected,
		   double lost, bool failing)
{
	struct loc_stats *s = &w->st[e];

	/* (whole losses are charged_with's: they say an element is dead,
	 * not lossy) */
	if (!charged_with(w, e, &w->obs[result]) ||
	    (w->rate[e] >= 0 && exposed > 0 && !lost_whole(&w->obs[result]) &&
	     beyond_rate(lost * w->obs[result].sent / exposed,
			 w->obs[result].sent, w->rate[e])))
		return;
	s->exposed += exposed;
	s->expected += expected;
	s->lost += lost;
	if (w->stamp[e] != result + 1) {
		w->stamp[e] = result + 1;
		if (failing) {
			s->failing++;
			s->failing_expected += failing_expected;
		} else {
			s->passing++;
		}
	}
}

static bool in_list(const size_t *list, size_t n, size_t e)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == e)
			return true;
	return false;
}

static void count_passing(struct work *w, size_t e, double weight,
			  unsigned sent, bool failing, double *expect,
			  double *seen)
{
	const struct loc_stats *s = &w->st[e];
	double p = s->exposed > 0 ? (s->lost - s->expected) / s->exposed : 0;

	if (p <= 0)
		return;
	expect[e] += weight * pow(1 - (p < 1 ? p : 1), sent);
	seen[e] += failing ? 0 : weight;
}

/* A host that loses a share p of what it sends and receives makes
 * nearly every result of its fail: of its results, about (1 - p)^sent
 * each should pass. Far more passing ones say its loss comes from
 * elsewhere (replies dropped by a router on some of their ways back):
 * it is no candidate (llr 0). Only hosts and their access links: every
 * result of theirs is known, where a trace element's are a sample. */
static void check_passing(struct work *w)
{
	double *expect = calloc(w->elements + 1, sizeof(*expect));
	double *seen = calloc(w->elements + 1, sizeof(*seen));

	if (!expect || !seen)
		goto out;
	for (size_t k = 0; k < w->n; k++) {
		const struct loc_obs *o = &w->obs[k];

		if (!w->active[k])
			continue;
		for (size_t i = 0; i < o->end_count; i++)
			count_passing(w, o->ends[i], 1, o->sent, o->failing,
				      expect, seen);
		for (size_t i = 0; i < o->access_count; i++)
			count_passing(w, o->access[i], 1, o->sent, o->failing,
				      expect, seen);
	}
	for (size_t e = 0; e < w->elements; e++)
		if (seen[e] > 2 * expect[e] + LOC_PASSING_SLACK)
			w->st[e].llr = 0;
out:
	free(expect);
	free(seen);
}

/* Each element's exposure, expected and charged loss over the results
 * not yet explained; an element on both paths is charged the loss of
 * unknown direction once. */
static void charge_all(struct work *w);

/* Twice: over all results to learn each element's rate, then without the
 * results that lost far beyond it (beyond_rate). */
static void tally(struct work *w)
{
	whole_losses(w);
	for (size_t e = 0; e < w->elements; e++)
		w->rate[e] = -1;
	charge_all(w);
	for (size_t e = 0; e < w->elements; e++) {
		w->rate[e] = w->st[e].exposed > 0
				     ? w->st[e].lost / w->st[e].exposed
				     : -1;
		w->keep_log[e] = w->rate[e] > 0 ? log1p(-fmin(w->rate[e], 0.999))
						: 0;
	}
	charge_all(w);
}

static void charge_all(struct work *w)
{
	memset(w->st, 0, w->elements * sizeof(*w->st));
	memset(w->stamp, 0, w->elements * sizeof(*w->stamp));
	for (size_t k = 0; k < w->n; k++) {
		const struct loc_obs *o = &w->obs[k];
		double q = w->background * length_of(o), u = o->lost_unknown;
		/* A host is on both ways: charged per round trip, the
		 * datagrams lost either way. */
		double round_trips = o->lost_there + o->lost_back + u;
		/* What noise makes it lose, given that it lost anything: the
		 * round trip's for the hosts (and for loss of unknown
		 * direction, charged to either way), one way's for a path
		 * charged the loss of its way only. */
		double lambda = 2.0 * o->sent * q;
		double given_failing = lambda > 1e-9 ? lambda / -expm1(-lambda)
						     : 1;
		double given_one_way = o->lost_there + o->lost_back > 0
					       ? given_failing / 2
					       : given_failing;
		/* The two hosts, either way round, + 1 (0: none). */
		size_t pair = o->end_count == 2
				      ? (o->ends[0] < o->ends[1]
						 ? o->ends[0] * w->elements + o->ends[1]
						 : o->ends[1] * w->elements + o->ends[0]) + 1
				      : 0;

		if (!w->active[k])
			continue;
		if (round_trips > o->sent)
			round_trips = o->sent;
		for (size_t i = 0; i < o->end_count; i++) {
			struct loc_stats *s = &w->st[o->ends[i]];
			size_t other = o->end_count == 2 ? o->ends[1 - i] + 1 : 0;

			charge(w, o->ends[i], k, given_failing, o->sent,
			       2.0 * o->sent * q,
			       round_trips, o->failing);
			if (o->failing && !s->partner)
				s->partner = other;
			else if (o->failing && s->partner != other)
				s->partners = true;
		}
		for (size_t i = 0; i < o->access_count; i++) {
			struct loc_stats *s = &w->st[o->access[i]];
			bool there = i < o->access_there;
			bool twice = !there &&
				     in_list(o->access, o->access_there,
					     o->access[i]);

			charge(w, o->access[i], k, given_one_way, o->sent,
			       o->sent * q,
			       (there ? o->lost_there : o->lost_back) +
				       (twice ? 0 : u),
			       o->failing);
			/* An access link failing toward one peer only is
			 * that pair's finding, as its host is. */
			if (o->failing && !s->partner)
				s->partner = pair;
			else if (o->failing && s->partner != pair)
				s->partners = true;
		}
		for (size_t i = 0; i < o->fwd_count; i++) {
			if (in_list(o->access, o->access_count, o->fwd[i]))
				continue;
			charge(w, o->fwd[i], k, o->weight * given_one_way,
			       o->weight * o->sent,
			       o->weight * o->sent * q,
			       o->weight * (o->lost_there + u), o->failing);
		}
		for (size_t i = 0; i < o->back_count; i++) {
			if (in_list(o->access, o->access_count, o->back[i]))
				continue;
			charge(w, o->back[i], k, o->weight * given_one_way,
			       o->weight * o->sent,
			       o->weight * o->sent * q,
			       o->weight * (o->lost_back +
					    (in_list(o->fwd, o->fwd_count,
						     o->back[i]) ? 0 : u)),
			       o->failing);
		}
		for (size_t i = 0; i < o->spread_count; i++) {
			size_t e = o->spread[i];
			double share = o->spread_share[i];

			if (in_list(o->access, o->access_count, e))
				continue;
			/* That it passed says it more likely took a path
			 * without a lossy element: the share given that,
			 * (1 - rate)^sent the chance to pass through e. */
			if (!o->failing && share < 1 && w->keep_log[e] < 0) {
				double pass = exp(o->sent * w->keep_log[e]);

				share = share * pass / (share * pass + 1 - share);
			}
			charge(w, e, k, share * given_one_way,
			       share * o->sent, share * o->sent * q,
			       share * (o->lost_there + u), o->failing);
		}
	}
	for (size_t e = 0; e < w->elements; e++) {
		struct loc_stats *s = &w->st[e];

		s->llr = loc_llr(s->exposed, s->expected, s->lost);
	}
	check_passing(w);
}

static bool eligible(const struct loc_stats *s)
{
	return s->llr >= LOC_LLR_MIN && s->failing >= LOC_FAILING_MIN &&
	       s->lost >= LOC_LOSS_PER_FAILING_MIN * s->failing_expected &&
	       s->lost >= LOC_RATIO_MIN * s->expected &&
	       (!s->partner || s->partners);
}

/* a better than b: a larger LLR; on a tie (within a millionth), the
 * preferred kind, then the lower number. */
static bool better(const struct work *w, const struct loc_relations *rel,
		   size_t a, size_t b)
{
	double la = w->st[a].llr, lb = w->st[b].llr;

	if (fabs(la - lb) > 1e-6 * (la > lb ? la : lb))
		return la > lb;
	if (rel && rel->prefer && rel->prefer[a] != rel->prefer[b])
		return rel->prefer[a] < rel->prefer[b];
	return a < b;
}

static bool obs_has(const struct loc_obs *o, size_t e)
{
	for (size_t i = 0; i < o->end_count; i++)
		if (o->ends[i] == e)
			return true;
	for (size_t i = 0; i < o->access_count; i++)
		if (o->access[i] == e)
			return true;
	for (size_t i = 0; i < o->fwd_count; i++)
		if (o->fwd[i] == e)
			return true;
	for (size_t i = 0; i < o->back_count; i++)
		if (o->back[i] == e)
			return true;
	for (size_t i = 0; i < o->spread_count; i++)
		if (o->spread[i] == e)
			return true;
	return false;
}

static void count_overlap(struct work *w, const struct loc_obs *o, size_t k)
{
	const size_t *lists[5] = { o->ends, o->fwd, o->back, o->access,
				   o->spread };
	size_t counts[5] = { o->end_count, o->fwd_count, o->back_count,
			     o->access_count, o->spread_count };

	for (int l = 0; l < 5; l++)
		for (size_t i = 0; i < counts[l]; i++) {
			size_t e = lists[l][i];

			if (w->stamp[e] != k + 1) {
				w->stamp[e] = k + 1;
				w->overlap[e]++;
			}
		}
}

static int cmp_rival_llr(const void *a, const void *b, void *ctx)
{
	const struct loc_stats *st = ctx;
	double x = st[*(const size_t *)a].llr, y = st[*(const size_t *)b].llr;

	return (x < y) - (x > y);
}

/* The pick's confidence, rivals and whether its failing results took
 * one path; then its results put aside. */
static bool touched(const struct loc_obs *o, const size_t touch[2])
{
	if (!o->failing || o->lost_back + o->lost_unknown <= 0)
		return false;
	for (size_t i = 0; i < o->edge_count; i++)
		if (o->edges[i] == touch[0] || o->edges[i] == touch[1])
			return true;
	return false;
}

/* A failing result of a host behind the router that pick e stands for
 * (loc_relations edge_of, stands_for). */
static bool behind(const struct loc_obs *o, const struct loc_relations *rel,
		   size_t e)
{
	size_t router;

	if (!o->failing || !rel || !rel->edge_of || !rel->stands_for)
		return false;
	router = rel->stands_for[e];
	if (router == SIZE_MAX)
		return false;
	for (size_t i = 0; i < o->end_count; i++)
		if (rel->edge_of[o->ends[i]] == router)
			return true;
	return false;
}

/* A failing result that lost replies (or datagrams of unknown
 * direction), with router e or a router next to it among its edges, and
 * no more lost than e's rate makes a result lose (loc_relations near). */
static bool replies_near(const struct work *w, const struct loc_obs *o,
			 const struct loc_relations *rel, size_t e)
{
	double lost = o->lost_there + o->lost_back + o->lost_unknown;

	if (!o->failing || o->lost_back + o->lost_unknown <= 0 || !rel ||
	    !rel->near_first || !rel->near || w->rate[e] <= 0 ||
	    beyond_rate(lost, o->sent, w->rate[e]))
		return false;
	for (size_t i = 0; i < o->edge_count; i++) {
		if (o->edges[i] == e)
			return true;
		for (size_t j = rel->near_first[e]; j < rel->near_first[e + 1];
		     j++)
			if (rel->near[j] == o->edges[i])
				return true;
	}
	return false;
}

static int settle(struct work *w, const struct loc_relations *rel,
		  struct loc_pick *p)
{
	size_t best = p->element, path = SIZE_MAX, failing = 0;
	double share = 1;
	bool one_path = true;

	memset(w->overlap, 0, w->elements * sizeof(*w->overlap));
	memset(w->stamp, 0, w->elements * sizeof(*w->stamp));
	for (size_t k = 0; k < w->n; k++) {
		const struct loc_obs *o = &w->obs[k];

		if (!w->active[k] ||
		    (!obs_has(o, best) &&
		     !(rel && rel->touch && touched(o, rel->touch[best])) &&
		     !behind(o, rel, best) && !replies_near(w, o, rel, best)))
			continue;
		w->active[k] = false;
		if (!o->failing)
			continue;
		failing++;
		count_overlap(w, o, k);
		if (o->path == SIZE_MAX || (path != SIZE_MAX && o->path != path))
			one_path = false;
		path = o->path;
	}
	p->explained = failing;
	p->one_path = one_path && failing > 0;
	/* A rival explains at least half of the same failing results. */
	for (size_t e = 0; e < w->elements; e++) {
		double d;

		/* (an element the naming ruled out is nobody's rival) */
		if (e == best || 2 * w->overlap[e] < failing || !failing ||
		    (rel && rel->excluded && rel->excluded[e]))
			continue;
		d = w->st[e].llr - w->st[best].llr;
		if (w->st[e].llr <= 0 || d < -50)
			continue;
		share += exp(d);
		if (d >= -LOC_RIVAL_LLR) {
			size_t *r = realloc(p->rivals, (p->rival_count + 1) *
							       sizeof(*r));

			if (!r)
				return -1;
			p->rivals = r;
			p->rivals[p->rival_count++] = e;
		}
	}
	if (p->rival_count > 1)
		qsort_r(p->rivals, p->rival_count, sizeof(*p->rivals),
			cmp_rival_llr, w->st);
	while (p->ties < p->rival_count &&
	       w->st[p->rivals[p->ties]].llr >= (1 - 1e-6) * w->st[best].llr)
		p->ties++;
	p->confidence = 1 / share;
	return 0;
}

static int greedy(struct work *w, struct loc_fit *out,
		  const struct loc_relations *rel)
{
	for (size_t k = 0; k < w->n; k++)
		w->active[k] = true;
	/* Each round puts aside at least the pick's failing results; the
	 * rounds whose pick is explained away name nothing, so they are
	 * bounded apart. */
	for (size_t rounds = 0;
	     out->count < LOC_PICKS_MAX && rounds < LOC_ROUNDS_MAX; rounds++) {
		size_t best = SIZE_MAX;
		struct loc_pick *p;

		tally(w);
		for (size_t e = 0; e < w->elements; e++)
			if (eligible(&w->st[e]) &&
			    !(rel && rel->excluded && rel->excluded[e]) &&
			    (best == SIZE_MAX || better(w, rel, e, best)))
				best = e;
		if (best == SIZE_MAX)
			break;
		p = &out->picks[out->count++];
		p->element = best;
		p->stats = w->st[best];
		if (settle(w, rel, p))
			return -1;
		/* A rival that explains the same failing results far better
		 * was ruled out (its passing results, or one peer only): the
		 * pick's evidence is that rival's loss seen through a part of
		 * its flows, none of its own. Its results stay put aside (what
		 * they lost is accounted for), the pick is not named. */
		/* Likewise a pick whose loss a healthy element's own rate
		 * could make (LOC_NULL_SPREAD): what it explains is noise. */
		if (p->confidence < LOC_CONFIDENCE_MIN ||
		    loc_llr(p->stats.exposed,
			    LOC_NULL_SPREAD * p->stats.expected,
			    p->stats.lost) < LOC_LLR_MIN) {
			free(p->rivals);
			memset(p, 0, sizeof(*p));
			out->count--;
			continue;
		}
		out->explained += p->explained;
	}
	return 0;
}

/* Lost datagrams per datagram and element crossed over the results no
 * pick explains. */
static double unexplained_rate(const struct work *w)
{
	double lost = 0, crossed = 0;

	for (size_t k = 0; k < w->n; k++) {
		const struct loc_obs *o = &w->obs[k];

		if (!w->active[k])
			continue;
		lost += o->lost_there + o->lost_back + o->lost_unknown;
		crossed += 2.0 * o->sent * length_of(o);
	}
	return crossed > 0 ? lost / crossed : 0;
}

int loc_fit_run(struct loc_fit *out, const struct loc_obs *obs, size_t n,
		size_t element_count, const struct loc_relations *rel,
		double background)
{
	struct work w = { .obs = obs, .n = n, .elements = element_count };
	int rc = -1;

	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < n; k++) {
		const struct loc_obs *o = &obs[k];

		for (size_t i = 0; i < o->end_count; i++)
			if (o->ends[i] >= element_count)
				return -1;
		for (size_t i = 0; i < o->fwd_count; i++)
			if (o->fwd[i] >= element_count)
				return -1;
		for (size_t i = 0; i < o->back_count; i++)
			if (o->back[i] >= element_count)
				return -1;
		for (size_t i = 0; i < o->edge_count; i++)
			if (o->edges[i] >= element_count)
				return -1;
		for (size_t i = 0; i < o->access_count; i++)
			if (o->access[i] >= element_count)
				return -1;
		for (size_t i = 0; i < o->spread_count; i++)
			if (o->spread[i] >= element_count)
				return -1;
		if (o->access_there > o->access_count)
			return -1;
		out->failing += o->failing;
	}
	w.background = background >= 0 ? background
					: estimate_background(obs, n);
	out->background = w.background;
	w.active = malloc((n ? n : 1) * sizeof(*w.active));
	w.st = calloc(element_count + 1, sizeof(*w.st));
	w.stamp = calloc(element_count + 1, sizeof(*w.stamp));
	w.overlap = calloc(element_count + 1, sizeof(*w.overlap));
	w.failing = calloc(element_count + 1, sizeof(*w.failing));
	w.whole = calloc(element_count + 1, sizeof(*w.whole));
	w.rate = calloc(element_count + 1, sizeof(*w.rate));
	w.keep_log = calloc(element_count + 1, sizeof(*w.keep_log));
	out->picks = calloc(LOC_PICKS_MAX, sizeof(*out->picks));
	if (w.background < 0 || !w.active || !w.st || !w.stamp || !w.overlap ||
	    !w.failing || !w.whole || !w.rate || !w.keep_log || !out->picks)
		goto out;
	if (greedy(&w, out, rel))
		goto out;
	/* The quartile is low when noise is uneven; what the picks leave
	 * unexplained is noise too: when it is clearly more, fit again
	 * against it (fewer suspects, never more). */
	if (background < 0) {
		double b = unexplained_rate(&w);

		if (b > 1.5 * w.background) {
			for (size_t k = 0; k < out->count; k++)
				free(out->picks[k].rivals);
			memset(out->picks, 0, LOC_PICKS_MAX * sizeof(*out->picks));
			out->count = out->explained = 0;
			w.background = out->background = b;
			if (greedy(&w, out, rel))
				goto out;
		}
	}
	rc = 0;
	out->left = w.active;
	w.active = NULL;
out:
	free(w.active);
	free(w.st);
	free(w.stamp);
	free(w.overlap);
	free(w.failing);
	free(w.whole);
	free(w.rate);
	free(w.keep_log);
	if (rc)
		loc_fit_free(out);
	return rc;
}

void loc_fit_free(struct loc_fit *out)
{
	for (size_t k = 0; k < out->count; k++)
		free(out->picks[k].rivals);
	free(out->picks);
	free(out->left);
	memset(out, 0, sizeof(*out));
}
