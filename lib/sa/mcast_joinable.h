/* Whether this port can join a multicast group, by the SA's own rule:
 * opensm's validate_port_caps() (osm_sa_mcmember_record.c) refuses a
 * join when the port's PortInfo MTUCap is below the group's MTU, or the
 * rate it computes from the port's active width and speed
 * (ib_port_info_compute_rate()) is below the group's rate. IPoIB joins
 * its partition's broadcast group before it comes up
 * (ipoib_mcast_join_task()), so a port that cannot join it has no IPoIB
 * on that partition, however healthy its link: the audit says so.
 *
 * The facts come from the SA, not from verbs: the SA judges with its
 * PortInfoRecord of the port (MTUCap, not the active MTU), and that is
 * also what a simulated subnet has. */
#ifndef IBAHPROBE_MCAST_JOINABLE_H
#define IBAHPROBE_MCAST_JOINABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sa/path_resolve.h"
#include "wire/mcmember.h"
#include "wire/sa_records.h"

#define MCAST_MAX_PKEYS 128

struct mcast_port_caps {
	uint16_t lid;
	uint8_t port_num;
	uint8_t mtu_cap;	/* code 1..5 */
	uint8_t active_mtu;	/* code (NeighborMTU), for the words only */
	uint8_t rate;		/* rate code (enum ibv_rate numbering) */
	size_t pkey_count;	/* the port's P_Key table, empty slots out */
	uint16_t pkeys[MCAST_MAX_PKEYS];
};

/* The rate code opensm's ib_port_info_compute_rate() gives a port's
 * active width and speed (4x QDR: 40 Gb/s, code 7); 0 when the pair
 * names no rate. */
uint8_t portinfo_rate_code(const struct portinfo_record *p);

/* This port's caps: its PortInfoRecord from the SA and its P_Key table
 * (umad). -1 with err set when the SA does not answer. */
int mcast_port_caps_fetch(struct path_session *s, uint32_t timeout_ms,
			  unsigned retries, struct mcast_port_caps *caps,
			  char *err, size_t errlen);

struct mcast_joinability {
	bool joinable;
	bool mtu_short;		/* MTUCap below the group's MTU */
	bool rate_short;	/* rate below the group's (opensm's compare) */
};

/* opensm's validate_port_caps() as a function of plain inputs. Rates are
 * compared as opensm compares them, by code (`rate_required <
 * rate_mgrp`), although the codes are not in the order of speed (code 5
 * is 5 Gb/s, code 3 10 Gb/s): the SA's verdict is what decides a join. */
void mcast_joinable_judge(const struct mcmember_record *group,
			  const struct mcast_port_caps *port,
			  struct mcast_joinability *j);
/* "this port (MTU 2048) cannot join ff12:401b:8001::ffff:ffff (MTU
 * 4096): IPoIB on partition 0x8001 will not come up here", or "this port
 * (MTU 4096, rate 10 Gb/s) can join ... (MTU 2048, rate 10 Gb/s)". */
void mcast_joinable_describe(const struct mcmember_record *group,
			     const struct mcast_port_caps *port,
			     const struct mcast_joinability *j, char *buf,
			     size_t len);

#endif
