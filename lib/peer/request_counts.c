/* Per-set request counts of the responder; see request_counts.h. A hash
 * table (chains through slot indexes) finds a set in constant time, a
 * use-ordered list names the one to forget: at 20,000 requests a second
 * neither may scan the table. */
#include <stdlib.h>
#include <string.h>

#include "peer/request_counts.h"

#define NONE REQUEST_COUNTS_NONE

int request_counts_init(struct request_counts *t, uint32_t capacity,
			uint32_t seed)
{
	uint32_t buckets = 1;

	memset(t, 0, sizeof(*t));
	if (capacity == 0)
		capacity = 1;
	while (buckets < capacity * 2)
		buckets <<= 1;
	t->sets = calloc(capacity, sizeof(*t->sets));
	t->buckets = malloc(buckets * sizeof(*t->buckets));
	if (!t->sets || !t->buckets) {
		request_counts_free(t);
		return -1;
	}
	memset(t->buckets, 0xff, buckets * sizeof(*t->buckets));
	t->capacity = capacity;
	t->bucket_mask = buckets - 1;
	t->seed = seed;
	t->newest = t->oldest = NONE;
	return 0;
}

void request_counts_free(struct request_counts *t)
{
	free(t->sets);
	free(t->buckets);
	memset(t, 0, sizeof(*t));
}

void request_set_key_of(const struct probe_reply *r, bool infiniband,
			struct request_set_key *k)
{
	memset(k, 0, sizeof(*k));
	k->probe_id = r->header.probe_id;
	k->asked = r->header.asked;
	k->src_qp = r->observed.src_qp;
	if (r->observed.grh_present)
		k->sgid = r->observed.sgid;
	if (infiniband)
		k->slid = r->observed.slid;
}

bool request_set_key_equal(const struct request_set_key *a,
			   const struct request_set_key *b)
{
	return a->probe_id == b->probe_id && a->slid == b->slid &&
	       a->src_qp == b->src_qp &&
	       memcmp(a->sgid.raw, b->sgid.raw, 16) == 0 &&
	       a->asked.hop_limit == b->asked.hop_limit &&
	       a->asked.traffic_class == b->asked.traffic_class &&
	       a->asked.sl == b->asked.sl &&
	       a->asked.flow_label == b->asked.flow_label;
}

static uint32_t mix(uint32_t h, uint32_t v)
{
	h ^= v;
	h *= 0x01000193u;	/* FNV-1a's prime */
	return h ^ (h >> 15);
}

static uint32_t bucket_of(const struct request_counts *t,
			  const struct request_set_key *k)
{
	uint32_t h = mix(0x811c9dc5u, t->seed);

	h = mix(h, k->probe_id);
	h = mix(h, k->src_qp);
	h = mix(h, k->slid);
	for (int i = 0; i < 16; i += 4)
		h = mix(h, (uint32_t)k->sgid.raw[i] << 24 |
				   (uint32_t)k->sgid.raw[i + 1] << 16 |
				   (uint32_t)k->sgid.raw[i + 2] << 8 |
				   k->sgid.raw[i + 3]);
	h = mix(h, (uint32_t)k->asked.hop_limit << 16 |
			   (uint32_t)k->asked.traffic_class << 8 |
			   k->asked.sl);
	h = mix(h, k->asked.flow_label);
	return h & t->bucket_mask;
}

static uint32_t find(const struct request_counts *t,
		     const struct request_set_key *k)
{
	for (uint32_t i = t->buckets[bucket_of(t, k)]; i != NONE;
	     i = t->sets[i].hash_next)
		if (request_set_key_equal(&t->sets[i].key, k))
			return i;
	return NONE;
}

const struct request_set_count *
request_counts_find(const struct request_counts *t,
		    const struct request_set_key *k)
{
	uint32_t i = t->sets ? find(t, k) : NONE;

	return i == NONE ? NULL : &t->sets[i];
}

static void unlink_use(struct request_counts *t, uint32_t i)
{
	struct request_set_count *s = &t->sets[i];

	if (s->newer != NONE)
		t->sets[s->newer].older = s->older;
	else
		t->newest = s->older;
	if (s->older != NONE)
		t->sets[s->older].newer = s->newer;
	else
		t->oldest = s->newer;
}

static void link_newest(struct request_counts *t, uint32_t i)
{
	struct request_set_count *s = &t->sets[i];

	s->newer = NONE;
	s->older = t->newest;
	if (t->newest != NONE)
		t->sets[t->newest].newer = i;
	t->newest = i;
	if (t->oldest == NONE)
		t->oldest = i;
}

static void unlink_hash(struct request_counts *t, uint32_t i)
{
	uint32_t *link = &t->buckets[bucket_of(t, &t->sets[i].key)];

	while (*link != i)
		link = &t->sets[*link].hash_next;
	*link = t->sets[i].hash_next;
}

bool request_counts_absent_means_unseen(const struct request_counts *t,
					uint64_t since_ns)
{
	return t->evicted == 0 || t->newest_evicted_use_ns < since_ns;
}

void request_counts_note_answer(struct request_counts *t,
				const struct request_set_key *k,
				bool was_parked)
{
	uint32_t i = find(t, k);

	if (i == NONE)
		return;
	t->sets[i].answered++;
	if (was_parked)
		t->sets[i].answered_after_park++;
}

void request_counts_note_unanswered(struct request_counts *t,
				    const struct request_set_key *k,
				    enum request_unanswered why)
{
	uint32_t i = find(t, k);

	if (i != NONE && why < UNANSWERED_COUNT)
		t->sets[i].unanswered[why]++;
}

void request_counts_note_parked(struct request_counts *t,
				const struct request_set_key *k, bool parked)
{
	uint32_t i = find(t, k);

	if (i == NONE)
		return;
	if (parked)
		t->sets[i].parked++;
	else if (t->sets[i].parked)
		t->sets[i].parked--;
}

const char *request_unanswered_name(enum request_unanswered why)
{
	switch (why) {
	case UNANSWERED_RESOLVING: return "resolving";
	case UNANSWERED_RATE_LIMIT: return "rate_limited";
	case UNANSWERED_SEND_FAILED: return "send_failed";
	case UNANSWERED_COUNT: break;
	}
	return "?";
}

struct request_set_count *request_counts_note(struct request_counts *t,
					      const struct request_set_key *k,
					      uint64_t now_ns)
{
	uint32_t i = find(t, k), b;

	if (i != NONE) {
		unlink_use(t, i);
	} else {
		if (t->used < t->capacity) {
			i = t->used++;
		} else {
			i = t->oldest;
			unlink_use(t, i);
			unlink_hash(t, i);
			t->evicted++;
			if (t->sets[i].last_use_ns > t->newest_evicted_use_ns)
				t->newest_evicted_use_ns =
					t->sets[i].last_use_ns;
		}
		memset(&t->sets[i], 0, sizeof(t->sets[i]));
		t->sets[i].key = *k;
		b = bucket_of(t, k);
		t->sets[i].hash_next = t->buckets[b];
		t->buckets[b] = i;
	}
	link_newest(t, i);
	t->sets[i].received++;
	t->sets[i].last_use_ns = now_ns;
	return &t->sets[i];
}
