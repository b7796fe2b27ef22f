/* See arena.h. */
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

/* Blocks of a megabyte: few enough to cost nothing, small enough that
 * the last one's unused rest does not matter. An array of more than a
 * quarter of that gets a block of its own. */
#define ARENA_BLOCK_BYTES ((size_t)1 << 20)
#define ARENA_ALONE_BYTES (ARENA_BLOCK_BYTES / 4)

/* What arena.h promises to align for; long double is not wanted, and its
 * 16 bytes would round up every list of three numbers. */
union arena_scalar {
	void *pointer;
	size_t size;
	uint64_t u64;
	double real;
};
#define ARENA_ALIGN alignof(union arena_scalar)

struct arena_block {
	struct arena_block *next;
	size_t size;
	alignas(union arena_scalar) unsigned char data[];
};

static struct arena_block *block_new(size_t size, struct arena_block *next)
{
	struct arena_block *b = malloc(sizeof(*b) + size);

	if (b) {
		b->next = next;
		b->size = size;
	}
	return b;
}

void *arena_alloc(struct arena *a, size_t len)
{
	size_t at = (a->used + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
	unsigned char *p;

	if (len > ARENA_ALONE_BYTES) {
		/* (behind the newest block, whose rest stays in use) */
		struct arena_block *b;

		if (len > SIZE_MAX - sizeof(*b))
			return NULL;
		b = block_new(len, a->blocks ? a->blocks->next : NULL);
		if (!b)
			return NULL;
		if (a->blocks) {
			a->blocks->next = b;
		} else {
			a->blocks = b;
			a->used = len;
		}
		return b->data;
	}
	if (!a->blocks || at + len > a->blocks->size) {
		struct arena_block *b = block_new(ARENA_BLOCK_BYTES, a->blocks);

		if (!b)
			return NULL;
		a->blocks = b;
		at = 0;
	}
	p = a->blocks->data + at;
	a->used = at + len;
	return p;
}

void *arena_copy(struct arena *a, const void *data, size_t len)
{
	void *p = arena_alloc(a, len);

	return p && len ? memcpy(p, data, len) : p;
}

void arena_free(struct arena *a)
{
	while (a->blocks) {
		struct arena_block *next = a->blocks->next;

		free(a->blocks);
		a->blocks = next;
	}
	a->used = 0;
}
