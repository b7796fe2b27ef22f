/* Network tomography over traced flows: which part of the fabric the
 * failing flows share and the passing ones avoid. A flow is one probe
 * result (one source, destination and parameter set) with the path its
 * trace took, as elements (routers and links, numbered by the caller).
 * An element on the paths of failing flows and on none or few of the
 * passing ones is a candidate; elements that every traced flow takes or
 * avoids together (a chain R1 -> R3 -> R2 that only the failing flows
 * take) are one candidate, a segment, not several tied ones. Candidates
 * are chosen greedily by the failing flows they explain that no stronger
 * one explains (Boolean tomography as set cover). Pure: no names, no I/O;
 * tests/unit/test_tomography.c feeds it made-up paths. */
#ifndef IBAHPROBE_TOMOGRAPHY_H
#define IBAHPROBE_TOMOGRAPHY_H

#include <stdbool.h>
#include <stddef.h>

/* A candidate names at least this many failing flows that no stronger one
 * explains: one failing flow is that flow's finding, its whole path the
 * suspect. */
#define TOMO_MIN_EXPLAINED 2
/* ... and passing flows are at most this share of the traced flows
 * through it: a lossy element fails most flows it carries; an element
 * that carries as many working flows is on the way, not the fault. */
#define TOMO_MAX_PASSING_PCT 20

struct tomo_flow {
	bool failing;		/* not reachable without loss */
	bool traced;		/* false: no path known (elements unused) */
	const size_t *elements;	/* indices < element_count, path order */
	size_t element_count;
};

struct tomo_suspect {
	size_t *elements;	/* a segment's elements, in path order */
	size_t element_count;
	size_t failing, passing;	/* traced flows through it */
	size_t explained;	/* failing flows no stronger one explains */
	size_t rank;		/* 1 the strongest; ties share a rank */
};

struct tomo_result {
	struct tomo_suspect *items;	/* the strongest first */
	size_t count;
	size_t failing, passing;	/* all flows */
	size_t failing_untraced;	/* failing flows without a path */
	size_t explained;	/* failing flows some suspect explains */
};

/* The suspects of flows over element_count elements. tie_name(i, ctx)
 * orders candidates that explain as many flows with as many passing (by
 * their first element's name); NULL: by index. 0, or -1 when memory ran
 * out (out empty), also when a flow names an element past element_count. */
int tomo_find(struct tomo_result *out, const struct tomo_flow *flows,
	      size_t flow_count, size_t element_count,
	      const char *(*tie_name)(size_t element, const void *ctx),
	      const void *ctx);
void tomo_free(struct tomo_result *out);

#endif
