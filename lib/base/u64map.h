/* A hash table from 64-bit keys (two 32-bit numbers, say) to numbers:
 * what a strmap is for texts, without a copy of each key or a text
 * built to look one up. Open addressing with linear probing. */
#ifndef IBAHPROBE_U64MAP_H
#define IBAHPROBE_U64MAP_H

#include <stddef.h>
#include <stdint.h>

/* The one key a map cannot hold: it marks a free slot. */
#define U64MAP_FREE UINT64_MAX

struct u64map_slot {
	uint64_t key;
	size_t value;
};

struct u64map {
	struct u64map_slot *slots;
	size_t capacity;	/* 0 or a power of two */
	size_t count;
};

/* The value under key; 0 when there is none. */
size_t u64map_get(const struct u64map *m, uint64_t key);
/* The slot of key's value, added (value 0) when new; NULL when out of
 * memory or key is U64MAP_FREE. Good until the next u64map_slot. */
size_t *u64map_slot(struct u64map *m, uint64_t key);
void u64map_free(struct u64map *m);

#endif
