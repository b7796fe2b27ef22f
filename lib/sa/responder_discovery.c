/* Responder registration and discovery through SA ServiceRecords; the
 * record layout is in servicerec.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gid.h"
#include "base/monotonic.h"
#include "out/output.h"
#include "peer/responder_print.h"
#include "sa/responder_discovery.h"
#include "base/text_escape.h"

enum sa_client_error registration_open(struct responder_registration *g,
				       const char *ca, uint8_t port,
				       uint32_t timeout_ms, char *err,
				       size_t errlen)
{
	enum sa_client_error rc;

	memset(g, 0, sizeof(*g));
	rc = path_session_open(&g->session, ca, port, err, errlen);
	if (rc != SA_CLIENT_OK)
		return rc;
	g->open = true;
	g->timeout_ms = timeout_ms;
	g->responder.gid = g->session.sa.port_gid;
	g->responder.lid = g->session.sa.lid;
	g->responder.lease = IBAHPROBE_SERVICE_LEASE_S;
	return SA_CLIENT_OK;
}

/* One ServiceRecord request for g's record, run to a result. */
static int service_request(struct responder_registration *g,
			   enum sa_method method, unsigned retries,
			   struct sa_query *q, char *err, size_t errlen)
{
	struct service_record rec;
	uint64_t mask = servicerec_from_responder(&g->responder, &rec);

	memset(q, 0, sizeof(*q));
	sa_encode_service_request(q->request, method, 0, &rec, mask);
	return sa_client_run(&g->session.sa, q, 1, 1, g->timeout_ms, retries,
			     err, errlen);
}

static int registration_send_set(struct responder_registration *g,
				 unsigned retries, char *err, size_t errlen)
{
	char why[DIAG_MSG_MAX * 2];
	struct sa_query q;

	if (service_request(g, SA_METHOD_SET, retries, &q, err, errlen))
		return -1;
	sa_queries_release(&q, 1);
	if (q.result != SA_RESULT_OK) {
		sa_query_describe(&q, "ServiceRecord Set", g->timeout_ms, why,
				  sizeof(why));
		snprintf(err, errlen, "cannot register with the SA (SM LID %u "
			 "via %s port %u): %s", g->session.sa.sm_lid,
			 g->session.sa.ca, g->session.sa.port_num, why);
		return -1;
	}
	if (discovery_check_echo(q.response, &g->responder.gid, err, errlen))
		return -1;
	g->registered = true;
	if (g->responder.lease != SERVICE_LEASE_INFINITE)
		g->renew_at_ns = monotonic_ns() +
				 (uint64_t)g->responder.lease * 1000000000u / 3;
	return 0;
}

int registration_set(struct responder_registration *g, char *err,
		     size_t errlen)
{
	return registration_send_set(g, DISCOVERY_RETRIES, err, errlen);
}

int registration_renew_if_due(struct responder_registration *g,
			      uint64_t now_ns, char *err, size_t errlen)
{
	if (!g->renew_at_ns || now_ns < g->renew_at_ns)
		return 0;
	if (registration_send_set(g, 0, err, errlen) == 0) {
		g->recovered_after = g->renew_failures;
		g->renew_failures = 0;
		return 1;
	}
	g->renew_failures++;
	sa_client_refresh_sm(&g->session.sa);
	g->renew_at_ns = now_ns + 1000000000u;
	return -1;
}

int registration_delete(struct responder_registration *g, char *err,
			size_t errlen)
{
	char why[DIAG_MSG_MAX * 2];
	struct sa_query q;

	if (service_request(g, SA_METHOD_DELETE, DISCOVERY_RETRIES, &q, err,
			    errlen))
		return -1;
	sa_queries_release(&q, 1);
	g->registered = false;
	if (q.result == SA_RESULT_STATUS && q.status == SA_STATUS_NO_RECORDS)
		return 1;
	if (q.result != SA_RESULT_OK) {
		sa_query_describe(&q, "ServiceRecord Delete", g->timeout_ms,
				  why, sizeof(why));
		snprintf(err, errlen, "cannot remove the record from the SA "
			 "(SM LID %u): %s; it lapses when its %u s lease ends",
			 g->session.sa.sm_lid, why, g->responder.lease);
		return -1;
	}
	return discovery_check_echo(q.response, &g->responder.gid, err, errlen);
}

void registration_close(struct responder_registration *g)
{
	if (g->open)
		path_session_close(&g->session);
	g->open = false;
}

/* A path from this port to each responder's GID gives its DLID. */
static int resolve_paths(struct path_session *s, struct discovery *d,
			 uint32_t timeout_ms, unsigned retries, char *err,
			 size_t errlen)
{
	struct path_constraints none = { 0 };
	struct dest_list dests = { 0 };
	struct path_result *results;
	int rc = -1;

	if (d->count == 0)
		return 0;
	results = calloc(d->count, sizeof(*results));
	if (!results) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (discovery_to_dests(d, &dests, err, errlen))
		goto out;
	if (path_resolve_all(s, &dests, &none, PATH_DEFAULT_WINDOW,
			     timeout_ms, retries, results, err, errlen))
		goto out;
	discovery_take_paths(d, results);
	rc = 0;
out:
	dest_list_free(&dests);
	free(results);
	return rc;
}

int responder_discover(struct path_session *s, uint32_t timeout_ms,
		       unsigned retries, struct discovery *d, char *err,
		       size_t errlen)
{
	char why[DIAG_MSG_MAX * 2];
	struct service_record rec;
	struct sa_query q = { 0 };
	uint64_t mask = servicerec_discovery_query(&rec);
	const uint8_t *answer;
	size_t len;
	int rc = -1;

	memset(d, 0, sizeof(*d));
	sa_encode_service_request(q.request, SA_METHOD_GET_TABLE, 0, &rec,
				  mask);
	if (sa_client_run(&s->sa, &q, 1, 1, timeout_ms, retries, err, errlen))
		goto out;
	if (q.result != SA_RESULT_OK) {
		sa_query_describe(&q, "ServiceRecord GetTable", timeout_ms,
				  why, sizeof(why));
		snprintf(err, errlen, "cannot ask the SA (SM LID %u via %s port "
			 "%u) for responders: %s%s", s->sa.sm_lid, s->sa.ca,
			 s->sa.port_num, why,
			 q.result == SA_RESULT_TIMEOUT
				 ? "; is the subnet manager running?" : "");
		goto out;
	}
	answer = sa_query_answer(&q, &len);
	if (discovery_take_table(answer, len, d, err, errlen) ||
	    resolve_paths(s, d, timeout_ms, retries, err, errlen))
		goto out;
	rc = 0;
out:
	sa_queries_release(&q, 1);
	if (rc)
		discovery_free(d);
	return rc;
}

int responder_lookup(struct path_session *s, const struct dest_list *dests,
		     uint32_t timeout_ms, unsigned retries,
		     struct discovery *d, char *err, size_t errlen)
{
	struct sa_query *q = calloc(dests->count, sizeof(*q));
	int rc = -1;

	memset(d, 0, sizeof(*d));
	d->items = calloc(dests->count ? dests->count : 1, sizeof(*d->items));
	if (!q || !d->items) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	d->count = dests->count;
	for (size_t i = 0; i < dests->count; i++) {
		union ibv_gid *gid = &d->items[i].responder.gid;
		struct service_record rec;

		discovery_lookup_gid(&dests->items[i], &s->sa.port_gid, gid);
		servicerec_discovery_query(&rec);
		rec.gid = *gid;
		sa_encode_service_request(q[i].request, SA_METHOD_GET, 0, &rec,
					  SR_COMP_ID | SR_COMP_GID);
	}
	if (sa_client_run(&s->sa, q, dests->count, PATH_DEFAULT_WINDOW,
			  timeout_ms, retries, err, errlen))
		goto out;
	for (size_t i = 0; i < dests->count; i++)
		discovery_take_lookup(&q[i], timeout_ms, &d->items[i]);
	if (discovery_lookups_all_timed_out(q, dests->count)) {
		snprintf(err, errlen, "cannot ask the SA (SM LID %u via %s port "
			 "%u) for responders: %s; is the subnet manager "
			 "running?", s->sa.sm_lid, s->sa.ca, s->sa.port_num,
			 d->items[0].error);
		goto out;
	}
	rc = resolve_paths(s, d, timeout_ms, retries, err, errlen);
out:
	if (q)
		sa_queries_release(q, dests->count);
	free(q);
	if (rc)
		discovery_free(d);
	return rc;
}

int discovery_fetch(const char *ca, uint8_t port, uint32_t timeout_ms,
		    const struct dest_list *dests, struct discovery *d,
		    char *err, size_t errlen)
{
	struct path_session s;
	int rc;

	memset(d, 0, sizeof(*d));
	if (path_session_open(&s, ca, port, err, errlen) != SA_CLIENT_OK)
		return EXIT_ENVIRONMENT;
	if (dests && dests->count)
		rc = responder_lookup(&s, dests, timeout_ms, DISCOVERY_RETRIES,
				      d, err, errlen);
	else
		rc = responder_discover(&s, timeout_ms, DISCOVERY_RETRIES, d,
					err, errlen);
	path_session_close(&s);
	return rc ? EXIT_ENVIRONMENT : EXIT_FINE;
}

int discovery_to_dests(const struct discovery *d, struct dest_list *dests,
		       char *err, size_t errlen)
{
	char text[GID_TEXT_MAX + 8], gid[GID_TEXT_MAX];

	for (size_t i = 0; i < d->count; i++) {
		snprintf(text, sizeof(text), "gid:%s",
			 gid_format(&d->items[i].responder.gid, gid,
				    sizeof(gid)));
		if (dest_list_add(dests, text, err, errlen))
			return -1;
	}
	return 0;
}

void discovery_truncation_message(const struct discovery *d, char *buf,
				  size_t len)
{
	char whole[48];

	if (d->expected)
		snprintf(whole, sizeof(whole), "of %zu", d->expected);
	else
		snprintf(whole, sizeof(whole), "of more");
	snprintf(buf, len, "only the first packet of the SA's answer arrived "
		 "(%zu ServiceRecords %s): this port's MAD stack did not "
		 "reassemble the multi-packet (RMPP) answer (the ibsim "
		 "simulator cannot); the list is incomplete",
		 d->count + d->foreign, whole);
}

void discovery_print(const struct discovery *d)
{
	char gid[GID_TEXT_MAX], host[TEXT_ESCAPE_SIZE(SERVICE_NAME_BYTES)];

	out_open_array(NULL);
	for (size_t i = 0; i < d->count; i++) {
		const struct discovered_responder *r = &d->items[i];
		const struct responder_record *p = &r->responder;

		out_open_object(NULL);
		out_string("gid", "%s", gid_format(&p->gid, gid, sizeof(gid)));
		if (!r->found) {
			out_string("status", ": %s", "error");
			out_string("error", " %s", r->error);
			out_newline();
			out_close_object();
			continue;
		}
		/* The host is the registrant's word: escaped, in text and
		 * JSON alike (JSON stays valid UTF-8). */
		out_string("host", " host %s",
			   p->host[0] ? text_escape(p->host, sizeof(p->host),
						    host, sizeof(host))
				      : "-");
		out_string("status", ": %s", r->path_ok ? "ok" : "error");
		if (r->path_ok)
			out_uint("lid", " lid %u", r->dlid);
		else
			out_null("lid", NULL);
		responder_qp_print(p->qpn, p->qkey, RESPONDER_QPN_DECIMAL);
		if (p->rendezvous_port)
			out_uint("rendezvous_port", " rendezvous_port %u",
				 p->rendezvous_port);
		else
			out_null("rendezvous_port", " rendezvous_port %s");
		if (p->lease == SERVICE_LEASE_INFINITE)
			out_null("lease_s", " lease %s");
		else
			out_uint("lease_s", " lease %u s", p->lease);
		if (!r->path_ok)
			out_string("error", "\n    %s", r->error);
		out_newline();
		out_close_object();
	}
	out_close_array();
}

void discovery_free(struct discovery *d)
{
	free(d->items);
	d->items = NULL;
	d->count = 0;
}
