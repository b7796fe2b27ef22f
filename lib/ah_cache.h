/* A bounded cache of AHs keyed by their attributes: serve builds one
 * reverse AH per source, not one per probe, and a flood of sources cannot
 * grow memory. An AH is destroyed only after the sends that used it have
 * completed. */
#ifndef IBAHPROBE_AH_CACHE_H
#define IBAHPROBE_AH_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "ud_endpoint.h"

struct ah_cache_entry {
	struct ibv_ah_attr attr;
	struct ibv_ah *ah;
	uint64_t last_use;	/* cache clock, for LRU */
	uint64_t last_send;	/* ep->sends_posted after its last send */
};

struct ah_cache {
	struct ah_cache_entry *entries;
	size_t capacity, count;
	uint64_t clock;
	uint64_t created, evicted;
};

int ah_cache_init(struct ah_cache *cache, size_t capacity);
/* The AH for attr, created on a miss (evicting the least recently used
 * entry, after draining its sends). NULL with *error set on failure. */
struct ibv_ah *ah_cache_get(struct ah_cache *cache, struct ud_endpoint *ep,
			    const struct ibv_ah_attr *attr, int *error);
/* Records that a send using ah was just posted. */
void ah_cache_note_send(struct ah_cache *cache, struct ibv_ah *ah,
			const struct ud_endpoint *ep);
/* Drains outstanding sends, then destroys every AH. */
void ah_cache_destroy(struct ah_cache *cache, struct ud_endpoint *ep);

#endif
