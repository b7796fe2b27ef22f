/* Unit tests of the arena (base/arena.h): copies that keep their bytes
 * and their alignment while many more are made, small and large, and
 * all freed at once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "tap.h"

#define LISTS 5000
#define BIG 300000	/* numbers: past a quarter of a block */

int main(void)
{
	static size_t *lists[LISTS + 10];
	struct arena a = { 0 };
	bool made = true, kept = true, aligned = true;
	size_t *big;
	char *again;

	/* Lists of 1 to 7 numbers, enough to fill several blocks. */
	for (size_t k = 0; k < LISTS; k++) {
		size_t list[7];

		for (size_t i = 0; i <= k % 7; i++)
			list[i] = k * 10 + i;
		lists[k] = arena_copy(&a, list, (k % 7 + 1) * sizeof(*list));
		made &= lists[k] != NULL;
		aligned &= (uintptr_t)lists[k] % sizeof(size_t) == 0;
	}
	/* A block of its own; the newest block's rest still used after. */
	big = arena_alloc(&a, BIG * sizeof(*big));
	made &= big != NULL;
	for (size_t i = 0; big && i < BIG; i++)
		big[i] = i;
	for (size_t k = LISTS; k < LISTS + 10; k++) {
		lists[k] = arena_copy(&a, &k, sizeof(k));
		made &= lists[k] != NULL;
	}
	ok(made, "every copy is made");
	if (!made)
		return tap_done();
	for (size_t k = 0; k < LISTS; k++)
		for (size_t i = 0; i <= k % 7; i++)
			kept &= lists[k][i] == k * 10 + i;
	for (size_t k = LISTS; k < LISTS + 10; k++)
		kept &= lists[k][0] == k;
	for (size_t i = 0; i < BIG; i++)
		kept &= big[i] == i;
	ok(kept, "every copy keeps its numbers while others are made");
	ok(aligned, "copies are aligned for size_t");
	ok(arena_copy(&a, NULL, 0) != NULL,
	   "an empty copy is a pointer, not a failure");
	arena_free(&a);
	ok(a.blocks == NULL && a.used == 0, "freed at once, empty again");
	again = arena_copy(&a, "again", 6);
	is_str(again, "again", "usable again after arena_free");
	arena_free(&a);
	return tap_done();
}
