/* See strmap.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strmap.h"

/* FNV-1a, 64 bits: keys are host names, addresses and small texts. */
static size_t hash_text(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (size_t)(h ^ (h >> 29));
}

static struct strmap_slot *find(const struct strmap *m, const char *key,
				size_t hash)
{
	size_t mask = m->capacity - 1;

	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		struct strmap_slot *s = &m->slots[i];

		if (!s->key || (s->hash == hash && strcmp(s->key, key) == 0))
			return s;
	}
}

void *strmap_get(const struct strmap *m, const char *key)
{
	struct strmap_slot *s;

	if (!m->capacity)
		return NULL;
	s = find(m, key, hash_text(key));
	return s->key ? s->value : NULL;
}

/* Twice the room, at most half full: probes stay short. */
static int grow(struct strmap *m)
{
	size_t cap = m->capacity ? m->capacity * 2 : 64;
	struct strmap_slot *old = m->slots;
	size_t old_cap = m->capacity;

	m->slots = calloc(cap, sizeof(*m->slots));
	if (!m->slots) {
		m->slots = old;
		return -1;
	}
	m->capacity = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].key)
			*find(m, old[i].key, old[i].hash) = old[i];
	free(old);
	return 0;
}

static struct strmap_slot *slot(struct strmap *m, const char *key)
{
	size_t hash = hash_text(key);
	struct strmap_slot *s;

	if ((m->count + 1) * 2 > m->capacity && grow(m))
		return NULL;
	s = find(m, key, hash);
	if (!s->key) {
		s->key = strdup(key);
		if (!s->key)
			return NULL;
		s->hash = hash;
		s->value = NULL;
		m->count++;
	}
	return s;
}

void **strmap_slot(struct strmap *m, const char *key)
{
	struct strmap_slot *s = slot(m, key);

	return s ? &s->value : NULL;
}

const char *strmap_key(struct strmap *m, const char *key)
{
	struct strmap_slot *s = slot(m, key);

	return s ? s->key : NULL;
}

void strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->capacity; i++)
		free(m->slots[i].key);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
