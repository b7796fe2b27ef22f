/* Bounded reply-AH cache with pending and negative entries; see
 * reverse_cache.h. */
#include <stdlib.h>
#include <string.h>

#include <linux/neighbour.h>

#include "peer/reverse_cache.h"

int reverse_cache_init(struct reverse_cache *cache, size_t capacity)
{
	memset(cache, 0, sizeof(*cache));
	cache->entries = calloc(capacity, sizeof(*cache->entries));
	if (!cache->entries)
		return -1;
	cache->capacity = capacity;
	return 0;
}

void reverse_cache_free(struct reverse_cache *cache)
{
	free(cache->entries);
	memset(cache, 0, sizeof(*cache));
}

static void empty(struct reverse_entry *e)
{
	uint32_t generation = e->generation;

	memset(e, 0, sizeof(*e));
	e->generation = generation + 1;
}

struct reverse_entry *reverse_cache_find(struct reverse_cache *cache,
					 const struct reverse_key *key)
{
	cache->clock++;
	for (size_t i = 0; i < cache->capacity; i++) {
		struct reverse_entry *e = &cache->entries[i];

		if (e->state == REVERSE_EMPTY || !reverse_key_equal(&e->key, key))
			continue;
		e->last_use = cache->clock;
		return e;
	}
	return NULL;
}

struct reverse_entry *reverse_cache_claim(struct reverse_cache *cache,
					  const struct reverse_key *key,
					  uint64_t sends_completed,
					  struct ibv_ah **evicted_ah)
{
	struct reverse_entry *victim = NULL, *failed = NULL, *lru = NULL;

	*evicted_ah = NULL;
	for (size_t i = 0; i < cache->capacity && !victim; i++) {
		struct reverse_entry *e = &cache->entries[i];

		if (e->state == REVERSE_EMPTY)
			victim = e;
		else if (e->state == REVERSE_FAILED &&
			 (!failed || e->expires_ns < failed->expires_ns))
			failed = e;
	}
	if (!victim)
		victim = failed;
	/* Destroying an AH under an outstanding send is undefined: only
	 * entries whose sends all completed can go. */
	for (size_t i = 0; i < cache->capacity && !victim; i++) {
		struct reverse_entry *e = &cache->entries[i];

		if (e->state == REVERSE_READY &&
		    e->last_send <= sends_completed &&
		    (!lru || e->last_use < lru->last_use))
			lru = e;
	}
	if (!victim)
		victim = lru;
	if (!victim)
		return NULL;
	if (victim->state == REVERSE_READY) {
		*evicted_ah = victim->ah;
		cache->evicted++;
	}
	empty(victim);
	victim->key = *key;
	victim->state = REVERSE_PENDING;
	victim->last_use = ++cache->clock;
	return victim;
}

size_t reverse_cache_index(const struct reverse_cache *cache,
			   const struct reverse_entry *e)
{
	return (size_t)(e - cache->entries);
}

/* The entry named by slot and generation, when it is in that state. */
static struct reverse_entry *entry_named(struct reverse_cache *cache,
					 size_t index, uint32_t generation,
					 enum reverse_state state)
{
	struct reverse_entry *e;

	if (index >= cache->capacity)
		return NULL;
	e = &cache->entries[index];
	return e->state == state && e->generation == generation ? e : NULL;
}

struct reverse_entry *reverse_cache_pending(struct reverse_cache *cache,
					    size_t index, uint32_t generation)
{
	return entry_named(cache, index, generation, REVERSE_PENDING);
}

struct reverse_entry *reverse_cache_ready(struct reverse_cache *cache,
					  size_t index, uint32_t generation)
{
	return entry_named(cache, index, generation, REVERSE_READY);
}

bool reverse_entry_park(struct reverse_entry *e,
			const struct reverse_parked *parked)
{
	if (e->parked_count >= REVERSE_PARK_MAX)
		return false;
	e->parked[e->parked_count++] = *parked;
	return true;
}

void reverse_entry_ready(struct reverse_entry *e, struct ibv_ah *ah,
			 const struct ibv_ah_attr *attr)
{
	e->state = REVERSE_READY;
	e->ah = ah;
	e->attr = *attr;
	e->error = 0;
	e->failures = 0;
}

uint64_t reverse_backoff_ns(unsigned failures)
{
	uint64_t wait = REVERSE_RETRY_FIRST_NS;

	for (unsigned i = 1; i < failures && wait < REVERSE_RETRY_MAX_NS; i++)
		wait *= 2;
	return wait < REVERSE_RETRY_MAX_NS ? wait : REVERSE_RETRY_MAX_NS;
}

void reverse_entry_failed(struct reverse_entry *e, int error, bool init_failed,
			  uint64_t now_ns)
{
	e->state = REVERSE_FAILED;
	e->ah = NULL;
	e->error = error;
	e->init_failed = init_failed;
	e->failures++;
	e->expires_ns = now_ns + reverse_backoff_ns(e->failures);
}

bool reverse_entry_due(const struct reverse_entry *e, uint64_t now_ns)
{
	return e->state == REVERSE_FAILED && now_ns >= e->expires_ns;
}

void reverse_entry_retry(struct reverse_entry *e)
{
	e->state = REVERSE_PENDING;
	e->generation++;
}

void reverse_entry_forget(struct reverse_entry *e)
{
	empty(e);
}

size_t reverse_cache_drop_ready(struct reverse_cache *cache,
				struct reverse_retired *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < cache->capacity && n < max; i++) {
		struct reverse_entry *e = &cache->entries[i];

		if (e->state == REVERSE_READY) {
			out[n].ah = e->ah;
			out[n++].last_send = e->last_send;
			empty(e);
		} else if (e->state == REVERSE_FAILED) {
			empty(e);
		}
	}
	return n;
}

bool reverse_entry_refresh_due(const struct reverse_entry *e, uint64_t now_ns,
			       uint64_t max_age_ns)
{
	if (e->state != REVERSE_READY || e->refreshing)
		return false;
	if (e->moved)
		return true;
	return max_age_ns && now_ns >= e->made_ns &&
	       now_ns - e->made_ns >= max_age_ns;
}

size_t reverse_cache_neigh_changed(struct reverse_cache *cache,
				   const struct neigh_change *c)
{
	size_t marked = 0;

	for (size_t i = 0; i < cache->capacity; i++) {
		struct reverse_entry *e = &cache->entries[i];

		if (e->state != REVERSE_READY || !e->next_hop_known ||
		    memcmp(e->next_hop, c->addr, sizeof(e->next_hop)) != 0)
			continue;
		if (neigh_change_moves(c, e->next_hop_mac,
				       e->next_hop_mac_len)) {
			e->moved = true;
			marked++;
		}
		if (c->deleted || (c->state & (NUD_FAILED | NUD_INCOMPLETE))) {
			e->next_hop_mac_len = 0;
		} else if (c->lladdr_len) {
			memcpy(e->next_hop_mac, c->lladdr, c->lladdr_len);
			e->next_hop_mac_len = c->lladdr_len;
		}
	}
	return marked;
}

size_t reverse_cache_all_moved(struct reverse_cache *cache)
{
	size_t marked = 0;

	for (size_t i = 0; i < cache->capacity; i++)
		if (cache->entries[i].state == REVERSE_READY) {
			cache->entries[i].moved = true;
			marked++;
		}
	return marked;
}
