/* The fit of report's localisation: which few elements of a fabric lose
 * the datagrams that probe results lost, under a binomial noise model.
 * Pure: elements are numbers, results are lists of them with counts;
 * tests/unit/test_localise_fit.c feeds it made-up vectors, localise.c
 * the report's results and traces.
 *
 * Each result crosses its forward path (lost_there) and its reverse path
 * (lost_back): loss the responder's count places on one way is never
 * charged to an element of the other. Loss of unknown direction is
 * evidence for an element of either path alike (it tells the two ways
 * not apart, so it counts for both hypotheses, never for the forward one
 * alone); the greedy pick explains the result once, whichever it is. Every element starts at a background rate b per
 * datagram (estimated as the median over sources of their loss per
 * datagram and element crossed), so a result over L elements expects
 * L * b of its datagrams lost in each direction. An element's evidence
 * is the binomial log-likelihood ratio of the loss charged to it against
 * the loss its results expect: LLR = k ln(p/p0) + (n-k) ln((1-p)/(1-p0)),
 * p = k/n. Greedy, as 007's voting and NetBouncer's inference: the
 * element of the largest LLR is picked and its results put aside (they
 * are explained), until no element's LLR passes the stop. A pick that a
 * ruled-out rival explains far better (LOC_CONFIDENCE_MIN) is not named. */
#ifndef IBAHPROBE_LOCALISE_FIT_H
#define IBAHPROBE_LOCALISE_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The stop: an element is picked only with an LLR of at least this (a
 * few thousand elements tested: e^-25 keeps noise out), a loss rate at
 * least LOC_RATIO_MIN times what its results expect, and at least
 * LOC_FAILING_MIN failing results through it (one failing result is its
 * own finding, its whole path the suspect). */
#define LOC_LLR_MIN 25.0
/* The stop's null: a pick is named only when what it lost passes the
 * stop against half as much again as its results expect. The background
 * is an estimate (the lower quartile of the sources' rates), and paths
 * and elements differ in what they lose healthy (an optic a little
 * dirty, a buffer a little busier); a test against the estimate alone
 * grows with exposure for any rate above it, so an element that carries
 * many results and loses a few times what they expect would pass any
 * LLR stop. The pick is still made (its results put aside), as one a
 * rival explains better is (LOC_CONFIDENCE_MIN). */
#define LOC_NULL_SPREAD 1.5
#define LOC_RATIO_MIN 4.0
#define LOC_FAILING_MIN 2
/* Failing flows are all traced, passing ones sampled: an element that
 * no sampled passing flow crosses looks lossy from its failing flows
 * alone, and each of those lost something by selection. What tells a
 * fault from noise there is how much they lost: noise makes a failing
 * result lose what the background loses given that it lost anything,
 * lambda / (1 - e^-lambda) datagrams (lambda: the datagrams it expects
 * lost; about one at low rates). An element is picked only when its
 * failing results lost at least this many times that. */
#define LOC_LOSS_PER_FAILING_MIN 1.5
/* An element is no candidate when more of its results pass than twice
 * what its loss rate lets pass, plus this many (localise_fit.c
 * check_passing). */
#define LOC_PASSING_SLACK 3.0
/* A result that lost more than its element's rate makes it lose plus
 * this many standard deviations (and one) is not charged to it
 * (localise_fit.c beyond_rate). */
#define LOC_BEYOND_SD 3.3
/* Rivals within this LLR of a pick (posterior share above ~5%) are named
 * as its alternatives. */
#define LOC_RIVAL_LLR 3.0
/* A pick is named only with a posterior share among its rivals of at
 * least this (e^-LOC_RIVAL_LLR): below it, an element the stop rules out
 * explains the same failing results far better, and the pick is that
 * element's loss seen through some of its flows (a host whose passing
 * results say its loss comes from elsewhere, and its access link). */
#define LOC_CONFIDENCE_MIN 0.0498
/* Rounds of the greedy fit at most, named picks or not. */
#define LOC_ROUNDS_MAX (4 * LOC_PICKS_MAX)
/* With fewer sources than this, the background is at most
 * LOC_BACKGROUND_PRIOR per datagram and element (0.1%: a healthy fabric
 * loses far less). */
#define LOC_FEW_SOURCES 8
#define LOC_BACKGROUND_PRIOR 1e-3
/* At most this many picks: past a handful, the fabric is broken all over
 * and a list of suspects helps less than the matrix. */
#define LOC_PICKS_MAX 16

/* One result: a million of them at 1M results, so the counts of its
 * lists are 32 bits and come together (no padding between). */
struct loc_obs {
	/* Elements charged both ways, weight 1: the two hosts (always
	 * known). */
	const size_t *ends;
	/* Elements on the forward path and those known on the reverse
	 * one, from traces; weighted by weight (the inverse of the share of
	 * such results that were traced: a sample stands for the rest). */
	const size_t *fwd;
	const size_t *back;
	/* The hosts' access links (known from any trace of theirs, so for
	 * untraced results too): the first access_there on the way there
	 * (the source's link out, the destination's link in), the others on
	 * the way back. Every result of a host crosses them: charged weight
	 * 1, never in place of a sample; an element also in fwd or back is
	 * charged here only. */
	const size_t *access;
	/* The edge routers its replies likely cross (the source's and the
	 * destination's), for loc_relations.touch only: not charged (the
	 * address a router answers traces from need not be the one the
	 * replies cross). */
	const size_t *edges;
	/* An untraced result of a pair whose traced flows show k forward
	 * paths took one of them, which is not known: it crosses each
	 * element of them with the share of those paths the element is on
	 * (spread_share, one path's elements 1/k each). Charged as the
	 * forward path is, at weight share (never in place of a sample:
	 * the traced results' weight stands for the untraced results that
	 * have no spread); a pick of such an element explains the result.
	 * An element also in access is charged there only. */
	const size_t *spread;
	const double *spread_share;
	/* How many elements each list has (spread_share: spread_count). */
	uint32_t end_count, fwd_count, back_count, access_count, access_there;
	uint32_t edge_count, spread_count;
	unsigned sent;
	unsigned length;	/* elements crossed one way; 0: unknown */
	bool failing;
	double weight;
	/* Datagrams lost each way, and lost where it is not known. */
	double lost_there, lost_back, lost_unknown;
	size_t source;		/* who sent it (the background's median) */
	size_t path;		/* same number: same forward path;
				 * SIZE_MAX: not known */
};

struct loc_stats {
	double exposed, expected, lost;	/* datagrams, weighted */
	size_t failing, passing;	/* results through it */
	/* What its failing results would lose to the background given
	 * that they failed (weighted; LOC_LOSS_PER_FAILING_MIN). */
	double failing_expected;
	double llr;
	/* As an end (ends[0] or ends[1]): the other end of its first
	 * failing result + 1, and whether another failing one has another
	 * (a host failing toward one peer only is that pair's finding); as
	 * an access link, its first failing result's pair of hosts. */
	size_t partner;
	bool partners;
};

struct loc_pick {
	size_t element;
	struct loc_stats stats;
	double confidence;	/* its posterior share among its rivals */
	size_t *rivals;		/* within LOC_RIVAL_LLR, best first */
	size_t rival_count;
	/* The first ties of them have its LLR (within a millionth): the
	 * same evidence, the pick among them only the tie-break's. */
	size_t ties;
	/* Every failing result it explains took one forward path: the
	 * elements of that path cannot be told apart. */
	bool one_path;
	size_t explained;	/* failing results put aside by it */
};

struct loc_fit {
	struct loc_pick *picks;	/* in the order picked */
	size_t count;
	double background;	/* b, per datagram and element */
	size_t failing, explained;	/* failing results; of them explained */
	/* Per result: no pick put it aside (named or not); NULL when the
	 * fit failed. */
	bool *left;
};

/* How the elements relate, all optional (NULL). prefer[e] breaks ties of
 * equal LLR, the lower first (a host before the link to it: they carry
 * the same results). touch[e] names up to two routers a link (or the
 * unseen hop after a router) touches, SIZE_MAX none: a pick explains
 * too the results that lost replies and have one of them among their
 * edges (a rack's replies cross its ToR's uplinks, which one is not
 * known). */
struct loc_relations {
	const unsigned char *prefer;
	const size_t (*touch)[2];
	/* edge_of[e]: a host's edge router (the router at the other end of
	 * its access link), SIZE_MAX none. stands_for[e]: the router whose
	 * forwarding a pick of e says fails (a router, the unseen hop after
	 * one), SIZE_MAX none. A pick that stands for router R explains the
	 * failing results of the hosts whose edge R is: a rack behind a
	 * dropping ToR fails through it, its hosts are not named. */
	const size_t *edge_of;
	const size_t *stands_for;
	/* excluded[e]: never picked (the naming found its evidence to be
	 * something else's, as a hop silent by its router's policy); its
	 * results stay for the others to explain, and it is no rival of
	 * the pick that does (no alternative, nor what lowers its
	 * confidence). */
	const bool *excluded;
	/* near[near_first[e]] to near[near_first[e + 1] - 1]: the routers
	 * seen next to router e (near_first NULL: none known). A host's
	 * replies come in over its edge router from one of the routers
	 * next to it, and which one no trace shows: a pick of router e
	 * explains too the failing results that lost replies (or datagrams
	 * of unknown direction) with e or one of those among their edges,
	 * when they lost no more than e's loss rate makes a result lose
	 * (a dead host or link on their way lost more). */
	const size_t *near_first, *near;
};

/* The picks over element_count elements. background < 0: estimate it.
 * 0, or -1 when memory ran out or an element is out of range (out
 * empty). */
int loc_fit_run(struct loc_fit *out, const struct loc_obs *obs, size_t n,
		size_t element_count, const struct loc_relations *rel,
		double background);
void loc_fit_free(struct loc_fit *out);
/* The LLR of lost of exposed datagrams against expected of them; 0 when
 * the rate is not above what is expected. */
double loc_llr(double exposed, double expected, double lost);

#endif
