/* IB-native responder discovery through SA ServiceRecords: serve
 * registers its UD QP (SubnAdmSet) under ibahprobe's ServiceID, renews the
 * finite lease and deletes the record on exit (SubnAdmDelete); probe asks
 * for every record (SubnAdmGetTable) and a path to each (PathRecord). */
#ifndef IBAHPROBE_RESPONDER_DISCOVERY_H
#define IBAHPROBE_RESPONDER_DISCOVERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "sa/discovery_answers.h"
#include "sa/path_resolve.h"
#include "wire/servicerec.h"

#define DISCOVERY_RETRIES 2

/* One registered responder, kept alive until it is deleted. */
struct responder_registration {
	struct path_session session;
	struct responder_record responder;
	bool open;
	bool registered;
	uint32_t timeout_ms;
	uint64_t renew_at_ns;	/* monotonic */
	unsigned renew_failures;	/* in a row, so far */
	unsigned recovered_after;	/* failures before the last renewal */
};

/* Opens the SA client of the port; the record starts out with the port's
 * GID and LID, the caller adds QPN, Q_Key and the rest. */
enum sa_client_error registration_open(struct responder_registration *g,
				       const char *ca, uint8_t port,
				       uint32_t timeout_ms, char *err,
				       size_t errlen);
/* SubnAdmSet of g->responder; checks that the SA's answer holds the
 * record. -1 with err set on failure. */
int registration_set(struct responder_registration *g, char *err,
		     size_t errlen);
/* Renews the lease when two thirds of it are over (one attempt, no
 * retries: the caller is a responder that must not stall). After a
 * failure it tries again every second, with the SM LID read again from
 * the port (an SM failover moves the SA), for as long as it takes: a
 * restarted SM gets the record back. Returns 0 when nothing was due, 1
 * when renewed (recovered_after: the failures before), -1 with err set
 * when it failed. */
int registration_renew_if_due(struct responder_registration *g,
			      uint64_t now_ns, char *err, size_t errlen);
/* SubnAdmDelete of the record. 0 deleted; 1 the SA had no such record
 * (its lease ran out); -1 with err set. */
int registration_delete(struct responder_registration *g, char *err,
			size_t errlen);
void registration_close(struct responder_registration *g);

/* Every registered responder, each with a path from this port. Returns 0,
 * or -1 with err set when the SA did not answer or the answer is
 * unusable. */
int responder_discover(struct path_session *s, uint32_t timeout_ms,
		       unsigned retries, struct discovery *d, char *err,
		       size_t errlen);
/* The records of the given destinations only (gid:, an IPv6 GID, or
 * guid: with this port's subnet prefix): one SubnAdmGet on ServiceID and
 * GID each, so each answer is one record, which needs no RMPP. Item i of
 * d is destination i; one without a record is not found. */
int responder_lookup(struct path_session *s, const struct dest_list *dests,
		     uint32_t timeout_ms, unsigned retries,
		     struct discovery *d, char *err, size_t errlen);
/* responder_discover(), or responder_lookup() when dests holds any,
 * through a session of its own on ca/port (NULL, 0: the first active
 * port); returns 0, or an exit status with err set. */
int discovery_fetch(const char *ca, uint8_t port, uint32_t timeout_ms,
		    const struct dest_list *dests, struct discovery *d,
		    char *err, size_t errlen);
/* The discovered responders with a path as gid: destinations, in order
 * (index i of dests is item i of d; responders without a path keep their
 * place and fail when probed). */
int discovery_to_dests(const struct discovery *d, struct dest_list *dests,
		       char *err, size_t errlen);
/* The warning for a truncated answer, in words. */
void discovery_truncation_message(const struct discovery *d, char *buf,
				  size_t len);
/* The list as text rows or a JSON array (probe --discover --list). */
void discovery_print(const struct discovery *d);
void discovery_free(struct discovery *d);

#endif
