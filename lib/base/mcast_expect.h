/* probe --expect-member's HOST list: the members a group must have, by
 * the address or name their serve's rendezvous listens on (HOST,
 * HOST:PORT, [v6]:PORT), comma-separated. */
#ifndef IBAHPROBE_MCAST_EXPECT_H
#define IBAHPROBE_MCAST_EXPECT_H

#include <stddef.h>

#include "base/dest.h"

/* Hosts a list may name (repeated options add up). */
#define MCAST_EXPECT_MAX 64

/* Appends the comma-separated HOSTs of text to list: refuses an empty
 * item, one that is no address or host name (a LID, a GUID, a node
 * description, a group), and more than MCAST_EXPECT_MAX in all. 0, or
 * -1 with err set (list then holds what came before). */
int mcast_expect_hosts_add(struct dest_list *list, const char *text,
			   char *err, size_t errlen);

#endif
