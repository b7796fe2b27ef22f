/* One printer for struct ibv_ah_attr, shared by every command that shows
 * an AH (ah, probe's reverse AH), so the fields and keys never drift. */
#ifndef IBAHPROBE_AH_PRINT_H
#define IBAHPROBE_AH_PRINT_H

#include <infiniband/verbs.h>

#include "verbs/ah_attr.h"
#include "verbs/sgid_select.h"

/* Emits an object named key with the verbs.h field names. */
void ah_attr_print(const char *key, const struct ibv_ah_attr *attr);
/* Text widths of the values of a list of AHs, so their lines line up:
 * each as wide as the widest of the list (a list of one prints as
 * ah_attr_print does). */
struct ah_widths {
	int dlid, sl, src_path_bits, static_rate, port_num;
	int dgid, sgid_index, hop_limit;
};
/* Widens w to fit attr. Start from a zeroed struct. */
void ah_widths_add(struct ah_widths *w, const struct ibv_ah_attr *attr);
/* ah_attr_print with the text values padded to w; the same JSON. */
void ah_attr_print_aligned(const char *key, const struct ibv_ah_attr *attr,
			   const struct ah_widths *w);
/* Emits an array named key, one object per broken rule. */
void ah_check_print(const char *key, const struct ah_check *check);
/* Emits the -g auto choice as an object named key (JSON only: text
 * shows it with -v on stderr): index, gid, gid_type, netdev, rule,
 * reason, route_oif, route_source; null where not known. */
void sgid_choice_print(const char *key, const struct sgid_choice *choice);

#endif
