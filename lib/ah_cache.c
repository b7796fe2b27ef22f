/* Bounded LRU cache of address handles; see ah_cache.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ah_cache.h"

/* How long eviction may wait for the sends of the evicted AH. */
#define EVICT_DRAIN_MS 100

int ah_cache_init(struct ah_cache *cache, size_t capacity)
{
	memset(cache, 0, sizeof(*cache));
	cache->entries = calloc(capacity, sizeof(*cache->entries));
	if (!cache->entries)
		return -1;
	cache->capacity = capacity;
	return 0;
}

/* Compares only what ibv_create_ah reads, field by field: the struct has
 * padding that memcmp would see. */
static bool same_attr(const struct ibv_ah_attr *a, const struct ibv_ah_attr *b)
{
	if (a->dlid != b->dlid || a->sl != b->sl ||
	    a->src_path_bits != b->src_path_bits ||
	    a->static_rate != b->static_rate || a->is_global != b->is_global ||
	    a->port_num != b->port_num)
		return false;
	if (!a->is_global)
		return true;
	return memcmp(a->grh.dgid.raw, b->grh.dgid.raw, 16) == 0 &&
	       a->grh.flow_label == b->grh.flow_label &&
	       a->grh.sgid_index == b->grh.sgid_index &&
	       a->grh.hop_limit == b->grh.hop_limit &&
	       a->grh.traffic_class == b->grh.traffic_class;
}

static struct ah_cache_entry *evict(struct ah_cache *cache,
				    struct ud_endpoint *ep)
{
	struct ah_cache_entry *lru = &cache->entries[0];

	for (size_t i = 1; i < cache->count; i++)
		if (cache->entries[i].last_use < lru->last_use)
			lru = &cache->entries[i];
	/* Destroying an AH under an outstanding send is undefined. */
	if (lru->last_send > ep->sends_completed)
		ud_drain_sends(ep, EVICT_DRAIN_MS);
	ibv_destroy_ah(lru->ah);
	cache->evicted++;
	return lru;
}

struct ibv_ah *ah_cache_get(struct ah_cache *cache, struct ud_endpoint *ep,
			    const struct ibv_ah_attr *attr, int *error)
{
	struct ah_cache_entry *slot;
	struct ibv_ah *ah;

	cache->clock++;
	for (size_t i = 0; i < cache->count; i++) {
		if (same_attr(&cache->entries[i].attr, attr)) {
			cache->entries[i].last_use = cache->clock;
			return cache->entries[i].ah;
		}
	}
	errno = 0;
	ah = ibv_create_ah(ep->pd, (struct ibv_ah_attr *)attr);
	if (!ah) {
		*error = errno ? errno : EINVAL;
		return NULL;
	}
	cache->created++;
	slot = cache->count < cache->capacity ? &cache->entries[cache->count++]
					      : evict(cache, ep);
	slot->attr = *attr;
	slot->ah = ah;
	slot->last_use = cache->clock;
	slot->last_send = 0;
	return ah;
}

void ah_cache_note_send(struct ah_cache *cache, struct ibv_ah *ah,
			const struct ud_endpoint *ep)
{
	for (size_t i = 0; i < cache->count; i++)
		if (cache->entries[i].ah == ah)
			cache->entries[i].last_send = ep->sends_posted;
}

void ah_cache_destroy(struct ah_cache *cache, struct ud_endpoint *ep)
{
	if (ep->qp)
		ud_drain_sends(ep, 1000);
	for (size_t i = 0; i < cache->count; i++)
		ibv_destroy_ah(cache->entries[i].ah);
	free(cache->entries);
	memset(cache, 0, sizeof(*cache));
}
