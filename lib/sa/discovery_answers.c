/* Responder discovery's answers from the SA into responders; the record
 * layout is in servicerec.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gid.h"
#include "sa/discovery_answers.h"
#include "wire/wire_bytes.h"

int discovery_check_echo(const uint8_t *response, const union ibv_gid *gid,
			 char *err, size_t errlen)
{
	struct service_record rec;

	servicerec_decode(response + SA_HEADER_BYTES, &rec);
	if (rec.id != IBAHPROBE_SERVICE_ID ||
	    memcmp(rec.gid.raw, gid->raw, 16) != 0) {
		snprintf(err, errlen, "the SA answered with another record "
			 "(ServiceID 0x%016llx)", (unsigned long long)rec.id);
		return -1;
	}
	return 0;
}

int discovery_take_table(const uint8_t *msg, size_t len, struct discovery *d,
			 char *err, size_t errlen)
{
	struct sa_table t;

	if (sa_table_layout(msg, len, SERVICE_RECORD_BYTES, &t, err, errlen))
		return -1;
	d->truncated = t.truncated;
	d->expected = t.expected;
	d->items = calloc(t.count ? t.count : 1, sizeof(*d->items));
	if (!d->items) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < t.count; i++) {
		struct discovered_responder *r = &d->items[d->count];
		struct service_record rec;
		char why[DIAG_MSG_MAX];

		servicerec_decode(msg + SA_HEADER_BYTES + i * t.stride, &rec);
		if (servicerec_to_responder(&rec, &r->responder, why,
					    sizeof(why))) {
			diag_verbose(1, "ServiceRecord %zu skipped: %s", i, why);
			d->foreign++;
			continue;
		}
		r->found = true;
		d->count++;
	}
	return 0;
}

void discovery_lookup_gid(const struct dest *dst,
			  const union ibv_gid *port_gid, union ibv_gid *gid)
{
	if (dst->has_gid) {
		*gid = dst->gid;
		return;
	}
	/* guid: in this subnet: the port's prefix. */
	memcpy(gid->raw, port_gid->raw, 8);
	wire_put64(gid->raw, 8, dst->guid);
}

void discovery_take_lookup(const struct sa_query *q, uint32_t timeout_ms,
			   struct discovered_responder *r)
{
	struct service_record rec;
	union ibv_gid asked = r->responder.gid;
	char gid[GID_TEXT_MAX], why[96];

	if (q->result == SA_RESULT_STATUS && q->status == SA_STATUS_NO_RECORDS) {
		snprintf(r->error, sizeof(r->error), "no ibahprobe responder "
			 "is registered for %s in the SA",
			 gid_format(&asked, gid, sizeof(gid)));
		return;
	}
	if (q->result != SA_RESULT_OK) {
		sa_query_describe(q, "ServiceRecord Get", timeout_ms, r->error,
				  sizeof(r->error));
		return;
	}
	servicerec_decode(q->response + SA_HEADER_BYTES, &rec);
	if (servicerec_to_responder(&rec, &r->responder, why, sizeof(why))) {
		r->responder.gid = asked;
		snprintf(r->error, sizeof(r->error), "the SA's record for %s "
			 "is not an ibahprobe responder's: %s",
			 gid_format(&asked, gid, sizeof(gid)), why);
		return;
	}
	r->found = true;
}

bool discovery_lookups_all_timed_out(const struct sa_query *q, size_t n)
{
	size_t timeouts = 0;

	for (size_t i = 0; i < n; i++)
		timeouts += q[i].result == SA_RESULT_TIMEOUT;
	return n && timeouts == n;
}

void discovery_take_paths(struct discovery *d,
			  const struct path_result *results)
{
	for (size_t i = 0; i < d->count; i++) {
		struct discovered_responder *r = &d->items[i];

		if (!r->found)
			continue;
		r->path_ok = results[i].status == PATH_OK;
		if (r->path_ok)
			r->dlid = results[i].record.dlid;
		else
			snprintf(r->error, sizeof(r->error), "%s",
				 results[i].error);
	}
}
