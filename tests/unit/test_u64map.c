/* Unit tests of the map from 64-bit keys (base/u64map.h): values found
 * by their keys across growth, keys that differ in either half kept
 * apart, absent keys and the one key it cannot hold. */
#include <stdint.h>

#include "base/u64map.h"
#include "tap.h"

int main(void)
{
	struct u64map m = { 0 };
	bool added = true, found = true;
	size_t *v;

	ok(u64map_get(&m, 7) == 0, "an empty map has nothing");
	/* Pairs of 32-bit numbers, as localisation keys its pairs: enough
	 * to grow the table several times. */
	for (uint64_t a = 0; a < 100; a++)
		for (uint64_t b = 0; b < 100; b++) {
			v = u64map_slot(&m, a << 32 | b);
			added &= v && *v == 0;
			if (v)
				*v = a * 1000 + b + 1;
		}
	ok(added, "10000 keys added, each new with value 0");
	is_int(m.count, 10000, "each counted once");
	for (uint64_t a = 0; a < 100; a++)
		for (uint64_t b = 0; b < 100; b++)
			found &= u64map_get(&m, a << 32 | b) == a * 1000 + b + 1;
	ok(found, "each found with its value after the growth");
	v = u64map_slot(&m, (uint64_t)3 << 32 | 4);
	ok(v && *v == 3004 + 1 && m.count == 10000,
	   "an existing key's slot holds its value, nothing added");
	ok(u64map_get(&m, (uint64_t)4 << 32 | 3) == 4003 + 1,
	   "the halves of a key are not interchangeable");
	is_int(u64map_get(&m, (uint64_t)100 << 32), 0, "an absent key: 0");
	ok(u64map_slot(&m, U64MAP_FREE) == NULL &&
		   u64map_get(&m, U64MAP_FREE) == 0,
	   "U64MAP_FREE is no key");
	u64map_free(&m);
	ok(m.slots == NULL && m.count == 0, "freed, empty again");
	return tap_done();
}
