/* The port's P_Key table, and which entry a UD QP joins: a QP's
 * pkey_index selects its partition, and a P_Key value (from the user or a
 * PathRecord) is not an index. */
#ifndef IBAHPROBE_PKEY_TABLE_H
#define IBAHPROBE_PKEY_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verbs/device.h"

/* Bit 15 of a P_Key: full member (set) or limited member. Two limited
 * members of a partition cannot talk to each other. */
#define PKEY_FULL_MEMBER 0x8000u
#define PKEY_BASE_MASK 0x7fffu
#define PKEY_DEFAULT 0xffffu
#define PKEY_TABLE_MAX 128

struct pkey_table {
	size_t count;			/* entries read, empty ones included */
	uint16_t keys[PKEY_TABLE_MAX];	/* host order, by index */
};

/* The index of pkey's partition in the table, as the kernel's
 * ib_find_cached_pkey (core/cache.c) chooses it: the low 15 bits must
 * match, a full-member entry wins over a limited one, and among equals
 * the lowest index. Partition 0 (0x0000, 0x8000) is no partition. Returns
 * the index, or -1 when the port is not in the partition. */
int pkey_table_find(const struct pkey_table *t, uint16_t pkey);

/* A port's membership of a partition, from its P_Key table entry's bit
 * 15 (IBA 10.9.1). */
enum pkey_membership {
	PKEY_MEMBER_UNKNOWN,	/* the table could not be read */
	PKEY_MEMBER_NONE,
	PKEY_MEMBER_LIMITED,
	PKEY_MEMBER_FULL,
};

/* This table's membership of pkey's partition (the entry
 * pkey_table_find chooses); t NULL: unknown. */
enum pkey_membership pkey_table_membership(const struct pkey_table *t,
					   uint16_t pkey);

/* Whether two P_Keys name the same partition (membership aside). */
bool pkey_same_partition(uint16_t a, uint16_t b);

/* A P_Key the user names a partition by (parse_pkey, and the low 15 bits
 * not 0). Returns 0, or -1 with err set. */
int pkey_parse_partition(const char *text, uint16_t *pkey, char *err,
			 size_t errlen);

/* Reads the table of dev's port: ibv_query_pkey over pkey_tbl_len
 * entries on a verbs device, the umad sysfs view otherwise. Returns 0, or
 * -1 with err set. */
int pkey_table_read(const struct device_info *dev, uint8_t port,
		    struct pkey_table *t, char *err, size_t errlen);

#endif
