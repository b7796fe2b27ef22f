/* Destination specs to PathRecords via NodeRecord and PathRecord Gets. */
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gid.h"
#include "path_resolve.h"

enum sa_client_error path_session_open(struct path_session *s,
				       const char *ca, uint8_t port,
				       char *err, size_t errlen)
{
	return sa_client_open(&s->sa, ca, port, err, errlen);
}

void path_session_close(struct path_session *s)
{
	sa_client_close(&s->sa);
}

/* Phase 1: guid: and node: specs become LIDs. */
static int resolve_nodes(struct path_session *s, struct dest_list *dests,
			 unsigned window, uint32_t timeout_ms,
			 unsigned retries, struct path_result *results,
			 uint16_t *lids, char *err, size_t errlen)
{
	struct sa_query *q;
	size_t *index, n = 0;
	int rc;

	q = calloc(dests->count, sizeof(*q));
	index = calloc(dests->count, sizeof(*index));
	if (!q || !index) {
		free(q);
		free(index);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < dests->count; i++) {
		const struct dest *d = &dests->items[i];

		if (d->kind != DEST_GUID && d->kind != DEST_NODE)
			continue;
		sa_encode_node_query(q[n].request, 0, 0,
				     d->kind == DEST_GUID ? d->guid : 0,
				     d->kind == DEST_NODE ? d->name : NULL);
		/* One record is expected: Get, not GetTable. */
		q[n].request[3] = SA_METHOD_GET;
		index[n++] = i;
	}
	rc = n ? sa_client_run(&s->sa, q, n, window, timeout_ms, retries, err,
			       errlen)
	       : 0;
	for (size_t k = 0; rc == 0 && k < n; k++) {
		struct path_result *r = &results[index[k]];
		const struct dest *d = &dests->items[index[k]];
		struct node_record node;

		if (q[k].result != SA_RESULT_OK) {
			r->status = q[k].result == SA_RESULT_TIMEOUT
					    ? PATH_TIMEOUT : PATH_ERROR;
			sa_query_describe(&q[k], d->kind == DEST_GUID
					 ? "port GUID lookup"
					 : "node name lookup",
					 timeout_ms, r->error,
					 sizeof(r->error));
			if (q[k].status != 0x0300)
				continue;
			if (d->kind == DEST_GUID)
				snprintf(r->error, sizeof(r->error),
					 "no port with GUID %#018" PRIx64
					 " in the subnet (SA NodeRecord: no "
					 "records)", d->guid);
			else
				snprintf(r->error, sizeof(r->error),
					 "no node named '%s' in the subnet (SA "
					 "NodeRecord: no records)", d->name);
			continue;
		}
		noderec_decode(q[k].response + SA_HEADER_BYTES, &node);
		lids[index[k]] = node.lid;
	}
	sa_queries_release(q, n);
	free(q);
	free(index);
	return rc;
}

/* Fills the path query of one destination, or says why it cannot. */
static int path_query_for(struct path_session *s, struct dest *d,
			  uint16_t lid, const struct path_constraints *want,
			  struct path_constraints *q, char *err, size_t errlen)
{
	*q = *want;
	if (d->kind == DEST_HOST && dest_resolve_host(d, err, errlen))
		return -1;
	if (d->has_gid) {
		q->has_dgid = true;
		q->dgid = d->gid;
		if (!q->has_sgid) {
			q->has_sgid = true;
			q->sgid = s->sa.port_gid;
		}
		return 0;
	}
	q->has_dlid = true;
	q->dlid = d->kind == DEST_LID ? d->lid : lid;
	q->has_slid = true;
	q->slid = s->sa.lid;
	return 0;
}

int path_resolve_all(struct path_session *s, struct dest_list *dests,
		     const struct path_constraints *want, unsigned window,
		     uint32_t timeout_ms, unsigned retries,
		     struct path_result *results, char *err, size_t errlen)
{
	struct sa_query *q;
	uint16_t *lids;
	size_t *index, n = 0, timeouts = 0;
	int rc;

	lids = calloc(dests->count, sizeof(*lids));
	q = calloc(dests->count, sizeof(*q));
	index = calloc(dests->count, sizeof(*index));
	if (!lids || !q || !index) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < dests->count; i++)
		results[i].status = PATH_OK;
	rc = resolve_nodes(s, dests, window, timeout_ms, retries, results,
			   lids, err, errlen);
	if (rc)
		goto out;
	for (size_t i = 0; i < dests->count; i++) {
		struct path_constraints pq;

		if (results[i].status != PATH_OK)
			continue;
		if (path_query_for(s, &dests->items[i], lids[i], want, &pq,
				   results[i].error,
				   sizeof(results[i].error))) {
			results[i].status = PATH_ERROR;
			continue;
		}
		sa_encode_path_query(q[n].request, 0, &pq);
		index[n++] = i;
	}
	rc = n ? sa_client_run(&s->sa, q, n, window, timeout_ms, retries, err,
			       errlen)
	       : 0;
	for (size_t k = 0; rc == 0 && k < n; k++) {
		struct path_result *r = &results[index[k]];

		if (q[k].result == SA_RESULT_OK) {
			pathrec_decode(q[k].response + SA_HEADER_BYTES,
				       &r->record);
			continue;
		}
		r->status = q[k].result == SA_RESULT_TIMEOUT ? PATH_TIMEOUT
							     : PATH_ERROR;
		sa_query_describe(&q[k], "path record", timeout_ms, r->error,
				 sizeof(r->error));
	}
	for (size_t i = 0; rc == 0 && i < dests->count; i++)
		timeouts += results[i].status == PATH_TIMEOUT;
	if (rc == 0 && dests->count && timeouts == dests->count) {
		snprintf(err, errlen, "no answer from the SA (SM LID %u via %s "
			 "port %u) for any destination: %s; is the subnet "
			 "manager running?", s->sa.sm_lid, s->sa.ca,
			 s->sa.port_num, results[0].error);
		rc = -1;
	}
out:
	free(lids);
	sa_queries_release(q, n);
	free(q);
	free(index);
	return rc;
}

void path_record_to_ah_path(const struct path_record *p, struct ah_path *a)
{
	memset(a, 0, sizeof(*a));
	a->dlid = p->dlid;
	a->slid = p->slid;
	a->dgid = p->dgid;
	a->sgid = p->sgid;
	a->sl = p->sl;
	a->hop_limit = p->hop_limit;
	a->traffic_class = p->traffic_class;
	a->rate = p->rate;
	a->flow_label = p->flow_label;
}
