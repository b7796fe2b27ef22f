/* Who the failing pairs of a fabric report point at (report's
 * "suspects"): a destination that fails from most of its sources, a
 * source that fails to most of its destinations, a host that does both,
 * ranked by how many failing pairs each explains that no stronger
 * suspect explains (greedy set cover, as network tomography and
 * R-Pingmesh localise). Pure logic over the matrix's public API:
 * report_matrix.h builds the cells, this only reads them.
 *
 * Kinds are candidates that each explain a set of pairs; with --groups a
 * group whose members all fail is one candidate (a rack behind a dead
 * switch). The link or router common to the failing results, from
 * `trace` (report --traces), is chosen apart, per result rather than per
 * pair: report_traces.h. */
#ifndef IBAHPROBE_REPORT_SUSPECTS_H
#define IBAHPROBE_REPORT_SUSPECTS_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report_groups.h"
#include "report/report_matrix.h"

/* A node is a suspect on an axis only with at least this many probed
 * pairs there: with one or two, a failure is as much the other end's,
 * and "most of them" is one pair. */
#define REPORT_SUSPECT_MIN_PROBED 3
/* ... and only when at least half of its pairs that no stronger suspect
 * explains fail: a dead end fails nearly all of them, a working one most
 * of them not. Half leaves room for partial loss that comes and goes and
 * for pairs whose other end is down too. */
#define REPORT_SUSPECT_MIN_SHARE_PCT 50
/* ... and only when it explains at least this many failing pairs that
 * no stronger suspect explains: one failing pair is that pair's finding,
 * not either end's. */
#define REPORT_SUSPECT_MIN_EXPLAINED 2

/* In the order of the tie-break: a host (both axes) is named before a
 * destination or source that explains as many pairs. */
enum report_suspect_kind {
	REPORT_SUSPECT_GROUP,		/* every member fails (--groups) */
	REPORT_SUSPECT_HOST,		/* fails as a destination and a source */
	REPORT_SUSPECT_DESTINATION,	/* a column: fails from most sources */
	REPORT_SUSPECT_SOURCE,		/* a row: fails to most destinations */
	REPORT_SUSPECT_KIND_COUNT,
};

/* A suspect's evidence on one axis (its column or its row; a group's: its
 * members' columns or rows together, so pairs rather than sources or
 * destinations); a pair of a host with itself is left out. */
struct report_suspect_axis {
	size_t probed;		/* pairs probed */
	size_t failing;		/* of them not reachable without loss */
	size_t status[REPORT_STATUS_COUNT];	/* failing pairs by status */
	size_t elsewhere;	/* failing pairs a stronger suspect explains */
};

/* Failing pairs of a suspect that a stronger suspect explains. */
struct report_suspect_other {
	size_t suspect;		/* index into report_suspects.items */
	size_t pairs;
};

struct report_suspect {
	enum report_suspect_kind kind;
	const struct report_node *node;	/* NULL: a group */
	const char *name;	/* the node's source or destination name, or
				 * the group's */
	/* A group's members (its nodes that failed; all of them), each
	 * with its own kind: a host, destination or source. */
	const struct report_node **members;
	enum report_suspect_kind *member_kinds;
	size_t member_count;
	size_t rank;		/* 1 the strongest; ties share a rank */
	size_t explained;	/* failing pairs no stronger suspect explains */
	bool as_destination, as_source;	/* which axes are the evidence */
	struct report_suspect_axis destination, source;
	struct report_suspect_other *others;
	size_t other_count;
};

struct report_suspects {
	struct report_suspect *items;	/* the strongest first */
	size_t count;
	size_t failing;		/* failing pairs of the report */
	size_t explained;	/* of them explained by some suspect */
};

/* The suspects of r (built); with g (report_groups_build over r, NULL:
 * none) also groups of at least two nodes whose members all fail, when
 * there are at least two groups (one group is the whole fabric, with
 * nothing outside to fail to). 0, or -1 when memory ran out (s empty). */
int report_suspects_find(struct report_suspects *s, const struct report *r,
			 const struct report_grouping *g);
void report_suspects_free(struct report_suspects *s);
/* "group", "host", "destination", "source": the JSON token and the text
 * word. */
const char *report_suspect_kind_name(enum report_suspect_kind kind);

#endif
