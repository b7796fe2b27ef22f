/* Destination specs to PathRecords via NodeRecord and PathRecord Gets. */
#include <inttypes.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/gid.h"
#include "base/ibrate.h"
#include "sa/path_resolve.h"

/* MAD status "no records" (IBA 15.2.1.1, SA-specific code 3). */
#define SA_STATUS_NO_RECORDS 0x0300

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

static int by_port_num(const void *a, const void *b)
{
	const struct node_port *x = a, *y = b;

	return (int)x->port_num - (int)y->port_num;
}

int node_ports_from_table(const uint8_t *msg, size_t len,
			  struct node_ports *np, char *err, size_t errlen)
{
	struct sa_table t;

	memset(np, 0, sizeof(*np));
	if (sa_table_layout(msg, len, NODE_RECORD_BYTES, &t, err, errlen))
		return -1;
	np->truncated = t.truncated;
	np->expected = t.expected;
	np->ports = calloc(t.count ? t.count : 1, sizeof(*np->ports));
	if (!np->ports) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < t.count; i++) {
		struct node_record rec;
		bool seen = false;

		noderec_decode(msg + SA_HEADER_BYTES + i * t.stride, &rec);
		for (size_t k = 0; k < np->count; k++)
			seen |= np->ports[k].port_guid == rec.port_guid;
		if (seen)
			continue;
		np->ports[np->count].lid = rec.lid;
		np->ports[np->count].port_num = rec.local_port;
		np->ports[np->count].port_guid = rec.port_guid;
		np->count++;
	}
	qsort(np->ports, np->count, sizeof(*np->ports), by_port_num);
	return 0;
}

void node_ports_free(struct node_ports *np)
{
	free(np->ports);
	memset(np, 0, sizeof(*np));
}

/* The words for a node answer cut to its first packet. */
static void warn_truncated(const struct dest *d, const struct node_ports *np)
{
	char whole[32];

	if (np->expected)
		snprintf(whole, sizeof(whole), "of %zu", np->expected);
	else
		snprintf(whole, sizeof(whole), "of more");
	diag_warn("%s: only the first packet of the SA's answer arrived (%zu "
		  "NodeRecords %s): this port's MAD stack did not reassemble "
		  "the multi-packet (RMPP) answer; ports of the node are "
		  "missing", d->text, np->count, whole);
}

/* Phase 1: guid: and node: specs become the ports they name. */
static int resolve_nodes(struct path_session *s, struct dest_list *dests,
			 unsigned window, uint32_t timeout_ms,
			 unsigned retries, struct path_result *first,
			 struct node_ports *found, char *err, size_t errlen)
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
		/* GetTable: a description names every port of a CA. */
		sa_encode_node_query(q[n].request, 0, 0,
				     d->kind == DEST_GUID ? d->guid : 0,
				     d->kind == DEST_NODE ? d->name : NULL);
		index[n++] = i;
	}
	rc = n ? sa_client_run(&s->sa, q, n, window, timeout_ms, retries, err,
			       errlen)
	       : 0;
	for (size_t k = 0; rc == 0 && k < n; k++) {
		struct path_result *r = &first[index[k]];
		const struct dest *d = &dests->items[index[k]];
		struct node_ports *np = &found[index[k]];
		const uint8_t *msg;
		char why[DIAG_MSG_MAX / 2];
		size_t len;

		if (q[k].result != SA_RESULT_OK && q[k].status != 0x0300) {
			r->status = q[k].result == SA_RESULT_TIMEOUT
					    ? PATH_TIMEOUT : PATH_ERROR;
			sa_query_describe(&q[k], d->kind == DEST_GUID
					 ? "port GUID lookup"
					 : "node name lookup",
					 timeout_ms, r->error,
					 sizeof(r->error));
			continue;
		}
		if (q[k].result == SA_RESULT_OK) {
			msg = sa_query_answer(&q[k], &len);
			if (node_ports_from_table(msg, len, np, why,
						  sizeof(why))) {
				r->status = PATH_ERROR;
				snprintf(r->error, sizeof(r->error), "the SA's "
					 "NodeRecord answer is unusable: %s",
					 why);
				continue;
			}
		}
		if (np->truncated)
			warn_truncated(d, np);
		if (np->count)
			continue;
		/* GetTable answers "none" with an empty table; a Get (an
		 * older SA's way) with status 0x0300. */
		r->status = PATH_ERROR;
		if (d->kind == DEST_GUID)
			snprintf(r->error, sizeof(r->error),
				 "no port with GUID %#018" PRIx64
				 " in the subnet (SA NodeRecord: no "
				 "records)", d->guid);
		else
			snprintf(r->error, sizeof(r->error),
				 "no node named '%s' in the subnet (SA "
				 "NodeRecord: no records)", d->name);
	}
	sa_queries_release(q, n);
	free(q);
	free(index);
	return rc;
}

bool path_constraints_select(const struct path_constraints *w)
{
	return w->has_sl || w->has_pkey || w->has_traffic_class ||
	       w->has_flow_label || w->has_hop_limit || w->has_mtu ||
	       w->has_rate || w->has_reversible || w->has_qos_class;
}

/* Adds one whole item to the list, or nothing when it does not fit: a
 * message never ends in half a word. */
static void append_item(char *buf, size_t len, const char **sep,
			const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void append_item(char *buf, size_t len, const char **sep,
			const char *fmt, ...)
{
	char item[128];
	size_t used = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(item, sizeof(item), fmt, ap);
	va_end(ap);
	if (used + strlen(*sep) + strlen(item) >= len)
		return;
	snprintf(buf + used, len - used, "%s%s", *sep, item);
	*sep = ", ";
}

void path_selectors_missed(const struct path_constraints *w,
			   const struct path_record *p, char *buf, size_t len)
{
	char want_rate[16], have_rate[16];
	const char *sep = "";

	buf[0] = '\0';
#define MISSED(cond, ...)                                                      \
	do {                                                                   \
		if (cond)                                                      \
			append_item(buf, len, &sep, __VA_ARGS__);              \
	} while (0)
	MISSED(w->has_mtu && ibrate_mtu_bytes(p->mtu) != w->mtu_bytes,
	       "--mtu %u (the path's MTU is %u)", w->mtu_bytes,
	       ibrate_mtu_bytes(p->mtu));
	MISSED(w->has_rate && p->rate != w->rate,
	       "--rate %s (the path's rate is %s Gb/s)",
	       ibrate_format_gbps(w->rate, want_rate, sizeof(want_rate)),
	       ibrate_format_gbps(p->rate, have_rate, sizeof(have_rate)));
	MISSED(w->has_sl && p->sl != w->sl, "--sl %u (the path's SL is %u)",
	       w->sl, p->sl);
	MISSED(w->has_pkey && (p->pkey & 0x7fff) != (w->pkey & 0x7fff),
	       "--pkey 0x%04x (the path's P_Key is 0x%04x)", w->pkey, p->pkey);
	MISSED(w->has_traffic_class && p->traffic_class != w->traffic_class,
	       "--tclass %u (the path's is %u)", w->traffic_class,
	       p->traffic_class);
	MISSED(w->has_flow_label && p->flow_label != w->flow_label,
	       "--flow-label 0x%05x (the path's is 0x%05x)", w->flow_label,
	       p->flow_label);
	MISSED(w->has_hop_limit && p->hop_limit != w->hop_limit,
	       "--hop-limit %u (the path's is %u)", w->hop_limit, p->hop_limit);
	MISSED(w->has_reversible && w->reversible && !p->reversible,
	       "--reversible (the path is not)");
	MISSED(w->has_qos_class && p->qos_class != w->qos_class,
	       "--qos-class %u (the path's is %u)", w->qos_class,
	       p->qos_class);
#undef MISSED
}

bool path_port_is_roce(const char *device, uint8_t port, char *name,
		       size_t len, uint8_t *port_num)
{
	struct device_list list;
	const struct device_info *dev;
	const struct port_info *roce;
	char err[DIAG_MSG_MAX];

	if (device_discover(&list, device, err, sizeof(err)))
		return false;
	roce = path_roce_port(&list, port, &dev);
	if (roce) {
		snprintf(name, len, "%s", dev->name);
		*port_num = roce->port_num;
	}
	device_list_free(&list);
	return roce != NULL;
}

const struct port_info *path_roce_port(const struct device_list *list,
				       uint8_t port,
				       const struct device_info **dev_out)
{
	const struct port_info *roce = NULL;

	*dev_out = NULL;
	for (size_t d = 0; d < list->count; d++) {
		const struct device_info *dev = &list->devices[d];

		for (size_t i = 0; i < dev->port_count; i++) {
			const struct port_info *p = &dev->ports[i];

			if (port && p->port_num != port)
				continue;
			if (p->link_layer == LINK_LAYER_IB) {
				*dev_out = NULL;
				return NULL;
			}
			if (p->link_layer == LINK_LAYER_ETHERNET && !roce) {
				roce = p;
				*dev_out = dev;
			}
		}
	}
	return roce;
}

/* Fills the path query of one result, or says why it cannot. */
static int path_query_for(struct path_session *s, struct dest *d,
			  uint16_t lid,
			  const struct path_constraints *want,
			  struct path_constraints *q, char *err, size_t errlen)
{
	*q = *want;
	if (d->kind == DEST_HOST && dest_resolve_host(d, err, errlen))
		return -1;
	if (d->kind == DEST_MCAST) {
		/* A PathRecord names one port; a group's address is in its
		 * MCMemberRecord (sa/mcast_group.h). */
		snprintf(err, errlen, "'%s' is a multicast group, which has no "
			 "PathRecord: 'ibahprobe ah %s' builds its AH from the "
			 "group's MCMemberRecord", d->text, d->text);
		return -1;
	}
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

/* The results before any PathRecord: one per destination, or one per
 * port of a node when every_port; each with the LID to ask a path to. */
static struct path_result *plan_rows(const struct dest_list *dests,
				     const struct path_result *first,
				     const struct node_ports *found,
				     bool every_port, uint16_t **lids,
				     size_t *count)
{
	struct path_result *rows;
	size_t n = 0, r = 0;

	for (size_t i = 0; i < dests->count; i++)
		n += every_port && found[i].count > 1 ? found[i].count : 1;
	rows = calloc(n ? n : 1, sizeof(*rows));
	*lids = calloc(n ? n : 1, sizeof(**lids));
	if (!rows || !*lids) {
		free(rows);
		free(*lids);
		*lids = NULL;
		return NULL;
	}
	for (size_t i = 0; i < dests->count; i++) {
		size_t ports = found[i].count;
		size_t take = every_port && ports > 1 ? ports : 1;

		for (size_t p = 0; p < take; p++, r++) {
			rows[r] = first[i];
			rows[r].dest_index = i;
			if (!ports)
				continue;
			rows[r].port_num = found[i].ports[p].port_num;
			rows[r].port_guid = found[i].ports[p].port_guid;
			rows[r].node_ports = ports;
			(*lids)[r] = found[i].ports[p].lid;
		}
	}
	*count = n;
	return rows;
}

/* "No records" to a query with selectors: is it the destination, or
 * the selectors? The same ends are asked once more without them (one
 * batch); where the SA then has a path, the row's error says which
 * selectors it missed. Any failure of that batch leaves the first
 * answers as they are. */
static void explain_no_records(struct path_session *s, struct dest_list *dests,
			       const uint16_t *lids,
			       const struct path_constraints *want,
			       unsigned window, uint32_t timeout_ms,
			       unsigned retries, struct path_result *rows,
			       const struct sa_query *first, const size_t *index,
			       size_t n)
{
	struct path_constraints bare = { 0 };
	struct sa_query *q;
	size_t *row_of, m = 0;
	/* Room for the words around the list in a row's error. */
	char err[DIAG_MSG_MAX], missed[DIAG_MSG_MAX - 96];

	if (!path_constraints_select(want))
		return;
	bare.has_sgid = want->has_sgid;
	bare.sgid = want->sgid;
	q = calloc(n ? n : 1, sizeof(*q));
	row_of = calloc(n ? n : 1, sizeof(*row_of));
	if (!q || !row_of)
		goto out;
	for (size_t k = 0; k < n; k++) {
		struct path_constraints pq;
		size_t r = index[k];

		if (first[k].result != SA_RESULT_STATUS ||
		    first[k].status != SA_STATUS_NO_RECORDS ||
		    path_query_for(s, &dests->items[rows[r].dest_index],
				   lids[r], &bare, &pq, err, sizeof(err)))
			continue;
		sa_encode_path_query(q[m].request, 0, &pq);
		row_of[m++] = r;
	}
	if (m == 0 || sa_client_run(&s->sa, q, m, window, timeout_ms, retries,
				    err, sizeof(err)))
		goto out;
	for (size_t k = 0; k < m; k++) {
		struct path_result *row = &rows[row_of[k]];
		struct path_record found;

		if (q[k].result != SA_RESULT_OK)
			continue;
		pathrec_decode(q[k].response + SA_HEADER_BYTES, &found);
		path_selectors_missed(want, &found, missed, sizeof(missed));
		if (missed[0])
			snprintf(row->error, sizeof(row->error), "path record: "
				 "SA answered no records (status 0x%04x): the "
				 "selectors excluded the path: %s",
				 SA_STATUS_NO_RECORDS, missed);
		else
			snprintf(row->error, sizeof(row->error), "path record: "
				 "SA answered no records (status 0x%04x): the "
				 "selectors excluded the path (without them "
				 "the SA has one; no single path meets them "
				 "all)", SA_STATUS_NO_RECORDS);
	}
out:
	if (q)
		sa_queries_release(q, m);
	free(q);
	free(row_of);
}

static int resolve(struct path_session *s, struct dest_list *dests,
		   const struct path_constraints *want, unsigned window,
		   uint32_t timeout_ms, unsigned retries, bool every_port,
		   struct path_result **out, size_t *out_count, char *err,
		   size_t errlen)
{
	struct path_result *first = NULL, *rows = NULL;
	struct node_ports *found = NULL;
	struct sa_query *q = NULL;
	uint16_t *lids = NULL;
	size_t *index = NULL, n = 0, count = 0, timeouts = 0;
	int rc = -1;

	*out = NULL;
	*out_count = 0;
	first = calloc(dests->count ? dests->count : 1, sizeof(*first));
	found = calloc(dests->count ? dests->count : 1, sizeof(*found));
	if (!first || !found) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (resolve_nodes(s, dests, window, timeout_ms, retries, first, found,
			  err, errlen))
		goto out;
	rows = plan_rows(dests, first, found, every_port, &lids, &count);
	q = calloc(count ? count : 1, sizeof(*q));
	index = calloc(count ? count : 1, sizeof(*index));
	if (!rows || !q || !index) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t r = 0; r < count; r++) {
		struct path_result *row = &rows[r];
		struct path_constraints pq;

		if (row->status != PATH_OK)
			continue;
		if (path_query_for(s, &dests->items[row->dest_index], lids[r],
				   want, &pq, row->error,
				   sizeof(row->error))) {
			row->status = PATH_ERROR;
			continue;
		}
		sa_encode_path_query(q[n].request, 0, &pq);
		index[n++] = r;
	}
	if (n && sa_client_run(&s->sa, q, n, window, timeout_ms, retries, err,
			       errlen))
		goto out;
	for (size_t k = 0; k < n; k++) {
		struct path_result *r = &rows[index[k]];

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
	explain_no_records(s, dests, lids, want, window, timeout_ms, retries,
			   rows, q, index, n);
	for (size_t r = 0; r < count; r++)
		timeouts += rows[r].status == PATH_TIMEOUT;
	if (count && timeouts == count) {
		snprintf(err, errlen, "no answer from the SA (SM LID %u via %s "
			 "port %u) for any destination: %s; is the subnet "
			 "manager running?", s->sa.sm_lid, s->sa.ca,
			 s->sa.port_num, rows[0].error);
		goto out;
	}
	*out = rows;
	*out_count = count;
	rows = NULL;
	rc = 0;
out:
	for (size_t i = 0; found && i < dests->count; i++)
		node_ports_free(&found[i]);
	free(found);
	free(first);
	free(rows);
	free(lids);
	if (q)
		sa_queries_release(q, n);
	free(q);
	free(index);
	return rc;
}

int path_resolve_every_port(struct path_session *s, struct dest_list *dests,
			    const struct path_constraints *want,
			    unsigned window, uint32_t timeout_ms,
			    unsigned retries, struct path_result **results,
			    size_t *count, char *err, size_t errlen)
{
	return resolve(s, dests, want, window, timeout_ms, retries, true,
		       results, count, err, errlen);
}

int path_resolve_all(struct path_session *s, struct dest_list *dests,
		     const struct path_constraints *want, unsigned window,
		     uint32_t timeout_ms, unsigned retries,
		     struct path_result *results, char *err, size_t errlen)
{
	struct path_result *rows;
	size_t count;

	if (resolve(s, dests, want, window, timeout_ms, retries, false, &rows,
		    &count, err, errlen))
		return -1;
	/* One row per destination, in order. */
	memcpy(results, rows, count * sizeof(*rows));
	free(rows);
	return 0;
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
