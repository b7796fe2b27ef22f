/* Limited partition members (lib/probe/partition_reach.c): the
 * membership a P_Key table gives, the decision for two ports, and the
 * note on a PathRecord refused in a partition where we are limited. */
#include <string.h>

#include "probe/partition_reach.h"
#include "tap.h"

static void test_membership(void)
{
	/* As opensm sets it: default full, 0x0012 limited, 0x0013 full. */
	struct pkey_table t = { .count = 4,
				.keys = { 0xffff, 0x0012, 0x8013, 0 } };

	is_int(pkey_table_membership(&t, 0x0012), PKEY_MEMBER_LIMITED,
	       "0x0012 limited");
	is_int(pkey_table_membership(&t, 0x8012), PKEY_MEMBER_LIMITED,
	       "asked as 0x8012: still our limited entry");
	is_int(pkey_table_membership(&t, 0x0013), PKEY_MEMBER_FULL,
	       "0x0013 full");
	is_int(pkey_table_membership(&t, 0x7fff), PKEY_MEMBER_FULL,
	       "default full");
	is_int(pkey_table_membership(&t, 0x0044), PKEY_MEMBER_NONE,
	       "0x0044: not a member");
	is_int(pkey_table_membership(NULL, 0x0012), PKEY_MEMBER_UNKNOWN,
	       "no table: unknown");
	t.keys[3] = 0x8012;
	is_int(pkey_table_membership(&t, 0x0012), PKEY_MEMBER_FULL,
	       "a full entry wins over a limited one (ib_find_cached_pkey)");
}

static void test_judge(void)
{
	char words[160];

	is_int(partition_reach_judge(PKEY_MEMBER_LIMITED, PKEY_MEMBER_LIMITED),
	       PARTITION_REACH_BOTH_LIMITED, "limited + limited");
	is_int(partition_reach_judge(PKEY_MEMBER_LIMITED, PKEY_MEMBER_UNKNOWN),
	       PARTITION_REACH_LOCAL_LIMITED, "limited + unknown");
	is_int(partition_reach_judge(PKEY_MEMBER_LIMITED, PKEY_MEMBER_FULL),
	       PARTITION_REACH_OK, "limited + full talk");
	is_int(partition_reach_judge(PKEY_MEMBER_FULL, PKEY_MEMBER_LIMITED),
	       PARTITION_REACH_OK, "full + limited talk");
	is_int(partition_reach_judge(PKEY_MEMBER_UNKNOWN, PKEY_MEMBER_LIMITED),
	       PARTITION_REACH_OK, "unknown here: nothing to say");
	ok(partition_reach_words(PARTITION_REACH_BOTH_LIMITED, 0x8012, words,
				 sizeof(words)), "words for both limited");
	is_str(words, "this port and the responder are both limited members "
	       "of partition 0x0012: two limited members cannot talk (IBA "
	       "10.9.3)", "both limited: the words");
	ok(!partition_reach_words(PARTITION_REACH_OK, 0x8012, words,
				  sizeof(words)) && words[0] == '\0',
	   "OK: no words");
}

static void test_note_path(void)
{
	struct pkey_table t = { .count = 2, .keys = { 0xffff, 0x0012 } };
	char error[400] = "path record: SA answered no records";

	ok(partition_reach_note_path(error, sizeof(error), 0x0012, &t),
	   "limited: noted");
	is_str(error, "path record: SA answered no records; this port is a "
	       "limited member of partition 0x0012 (P_Key bit 15 clear): the "
	       "SA gives it no path there to another limited member, since "
	       "two limited members cannot talk (IBA 10.9.3), nor to a "
	       "non-member", "the note");
	strcpy(error, "x");
	ok(!partition_reach_note_path(error, sizeof(error), 0x7fff, &t) &&
		   !strcmp(error, "x"),
	   "full member: no note");
	ok(!partition_reach_note_path(error, sizeof(error), 0x0012, NULL),
	   "table unknown: no note");
}

int main(void)
{
	test_membership();
	test_judge();
	test_note_path();
	return tap_done();
}
