/* report --groups sa: the host groups of a report taken from the subnet
 * administrator instead of a file, each host in the group of its leaf
 * switch. The results name each source's LID and port (source.lid,
 * source.port_num); every distinct one is asked its LinkRecord, every
 * distinct peer its NodeRecord, in two windowed batches of SubnAdmGets
 * (leaf_switch.h decides from the answers). The groups come out as the
 * struct host_groups a groups file gives, so the folding and every form
 * downstream are the same. */
#ifndef IBAHPROBE_REPORT_GROUPS_SA_H
#define IBAHPROBE_REPORT_GROUPS_SA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fleet/host_groups.h"
#include "sa/leaf_switch.h"
#include "report/report_matrix.h"
#include "sa/sa_client.h"
#include "wire/sa_records.h"

/* The word that makes --groups ask the SA; a file of that name is given
 * as ./sa. */
#define REPORT_GROUPS_SA "sa"

/* One distinct source port of the results: what is asked, what came. */
struct sa_groups_port {
	uint16_t lid;
	uint8_t port;
	bool has_link;		/* the SA answered its LinkRecord */
	enum leaf_status link_status;	/* LEAF_NO_LINK / _SA_FAILED else */
	uint8_t link[8];	/* the LinkRecord (6 bytes, padded) */
	struct leaf_switch leaf;
};

/* One distinct source of the results: a host, its address (as the matrix
 * keys it, "" when it has none) and its port. */
struct sa_groups_source {
	const char *host;	/* the report's string */
	char addr[64];
	size_t port;		/* index into ports */
};

struct sa_groups {
	struct sa_groups_port *ports;
	size_t port_count;
	struct sa_groups_source *sources;
	size_t source_count;
	/* After sa_groups_build: hosts in no group, by why (the first reason
	 * in enum order among its ports), and hosts whose ports sit on
	 * different switches (each port then grouped by its address). */
	size_t ungrouped[LEAF_STATUS_COUNT];
	size_t split_hosts;
	/* After sa_groups_fetch: the queries it sent. */
	size_t link_queries, node_queries;
};

/* The distinct sources and ports of r's records. -1 when out of memory. */
int sa_groups_collect(struct sa_groups *s, const struct report *r);
/* Asks the SA, window queries in flight, each as sa_client_run retries
 * it, and decides every port's leaf. -1 with err set when the port fails,
 * or when the SA answered none of the LinkRecord queries (it is not
 * there to ask: exit 3, as path and trace treat theirs). */
int sa_groups_fetch(struct sa_groups *s, struct sa_client *sa,
		    unsigned window, uint32_t timeout_ms, unsigned retries,
		    char *err, size_t errlen);
/* The groups: a host whose ports found one switch is in its group; a
 * host whose ports found several is split, each port (by its address)
 * in its own switch's group; a host whose ports found none is in no
 * group, counted in ungrouped. Groups ordered by name. -1 with err set
 * when memory ran out. */
int sa_groups_build(struct sa_groups *s, struct host_groups *hg, char *err,
		    size_t errlen);
void sa_groups_free(struct sa_groups *s);

#endif
