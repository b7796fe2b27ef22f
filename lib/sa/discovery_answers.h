/* What responder discovery makes of the SA's answers, without a fabric:
 * a ServiceRecord GetTable answer into responders (records not an
 * ibahprobe responder's counted and skipped, a cut answer noted), one Get
 * answer per looked-up destination, the paths to them, and the record a
 * Set or Delete answer echoes. Pure over bytes and query results. */
#ifndef IBAHPROBE_DISCOVERY_ANSWERS_H
#define IBAHPROBE_DISCOVERY_ANSWERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/dest.h"
#include "base/diag.h"
#include "sa/path_resolve.h"
#include "sa/sa_client.h"
#include "wire/servicerec.h"

/* The MAD status of an SA answer that found no record (IBA 15.2.1.1
 * ERR_NO_RECORDS, class-specific code 3). */
#define SA_STATUS_NO_RECORDS 0x0300

struct discovered_responder {
	struct responder_record responder;
	bool found;		/* a record was there */
	bool path_ok;
	uint16_t dlid;		/* from the PathRecord */
	char error[DIAG_MSG_MAX];
};

struct discovery {
	size_t count;
	struct discovered_responder *items;
	size_t foreign;		/* records under our ServiceID, not ours */
	bool truncated;		/* the SA's answer arrived cut */
	size_t expected;	/* records the whole answer held */
};

/* Checks that the record in a Set or Delete answer (SA_MAD_BYTES) is ours:
 * ibahprobe's ServiceID and gid. Returns 0, or -1 with err set. */
int discovery_check_echo(const uint8_t *response, const union ibv_gid *gid,
			 char *err, size_t errlen);

/* Decodes a GetTable answer of len bytes into d (zeroed by the caller):
 * ibahprobe responders become items (found, no path yet), other records
 * are counted in d->foreign and skipped. Returns 0, or -1 with err set
 * when the answer's layout is unusable or memory ran out. */
int discovery_take_table(const uint8_t *msg, size_t len, struct discovery *d,
			 char *err, size_t errlen);

/* The GID a destination's record is looked up by: its own, or for a guid:
 * destination the GUID under this port's subnet prefix. */
void discovery_lookup_gid(const struct dest *dst,
			  const union ibv_gid *port_gid, union ibv_gid *gid);

/* One looked-up record into r (r->responder.gid the GID asked): found, or
 * r->error says why not (no record, no answer, not a responder's). */
void discovery_take_lookup(const struct sa_query *q, uint32_t timeout_ms,
			   struct discovered_responder *r);

/* Whether every lookup got no answer at all: the SA, not the records, is
 * missing. */
bool discovery_lookups_all_timed_out(const struct sa_query *q, size_t n);

/* results[i], the path to item i's GID, into each found item: its DLID,
 * or the path's error. */
void discovery_take_paths(struct discovery *d,
			  const struct path_result *results);

#endif
