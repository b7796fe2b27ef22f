/* A multicast group's MCMemberRecord through the output layer, one call
 * per field, so `ah mcast:` and `probe --dry-run mcast:` show the group
 * the same way: JSON keys mgid, mlid, qkey, pkey, mtu (bytes), rate
 * (the rate code), rate_gbps, sl, hop_limit, traffic_class, flow_label,
 * scope; in text one line "group MGID mlid ... scope N". */
#ifndef IBAHPROBE_MCMEMBER_PRINT_H
#define IBAHPROBE_MCMEMBER_PRINT_H

#include "wire/mcmember.h"

/* An object under key ("group"); text_lead opens its text line. */
void mcmember_print(const char *key, const char *text_lead,
		    const struct mcmember_record *g);

#endif
