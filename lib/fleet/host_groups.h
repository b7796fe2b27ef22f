/* Host groups files (`plan --groups`, and `report --groups`): which group
 * (rack, leaf switch, rail) each host belongs to, one "HOST GROUP" per
 * line, the two words separated by blanks; '#' starts a comment, blank
 * lines are skipped. Read through the bounded line reader: a line over
 * HOST_GROUPS_LINE_MAX characters, a NUL, more than HOST_GROUPS_MAX_LINES
 * lines, a line without its group or with a third word, a control
 * character, or a host listed twice (even in the same group: one of the
 * two lines is a mistake) is an error naming FILE:LINE. */
#ifndef IBAHPROBE_HOST_GROUPS_H
#define IBAHPROBE_HOST_GROUPS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HOST_GROUPS_LINE_MAX 600
#define HOST_GROUPS_NAME_MAX 256
#define HOST_GROUPS_MAX_LINES 1000000

struct host_group_entry {
	char *host;
	uint32_t group;		/* index into group_names */
	unsigned long line;
};

struct host_groups {
	size_t count;
	struct host_group_entry *entries;	/* file order */
	size_t group_count;
	char **group_names;	/* in the order of their first line */
	uint32_t *by_host;	/* entry indices, sorted by host name */
};

/* Reads in to its end; label names it in messages. On failure (-1, err
 * set) hg is left empty. */
int host_groups_read(struct host_groups *hg, FILE *in, const char *label,
		     char *err, size_t errlen);
/* The same from a file name ("-": stdin); a file that cannot be opened is
 * an error naming it. */
int host_groups_load(struct host_groups *hg, const char *path, char *err,
		     size_t errlen);
/* The same from n (host, group) pairs made by a program, not read from a
 * file (report --groups sa): groups numbered in the order of their first
 * pair, entries[i].line is i + 1. Names are copied as they are, control
 * characters included: they come from the fabric, not from a user's typo,
 * and every renderer escapes them. A host twice is an error naming label. */
int host_groups_from_pairs(struct host_groups *hg, const char *const *hosts,
			   const char *const *groups, size_t n,
			   const char *label, char *err, size_t errlen);
/* The group (an index into group_names) of host, or -1 when the file
 * does not name it. O(log n). */
long host_groups_find(const struct host_groups *hg, const char *host);
/* The index in entries of host's line, or -1. O(log n). */
long host_groups_entry(const struct host_groups *hg, const char *host);
void host_groups_free(struct host_groups *hg);

#endif
