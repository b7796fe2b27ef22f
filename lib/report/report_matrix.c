/* Merging probe results into a source x destination matrix; see
 * report_matrix.h for what a cell aggregates and why. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/dest.h"
#include "base/gid.h"
#include "out/probe_schema.h"
#include "report/report_matrix.h"
#include "base/strmap.h"
#include "base/text_escape.h"

/* The tokens of probe's "status" since schema v1 (and of report -j). */
static const char *const status_names[REPORT_STATUS_COUNT] = {
	[REPORT_REACHABLE] = PROBE_STATUS_NAME_REACHABLE,
	[REPORT_PARTIAL] = PROBE_STATUS_NAME_PARTIAL,
	[REPORT_UNREACHABLE] = PROBE_STATUS_NAME_UNREACHABLE,
	[REPORT_ERROR] = PROBE_STATUS_NAME_ERROR,
};

static const char *const status_words[REPORT_STATUS_COUNT] = {
	[REPORT_REACHABLE] = "reachable",
	[REPORT_PARTIAL] = "partial loss",
	[REPORT_UNREACHABLE] = "unreachable",
	[REPORT_ERROR] = "error",
};

const char *report_status_name(enum report_status status)
{
	return status < REPORT_STATUS_COUNT ? status_names[status] : "?";
}

const char *report_status_word(enum report_status status)
{
	return status < REPORT_STATUS_COUNT ? status_words[status] : "?";
}

int report_status_parse(const char *name, enum report_status *status)
{
	for (int i = 0; i < REPORT_STATUS_COUNT; i++)
		if (strcmp(name, status_names[i]) == 0 ||
		    strcmp(name, status_words[i]) == 0) {
			*status = (enum report_status)i;
			return 0;
		}
	return -1;
}

/* Unambiguous whatever bytes the texts hold: each one's length first
 * ("-" for none). Built without stdio: a key is made per record. */
static size_t key_part(char *out, const char *text)
{
	char digits[24];
	size_t len, n = 0, k;

	if (!text) {
		if (out)
			*out = '-';
		return 1;
	}
	len = strlen(text);
	k = len;
	do
		digits[n++] = (char)('0' + k % 10);
	while (k /= 10);
	if (out) {
		for (k = 0; k < n; k++)
			out[k] = digits[n - 1 - k];
		out[n] = ':';
		memcpy(out + n + 1, text, len);
	}
	return n + 1 + len;
}

/* A key of up to three texts and a tag byte; NULL when out of memory. */
static char *key_of(char tag, const char *a, const char *b, const char *c)
{
	size_t n = 1 + key_part(NULL, a) + key_part(NULL, b) +
		   key_part(NULL, c);
	char *key = malloc(n + 1), *p = key;

	if (!key)
		return NULL;
	*p++ = tag;
	p += key_part(p, a);
	p += key_part(p, b);
	p += key_part(p, c);
	*p = '\0';
	return key;
}

/* The run index's key: without an id, a run is its input's results of a
 * source. */
static char *run_key(const char *run_id, const char *input, const char *host,
		     const char *device)
{
	return key_of(run_id ? 'i' : 'n', run_id ? run_id : input, host,
		      device);
}

size_t report_run_get(struct report *r, const char *run_id, const char *input,
		      const char *host, const char *device)
{
	struct report_run *run;
	char *key = run_key(run_id, input, host, device);
	void **slot = key ? strmap_slot(&r->run_index, key) : NULL;

	free(key);
	if (!slot)
		return SIZE_MAX;
	/* The index holds position + 1: a hash look-up per record, where a
	 * scan of every run made a fabric's records quadratic. */
	if (*slot)
		return (size_t)(uintptr_t)*slot - 1;
	if (r->run_count == r->run_capacity) {
		size_t cap = r->run_capacity ? r->run_capacity * 2 : 16;
		struct report_run *grown = realloc(r->runs, cap * sizeof(*grown));

		if (!grown)
			return SIZE_MAX;
		r->runs = grown;
		r->run_capacity = cap;
	}
	run = &r->runs[r->run_count];
	memset(run, 0, sizeof(*run));
	run->start = -1;
	run->order = r->run_count;
	run->run_id = run_id ? strdup(run_id) : NULL;
	run->input = strdup(input);
	run->host = strdup(host);
	run->device = device ? strdup(device) : NULL;
	if ((run_id && !run->run_id) || !run->input || !run->host ||
	    (device && !run->device)) {
		free(run->run_id);
		free(run->input);
		free(run->host);
		free(run->device);
		return SIZE_MAX;
	}
	*slot = (void *)(uintptr_t)(r->run_count + 1);
	return r->run_count++;
}

static int digits(const char *s, int n, int *out)
{
	*out = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*out = *out * 10 + (s[i] - '0');
	}
	return 0;
}

/* RFC 3339, section 5.6: full-date "T" full-time, the time-offset Z or
 * +-HH:MM (a lower-case t and z are allowed too). */
double report_parse_time(const char *text)
{
	struct tm tm = { 0 };
	int year, mon, day, hour, min, sec, oh = 0, om = 0, sign = 0;
	const char *p = text;
	double frac = 0, scale = 0.1;
	time_t t;

	if (strlen(text) < 20 || digits(p, 4, &year) || p[4] != '-' ||
	    digits(p + 5, 2, &mon) || p[7] != '-' || digits(p + 8, 2, &day) ||
	    (p[10] != 'T' && p[10] != 't') || digits(p + 11, 2, &hour) ||
	    p[13] != ':' || digits(p + 14, 2, &min) || p[16] != ':' ||
	    digits(p + 17, 2, &sec))
		return -1;
	p += 19;
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -1;
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			frac += (*p - '0') * scale;
	}
	if ((*p == 'Z' || *p == 'z') && !p[1]) {
		sign = 0;
	} else if ((*p == '+' || *p == '-') && strlen(p) == 6 &&
		   !digits(p + 1, 2, &oh) && p[3] == ':' &&
		   !digits(p + 4, 2, &om) && oh < 24 && om < 60) {
		sign = *p == '+' ? 1 : -1;
	} else {
		return -1;
	}
	if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 ||
	    min > 59 || sec > 60)
		return -1;
	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	tm.tm_min = min;
	tm.tm_sec = sec;
	t = timegm(&tm);
	return (double)t + frac - sign * (oh * 3600.0 + om * 60.0);
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
	return strvec_add_len(v, s, strlen(s));
}

int strvec_add_len(struct strvec *v, const char *s, size_t len)
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
	copy = strndup(s, len);
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

/* A record's strings and the texts of its cell, shared: a thousand hosts
 * probing each other repeat the same few hundred names, addresses and
 * verdicts a million times, which copies of their own would hold in
 * memory a million times. *s becomes the report's copy. */
static int intern(struct report *r, char **s)
{
	const char *k;

	if (!*s)
		return 0;
	k = strmap_key(&r->texts, *s);
	if (!k)
		return -1;
	free(*s);
	*s = (char *)k;
	return 0;
}

/* No room to spare in a record's lists: a million of them. */
static void shrink(struct strvec *v)
{
	char **items;

	if (v->count == v->capacity)
		return;
	if (!v->count) {
		free(v->items);
		v->items = NULL;
		v->capacity = 0;
		return;
	}
	items = realloc(v->items, v->count * sizeof(*items));
	if (items) {
		v->items = items;
		v->capacity = v->count;
	}
}

/* A record the report holds: its strings are the report's. */
static void record_release(struct report_record *rec)
{
	free(rec->verdicts.items);
	free(rec->findings.items);
	free(rec);
}

int report_add(struct report *r, struct report_record *rec)
{
	char **own[] = { &rec->host, &rec->device, &rec->sgid,
			 &rec->dest_text, &rec->dgid, &rec->error };
	size_t n = sizeof(own) / sizeof(*own), done = 0;
	size_t all = n + rec->verdicts.count + rec->findings.count;

	shrink(&rec->verdicts);
	shrink(&rec->findings);
	for (; done < all; done++) {
		size_t k = done - n;
		char **s = done < n ? own[done]
			 : k < rec->verdicts.count
				 ? &rec->verdicts.items[k]
				 : &rec->findings.items[k - rec->verdicts.count];

		if (intern(r, s))
			break;
	}
	if (done < all) {
		/* The strings not yet the report's are still the record's. */
		for (size_t i = done; i < all; i++) {
			size_t k = i - n;

			free(i < n ? *own[i]
			     : k < rec->verdicts.count
				     ? rec->verdicts.items[k]
				     : rec->findings.items[k - rec->verdicts.count]);
		}
		record_release(rec);
		return -1;
	}
	if (r->record_count == r->record_capacity) {
		size_t cap = r->record_capacity ? r->record_capacity * 2 : 64;
		struct report_record **items =
			realloc(r->records, cap * sizeof(*items));

		if (!items) {
			record_release(rec);
			return -1;
		}
		r->records = items;
		r->record_capacity = cap;
	}
	r->records[r->record_count++] = rec;
	return 0;
}

int report_add_failed_run(struct report *r, const char *where,
			  const char *error, int exit_status,
			  const char *host, size_t run)
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
	f->host = host ? strdup(host) : NULL;
	f->run = run;
	if (!f->where || !f->error || (host && !f->host)) {
		free(f->where);
		free(f->error);
		free(f->host);
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

/* What the records agree on, found in one pass over them: the source
 * GID of each prober port and of each host (from results with an AH), and
 * the DGID of each destination text. A record without its own address
 * looks it up here; the scan of every record per record that this
 * replaces made IB results without a GRH, and error records, quadratic. */
struct agreement {
	struct strmap port_sgid, host_sgid, text_dgid;
	/* report_addr_normalize() of each address text met: a fabric's
	 * million records name a few thousand addresses. */
	struct strmap normalized;
};

/* Two records that disagree leave this in the slot: no address. */
static const char disagree[] = "";

static int agree(struct strmap *m, const char *key, const char *value)
{
	void **slot = strmap_slot(m, key);

	if (!slot)
		return -1;
	if (!*slot)
		*slot = (void *)value;
	else if (*slot != disagree && strcmp(*slot, value) != 0)
		*slot = (void *)disagree;
	return 0;
}

/* The value all records of key agree on; NULL when none or they differ. */
static const char *agreed(const struct strmap *m, const char *key)
{
	const char *v = strmap_get(m, key);

	return v == disagree ? NULL : v;
}

static char *port_key(const struct report_record *rec)
{
	char port[16];

	snprintf(port, sizeof(port), "%u", rec->port_num);
	return key_of('p', rec->host, rec->device, port);
}

static int agreement_build(const struct report *r, struct agreement *ag)
{
	for (size_t i = 0; i < r->record_count; i++) {
		const struct report_record *o = r->records[i];

		if (o->has_ah && o->sgid) {
			char *key = port_key(o);
			int rc = key ? agree(&ag->port_sgid, key, o->sgid) : -1;

			free(key);
			if (rc || agree(&ag->host_sgid, o->host, o->sgid))
				return -1;
		}
		if (o->dgid && agree(&ag->text_dgid, o->dest_text, o->dgid))
			return -1;
	}
	return 0;
}

static void agreement_free(struct agreement *ag)
{
	strmap_free(&ag->port_sgid);
	strmap_free(&ag->host_sgid);
	strmap_free(&ag->text_dgid);
	for (size_t i = 0; i < ag->normalized.capacity; i++)
		if (ag->normalized.slots[i].key &&
		    ag->normalized.slots[i].value != disagree)
			free(ag->normalized.slots[i].value);
	strmap_free(&ag->normalized);
}

/* report_addr_normalize(), once per text ("disagree" marks a text that is
 * no address); -2 when out of memory. */
static int normalize(struct agreement *ag, const char *text, char *addr,
		     size_t len)
{
	void **slot = strmap_slot(&ag->normalized, text);

	if (!slot)
		return -2;
	if (!*slot) {
		if (report_addr_normalize(text, addr, len) != 0)
			*slot = (void *)disagree;
		else if (!(*slot = strdup(addr)))
			return -2;
	}
	if (*slot == disagree)
		return -1;
	/* It came from addr[len] the first time: it fits. */
	memcpy(addr, *slot, strlen(*slot) + 1);
	return 0;
}

/* prefix and text in one string, NULL when out of memory: a key per
 * record, without printf. */
static char *concat(const char *prefix, const char *text)
{
	size_t a = strlen(prefix), b = strlen(text);
	char *s = malloc(a + b + 1);

	if (s) {
		memcpy(s, prefix, a);
		memcpy(s + a, text, b + 1);
	}
	return s;
}

/* A source is its GID; without one, its host and device. A result that
 * failed before it had an AH names the port's first GID (link-local on
 * RoCE): it joins the row of its port's other results instead. */
static char *source_key(struct agreement *ag,
			const struct report_record *rec, char *addr, size_t len)
{
	const char *sgid = NULL;
	int rc = -1;

	if (!rec->has_ah) {
		char *key = port_key(rec);

		if (!key)
			return NULL;
		sgid = agreed(&ag->port_sgid, key);
		free(key);
	}
	if (!sgid)
		sgid = rec->sgid;
	if (sgid && (rc = normalize(ag, sgid, addr, len)) == 0)
		return concat("addr:", addr);
	if (rc == -2)
		return NULL;
	addr[0] = '\0';
	return format("src:%s/%s", rec->host, rec->device);
}

/* A destination is the responder's address: the AH's DGID, else one
 * learnt from another set, else the text itself when it is an address,
 * else the address of the source of that host name (a responder that
 * answered nobody still lines up with its row when it probed). */
static char *dest_key(struct agreement *ag,
		      const struct report_record *rec, char *addr, size_t len)
{
	const char *dgid = rec->dgid ? rec->dgid
				     : agreed(&ag->text_dgid, rec->dest_text);
	struct dest d;
	char err[256];
	bool have = false;
	int rc;

	if (dgid && (rc = normalize(ag, dgid, addr, len)) != -1)
		return rc ? NULL : concat("addr:", addr);
	if (dest_parse(rec->dest_text, &d, err, sizeof(err)) == 0) {
		if (d.has_gid) {
			gid_format_address(&d.gid, addr, len);
			have = true;
		} else if (d.kind == DEST_HOST &&
			   (dgid = agreed(&ag->host_sgid, d.name)) &&
			   report_addr_normalize(dgid, addr, len) == 0) {
			have = true;
		}
		dest_clear(&d);
	}
	if (have)
		return concat("addr:", addr);
	addr[0] = '\0';
	return concat("dst:", rec->dest_text);
}

static struct report_node *node_get(struct report *r, char *key,
				    const char *addr)
{
	size_t *capacity = &r->node_capacity;
	void **slot = strmap_slot(&r->node_index, key);
	struct report_node *n;

	if (!slot) {
		free(key);
		return NULL;
	}
	/* Position + 1, as report_run_get's index. */
	if (*slot) {
		free(key);
		return &r->nodes[(size_t)(uintptr_t)*slot - 1];
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
	n->expect_index = -1;
	n->addr = addr[0] ? strdup(addr) : NULL;
	if (addr[0] && !n->addr) {
		r->node_count--;
		free(key);
		return NULL;
	}
	*slot = (void *)(uintptr_t)r->node_count;
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

	/* --expect's order first, then the others as without it. */
	if (a->expect_index != b->expect_index) {
		if (a->expect_index < 0 || b->expect_index < 0)
			return a->expect_index < 0 ? 1 : -1;
		return a->expect_index < b->expect_index ? -1 : 1;
	}
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
	const struct report_record **recs;
	double *grown;
	int rc = 0;

	recs = realloc(c->set_records, (c->sets + 1) * sizeof(*recs));
	if (!recs)
		return -1;
	c->set_records = recs;
	c->set_records[c->sets] = rec;
	if (!c->probed || rec->status > c->status)
		c->status = rec->status;
	c->probed = true;
	c->interrupted |= rec->interrupted;
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
	return rc ? -1 : 0;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static int cmp_param(long a, long b)
{
	return (a > b) - (a < b);
}

/* The worst set first; then by parameters, so that the order of the
 * inputs does not show. */
static int set_order(const void *pa, const void *pb)
{
	const struct report_record *a = *(const struct report_record *const *)pa;
	const struct report_record *b = *(const struct report_record *const *)pb;
	int c;

	if (a->status != b->status)
		return a->status > b->status ? -1 : 1;
	if ((c = cmp_param(a->params.hop_limit, b->params.hop_limit)) ||
	    (c = cmp_param(a->params.traffic_class, b->params.traffic_class)) ||
	    (c = cmp_param(a->params.flow_label, b->params.flow_label)) ||
	    (c = cmp_param(a->params.sl, b->params.sl)))
		return c;
	return cmp_param((long)a->run, (long)b->run);
}

/* A text of a cell, the report's copy, once. */
static int cell_text_add(struct strmap *texts, struct strvec *v,
			 const char *text)
{
	const char *k = strmap_key(texts, text);

	if (!k)
		return -1;
	for (size_t i = 0; i < v->count; i++)
		if (v->items[i] == k)
			return 0;
	if (v->count == v->capacity) {
		size_t cap = v->capacity ? v->capacity * 2 : 1;
		char **items = realloc(v->items, cap * sizeof(*items));

		if (!items)
			return -1;
		v->items = items;
		v->capacity = cap;
	}
	v->items[v->count++] = (char *)k;
	return 0;
}

/* The parameters that vary among a pair's sets, as a label per set. */
static int label_sets(struct strmap *texts, struct report_cell *c)
{
	bool hl = false, tc = false, fl = false, sl = false;
	const struct report_params *p0 = &c->set_records[0]->params;

	c->set_labels = calloc(c->sets, sizeof(*c->set_labels));
	if (!c->set_labels)
		return -1;
	for (size_t k = 1; k < c->sets; k++) {
		const struct report_params *p = &c->set_records[k]->params;

		hl |= p->hop_limit != p0->hop_limit;
		tc |= p->traffic_class != p0->traffic_class;
		fl |= p->flow_label != p0->flow_label;
		sl |= p->sl != p0->sl;
	}
	for (size_t k = 0; k < c->sets; k++) {
		const struct report_params *p = &c->set_records[k]->params;
		char label[128] = "", part[40];

		if (hl) {
			snprintf(part, sizeof(part), p->hop_limit < 0 ? "hl ?"
				 : "hl %d", p->hop_limit);
			strcat(label, part);
		}
		if (tc) {
			if (p->traffic_class < 0)
				snprintf(part, sizeof(part), "tclass ?");
			else
				snprintf(part, sizeof(part), p->traffic_class
					 ? "tclass 0x%02x" : "tclass %d",
					 p->traffic_class);
			strcat(strcat(label, label[0] ? " " : ""), part);
		}
		if (fl) {
			if (p->flow_label < 0)
				snprintf(part, sizeof(part), "fl ?");
			else
				snprintf(part, sizeof(part), p->flow_label
					 ? "fl 0x%lx" : "fl %ld", p->flow_label);
			strcat(strcat(label, label[0] ? " " : ""), part);
		}
		if (sl) {
			snprintf(part, sizeof(part), p->sl < 0 ? "sl ?"
				 : "sl %d", p->sl);
			strcat(strcat(label, label[0] ? " " : ""), part);
		}
		/* The same parameters twice: two runs, or a repeated set. */
		if (!label[0] && c->sets > 1)
			snprintf(label, sizeof(label), "set %zu", k + 1);
		c->set_labels[k] = (char *)strmap_key(texts, label);
		if (!c->set_labels[k])
			return -1;
	}
	return 0;
}

/* How each set fared, when they did not all fare alike:
 * "tclass 0x28: 0 of 10 answered; tclass 0: 10 of 10". */
static int add_set_outcomes(struct strmap *texts, struct report_cell *c)
{
	const struct report_record *first = c->set_records[0];
	bool differ = false;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	for (size_t k = 1; k < c->sets; k++) {
		const struct report_record *o = c->set_records[k];

		differ |= o->status != first->status ||
			  (uint64_t)o->received * first->sent !=
				  (uint64_t)first->received * o->sent;
	}
	if (!differ)
		return 0;
	f = open_memstream(&text, &len);
	if (!f)
		return -1;
	for (size_t k = 0; k < c->sets; k++) {
		const struct report_record *o = c->set_records[k];

		fprintf(f, "%s%s: ", k ? "; " : "", c->set_labels[k]);
		if (o->status == REPORT_ERROR)
			fputs("error", f);
		else
			fprintf(f, "%u of %u%s", o->received, o->sent,
				k ? "" : " answered");
	}
	if (fclose(f))
		return -1;
	rc = cell_text_add(texts, &c->findings, text);
	free(text);
	return rc;
}

/* A finding (or error) of some of the sets names them. */
static int add_labelled(struct strmap *texts, struct report_cell *c,
			struct strvec *to,
			const char *text,
			bool (*has)(const struct report_record *rec,
				    const char *text))
{
	char *labelled = NULL;
	size_t len = 0, with = 0;
	FILE *f;
	int rc;

	for (size_t k = 0; k < c->sets; k++)
		with += has(c->set_records[k], text);
	if (with == c->sets)
		return cell_text_add(texts, to, text);
	f = open_memstream(&labelled, &len);
	if (!f)
		return -1;
	for (size_t k = 0, n = 0; k < c->sets; k++) {
		bool again = false;

		if (!has(c->set_records[k], text))
			continue;
		/* Two runs of the same set: named once. */
		for (size_t j = 0; j < k && !again; j++)
			again = has(c->set_records[j], text) &&
				strcmp(c->set_labels[j], c->set_labels[k]) == 0;
		if (!again)
			fprintf(f, "%s%s", n++ ? ", " : "", c->set_labels[k]);
	}
	fprintf(f, ": %s", text);
	if (fclose(f))
		return -1;
	rc = cell_text_add(texts, to, labelled);
	free(labelled);
	return rc;
}

static bool has_finding(const struct report_record *rec, const char *text)
{
	for (size_t i = 0; i < rec->findings.count; i++)
		if (strcmp(rec->findings.items[i], text) == 0)
			return true;
	return false;
}

static bool has_error(const struct report_record *rec, const char *text)
{
	return rec->error && strcmp(rec->error, text) == 0;
}

static int cell_finish(struct strmap *texts, struct report_cell *c)
{
	size_t n = c->median_count;
	bool all_reachable = true;
	int rc = 0;

	if (n) {
		qsort(c->medians, n, sizeof(*c->medians), cmp_double);
		c->rtt_median_us = n % 2 ? c->medians[n / 2]
					 : (c->medians[n / 2 - 1] +
					    c->medians[n / 2]) / 2;
	}
	qsort(c->set_records, c->sets, sizeof(*c->set_records), set_order);
	for (size_t k = 0; k < c->sets; k++)
		all_reachable &= c->set_records[k]->status == REPORT_REACHABLE;
	/* Some answered, not all: whatever the worst set says, the pair
	 * works in part (10 of 20 is no "unreachable"). */
	if (c->received && (c->received < c->sent || !all_reachable))
		c->status = REPORT_PARTIAL;
	/* Only the median of them is kept. */
	free(c->medians);
	c->medians = NULL;
	c->median_count = 0;
	if (label_sets(texts, c))
		return -1;
	if (c->sets > 1)
		rc |= add_set_outcomes(texts, c);
	for (size_t k = 0; k < c->sets; k++) {
		const struct report_record *rec = c->set_records[k];

		for (size_t i = 0; i < rec->verdicts.count; i++)
			rc |= cell_text_add(texts, &c->verdicts,
					    rec->verdicts.items[i]);
		for (size_t i = 0; i < rec->findings.count; i++)
			rc |= add_labelled(texts, c, &c->findings,
					   rec->findings.items[i], has_finding);
		if (rec->error)
			rc |= add_labelled(texts, c, &c->errors, rec->error,
					   has_error);
	}
	return rc ? -1 : 0;
}

static size_t pair_at(const struct report *r, const size_t *src,
		      const size_t *dst, size_t record)
{
	return (size_t)r->nodes[src[record]].row * r->col_count +
	       (size_t)r->nodes[dst[record]].col;
}

/* A cell for each probed pair only (report_matrix.h): first where each
 * goes, then the records merged in their order, then each finished in
 * the matrix's order. */
static int build_cells(struct report *r, const size_t *src, const size_t *dst)
{
	size_t n = r->row_count * r->col_count;

	r->cell_at = calloc(n ? n : 1, sizeof(*r->cell_at));
	if (!r->cell_at)
		return -1;
	for (size_t i = 0; i < r->record_count; i++) {
		size_t at = pair_at(r, src, dst, i);

		if (!r->cell_at[at])
			r->cell_at[at] = (uint32_t)++r->cell_count;
	}
	r->cells = calloc(r->cell_count ? r->cell_count : 1, sizeof(*r->cells));
	if (!r->cells)
		return -1;
	for (size_t i = 0; i < r->record_count; i++)
		if (cell_merge(&r->cells[r->cell_at[pair_at(r, src, dst, i)] - 1],
			       r->records[i]))
			return -1;
	for (size_t at = 0; at < n; at++) {
		struct report_cell *c;

		if (!r->cell_at[at])
			continue;
		c = &r->cells[r->cell_at[at] - 1];
		if (cell_finish(&r->texts, c))
			return -1;
		r->pairs++;
		r->status_count[c->status]++;
	}
	/* The rest of the row of a host whose run failed: that is why
	 * (report_cell() gives the cell that says so). */
	r->unprobed[1].run_failed = true;
	for (size_t i = 0; i < r->row_count; i++)
		r->sources += r->rows[i]->has_results;
	return 0;
}

/* Every record's source and destination node; names from the records. */
static int build_nodes(struct report *r, size_t *src, size_t *dst)
{
	struct agreement ag = { 0 };
	char addr[64];
	int rc = agreement_build(r, &ag);

	for (size_t i = 0; i < r->record_count && rc == 0; i++) {
		const struct report_record *rec = r->records[i];
		struct report_node *n;
		char *key = source_key(&ag, rec, addr, sizeof(addr));

		n = key ? node_get(r, key, addr) : NULL;
		if (!n) {
			rc = -1;
			break;
		}
		if (!n->host) {
			n->host = strdup(rec->host);
			n->device = strdup(rec->device);
			if (!n->host || !n->device) {
				rc = -1;
				break;
			}
		}
		n->has_results = true;
		src[i] = (size_t)(n - r->nodes);
		key = dest_key(&ag, rec, addr, sizeof(addr));
		n = key ? node_get(r, key, addr) : NULL;
		if (!n || keep_lowest(&n->dest_name, rec->dest_text) ||
		    strvec_add_unique(&n->dest_texts, rec->dest_text)) {
			rc = -1;
			break;
		}
		dst[i] = (size_t)(n - r->nodes);
	}
	agreement_free(&ag);
	return rc;
}

/* Do runs a and b come from one source: one host, and one device or an
 * error record's unknown one? */
static bool one_source(const struct report_run *a, const struct report_run *b)
{
	return strcmp(a->host, b->host) == 0 &&
	       (!a->device || !b->device || strcmp(a->device, b->device) == 0);
}

static bool newer(const struct report_run *a, const struct report_run *b)
{
	if (a->start != b->start)
		return a->start > b->start;
	return a->order > b->order;
}

/* --latest: only the newest run of each source stays, with its records
 * and its failed run. */
static void drop_older_runs(struct report *r)
{
	size_t kept = 0;

	for (size_t i = 0; i < r->run_count; i++)
		for (size_t j = 0; j < r->run_count; j++)
			if (j != i && one_source(&r->runs[i], &r->runs[j]) &&
			    newer(&r->runs[j], &r->runs[i]))
				r->runs[i].dropped = true;
	for (size_t i = 0; i < r->record_count; i++) {
		if (r->runs[r->records[i]->run].dropped)
			record_release(r->records[i]);
		else
			r->records[kept++] = r->records[i];
	}
	r->record_count = kept;
	kept = 0;
	for (size_t i = 0; i < r->failed_count; i++) {
		struct report_failed_run *f = &r->failed[i];

		if (f->run != SIZE_MAX && r->runs[f->run].dropped) {
			free(f->where);
			free(f->error);
			free(f->host);
		} else {
			r->failed[kept++] = *f;
		}
	}
	r->failed_count = kept;
}

static int add_format(struct strvec *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int add_format(struct strvec *v, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n, rc;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	rc = strvec_add_unique(v, s);
	free(s);
	return rc;
}

/* Two runs of one source in the input (without --latest): its cells mix
 * them, which a reader should know. One warning per host. Interrupted
 * runs are noted, and mark their results. */
static int name_runs(struct report *r)
{
	int rc = 0;

	for (size_t i = 0; i < r->run_count; i++) {
		const struct report_run *a = &r->runs[i], *newest = a;
		size_t mixed = 1;
		bool first = true;

		if (a->dropped)
			continue;
		for (size_t j = 0; j < r->run_count; j++) {
			const struct report_run *b = &r->runs[j];

			if (j == i || b->dropped || strcmp(a->host, b->host))
				continue;
			if (!one_source(a, b))
				continue;
			first &= j > i;
			mixed++;
			if (newer(b, newest))
				newest = b;
		}
		if (mixed > 1 && first)
			rc |= add_format(&r->warnings, "%s: %zu runs mixed, "
					 "newest %s; --latest keeps only it",
					 a->host, mixed,
					 newest->start_time ? newest->start_time
							    : "unknown");
		if (a->interrupted)
			rc |= add_format(&r->notes, "%s: the run started %s was "
					 "interrupted: its results are partial",
					 a->host, a->start_time ? a->start_time
								: "at an unknown time");
	}
	for (size_t i = 0; i < r->record_count; i++)
		r->records[i]->interrupted |=
			r->runs[r->records[i]->run].interrupted;
	if (r->mcast_records)
		rc |= add_format(&r->notes, "%zu records of multicast group "
				 "probes (probe mcast:) are not in the matrix: "
				 "probe's own output names each group's "
				 "members", r->mcast_records);
	return rc ? -1 : 0;
}

/* Does this node stand for the host (or address) text h: as a source,
 * by its address (as report shows it: 10.1.0.11), as the text probers
 * gave, or by name? */
static bool node_is(const struct report_node *n, const char *h)
{
	if ((n->host && strcmp(n->host, h) == 0) ||
	    (n->addr && strcmp(n->addr, h) == 0) ||
	    (n->source_name && strcmp(n->source_name, h) == 0) ||
	    (n->dest_name && strcmp(n->dest_name, h) == 0))
		return true;
	for (size_t i = 0; i < n->dest_texts.count; i++)
		if (strcmp(n->dest_texts.items[i], h) == 0)
			return true;
	return false;
}

/* A node for a host that no result names: a row of a failed run, or
 * an expected host's row and column. */
static struct report_node *node_for_host(struct report *r, const char *host,
					 bool both_axes)
{
	char *key = format("host:%s", host);
	struct report_node *n = key ? node_get(r, key, "") : NULL;

	if (!n)
		return NULL;
	if (!n->host && !(n->host = strdup(host)))
		return NULL;
	if (!n->source_name && !(n->source_name = strdup(host)))
		return NULL;
	if (both_axes && !n->dest_name && !(n->dest_name = strdup(host)))
		return NULL;
	return n;
}

/* A failed run shows in the row of its host: the host's sources, else
 * the destination of that name made a row too, else a row of its own. */
static int place_failed_runs(struct report *r)
{
	for (size_t k = 0; k < r->failed_count; k++) {
		const char *host = r->failed[k].host;
		struct report_node *n = NULL;
		bool placed = false;

		if (!host)
			continue;
		for (size_t i = 0; i < r->node_count; i++)
			if (r->nodes[i].has_results &&
			    strcmp(r->nodes[i].host, host) == 0) {
				r->nodes[i].failed_runs++;
				placed = true;
			}
		for (size_t i = 0; i < r->node_count && !placed; i++)
			if (node_is(&r->nodes[i], host))
				n = &r->nodes[i];
		if (placed)
			continue;
		if (n) {
			if (!n->host && !(n->host = strdup(host)))
				return -1;
			if (!n->source_name &&
			    !(n->source_name = strdup(host)))
				return -1;
		} else if (!(n = node_for_host(r, host, false))) {
			return -1;
		}
		n->failed_runs++;
	}
	return 0;
}

/* Every expected host on both axes, at its place in --expect; the ones
 * that sent nothing are named. */
static int place_expected(struct report *r)
{
	for (size_t k = 0; k < r->expect.count; k++) {
		const char *h = r->expect.items[k];
		struct report_node *row = NULL, *col = NULL, *any = NULL;
		bool sent = false;

		for (size_t i = 0; i < r->node_count; i++) {
			struct report_node *n = &r->nodes[i];

			if (!node_is(n, h))
				continue;
			if (n->expect_index < 0)
				n->expect_index = (int)k;
			any = any ? any : n;
			row = row || !n->source_name ? row : n;
			col = col || !n->dest_name ? col : n;
			sent |= n->has_results || n->failed_runs;
		}
		if (!any) {
			any = node_for_host(r, h, true);
			if (!any)
				return -1;
			any->expect_index = (int)k;
		} else if (!row) {
			if (!(any->source_name = strdup(h)) ||
			    (!any->host && !(any->host = strdup(h))))
				return -1;
		} else if (!col) {
			if (!(row->dest_name = strdup(h)))
				return -1;
		}
		if (!sent && strvec_add_unique(&r->silent_hosts, h))
			return -1;
	}
	return 0;
}

struct index_list {
	size_t *at;
	size_t count;
};

static int index_add(struct index_list *l, size_t i)
{
	size_t *grown = realloc(l->at, (l->count + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	l->at = grown;
	l->at[l->count++] = i;
	return 0;
}

static int add_never_probed(struct report *r, const char *src,
			    const char *dst, size_t *capacity)
{
	struct report_pair *p;

	if (r->never_probed_count == *capacity) {
		size_t cap = *capacity ? *capacity * 2 : 16;
		struct report_pair *grown =
			realloc(r->never_probed, cap * sizeof(*grown));

		if (!grown)
			return -1;
		r->never_probed = grown;
		*capacity = cap;
	}
	p = &r->never_probed[r->never_probed_count];
	p->source = strdup(src);
	p->destination = strdup(dst);
	if (!p->source || !p->destination) {
		free(p->source);
		free(p->destination);
		return -1;
	}
	r->never_probed_count++;
	return 0;
}

/* Pairs of expected hosts without a result, from hosts that sent some
 * (a silent host or a failed run is named once, not once per pair). The
 * rows and columns of each host are found once: a fabric of a thousand
 * hosts is a million pairs, each a look at a cell or two. */
static int find_never_probed(struct report *r)
{
	size_t n = r->expect.count, capacity = 0;
	struct index_list *rows = calloc(n ? n : 1, sizeof(*rows));
	struct index_list *cols = calloc(n ? n : 1, sizeof(*cols));
	int rc = rows && cols ? 0 : -1;

	for (size_t k = 0; k < n && rc == 0; k++) {
		const char *h = r->expect.items[k];

		for (size_t i = 0; i < r->row_count && rc == 0; i++)
			if (r->rows[i]->has_results && node_is(r->rows[i], h))
				rc = index_add(&rows[k], i);
		for (size_t j = 0; j < r->col_count && rc == 0; j++)
			if (node_is(r->cols[j], h))
				rc = index_add(&cols[k], j);
	}
	for (size_t a = 0; a < n && rc == 0; a++) {
		for (size_t b = 0; b < n && rows[a].count && rc == 0; b++) {
			bool probed = false, self = false;

			if (b == a)
				continue;
			for (size_t x = 0; x < rows[a].count; x++)
				for (size_t y = 0; y < cols[b].count; y++) {
					size_t i = rows[a].at[x];
					size_t j = cols[b].at[y];

					self |= r->cols[j] == r->rows[i];
					probed |= report_cell(r, i, j)->probed;
				}
			if (!probed && !self)
				rc = add_never_probed(r, r->expect.items[a],
						      r->expect.items[b],
						      &capacity);
		}
	}
	for (size_t k = 0; k < n && rows && cols; k++) {
		free(rows[k].at);
		free(cols[k].at);
	}
	free(rows);
	free(cols);
	return rc;
}

int report_build(struct report *r, char *err, size_t errlen)
{
	size_t *src, *dst;
	int rc = -1;

	if (r->latest)
		drop_older_runs(r);
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
	if (src && dst && name_runs(r) == 0 && build_nodes(r, src, dst) == 0 &&
	    name_sources(r) == 0 && name_dests(r) == 0 &&
	    place_failed_runs(r) == 0 && place_expected(r) == 0 &&
	    build_axes(r) == 0 && build_cells(r, src, dst) == 0 &&
	    find_never_probed(r) == 0)
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
	uint32_t at = r->cell_at[row * r->col_count + col];

	if (at)
		return &r->cells[at - 1];
	/* Shared and never written: the cast only fits the signature. */
	return (struct report_cell *)&r->unprobed[r->rows[row]->failed_runs &&
						  r->cols[col] != r->rows[row]];
}

bool report_cell_noteworthy(const struct report_cell *c)
{
	return c->probed &&
	       (c->status != REPORT_REACHABLE || c->received != c->sent ||
		c->tclass_remarked || c->findings.count || c->errors.count ||
		c->interrupted);
}

bool report_next_noteworthy(const struct report *r, size_t *at, size_t *row,
			    size_t *col)
{
	for (; *at < r->row_count * r->col_count; (*at)++)
		if (r->cell_at[*at] &&
		    report_cell_noteworthy(&r->cells[r->cell_at[*at] - 1])) {
			*row = *at / r->col_count;
			*col = *at % r->col_count;
			(*at)++;
			return true;
		}
	return false;
}

bool report_all_fine(const struct report *r)
{
	if (r->failed_count || r->silent_hosts.count || r->never_probed_count)
		return false;
	for (size_t i = 0; i < r->cell_count; i++) {
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
	/* Their texts are the report's. */
	free(c->set_labels);
	free(c->set_records);
	free(c->verdicts.items);
	free(c->findings.items);
	free(c->errors.items);
}

void report_free(struct report *r)
{
	for (size_t i = 0; r->cells && i < r->cell_count; i++)
		cell_free(&r->cells[i]);
	free(r->cells);
	free(r->cell_at);
	for (size_t i = 0; i < r->record_count; i++)
		record_release(r->records[i]);
	free(r->records);
	for (size_t i = 0; i < r->node_count; i++) {
		struct report_node *n = &r->nodes[i];

		free(n->key);
		free(n->addr);
		free(n->host);
		free(n->device);
		free(n->source_name);
		free(n->dest_name);
		strvec_free(&n->dest_texts);
	}
	free(r->nodes);
	free(r->rows);
	free(r->cols);
	for (size_t i = 0; i < r->failed_count; i++) {
		free(r->failed[i].where);
		free(r->failed[i].error);
		free(r->failed[i].host);
	}
	free(r->failed);
	for (size_t i = 0; i < r->run_count; i++) {
		free(r->runs[i].run_id);
		free(r->runs[i].input);
		free(r->runs[i].host);
		free(r->runs[i].device);
		free(r->runs[i].start_time);
		free(r->runs[i].params_text);
	}
	free(r->runs);
	strmap_free(&r->run_index);
	strmap_free(&r->node_index);
	for (size_t i = 0; i < r->never_probed_count; i++) {
		free(r->never_probed[i].source);
		free(r->never_probed[i].destination);
	}
	free(r->never_probed);
	strvec_free(&r->expect);
	strvec_free(&r->silent_hosts);
	strvec_free(&r->warnings);
	strvec_free(&r->notes);
	strmap_free(&r->texts);
	report_init(r);
}
