/* probe --expect-member's HOST list: see mcast_expect.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mcast_expect.h"

int mcast_expect_hosts_add(struct dest_list *list, const char *text,
			   char *err, size_t errlen)
{
	char *copy = strdup(text), *rest = copy, *item;
	int rc = 0;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (rc == 0 && (item = strsep(&rest, ",")) != NULL) {
		const struct dest *d;

		if (!*item) {
			snprintf(err, errlen, "expected member list '%s' has "
				 "an empty item: expected HOST[,HOST...]",
				 text);
			rc = -1;
		} else if (list->count >= MCAST_EXPECT_MAX) {
			snprintf(err, errlen, "expected members: more than %d "
				 "in '%s'", MCAST_EXPECT_MAX, text);
			rc = -1;
		} else if (dest_list_add(list, item, err, errlen)) {
			rc = -1;
		} else {
			d = &list->items[list->count - 1];
			if (d->kind != DEST_ADDR && d->kind != DEST_HOST) {
				snprintf(err, errlen, "expected member '%s' is "
					 "a %s destination: expected a host "
					 "name or address (HOST[:PORT])", item,
					 dest_kind_name(d->kind));
				dest_clear(&list->items[--list->count]);
				rc = -1;
			}
		}
	}
	free(copy);
	return rc;
}
