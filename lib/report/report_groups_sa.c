/* The host groups of report --groups sa from the SA; see
 * report_groups_sa.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/pathrec.h"
#include "report/report_groups_sa.h"
#include "base/strmap.h"

/* "No records" (IBA 15.2.1.1, SA-specific status 3): what opensm answers
 * a Get that matches nothing (osm_sa_respond()). */
#define SA_STATUS_NO_RECORDS 0x0300

static int grow(void **items, size_t *capacity, size_t count, size_t size)
{
	size_t more;
	void *bigger;

	if (count < *capacity)
		return 0;
	more = *capacity ? *capacity * 2 : 64;
	bigger = reallocarray(*items, more, size);
	if (!bigger)
		return -1;
	*items = bigger;
	*capacity = more;
	return 0;
}

/* The index + 1 a map holds for key, added as next when new; 0 when out
 * of memory. */
static size_t index_of(struct strmap *m, const char *key, size_t next,
		       bool *added)
{
	void **slot = strmap_slot(m, key);

	*added = false;
	if (!slot)
		return 0;
	if (!*slot) {
		*slot = (void *)(uintptr_t)(next + 1);
		*added = true;
	}
	return (size_t)(uintptr_t)*slot;
}

int sa_groups_collect(struct sa_groups *s, const struct report *r)
{
	struct strmap ports = { 0 }, sources = { 0 };
	size_t port_cap = 0, source_cap = 0;
	char key[48], *skey = NULL;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < r->record_count; i++) {
		const struct report_record *rec = r->records[i];
		struct sa_groups_source src = { .host = rec->host };
		size_t at;
		bool added;

		snprintf(key, sizeof(key), "%u/%u", rec->lid, rec->port_num);
		at = index_of(&ports, key, s->port_count, &added);
		if (!at || grow((void **)&s->ports, &port_cap, s->port_count,
				sizeof(*s->ports)))
			goto out;
		if (added)
			s->ports[s->port_count++] = (struct sa_groups_port){
				.lid = rec->lid, .port = (uint8_t)rec->port_num };
		src.port = at - 1;
		if (!rec->sgid || report_addr_normalize(rec->sgid, src.addr,
							sizeof(src.addr)))
			src.addr[0] = '\0';
		free(skey);
		if (asprintf(&skey, "%zu %s %s", src.port, src.addr,
			     rec->host) < 0) {
			skey = NULL;
			goto out;
		}
		at = index_of(&sources, skey, s->source_count, &added);
		if (!at || grow((void **)&s->sources, &source_cap,
				s->source_count, sizeof(*s->sources)))
			goto out;
		if (added)
			s->sources[s->source_count++] = src;
	}
	rc = 0;
out:
	free(skey);
	strmap_free(&ports);
	strmap_free(&sources);
	if (rc)
		sa_groups_free(s);
	return rc;
}

static int by_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return (x > y) - (x < y);
}

/* The LinkRecords of every port with a LID; 0, or -1 with err set. */
static int fetch_links(struct sa_groups *s, struct sa_client *sa,
		       unsigned window, uint32_t timeout_ms, unsigned retries,
		       char *err, size_t errlen)
{
	size_t *asked = malloc((s->port_count + 1) * sizeof(*asked));
	struct sa_query *q = NULL;
	size_t n = 0, answered = 0;
	int rc = -1;

	if (!asked)
		goto oom;
	for (size_t i = 0; i < s->port_count; i++)
		if (s->ports[i].lid)
			asked[n++] = i;
	if (n == 0) {
		free(asked);
		return 0;
	}
	q = calloc(n, sizeof(*q));
	if (!q)
		goto oom;
	for (size_t k = 0; k < n; k++)
		sa_encode_link_get(q[k].request, s->ports[asked[k]].lid,
				   s->ports[asked[k]].port);
	s->link_queries = n;
	if (sa_client_run(sa, q, n, window, timeout_ms, retries, err, errlen))
		goto out;
	for (size_t k = 0; k < n; k++) {
		struct sa_groups_port *p = &s->ports[asked[k]];

		answered += q[k].result == SA_RESULT_OK ||
			    q[k].result == SA_RESULT_STATUS;
		p->link_status = LEAF_SA_FAILED;
		if (q[k].result == SA_RESULT_OK) {
			/* A Get is answered with its one record right
			 * after the SA header. */
			memcpy(p->link, q[k].response + SA_HEADER_BYTES,
			       LINK_RECORD_BYTES);
			p->has_link = true;
		} else if (q[k].result == SA_RESULT_STATUS &&
			   q[k].status == SA_STATUS_NO_RECORDS) {
			p->link_status = LEAF_NO_LINK;
		}
	}
	if (answered == 0) {
		char why[256];

		sa_query_describe(&q[0], "LinkRecord", timeout_ms, why,
				  sizeof(why));
		snprintf(err, errlen, "--groups sa: the SA answered none of "
			 "the %zu LinkRecord queries (%s)", n, why);
		goto out;
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	if (q)
		sa_queries_release(q, n);
	free(q);
	free(asked);
	return rc;
}

/* The NodeRecords of every distinct peer, then every port's verdict. */
static int fetch_peers(struct sa_groups *s, struct sa_client *sa,
		       unsigned window, uint32_t timeout_ms, unsigned retries,
		       char *err, size_t errlen)
{
	uint16_t *lids = malloc((s->port_count + 1) * sizeof(*lids));
	struct sa_query *q = NULL;
	size_t n = 0, distinct = 0;
	int rc = -1;

	if (!lids)
		goto oom;
	for (size_t i = 0; i < s->port_count; i++)
		if (s->ports[i].has_link &&
		    leaf_switch_peer_lid(s->ports[i].link))
			lids[n++] = leaf_switch_peer_lid(s->ports[i].link);
	qsort(lids, n, sizeof(*lids), by_u16);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || lids[i] != lids[distinct - 1])
			lids[distinct++] = lids[i];
	q = calloc(distinct ? distinct : 1, sizeof(*q));
	if (!q)
		goto oom;
	for (size_t k = 0; k < distinct; k++)
		sa_encode_node_get(q[k].request, lids[k]);
	s->node_queries = distinct;
	if (distinct && sa_client_run(sa, q, distinct, window, timeout_ms,
				      retries, err, errlen))
		goto out;
	for (size_t i = 0; i < s->port_count; i++) {
		struct sa_groups_port *p = &s->ports[i];
		const uint8_t *node = NULL;
		uint16_t peer;
		uint16_t *at;

		if (p->lid && !p->has_link) {
			memset(&p->leaf, 0, sizeof(p->leaf));
			p->leaf.status = p->link_status;
			continue;
		}
		peer = p->has_link ? leaf_switch_peer_lid(p->link) : 0;
		at = peer ? bsearch(&peer, lids, distinct, sizeof(*lids),
				    by_u16) : NULL;
		if (at && q[at - lids].result == SA_RESULT_OK)
			node = q[at - lids].response + SA_HEADER_BYTES;
		leaf_switch_decide(p->lid, p->port,
				   p->has_link ? p->link : NULL, node,
				   &p->leaf);
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	if (q)
		sa_queries_release(q, distinct);
	free(q);
	free(lids);
	return rc;
}

int sa_groups_fetch(struct sa_groups *s, struct sa_client *sa,
		    unsigned window, uint32_t timeout_ms, unsigned retries,
		    char *err, size_t errlen)
{
	if (fetch_links(s, sa, window, timeout_ms, retries, err, errlen))
		return -1;
	return fetch_peers(s, sa, window, timeout_ms, retries, err, errlen);
}

/* A (key, group) pair for host_groups_from_pairs. */
struct pair {
	const char *key, *group;
};

static int by_group_then_key(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = strcmp(x->group, y->group);

	return c ? c : strcmp(x->key, y->key);
}

static int by_host(const void *a, const void *b, void *arg)
{
	const struct sa_groups_source *src = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(src[x].host, src[y].host);

	return c ? c : (x > y) - (x < y);
}

/* The pairs of one host's sources, order[start..end): by host when its
 * switches agree, by address when they differ. */
static void host_pairs(struct sa_groups *s, char **names,
		       const size_t *order, size_t start, size_t end,
		       struct pair *pairs, size_t *count)
{
	const char *one = NULL;
	bool split = false;
	enum leaf_status why = LEAF_STATUS_COUNT;

	for (size_t k = start; k < end; k++) {
		const struct sa_groups_source *src = &s->sources[order[k]];
		const char *name = names[src->port];

		if (!name) {
			enum leaf_status st = s->ports[src->port].leaf.status;

			why = st < why ? st : why;
			continue;
		}
		if (one && strcmp(one, name) != 0)
			split = true;
		if (!one)
			one = name;
	}
	if (!one) {
		s->ungrouped[why]++;
		return;
	}
	if (!split) {
		pairs[(*count)++] = (struct pair){ s->sources[order[start]].host,
						   one };
		return;
	}
	s->split_hosts++;
	for (size_t k = start; k < end; k++) {
		const struct sa_groups_source *src = &s->sources[order[k]];

		if (names[src->port] && src->addr[0])
			pairs[(*count)++] = (struct pair){ src->addr,
							   names[src->port] };
	}
}

int sa_groups_build(struct sa_groups *s, struct host_groups *hg, char *err,
		    size_t errlen)
{
	struct leaf_switch *leaves = calloc(s->port_count + 1, sizeof(*leaves));
	char **names = calloc(s->port_count + 1, sizeof(*names));
	size_t *order = malloc((s->source_count + 1) * sizeof(*order));
	struct pair *pairs = malloc((s->source_count + 1) * sizeof(*pairs));
	const char **keys = malloc((s->source_count + 1) * sizeof(*keys));
	const char **groups = malloc((s->source_count + 1) * sizeof(*groups));
	struct strmap seen = { 0 };
	size_t count = 0, kept = 0;
	int rc = -1;

	memset(hg, 0, sizeof(*hg));
	memset(s->ungrouped, 0, sizeof(s->ungrouped));
	s->split_hosts = 0;
	if (!leaves || !names || !order || !pairs || !keys || !groups)
		goto oom;
	for (size_t i = 0; i < s->port_count; i++)
		leaves[i] = s->ports[i].leaf;
	if (leaf_switch_names(leaves, s->port_count, names))
		goto oom;
	for (size_t i = 0; i < s->source_count; i++)
		order[i] = i;
	qsort_r(order, s->source_count, sizeof(*order), by_host, s->sources);
	for (size_t start = 0, end; start < s->source_count; start = end) {
		for (end = start + 1; end < s->source_count &&
		     strcmp(s->sources[order[end]].host,
			    s->sources[order[start]].host) == 0; end++)
			;
		host_pairs(s, names, order, start, end, pairs, &count);
	}
	/* Groups in name order; an address named twice (two hosts claiming
	 * one GID) keeps its first switch. */
	qsort(pairs, count, sizeof(*pairs), by_group_then_key);
	for (size_t i = 0; i < count; i++) {
		void **slot = strmap_slot(&seen, pairs[i].key);

		if (!slot)
			goto oom;
		if (*slot)
			continue;
		*slot = &pairs[i];
		keys[kept] = pairs[i].key;
		groups[kept++] = pairs[i].group;
	}
	rc = host_groups_from_pairs(hg, keys, groups, kept, "--groups sa",
				    err, errlen);
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	for (size_t i = 0; names && i < s->port_count; i++)
		free(names[i]);
	free(names);
	free(leaves);
	free(order);
	free(pairs);
	free(keys);
	free(groups);
	strmap_free(&seen);
	return rc;
}

void sa_groups_free(struct sa_groups *s)
{
	free(s->ports);
	free(s->sources);
	memset(s, 0, sizeof(*s));
}
