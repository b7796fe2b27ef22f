/* Localisation (report --traces): the few elements of the fabric (hosts,
 * links each way, routers, IB switches and their links) that explain the
 * probe results' loss, located by their traces, and the routers that
 * rewrite the traffic class. One model over all elements
 * (localise_fit.h); what traces cannot see (a dead link, a router that
 * neither forwards nor answers) inferred from where failing traces stop;
 * remarking from the hop pair every remarked trace shares. Every suspect
 * carries its evidence and a confidence; none when nothing stands out. */
#ifndef IBAHPROBE_LOCALISE_H
#define IBAHPROBE_LOCALISE_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report_matrix.h"
#include "report/report_traces.h"

enum localise_cause {
	LOCALISE_LOSS,		/* its results lose datagrams */
	LOCALISE_UNSEEN,	/* failing traces stop before it */
	LOCALISE_REMARK,	/* it rewrites the traffic class */
};

struct localise_suspect {
	enum localise_cause cause;
	const char *kind;	/* "host", "link", "router", "switch", "hop" */
	char *name;		/* a host's name, "A -> B", an address */
	char *address;		/* a host's or router's address; NULL */
	char *reason;		/* one sentence: why */
	/* Elements the data does not tell apart from it, by name. */
	char **alternatives;
	size_t alternative_count;
	/* Its other names in the traces: a router's other addresses, a
	 * link's texts between them (trace_aliases.h). */
	char **aliases;
	size_t alias_count;
	/* The hosts (addresses) it stands for: those behind an edge router
	 * that answers no trace (localise_edge.c). */
	char **members;
	size_t member_count;
	size_t failing, passing;	/* results (traced flows for a remark) */
	size_t explained;	/* failing results it explains */
	double loss_rate;	/* what it would need to lose; 0: remark */
	double expected_rate;	/* what its results lose to the background */
	double llr;		/* log-likelihood ratio of the evidence */
	double confidence;	/* 0..1 */
	/* Every failing result it explains took one path: N of them. */
	bool cannot_localise;
};

struct localise {
	struct localise_suspect *items;	/* the strongest first */
	size_t count;
	double background;	/* per datagram and element */
	size_t results, failing, explained;
	size_t traced;		/* results with a trace */
	size_t remarked;	/* traces whose traffic class changed */
	/* Routers the traces show under several addresses, and those
	 * addresses (report_traces folded_routers) */
	size_t folded_routers, folded_addresses;
};

/* The suspects of r's results over the traces t. 0, or -1 when memory
 * ran out (l empty). */
int localise_run(struct localise *l, const struct report *r,
		 const struct report_traces *t);
void localise_free(struct localise *l);
/* "loss", "unseen", "remark": the JSON token. */
const char *localise_cause_name(enum localise_cause cause);

#endif
