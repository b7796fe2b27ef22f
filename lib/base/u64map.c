/* See u64map.h. */
#include <stdlib.h>
#include <string.h>

#include "base/u64map.h"

/* A 64-bit mixer (splitmix64's finaliser): keys made of small numbers
 * spread over the whole table. */
static size_t hash_key(uint64_t k)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ull;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebull;
	return (size_t)(k ^ (k >> 31));
}

static struct u64map_slot *find(const struct u64map *m, uint64_t key)
{
	size_t mask = m->capacity - 1;

	for (size_t i = hash_key(key) & mask;; i = (i + 1) & mask) {
		struct u64map_slot *s = &m->slots[i];

		if (s->key == key || s->key == U64MAP_FREE)
			return s;
	}
}

size_t u64map_get(const struct u64map *m, uint64_t key)
{
	const struct u64map_slot *s;

	if (!m->capacity || key == U64MAP_FREE)
		return 0;
	s = find(m, key);
	return s->key == key ? s->value : 0;
}

/* Twice the room, at most half full: probes stay short. */
static int grow(struct u64map *m)
{
	struct u64map bigger = { .capacity = m->capacity ? 2 * m->capacity
							 : 64,
				 .count = m->count };

	bigger.slots = malloc(bigger.capacity * sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < bigger.capacity; i++)
		bigger.slots[i].key = U64MAP_FREE;
	for (size_t i = 0; i < m->capacity; i++)
		if (m->slots[i].key != U64MAP_FREE)
			*find(&bigger, m->slots[i].key) = m->slots[i];
	free(m->slots);
	*m = bigger;
	return 0;
}

size_t *u64map_slot(struct u64map *m, uint64_t key)
{
	struct u64map_slot *s;

	if (key == U64MAP_FREE ||
	    ((m->count + 1) * 2 > m->capacity && grow(m)))
		return NULL;
	s = find(m, key);
	if (s->key == U64MAP_FREE) {
		s->key = key;
		s->value = 0;
		m->count++;
	}
	return &s->value;
}

void u64map_free(struct u64map *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
