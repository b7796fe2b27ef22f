/* Destinations to path records through the SA: guid: and node: specs are
 * looked up with NodeRecord queries first, then one PathRecord Get per
 * destination, all through one windowed SA client. */
#ifndef IBAHPROBE_PATH_RESOLVE_H
#define IBAHPROBE_PATH_RESOLVE_H

#include "ah_attr.h"
#include "dest.h"
#include "diag.h"
#include "pathrec.h"
#include "sa_client.h"

#define PATH_DEFAULT_WINDOW 16
#define PATH_MAX_WINDOW 256
#define PATH_DEFAULT_RETRIES 2

enum path_status {
	PATH_OK,
	PATH_ERROR,	/* an SA answer said no, or the spec cannot be asked */
	PATH_TIMEOUT,	/* no SA answer */
};

struct path_result {
	enum path_status status;
	char error[DIAG_MSG_MAX];
	struct path_record record;
};

struct path_session {
	struct sa_client sa;
};

/* Returns SA_CLIENT_OK, or the reason with err set. */
enum sa_client_error path_session_open(struct path_session *s,
				       const char *ca, uint8_t port,
				       char *err, size_t errlen);
void path_session_close(struct path_session *s);

/* Fills one result per destination, in input order. Returns 0; -1 with
 * err set when the port failed or the SA answered none of them. */
int path_resolve_all(struct path_session *s, struct dest_list *dests,
		     const struct path_constraints *want, unsigned window,
		     uint32_t timeout_ms, unsigned retries,
		     struct path_result *results, char *err, size_t errlen);

/* The fields of a path record an AH is built from. */
void path_record_to_ah_path(const struct path_record *p, struct ah_path *a);

#endif
