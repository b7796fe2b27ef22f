/* A responder through the output layer: serve's ready line, probe
 * --dry-run's rendezvous answer and discover's SA records show the same
 * keys (device, port_num, lid, qpn, qkey, link_layer; "gids": index,
 * gid, type), each in its own text layout; and serve's summary line. */
#ifndef IBAHPROBE_RESPONDER_PRINT_H
#define IBAHPROBE_RESPONDER_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "peer/rendezvous.h"

/* How a QPN reads in text. Decimal where serve announces itself and
 * discover lists SA records; hex under probe --dry-run, beside probe's
 * other QPNs ("rxe's own for QP 0x11"). Both are pinned by the golden
 * outputs, so the form is the caller's to say. */
enum responder_qpn_form {
	RESPONDER_QPN_DECIMAL,	/* " qpn 17" */
	RESPONDER_QPN_HEX,	/* " qpn 0x11" */
};

/* "qpn" and "qkey" (" qpn 17 qkey 0x11111111"). */
void responder_qp_print(uint32_t qpn, uint32_t qkey,
			enum responder_qpn_form qpn_form);

/* device, port_num, lid, qpn, qkey and link_layer: in text " device
 * mlx5_0 port 1 lid 3 qpn ... link_layer InfiniBand" after lead (serve:
 * "", probe --dry-run: a line of its own, "\n    rendezvous"). The GIDs
 * are responder_gids_print's, as serve puts its own fields between. */
void responder_info_print(const struct responder_info *info, const char *lead,
			  enum responder_qpn_form qpn_form);

/* nested: the list stands under another line (probe --dry-run), so its
 * text lines are indented deeper. */
void responder_gids_print(const struct responder_info *info, bool nested);

/* serve's ready line: the responder_info fields, then on a second line
 * its rendezvous address (NULL: none), whether it registered in the SA
 * and its pidfile (NULL: none), then the GIDs, a line each: every text
 * line under 100 columns. */
/* How serve stamps and waits, for the ready line: probers read the
 * figures it puts in each reply with it (probe(8) TIMING). */
struct responder_timing {
	bool busy_poll;
	bool hw_stamps;		/* the device stamps completions */
	const char *why_not;	/* no hw stamps: why ("" or NULL: unsaid) */
};

/* A multicast group serve is a member of (--mcast), for the ready line:
 * "mcast": [{group, mgid, mlid, qkey, join, netdev}]. */
struct responder_group {
	const char *group;	/* as given */
	union ibv_gid mgid;	/* the MGID, or the IP group as a GID */
	uint16_t mlid;		/* InfiniBand; 0 on RoCE */
	uint32_t qkey;		/* whose datagrams the QP hears */
	/* How: "full_member" (serve joined through the SA and leaves on
	 * exit), "already_member" (the port was a member before: attached
	 * only, the SA left alone), "igmp" or "mld" (RoCE: an IP membership
	 * on netdev). */
	const char *join;
	const char *netdev;	/* RoCE; NULL on InfiniBand */
};

void responder_ready_print(const struct responder_info *info,
			   const char *rendezvous, bool registered,
			   const char *pidfile,
			   const struct responder_timing *timing,
			   const struct responder_group *groups,
			   size_t group_count);

struct responder;
/* The counts of a stopped responder; why: what stopped it. */
void responder_summary_print(const struct responder *r, const char *why);

#endif
