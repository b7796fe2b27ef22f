/* Many small arrays that live and die together, kept in a few large
 * blocks: a million probe results' short lists of element numbers
 * without a million mallocs, each with its header and rounding. */
#ifndef IBAHPROBE_ARENA_H
#define IBAHPROBE_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *blocks;	/* the newest first */
	size_t used;			/* bytes of the newest block taken */
};

/* Room for len bytes, aligned for pointers, size_t, uint64_t and
 * double, good until arena_free; NULL only when memory ran out (len 0
 * too gives a pointer). */
void *arena_alloc(struct arena *a, size_t len);
/* The same, holding a copy of len bytes of data. */
void *arena_copy(struct arena *a, const void *data, size_t len);
void arena_free(struct arena *a);

#endif
