/* The merge of report at scale: a few thousand synthetic results (RoCE,
 * InfiniBand without a GRH, error records that failed before an AH was
 * built, a destination text two probers resolved differently, a host
 * with two devices) land in the cells that the original record-by-record
 * scan put them in. The scan is kept here as the reference: for every
 * record, the addresses the other records agree on are searched anew. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dest.h"
#include "base/gid.h"
#include "report/report_input.h"
#include "report/report_matrix.h"
#include "tap.h"

#define HOSTS 40

/* The reference: the address the records that pick chooses agree on
 * (NULL: none, or they disagree), by scanning all of them. */
static const char *scan(const struct report *r,
			const char *(*pick)(const struct report_record *o,
					    const void *ctx),
			const void *ctx)
{
	const char *found = NULL, *v;

	for (size_t i = 0; i < r->record_count; i++) {
		v = pick(r->records[i], ctx);
		if (!v)
			continue;
		if (found && strcmp(found, v) != 0)
			return NULL;
		found = v;
	}
	return found;
}

static const char *sgid_of_port(const struct report_record *o, const void *ctx)
{
	const struct report_record *rec = ctx;

	return o->has_ah && o->sgid && o->port_num == rec->port_num &&
			       strcmp(o->host, rec->host) == 0 &&
			       strcmp(o->device, rec->device) == 0
		       ? o->sgid
		       : NULL;
}

static const char *sgid_of_host(const struct report_record *o, const void *h)
{
	return o->has_ah && o->sgid && strcmp(o->host, h) == 0 ? o->sgid : NULL;
}

static const char *dgid_of_text(const struct report_record *o, const void *t)
{
	return o->dgid && strcmp(o->dest_text, t) == 0 ? o->dgid : NULL;
}

static void ref_source_key(const struct report *r,
			   const struct report_record *rec, char *key,
			   size_t len)
{
	const char *sgid = rec->has_ah ? NULL : scan(r, sgid_of_port, rec);
	char addr[64];

	if (!sgid)
		sgid = rec->sgid;
	if (sgid && report_addr_normalize(sgid, addr, sizeof(addr)) == 0)
		snprintf(key, len, "addr:%s", addr);
	else
		snprintf(key, len, "src:%s/%s", rec->host, rec->device);
}

static void ref_dest_key(const struct report *r,
			 const struct report_record *rec, char *key, size_t len)
{
	const char *dgid = rec->dgid ? rec->dgid
				     : scan(r, dgid_of_text, rec->dest_text);
	char addr[64], err[256];
	struct dest d;

	if (dgid && report_addr_normalize(dgid, addr, sizeof(addr)) == 0) {
		snprintf(key, len, "addr:%s", addr);
		return;
	}
	snprintf(key, len, "dst:%s", rec->dest_text);
	if (dest_parse(rec->dest_text, &d, err, sizeof(err)) != 0)
		return;
	if (d.has_gid) {
		gid_format_address(&d.gid, addr, sizeof(addr));
		snprintf(key, len, "addr:%s", addr);
	} else if (d.kind == DEST_HOST &&
		   (dgid = scan(r, sgid_of_host, d.name)) &&
		   report_addr_normalize(dgid, addr, sizeof(addr)) == 0) {
		snprintf(key, len, "addr:%s", addr);
	}
	dest_clear(&d);
}

static const struct report_node *node_of(const struct report *r,
					  const char *key)
{
	for (size_t i = 0; i < r->node_count; i++)
		if (strcmp(r->nodes[i].key, key) == 0)
			return &r->nodes[i];
	return NULL;
}

/* Host h's source GID: IB hosts (h % 3 == 0) a link-local GID, the
 * others an IPv4-mapped one. */
static void host_sgid(unsigned h, char *out, size_t len)
{
	if (h % 3 == 0)
		snprintf(out, len, "fe80::2:c903:0:%x", h + 1);
	else
		snprintf(out, len, "::ffff:10.0.%u.%u", h / 200, h % 200 + 1);
}

/* Every host probes every other with two parameter sets; IB hosts and
 * IB destinations go without a GRH; one result in 17 is an error record
 * that names the port's first GID (link-local); hosts 1 and 4 resolve
 * "host0011" to two different addresses (no agreement); host 5 probes
 * host 4 by its address; host 2 probes from a second device too. */
static char *synthetic(size_t *len)
{
	char *buf = NULL, sgid[64], dgid[64], dest[64];
	size_t n = 0, count = 0;
	FILE *f = open_memstream(&buf, &n);

	for (unsigned h = 0; h < HOSTS; h++)
		for (unsigned dev = 0; dev < (h == 2 ? 2u : 1u); dev++)
			for (unsigned d = 0; d < HOSTS; d++)
				for (unsigned set = 0; set < 2 && d != h; set++) {
					bool ib = h % 3 == 0 || d % 3 == 0;
					bool error = ++count % 17 == 0;

					host_sgid(h, sgid, sizeof(sgid));
					if (dev)
						snprintf(sgid, sizeof(sgid),
							 "::ffff:10.0.1.%u", h + 1);
					host_sgid(d, dgid, sizeof(dgid));
					if (d == 11 && (h == 1 || h == 4))
						snprintf(dgid, sizeof(dgid),
							 "::ffff:10.9.9.%u", h);
					if (h == 5 && d == 4)
						snprintf(dest, sizeof(dest), "%s",
							 dgid);
					else
						snprintf(dest, sizeof(dest),
							 "host%04u", d);
					fprintf(f, "{\"dest\":\"%s\",\"source\":{"
						"\"host\":\"host%04u\",\"device\":"
						"\"mlx5_%u\",\"port_num\":1,\"sgid\":"
						"\"%s\"},\"params\":{\"hop_limit\":"
						"64,\"traffic_class\":%u},",
						dest, h, dev,
						error ? "fe80::1" : sgid, set * 40);
					if (error) {
						fprintf(f, "\"status\":\"error\","
							"\"error\":\"no route\"}\n");
						continue;
					}
					fprintf(f, "\"status\":\"reachable\","
						"\"sent\":4,\"received\":4,"
						"\"rtt_us\":{\"median\":%u,"
						"\"max\":%u},\"hops\":%u,"
						"\"verdicts\":[\"reachable\"],"
						"\"findings\":[],\"ah_attr\":{"
						"\"grh\":", 5 + d % 7, 9 + d % 7,
						d % 3);
					if (ib)
						fprintf(f, "null}}\n");
					else
						fprintf(f, "{\"dgid\":\"%s\"}}}\n",
							dgid);
				}
	fclose(f);
	*len = n;
	return buf;
}

int main(void)
{
	struct report r;
	char err[512], skey[256], dkey[256];
	size_t len, misplaced = 0, checked = 0, sets = 0;
	char *input = synthetic(&len);

	report_init(&r);
	ok(report_read_buffer(&r, "synthetic", input, len, NULL, err,
			      sizeof(err)) == 0, "synthetic input read: %s",
	   err);
	ok(report_build(&r, err, sizeof(err)) == 0, "merged: %s", err);
	ok(r.record_count > 3000, "a few thousand records (%zu)",
	   r.record_count);
	for (size_t i = 0; i < r.record_count; i++) {
		const struct report_record *rec = r.records[i];
		const struct report_node *s, *d;
		const struct report_cell *c;
		bool found = false;

		ref_source_key(&r, rec, skey, sizeof(skey));
		ref_dest_key(&r, rec, dkey, sizeof(dkey));
		s = node_of(&r, skey);
		d = node_of(&r, dkey);
		if (!s || !d || s->row < 0 || d->col < 0) {
			misplaced++;
			continue;
		}
		c = report_cell(&r, (size_t)s->row, (size_t)d->col);
		for (size_t k = 0; k < c->sets; k++)
			found |= c->set_records[k] == rec;
		misplaced += !found;
		checked++;
	}
	is_int((long)misplaced, 0L, "every record in the cell the scan "
	       "chooses (%zu checked)", checked);
	for (size_t i = 0; i < r.row_count; i++)
		for (size_t j = 0; j < r.col_count; j++)
			sets += report_cell(&r, i, j)->sets;
	is_int((long)sets, (long)r.record_count,
	       "each record in one cell only");
	/* The cases the scan decides, named: an error record joins its
	 * port's row, an IB destination its host's address, a destination
	 * two probers resolved differently stays apart. */
	ok(node_of(&r, "addr:10.0.0.2") && !node_of(&r, "addr:fe80::1"),
	   "error records join the row of their port's GID");
	ok(node_of(&r, "addr:fe80::2:c903:0:1") &&
		   node_of(&r, "addr:fe80::2:c903:0:1")->col >= 0,
	   "an IB destination without a GRH has its host's source GID");
	ok(node_of(&r, "addr:10.0.0.12") && node_of(&r, "addr:10.9.9.1") &&
		   node_of(&r, "addr:10.9.9.4"),
	   "a text resolved to two addresses: each record keeps its own");
	ok(node_of(&r, "addr:10.0.0.3") && node_of(&r, "addr:10.0.1.3") &&
		   node_of(&r, "addr:10.0.1.3")->row >= 0,
	   "host 2's second device is a row of its own");
	report_free(&r);
	free(input);
	return tap_done();
}
