/* Traces as report input (report --traces): `ibahprobe trace -j`
 * documents read into paths of elements (routers and the links between
 * them on RoCE; switches and their links on InfiniBand), joined with the
 * report's probe results of the same source host, destination, traffic
 * class and flow label, and handed to the tomography core
 * (tomography.h), which names the elements the failing results share. */
#ifndef IBAHPROBE_REPORT_TRACES_H
#define IBAHPROBE_REPORT_TRACES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/report_matrix.h"
#include "base/strmap.h"
#include "report/tomography.h"

/* What --traces reads at most: a sweep of ROCE_TRACE_MAX_FLOWS flow
 * labels to a thousand destinations is some hundred megabytes; one file
 * past this is no trace output. */
#define REPORT_TRACE_BYTES_MAX ((size_t)256 << 20)
/* And of one file's parts, so that a hostile file costs no more than a
 * trace can (all refused with the file, the trace and the bound named):
 * the bytes of one trace (trace -j writes some hundred per hop); its
 * hops (a hop limit is 8 bits; an InfiniBand route has at most 64); one
 * string (a host name, an address, a GUID); the traces of one file (a
 * sweep of ROCE_TRACE_MAX_FLOWS labels to a thousand destinations). */
#define REPORT_TRACE_VALUE_BYTES_MAX ((size_t)4 << 20)
#define REPORT_TRACE_HOPS_MAX 1024
#define REPORT_TRACE_STRING_MAX 1024
#define REPORT_TRACE_FLOWS_MAX ((size_t)1 << 20)

enum report_path_kind {
	REPORT_PATH_ROUTER,	/* a RoCE router, by the address it answered from */
	REPORT_PATH_SWITCH,	/* an InfiniBand switch, by its node GUID */
	REPORT_PATH_LINK,	/* two consecutive hops, from -> to */
};

struct report_path_element {
	enum report_path_kind kind;
	char *name;		/* "198.18.13.3", "A -> B", "0x...:3 -> 0x...:1" */
	char *from, *to;	/* a link's ends (hosts, routers, ports) */
	/* The other names traces show it under, where routers answer from
	 * the address of the interface a datagram came in by
	 * (trace_aliases.h): a router's other addresses, a link's texts
	 * between them. None otherwise. */
	char **aliases;
	size_t alias_count;
};

/* One traced flow: one destination with one flow label and traffic
 * class (RoCE), or one destination (InfiniBand). */
struct report_trace_flow {
	char *host;		/* who traced */
	char *source;		/* its source address (RoCE) or SGID; NULL */
	char *dest, *dest_address;	/* as given; normalised, or NULL */
	long flow_label, traffic_class;	/* -1: InfiniBand */
	/* The UDP source port the datagrams carried (RoCE): the flow
	 * label's, or trace --udp-sport's (flow_label then -1). -1: none. */
	long udp_sport;
	size_t *elements;	/* its path, in order; none: nothing answered */
	size_t element_count;
	/* Per element (RoCE): its hop's queries answered << 4 | asked (a
	 * link's: the hop it leads to); 0 not known. */
	unsigned char *answered;
	/* Its first traffic_class_changes entry (RoCE): the last hop that
	 * saw the traffic class sent and the first that saw another, as
	 * addresses; NULL: no change, or no such hop. */
	char *remark_after, *remark_before;
	/* The hops between those two that did not answer (0: none, or
	 * not known; at most 255). */
	unsigned char remark_gap;
	/* The hop its first element answered at (RoCE; 1: the first, at
	 * most 255): how many hops before it did not answer. 0: not
	 * known (InfiniBand, or nothing answered). */
	unsigned char first_hop;
};

/* Where a probe result's trace was found (report_traces_join). */
enum report_trace_placement {
	REPORT_TRACE_PLACED,	/* its trace, which has a path */
	/* None of that source, destination, traffic class and flow label
	 * (or one where nothing answered). */
	REPORT_TRACE_NONE,
	/* The provider does not put the flow label on the wire (rxe) and
	 * the traces to that destination take more than one path, so which
	 * one the probes took is unknown (also: traces of one flow label
	 * taken twice that differ). */
	REPORT_TRACE_ECMP_UNKNOWN,
};

/* The join of a report's probe results with the traces: made once, for
 * every consumer (path suspects, localisation, identifiability, hop
 * changes), by interned ids of hosts and destinations. */
struct report_trace_join {
	const struct report *r;	/* whose records; NULL: none joined */
	size_t record_count;	/* r's when joined */
	/* Per record: its trace when placed, else NULL; and how it was
	 * found (enum report_trace_placement). */
	const struct report_trace_flow **trace;
	unsigned char *placement;
	/* Per flow of the traces: hop_changes_trace_hops(). */
	int *trace_hops;
};

struct report_traces {
	struct report_trace_flow *flows;
	size_t count, capacity;
	struct report_path_element *elements;
	size_t element_count, element_capacity;
	/* kind and name -> index + 1: report_traces_element_find() */
	struct strmap element_index;
	/* Routers seen under several addresses and folded into one
	 * element each (trace_aliases_fold), and those addresses. */
	size_t folded_routers, folded_addresses;
	/* With a report's results (report_traces_join); freed with t. */
	struct report_trace_join join;
};

/* "router", "switch" or "link": what report calls an element's kind. */
const char *report_path_kind_name(enum report_path_kind kind);

/* The index of the element of that kind and name ("198.18.1.1",
 * "A -> B"), SIZE_MAX when there is none. */
size_t report_traces_element_find(const struct report_traces *t,
				   enum report_path_kind kind, const char *name);

/* The element of that kind and name (a link's: "from -> to"), added
 * when new: its index, or SIZE_MAX when memory ran out. */
size_t report_traces_element_add(struct report_traces *t,
				  enum report_path_kind kind, const char *from,
				  const char *to);
/* Element e named name from now on, found under it as under its name
 * so far (trace_aliases_fold: a link named as its traces show it).
 * 0; 1 when another element has that name, -1 when memory ran out
 * (then e as it was). */
int report_traces_element_rename(struct report_traces *t, size_t e,
				 const char *name);
/* Adds every trace document of f (named label in messages): trace -j's
 * array of flows, one flow object, or several such values one after the
 * other. 0, or -1 with "LABEL: what is wrong" in err. */
int report_traces_read(struct report_traces *t, const char *label, FILE *f,
		       char *err, size_t errlen);
int report_traces_read_buffer(struct report_traces *t, const char *label,
			      const char *buf, size_t len, char *err,
			      size_t errlen);
void report_traces_free(struct report_traces *t);
/* Frees t's elements and their index only (trace_aliases_fold, which
 * replaces them). */
void report_traces_elements_free(struct report_traces *t);

/* The tomography of a report's probe results over their traces. A flow
 * there is one probe result (one set) of a source that is no destination
 * of its own. */
struct report_path_suspects {
	const struct report_traces *traces;
	struct tomo_result tomo;
	size_t flows;
	/* Failing results without a trace: none of that source, destination,
	 * traffic class and flow label; or the provider does not put the
	 * flow label on the wire (rxe) and the traces to that destination
	 * take more than one path, so which one the probes took is unknown
	 * (also: traces of one flow label taken twice that differ). */
	size_t failing_no_trace, failing_ecmp_unknown;
};

/* 0, or -1 when memory ran out. */
int report_path_suspects_find(struct report_path_suspects *ps,
			      const struct report *r,
			      const struct report_traces *t);
void report_path_suspects_free(struct report_path_suspects *ps);
/* Joins t's flows with r's records, once, for the consumers below
 * (report's entry, after reading both): t->join. 0, or -1 when memory
 * ran out. */
int report_traces_join(struct report_traces *t, const struct report *r);
/* t's join with r: t->join when made for r, else one made now in *local
 * (report_trace_join_free it in either case). NULL when memory ran out. */
const struct report_trace_join *
report_traces_joined(const struct report_traces *t, const struct report *r,
		     struct report_trace_join *local);
void report_trace_join_free(struct report_trace_join *join);
/* "router", "switch", "link", or "segment" for several elements. */
const char *report_path_suspect_kind(const struct report_path_suspects *ps,
				     const struct tomo_suspect *s);
/* The suspect's name: its element's, or a segment's ends ("A -> B");
 * *via gets the nodes between the ends ("R3", "R3, R5"), "" when none.
 * Malloc'd, unescaped; NULL when memory ran out (*via too). */
char *report_path_suspect_name(const struct report_path_suspects *ps,
			       const struct tomo_suspect *s, char **via);

#endif
