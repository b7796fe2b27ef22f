/* probe's output for people, in the manner of `mtr -r` and ping: a header
 * naming the source, one aligned row per destination and parameter set
 * (only the parameters that vary get a column), findings as indented
 * lines under a row only when there is something to say, and a closing
 * summary. Every line fits in PROBE_TEXT_WIDTH columns; a destination
 * name too long for its column is shortened in the middle ("..").
 * Rows are built in buffers (pure: testable without a device); the
 * caller writes them. */
#ifndef IBAHPROBE_PROBE_TEXT_H
#define IBAHPROBE_PROBE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/probe_engine.h"
#include "probe/probe_round.h"
#include "probe/probe_vlan.h"

#define PROBE_TEXT_WIDTH 99
#define PROBE_TEXT_ROW_MAX 4096	/* a row with its findings */

struct probe_text_layout {
	bool color;
	bool continuous;		/* until interrupted */
	bool show_hop_limit, show_sl;	/* swept or given */
	bool show_flow_label;		/* some destination can carry one */
	bool show_p99;			/* count >= 20 (or continuous) */
	int dest_width, lost_width;
	/* The session's cells: a row's rewrite said by the row above of
	 * the same destination is not said again. */
	const struct probe_cell *cells;
	size_t cell_count;
};

/* What varies decides the columns: hop limits and SLs get one when more
 * than one is probed or one was given; the flow label when the link is
 * InfiniBand or a destination is not IPv4 (IPv4 has no flow label), or
 * one was asked; p99 when a set has 20 probes or more. The destination
 * column is as wide as the longest name that fits. */
void probe_text_layout_init(struct probe_text_layout *l,
			    const struct probe_session *s, bool show_hop_limit,
			    bool show_sl, bool continuous, bool color);

/* "4.21us", "812us", "1.37ms", "12.3ms", "3.2s": at most 6 characters. */
void probe_text_rtt(double us, char *out, size_t len);

/* The source line(s): host, device, port, link layer, source GID / LID,
 * how many destinations and sets; note (the device chosen instead of
 * the first one) when not empty. */
void probe_text_header(const struct probe_text_layout *l,
		       const struct probe_session *s, size_t dest_count,
		       size_t set_count, const char *note, char *buf,
		       size_t len);

/* The column titles. */
void probe_text_titles(const struct probe_text_layout *l, char *buf,
		       size_t len);

/* A cell's row and, when findings, its findings (those that say more
 * than the row). resolved: the probes to count (a finished cell: all it
 * sent; a running one: those answered or past their deadline). v: the
 * verdict for the hop count and findings (NULL: none yet). */
void probe_text_row(const struct probe_text_layout *l,
		    const struct probe_cell *c, const struct verdict *v,
		    uint32_t resolved, bool findings, char *buf, size_t len);

/* A continuous run's row: probe_text_row with the round just closed
 * (round: NULL when none closed yet) beside the run's numbers, as mtr's
 * Last and Loss%: the columns LAST% (the round's loss) and LAST (its
 * median RTT). A round that got nothing back makes the status "no reply"
 * and puts "no reply since HH:MM:SS" (probe_text_round_silence) under
 * the row: down now, whatever the run's totals say. */
void probe_text_round_row(const struct probe_text_layout *l,
			  const struct probe_cell *c, const struct verdict *v,
			  uint32_t resolved, bool findings,
			  const struct probe_round_cell *round, char *buf,
			  size_t len);

/* When the round sent probes and none came back: "no reply since
 * HH:MM:SS" (local time of the last reply) or "no reply yet"; returns
 * false (buf "") when the round got a reply or sent nothing. */
bool probe_text_round_silence(const struct probe_round_cell *round,
			      char *buf, size_t len);

/* The closing summary: "N destinations, M sets: a ok, b loss, c
 * unreachable, d errors" and the findings counted ("; tc remarked 3"). */
void probe_text_summary(const struct probe_session *s, size_t dest_count,
			size_t set_count, char *buf, size_t len);

/* The UDP source port a cell's flow label stands for on RoCE v2, or -1
 * (provider_label_udp_sport: InfiniBand, RoCE v1, no GRH, flow label 0).
 * It is the port mlx5 and hns put on the wire for that label; rxe takes
 * its port from the QPN (rxe_qp_init_req) and irdma/bnxt_re leave it to
 * firmware, so it is what the flow label asks for, not necessarily what
 * the NIC sends. */
int32_t probe_udp_sport(const struct probe_session *s,
			const struct probe_cell *c);

/* The UDP source port the cell's probes carry on the wire, where it can be
 * known (provider_probe_udp_sport: mlx5 and hns the flow label's, rxe its
 * QP's), or -1 (InfiniBand, RoCE v1, no GRH, no QP yet, a random or a
 * firmware's port). The port ECMP routers hash: report joins a result
 * with the trace of this port. */
int32_t probe_wire_udp_sport(const struct probe_session *s,
			     const struct probe_cell *c);

/* With -v, below a cell's row: "    UDP source port 0xe341 for flow
 * label 0x12345" and whether the provider sends it; nothing when
 * probe_udp_sport has no port. */
void probe_text_udp_sport(const struct probe_session *s,
			  const struct probe_cell *c, char *buf, size_t len);

/* With -v, below a cell's row: what the RTT column's end-to-end figure
 * holds: "    RTT medians: 1.20ms end to end, network 25.0us (sw-event
 * stamps), responder 1.17ms (max 1.0s, of which 1.0s waiting for its
 * reply AH: first contact)"; or why the network's share is not known.
 * Wrapped, "" without replies. */
void probe_text_timing(const struct probe_cell *c, char *buf, size_t len);

/* Below a cell's row: the priority mismatch when the PCP that arrived
 * is not the one sent ("    sent priority 3 on VLAN 100, arrived
 * priority 0: the PFC class was not kept"); with verbose also the
 * priority sent and the VLAN and priority seen, or why unknown. ""
 * when there is nothing to say (no reply and not verbose). */
void probe_text_vlan(const struct probe_session *s,
		     const struct probe_vlans *pv, const struct probe_cell *c,
		     bool verbose, char *buf, size_t len);

/* With -v, once under the header: what the stamps of this run can and
 * cannot see. */
void probe_text_timing_note(const struct probe_session *s, char *buf,
			    size_t len);

/* The source GID is chosen per destination (-g auto), so each of its
 * parameter sets has the same choice: true when c's is the one of the
 * set before it, which -v said already. */
bool probe_text_sgid_choice_repeats(const struct probe_session *s,
				    const struct probe_cell *c);

#endif
