/* Judging one checklist expectation against what was measured for its
 * entry: held or not, with what was got and what was expected in words
 * for the TAP line ("got 1, expected 2") and as numbers with their unit
 * for JSON (check -j), so a script compares values instead of parsing
 * prose. Pure logic. */
#ifndef IBAHPROBE_CHECK_EXPECT_H
#define IBAHPROBE_CHECK_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "probe/checklist.h"
#include "base/diag.h"
#include "probe/oneway_loss.h"
#include "probe/probe_paths.h"

/* Room for any error message a measurement carries (DIAG_MSG_MAX), so the
 * words of "got" are never cut; check_text_fit() cuts longer ones at a
 * word boundary. */
#define CHECK_TEXT_MAX (DIAG_MSG_MAX + 64)

/* mcast_member=HOST silent to the group: the sentence on where the group
 * stops for it (probe/mcast_boundary.h), by its GID. */
struct check_mcast_boundary {
	union ibv_gid gid;
	char words[CHECK_TEXT_MAX];
};

/* What was measured for one entry; unset parts stay false/NULL. */
struct check_measured {
	/* Probes (NEED_PROBE): error set when they could not be sent at
	 * all (no responder, AH creation failed). */
	bool probed;
	const char *probe_error;
	uint32_t sent, received;
	bool rtt_valid;
	double rtt_median_us, rtt_p99_us;	/* end to end */
	/* Less the responder's dwell; not valid from an older responder. */
	bool network_rtt_valid;
	double network_rtt_median_us, network_rtt_p99_us;
	int hops;			/* -1: unknown */
	/* Which way the lost probes went (oneway_judge); unknown or none
	 * says nothing more than the count. */
	enum oneway_direction loss_direction;
	/* For isolated: the probes went through the rendezvous (not
	 * qpn=), whose answer says the responder is up, and its final
	 * count of the requests it received (-1: not known: its count
	 * could not be had, an older or forgetful serve). */
	bool via_rendezvous;
	int64_t responder_received;
	bool observed_valid, grh_present;
	struct probe_params asked;
	uint8_t tclass_seen;
	uint32_t flow_label_seen;
	/* The PCP the responder saw; not known: why (probe_vlan_seen_why). */
	bool pcp_seen_known;
	uint8_t pcp_seen;
	const char *pcp_unknown;
	/* The path (NEED_PATH). */
	bool path_valid;
	const char *path_error;
	uint16_t path_mtu;		/* bytes */
	/* Set when path_mtu is no measure of the path, and why (RoCE: no
	 * path record, only the port's MTU): path_mtu= then fails with it,
	 * never passes on what was not measured. */
	const char *path_mtu_unmeasured;
	bool has_path_sl;
	uint8_t path_sl;
	/* The AH that was or would be built (NEED_AH). */
	bool ah_known;
	const char *ah_error;
	bool ah_is_global;
	/* A group's record and this port against it (NEED_MCAST_SA):
	 * sa/mcast_joinable's verdict and its words; error when there is
	 * none (no such group, no SA, RoCE). */
	const char *mcast_sa_error;
	bool mcast_joinable_known, mcast_joinable;
	const char *mcast_joinable_words;
	/* A group probed (NEED_MCAST_PROBE): the members that answered,
	 * by GID; error when the group could not be probed. */
	bool mcast_probed;
	const char *mcast_error;
	size_t mcast_answered;
	const union ibv_gid *mcast_member_gids;
	/* The expected members silent to the group that were traced
	 * unicast (RoCE): where the group stops for each. */
	const struct check_mcast_boundary *mcast_boundaries;
	size_t mcast_boundary_count;
	/* mcast_member=HOST: HOST to a GID (an address or a GID is read
	 * as it is; a host name is the resolver's). NULL: no names. */
	int (*resolve_host)(const char *host, union ibv_gid *gid, char *err,
			    size_t errlen);
	/* paths_ok: the destination's LMC paths as probed (probe_paths.h),
	 * path_count of them; none where they were not (RoCE, no path). */
	const struct probe_path_count *paths;
	size_t path_count;
};

/* The structured form. A quantity is a number (value) or, for
 * grh_required, a yes/no (is_bool); unit is "us", "percent", "bytes",
 * "hops", "replies", "paths" or NULL (SL, traffic class, flow label: plain
 * numbers). */
struct check_got {
	bool known;		/* false: reason says why there is no value */
	bool is_bool;
	double value;
	const char *unit;
	const char *reason;	/* points into the outcome's got text */
	bool has_counts;	/* reachable, unreachable, loss */
	uint32_t sent, received;
};

struct check_expected {
	bool is_bool;
	bool value;		/* is_bool */
	bool has_min, has_max;	/* numbers: an inclusive range */
	double min, max;
	const char *unit;
};

struct check_outcome {
	bool ok;
	char got[CHECK_TEXT_MAX];
	char expected[64];
	struct check_got got_value;
	struct check_expected expected_value;
};

void check_expect_judge(const struct expectation *e,
			const struct check_measured *m,
			struct check_outcome *out);

/* Copies text into buf whole, or, when it does not fit, up to the last
 * blank that leaves room for "...", so no word is cut in half. */
void check_text_fit(char *buf, size_t len, const char *text);

#endif
