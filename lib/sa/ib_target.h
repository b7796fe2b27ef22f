/* InfiniBand targets: on IB a host name or IP address only finds a
 * responder's rendezvous. The DGID is the port GID the responder
 * advertises, and DLID, SL, rate, GRH and P_Key come from an SA
 * PathRecord to it (as the kernel's ib_init_ah_attr_from_path and
 * librdmacm's route resolution do). The pure decisions of that, apart
 * from the probe engine that drives them. */
#ifndef IBAHPROBE_IB_TARGET_H
#define IBAHPROBE_IB_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "verbs/pkey_table.h"
#include "peer/rendezvous.h"

/* The DGID to probe a responder at, from its rendezvous answer. named:
 * the GID the user gave (gid:), or NULL. Without one, the responder's IB
 * GID at index 0 (the port GID: subnet prefix and port GUID), else its IB
 * GID of lowest index. Returns 0 with *dgid and a short note on where it
 * came from in why (and *listed: the responder lists it), or -1 with the
 * reason in why. */
int ib_responder_dgid(const struct responder_info *info,
		      const union ibv_gid *named, union ibv_gid *dgid,
		      bool *listed, char *why, size_t len);

/* The partition of a probe session's one UD QP: the user's P_Key, else
 * the first path's (has_path_pkey), else index 0 (the default
 * partition's conventional place). table NULL: not known. Returns 0 with
 * *pkey (0 when neither was given) and *index, or -1 with err set when
 * the port is not a member. */
int ib_partition_choose(bool has_user_pkey, uint16_t user_pkey,
			bool has_path_pkey, uint16_t path_pkey,
			const struct pkey_table *table, uint16_t *pkey,
			uint16_t *index, char *err, size_t errlen);

#endif
