/* One printer for struct ibv_ah_attr, shared by every command that shows
 * an AH (ah, probe's reverse AH), so the fields and keys never drift. */
#ifndef IBAHPROBE_AH_PRINT_H
#define IBAHPROBE_AH_PRINT_H

#include <infiniband/verbs.h>

#include "ah_attr.h"
#include "sgid_select.h"

/* Emits an object named key with the verbs.h field names. */
void ah_attr_print(const char *key, const struct ibv_ah_attr *attr);
/* Emits an array named key, one object per broken rule. */
void ah_check_print(const char *key, const struct ah_check *check);
/* Emits the -g auto choice as an object named key (JSON only: text
 * shows it with -v on stderr): index, gid, gid_type, netdev, rule,
 * reason, route_oif, route_source; null where not known. */
void sgid_choice_print(const char *key, const struct sgid_choice *choice);

#endif
