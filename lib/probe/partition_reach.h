/* Why two ports of one partition may not reach each other: two limited
 * members (P_Key bit 15 clear) cannot talk, and the SA gives them no
 * path. A pure decision over the two memberships, worded for a verdict
 * or a target's error. */
#ifndef IBAHPROBE_PARTITION_REACH_H
#define IBAHPROBE_PARTITION_REACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verbs/pkey_table.h"

enum partition_reach {
	PARTITION_REACH_OK,		/* nothing in the memberships stops it */
	PARTITION_REACH_BOTH_LIMITED,	/* both limited: they cannot talk */
	/* We are limited and the responder's membership is not known: if
	 * it is limited too, they cannot talk. */
	PARTITION_REACH_LOCAL_LIMITED,
};

/* The decision for our membership and the responder's (UNKNOWN when it
 * is not known) of one partition. */
enum partition_reach partition_reach_judge(enum pkey_membership local,
					   enum pkey_membership remote);

/* The words for a decision other than OK into buf, for partition pkey;
 * false (buf empty) for OK. */
bool partition_reach_words(enum partition_reach reach, uint16_t pkey,
			   char *buf, size_t len);

/* A PathRecord query asked in partition pkey (--pkey) found no path:
 * when table says this port is a limited member of it, appends to error
 * (NUL-terminated, of size len) that the SA gives a limited member no
 * path to another limited member or a non-member. Returns whether it
 * did. */
bool partition_reach_note_path(char *error, size_t len, uint16_t pkey,
			       const struct pkey_table *table);

#endif
