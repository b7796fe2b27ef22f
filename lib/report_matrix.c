/* Merging probe results into a source x destination matrix; see
 * report_matrix.h for what a cell aggregates and why. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dest.h"
#include "gid.h"
#include "report_matrix.h"
#include "text_escape.h"

static const char *const status_names[REPORT_STATUS_COUNT] = {
	[REPORT_REACHABLE] = "reachable",
	[REPORT_PARTIAL] = "partial loss",
	[REPORT_UNREACHABLE] = "unreachable",
	[REPORT_ERROR] = "error",
};

const char *report_status_name(enum report_status status)
{
	return status < REPORT_STATUS_COUNT ? status_names[status] : "?";
}

int report_status_parse(const char *name, enum report_status *status)
{
	for (int i = 0; i < REPORT_STATUS_COUNT; i++)
		if (strcmp(name, status_names[i]) == 0) {
			*status = (enum report_status)i;
			return 0;
		}
	return -1;
}

int report_addr_normalize(const char *text, char *out, size_t len)
{
	union ibv_gid gid;

	if (inet_pton(AF_INET6, text, gid.raw) != 1)
		return -1;
	gid_format_address(&gid, out, len);
	return 0;
}

int strvec_add(struct strvec *v, const char *s)
{
	char *copy;

	if (v->count == v->capacity) {
		size_t cap = v->capacity ? v->capacity * 2 : 4;
		char **items = realloc(v->items, cap * sizeof(*items));

		if (!items)
			return -1;
		v->items = items;
		v->capacity = cap;
	}
	copy = strdup(s);
	if (!copy)
		return -1;
	v->items[v->count++] = copy;
	return 0;
}

int strvec_add_unique(struct strvec *v, const char *s)
{
	for (size_t i = 0; i < v->count; i++)
		if (strcmp(v->items[i], s) == 0)
			return 0;
	return strvec_add(v, s);
}

void strvec_free(struct strvec *v)
{
	for (size_t i = 0; i < v->count; i++)
		free(v->items[i]);
	free(v->items);
	memset(v, 0, sizeof(*v));
}

void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
}

void report_record_free(struct report_record *rec)
{
	if (!rec)
		return;
	free(rec->host);
	free(rec->device);
	free(rec->sgid);
	free(rec->dest_text);
	free(rec->dgid);
	free(rec->error);
	strvec_free(&rec->verdicts);
	strvec_free(&rec->findings);
	free(rec);
}

int report_add(struct report *r, struct report_record *rec)
{
	if (r->record_count == r->record_capacity) {
		size_t cap = r->record_capacity ? r->record_capacity * 2 : 64;
		struct report_record **items =
			realloc(r->records, cap * sizeof(*items));

		if (!items) {
			report_record_free(rec);
			return -1;
		}
		r->records = items;
		r->record_capacity = cap;
	}
	r->records[r->record_count++] = rec;
	return 0;
}

int report_add_failed_run(struct report *r, const char *where,
			  const char *error, int exit_status)
{
	struct report_failed_run *f;

	/* Geometric growth: an input of a million failed runs is linear. */
	if (r->failed_count == r->failed_capacity) {
		size_t cap = r->failed_capacity ? r->failed_capacity * 2 : 16;
		struct report_failed_run *grown =
			realloc(r->failed, cap * sizeof(*grown));

		if (!grown)
			return -1;
		r->failed = grown;
		r->failed_capacity = cap;
	}
	f = &r->failed[r->failed_count];
	f->where = strdup(where);
	f->error = strdup(error);
	f->exit_status = exit_status;
	if (!f->where || !f->error) {
		free(f->where);
		free(f->error);
		return -1;
	}
	r->failed_count++;
	return 0;
}

/* asprintf, NULL when out of memory. */
static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

/* The one address that the records a pick function chooses agree on;
 * NULL when it chooses none, or when they disagree. */
static const char *agreed(const struct report *r,
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

/* The source GID of a result with an AH from the same prober port. */
static const char *sgid_of_port(const struct report_record *o,
				const void *ctx)
{
	const struct report_record *rec = ctx;

	return o->has_ah && o->sgid && o->port_num == rec->port_num &&
			       strcmp(o->host, rec->host) == 0 &&
			       strcmp(o->device, rec->device) == 0
		       ? o->sgid
		       : NULL;
}

/* The source GID of a result with an AH from the host. */
static const char *sgid_of_host(const struct report_record *o,
				const void *host)
{
	return o->has_ah && o->sgid && strcmp(o->host, host) == 0 ? o->sgid
								   : NULL;
}

/* The DGID of a result for the same destination text. */
static const char *dgid_of_text(const struct report_record *o,
				const void *text)
{
	return o->dgid && strcmp(o->dest_text, text) == 0 ? o->dgid : NULL;
}

/* A source is its GID; without one, its host and device. A result that
 * failed before it had an AH names the port's first GID (link-local on
 * RoCE): it joins the row of its port's other results instead. */
static char *source_key(const struct report *r,
			const struct report_record *rec, char *addr, size_t len)
{
	const char *sgid = rec->has_ah ? NULL : agreed(r, sgid_of_port, rec);

	if (!sgid)
		sgid = rec->sgid;
	if (sgid && report_addr_normalize(sgid, addr, len) == 0)
		return format("addr:%s", addr);
	addr[0] = '\0';
	return format("src:%s/%s", rec->host, rec->device);
}

/* A destination is the responder's address: the AH's DGID, else one
 * learnt from another set, else the text itself when it is an address,
 * else the address of the source of that host name (a responder that
 * answered nobody still lines up with its row when it probed). */
static char *dest_key(const struct report *r, const struct report_record *rec,
		      char *addr, size_t len)
{
	const char *dgid = rec->dgid ? rec->dgid
				     : agreed(r, dgid_of_text, rec->dest_text);
	struct dest d;
	char err[256];
	bool have = false;

	if (dgid && report_addr_normalize(dgid, addr, len) == 0)
		return format("addr:%s", addr);
	if (dest_parse(rec->dest_text, &d, err, sizeof(err)) == 0) {
		if (d.has_gid) {
			gid_format_address(&d.gid, addr, len);
			have = true;
		} else if (d.kind == DEST_HOST &&
			   (dgid = agreed(r, sgid_of_host, d.name)) &&
			   report_addr_normalize(dgid, addr, len) == 0) {
			have = true;
		}
		dest_clear(&d);
	}
	if (have)
		return format("addr:%s", addr);
	addr[0] = '\0';
	return format("dst:%s", rec->dest_text);
}

static struct report_node *node_get(struct report *r, char *key,
				    const char *addr, size_t *capacity)
{
	struct report_node *n;

	for (size_t i = 0; i < r->node_count; i++)
		if (strcmp(r->nodes[i].key, key) == 0) {
			free(key);
			return &r->nodes[i];
		}
	if (r->node_count == *capacity) {
		size_t cap = *capacity ? *capacity * 2 : 16;
		struct report_node *nodes =
			realloc(r->nodes, cap * sizeof(*nodes));

		if (!nodes) {
			free(key);
			return NULL;
		}
		r->nodes = nodes;
		*capacity = cap;
	}
	n = &r->nodes[r->node_count++];
	memset(n, 0, sizeof(*n));
	n->key = key;
	n->row = n->col = -1;
	n->addr = addr[0] ? strdup(addr) : NULL;
	if (addr[0] && !n->addr) {
		r->node_count--;
		free(key);
		return NULL;
	}
	return n;
}

/* Keeps the lowest text in natural order, so names do not depend on the
 * order the files came in. */
static int keep_lowest(char **slot, const char *text)
{
	char *copy;

	if (*slot && strverscmp(*slot, text) <= 0)
		return 0;
	copy = strdup(text);
	if (!copy)
		return -1;
	free(*slot);
	*slot = copy;
	return 0;
}

static int name_sources(struct report *r)
{
	for (size_t i = 0; i < r->node_count; i++) {
		struct report_node *n = &r->nodes[i];
		bool host_shared = false, device_shared = false;

		if (!n->host)
			continue;
		for (size_t j = 0; j < r->node_count; j++) {
			const struct report_node *o = &r->nodes[j];

			if (j == i || !o->host || strcmp(o->host, n->host))
				continue;
			host_shared = true;
			if (strcmp(o->device, n->device) == 0)
				device_shared = true;
		}
		if (device_shared)	/* one port's IPv4 and IPv6 GIDs */
			n->source_name = format("%s/%s (%s)", n->host,
						n->device,
						n->addr ? n->addr : n->key);
		else if (host_shared)
			n->source_name = format("%s/%s", n->host, n->device);
		else
			n->source_name = strdup(n->host);
		if (!n->source_name)
			return -1;
	}
	return 0;
}

/* Two responders given by the same text (from different hosts): the
 * address tells them apart. */
static int name_dests(struct report *r)
{
	bool *clash = calloc(r->node_count ? r->node_count : 1, sizeof(*clash));
	int rc = 0;

	if (!clash)
		return -1;
	for (size_t i = 0; i < r->node_count; i++)
		for (size_t j = 0; j < r->node_count; j++)
			if (j != i && r->nodes[i].dest_name &&
			    r->nodes[j].dest_name &&
			    strcmp(r->nodes[i].dest_name,
				   r->nodes[j].dest_name) == 0)
				clash[i] = true;
	for (size_t i = 0; i < r->node_count && rc == 0; i++) {
		struct report_node *n = &r->nodes[i];
		char *named;

		if (!clash[i] || !n->addr)
			continue;
		named = format("%s (%s)", n->dest_name, n->addr);
		if (!named)
			rc = -1;
		free(n->dest_name);
		n->dest_name = named;
	}
	free(clash);
	return rc;
}

/* Nodes on both axes first, in the same order on both, so the matrix is
 * square where the fabric is; then the others. Natural order of names. */
static int node_order(const void *pa, const void *pb)
{
	const struct report_node *a = *(struct report_node *const *)pa;
	const struct report_node *b = *(struct report_node *const *)pb;
	bool a_both = a->source_name && a->dest_name;
	bool b_both = b->source_name && b->dest_name;
	const char *an = a->dest_name ? a->dest_name : a->source_name;
	const char *bn = b->dest_name ? b->dest_name : b->source_name;
	int c;

	if (a_both != b_both)
		return a_both ? -1 : 1;
	c = strverscmp(an, bn);
	return c ? c : strcmp(a->key, b->key);
}

static int build_axes(struct report *r)
{
	struct report_node **all = calloc(r->node_count, sizeof(*all));

	r->rows = calloc(r->node_count, sizeof(*r->rows));
	r->cols = calloc(r->node_count, sizeof(*r->cols));
	if (!all || !r->rows || !r->cols) {
		free(all);
		return -1;
	}
	for (size_t i = 0; i < r->node_count; i++)
		all[i] = &r->nodes[i];
	qsort(all, r->node_count, sizeof(*all), node_order);
	for (size_t i = 0; i < r->node_count; i++) {
		if (all[i]->source_name) {
			all[i]->row = (int)r->row_count;
			r->rows[r->row_count++] = all[i];
		}
		if (all[i]->dest_name) {
			all[i]->col = (int)r->col_count;
			r->cols[r->col_count++] = all[i];
		}
	}
	free(all);
	return 0;
}

static int add_hops(struct report_cell *c, int hops)
{
	size_t i = 0;
	int *grown;

	while (i < c->hop_count && c->hops[i] < hops)
		i++;
	if (i < c->hop_count && c->hops[i] == hops)
		return 0;
	grown = realloc(c->hops, (c->hop_count + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	c->hops = grown;
	memmove(&c->hops[i + 1], &c->hops[i],
		(c->hop_count - i) * sizeof(*grown));
	c->hops[i] = hops;
	c->hop_count++;
	return 0;
}

static int add_remark(struct report_cell *c, uint8_t sent, uint8_t seen)
{
	struct report_remark *grown;

	for (size_t i = 0; i < c->remark_count; i++)
		if (c->remarks[i].sent == sent && c->remarks[i].seen == seen)
			return 0;
	grown = realloc(c->remarks, (c->remark_count + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	c->remarks = grown;
	c->remarks[c->remark_count++] = (struct report_remark){ sent, seen };
	return 0;
}

static int cell_merge(struct report_cell *c, const struct report_record *rec)
{
	double *grown;
	int rc = 0;

	if (!c->probed || rec->status > c->status)
		c->status = rec->status;
	c->probed = true;
	c->sets++;
	c->sent += rec->sent;
	c->received += rec->received;
	if (rec->hops >= 0)
		rc |= add_hops(c, rec->hops);
	if (rec->has_rtt) {
		grown = realloc(c->medians,
				(c->median_count + 1) * sizeof(*grown));
		if (!grown)
			return -1;
		c->medians = grown;
		c->medians[c->median_count++] = rec->rtt_median_us;
		if (!c->has_rtt || rec->rtt_max_us > c->rtt_max_us)
			c->rtt_max_us = rec->rtt_max_us;
		c->has_rtt = true;
	}
	if (rec->tclass_remarked) {
		c->tclass_remarked = true;
		rc |= add_remark(c, rec->tclass_sent, rec->tclass_seen);
	}
	for (size_t i = 0; i < rec->verdicts.count; i++)
		rc |= strvec_add_unique(&c->verdicts, rec->verdicts.items[i]);
	for (size_t i = 0; i < rec->findings.count; i++)
		rc |= strvec_add_unique(&c->findings, rec->findings.items[i]);
	if (rec->error)
		rc |= strvec_add_unique(&c->errors, rec->error);
	return rc ? -1 : 0;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static void cell_finish(struct report_cell *c)
{
	size_t n = c->median_count;

	if (!n)
		return;
	qsort(c->medians, n, sizeof(*c->medians), cmp_double);
	c->rtt_median_us = n % 2 ? c->medians[n / 2]
				 : (c->medians[n / 2 - 1] + c->medians[n / 2]) / 2;
}

static int build_cells(struct report *r, const size_t *src, const size_t *dst)
{
	size_t n = r->row_count * r->col_count;

	r->cells = calloc(n ? n : 1, sizeof(*r->cells));
	if (!r->cells)
		return -1;
	for (size_t i = 0; i < r->record_count; i++) {
		const struct report_node *s = &r->nodes[src[i]];
		const struct report_node *d = &r->nodes[dst[i]];

		if (cell_merge(report_cell(r, (size_t)s->row, (size_t)d->col),
			       r->records[i]))
			return -1;
	}
	for (size_t i = 0; i < r->row_count * r->col_count; i++) {
		struct report_cell *c = &r->cells[i];

		if (!c->probed)
			continue;
		cell_finish(c);
		r->pairs++;
		r->status_count[c->status]++;
	}
	return 0;
}

/* Every record's source and destination node; names from the records. */
static int build_nodes(struct report *r, size_t *src, size_t *dst)
{
	size_t capacity = 0;
	char addr[64];

	for (size_t i = 0; i < r->record_count; i++) {
		const struct report_record *rec = r->records[i];
		struct report_node *n;
		char *key = source_key(r, rec, addr, sizeof(addr));

		n = key ? node_get(r, key, addr, &capacity) : NULL;
		if (!n)
			return -1;
		if (!n->host) {
			n->host = strdup(rec->host);
			n->device = strdup(rec->device);
			if (!n->host || !n->device)
				return -1;
		}
		src[i] = (size_t)(n - r->nodes);
		key = dest_key(r, rec, addr, sizeof(addr));
		n = key ? node_get(r, key, addr, &capacity) : NULL;
		if (!n || keep_lowest(&n->dest_name, rec->dest_text))
			return -1;
		dst[i] = (size_t)(n - r->nodes);
	}
	return 0;
}

int report_build(struct report *r, char *err, size_t errlen)
{
	size_t *src, *dst;
	int rc = -1;

	if (r->record_count == 0 && r->failed_count) {
		/* For a terminal: both come from the input. */
		char where[256], error[512];

		snprintf(err, errlen, "no probe results in the input, only "
			 "%zu failed run%s (%s: %s)", r->failed_count,
			 r->failed_count > 1 ? "s" : "",
			 text_escape(r->failed[0].where,
				     strlen(r->failed[0].where), where,
				     sizeof(where)),
			 text_escape(r->failed[0].error,
				     strlen(r->failed[0].error), error,
				     sizeof(error)));
		return -1;
	}
	if (r->record_count == 0) {
		snprintf(err, errlen, "no probe results in the input: give "
			 "the output of 'ibahprobe probe --jsonl' or "
			 "'probe -j'");
		return -1;
	}
	src = calloc(r->record_count, sizeof(*src));
	dst = calloc(r->record_count, sizeof(*dst));
	if (src && dst && build_nodes(r, src, dst) == 0 &&
	    name_sources(r) == 0 && name_dests(r) == 0 &&
	    build_axes(r) == 0 && build_cells(r, src, dst) == 0)
		rc = 0;
	else
		snprintf(err, errlen, "out of memory merging %zu results",
			 r->record_count);
	free(src);
	free(dst);
	return rc;
}

struct report_cell *report_cell(const struct report *r, size_t row,
				size_t col)
{
	return &r->cells[row * r->col_count + col];
}

bool report_cell_noteworthy(const struct report_cell *c)
{
	return c->probed &&
	       (c->status != REPORT_REACHABLE || c->received != c->sent ||
		c->tclass_remarked || c->findings.count || c->errors.count);
}

bool report_next_noteworthy(const struct report *r, size_t *at, size_t *row,
			    size_t *col)
{
	for (; *at < r->row_count * r->col_count; (*at)++)
		if (report_cell_noteworthy(&r->cells[*at])) {
			*row = *at / r->col_count;
			*col = *at % r->col_count;
			(*at)++;
			return true;
		}
	return false;
}

bool report_all_fine(const struct report *r)
{
	if (r->failed_count)
		return false;
	for (size_t i = 0; i < r->row_count * r->col_count; i++) {
		const struct report_cell *c = &r->cells[i];

		if (c->probed && (c->status != REPORT_REACHABLE ||
				  c->received != c->sent))
			return false;
	}
	return true;
}

static void cell_free(struct report_cell *c)
{
	free(c->hops);
	free(c->remarks);
	free(c->medians);
	strvec_free(&c->verdicts);
	strvec_free(&c->findings);
	strvec_free(&c->errors);
}

void report_free(struct report *r)
{
	for (size_t i = 0; r->cells && i < r->row_count * r->col_count; i++)
		cell_free(&r->cells[i]);
	free(r->cells);
	for (size_t i = 0; i < r->record_count; i++)
		report_record_free(r->records[i]);
	free(r->records);
	for (size_t i = 0; i < r->node_count; i++) {
		struct report_node *n = &r->nodes[i];

		free(n->key);
		free(n->addr);
		free(n->host);
		free(n->device);
		free(n->source_name);
		free(n->dest_name);
	}
	free(r->nodes);
	free(r->rows);
	free(r->cols);
	for (size_t i = 0; i < r->failed_count; i++) {
		free(r->failed[i].where);
		free(r->failed[i].error);
	}
	free(r->failed);
	report_init(r);
}
