/* The names of probe's statuses; see probe_schema.h. */
#include <string.h>

#include "out/probe_schema.h"

static const char *const status_names[PROBE_STATUS_COUNT] = {
	[PROBE_STATUS_REACHABLE] = PROBE_STATUS_NAME_REACHABLE,
	[PROBE_STATUS_PARTIAL] = PROBE_STATUS_NAME_PARTIAL,
	[PROBE_STATUS_UNREACHABLE] = PROBE_STATUS_NAME_UNREACHABLE,
	[PROBE_STATUS_ERROR] = PROBE_STATUS_NAME_ERROR,
	[PROBE_STATUS_PENDING] = PROBE_STATUS_NAME_UNREACHABLE,
};

const char *probe_status_name(enum probe_status status)
{
	return (unsigned)status < PROBE_STATUS_COUNT ? status_names[status]
						     : "?";
}

int probe_status_parse(const char *name, size_t len,
		       enum probe_status *status)
{
	for (int s = 0; s < PROBE_STATUS_PENDING; s++)
		if (strlen(status_names[s]) == len &&
		    memcmp(status_names[s], name, len) == 0) {
			*status = (enum probe_status)s;
			return 0;
		}
	return -1;
}
