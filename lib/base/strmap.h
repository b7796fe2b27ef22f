/* A hash table from text keys to pointers: what report uses to find a
 * node, a run or the address a destination text agrees on among a million
 * records in constant time instead of scanning them all. Open addressing
 * with linear probing; keys are copied and owned by the map. */
#ifndef IBAHPROBE_STRMAP_H
#define IBAHPROBE_STRMAP_H

#include <stddef.h>

struct strmap_slot {
	char *key;		/* NULL: free */
	size_t hash;
	void *value;
};

struct strmap {
	struct strmap_slot *slots;
	size_t capacity;	/* 0 or a power of two */
	size_t count;
};

/* The value under key; NULL when there is none. */
void *strmap_get(const struct strmap *m, const char *key);
/* The slot of key's value, added (value NULL) when new; NULL when out of
 * memory. The pointer is good until the next strmap_slot. */
void **strmap_slot(struct strmap *m, const char *key);
/* The map's own copy of key (added when new): interning; NULL when out
 * of memory. Good until strmap_free. */
const char *strmap_key(struct strmap *m, const char *key);
void strmap_free(struct strmap *m);

#endif
