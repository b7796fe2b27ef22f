/* Where the traffic class changed on a path: see tclass_locate.h. */
#include "trace/tclass_locate.h"

void tclass_locate(uint8_t sent, const struct tclass_seen *points, size_t n,
		   uint8_t mask, struct tclass_change *out)
{
	int last_same = -1;

	*out = (struct tclass_change){ .after = -1, .before = -1,
				       .sent = sent & mask, .seen = sent & mask };
	for (size_t i = 0; i < n; i++) {
		if (!points[i].known)
			continue;
		if ((points[i].tclass & mask) == (sent & mask)) {
			last_same = (int)i;
			continue;
		}
		out->changed = true;
		out->after = last_same;
		out->before = (int)i;
		out->seen = points[i].tclass & mask;
		return;
	}
}
