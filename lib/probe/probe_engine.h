/* The probing engine shared by `probe` and `check`: responders learned
 * (rendezvous or given QPN), one AH per destination and parameter set
 * ("cell"), probes sent round-robin with a window across all cells, each
 * with a deadline, replies matched by sequence, verdicts judged. */
#ifndef IBAHPROBE_PROBE_ENGINE_H
#define IBAHPROBE_PROBE_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "verbs/ah_attr.h"
#include "base/dest.h"
#include "verbs/device.h"
#include "base/diag.h"
#include "wire/pathrec.h"
#include "verbs/pkey_table.h"
#include "probe/oneway_loss.h"
#include "probe/probe_ledger.h"
#include "probe/probe_verdict.h"
#include "wire/probe_wire.h"
#include "verbs/provider.h"
#include "peer/rendezvous.h"
#include "peer/rendezvous_count.h"
#include "verbs/route_info.h"
#include "probe/rtt_join.h"
#include "probe/rtt_stats.h"
#include "verbs/sgid_select.h"
#include "verbs/ud_endpoint.h"

#define PROBE_DEFAULT_COUNT 5
#define PROBE_DEFAULT_WINDOW 32
#define PROBE_MAX_WINDOW 1024

/* How to probe; the same for every cell of a session. */
struct probe_settings {
	uint32_t count;		/* probes per cell; 0: until stopped */
	uint32_t interval_ms;	/* least time between two probes of a cell */
	uint32_t size;		/* request size in bytes */
	uint32_t window;	/* probes in flight across all cells */
	uint32_t timeout_ms;	/* per-probe deadline; also the rendezvous' */
	int gid_index;		/* -1: choose per destination */
	bool has_pkey;		/* --pkey: the partition of the QP */
	uint16_t pkey;
	bool dry_run;		/* build and check the AHs, create none */
	/* Spin on the CQ instead of sleeping on completion events: the
	 * prober's wake-up leaves the RTT, a core is busy meanwhile. */
	bool busy_poll;
	/* Leave out a destination that is the probing port itself (its
	 * address or advertised DGID is in our GID table): probe does, as
	 * a fan-out to every host of a list reaches the prober too. */
	bool skip_local_port;
	/* InfiniBand: every cell becomes one cell per DLID of its
	 * destination's LMC range and per source path bits of ours
	 * (probe_paths.h), when its target resolves. */
	bool paths_all;
};

/* A responder, as the rendezvous (or a given QPN) describes it. */
struct probe_target {
	const struct dest *dest;
	/* Given QPN and Q_Key: skip the rendezvous. */
	bool has_qpn;
	uint32_t qpn, qkey;
	/* Set up by the caller already (probe --discover): ready or not,
	 * the rendezvous is skipped; on IB the path is still asked. */
	bool preset;
	bool ready;
	char error[DIAG_MSG_MAX * 2];
	struct responder_info info;
	bool from_rendezvous;	/* info is a rendezvous answer */
	/* Asked again after a run with loss: the responder answered with
	 * another QPN (it restarted), or answered at all. */
	bool rechecked, rendezvous_again, restarted;
	uint32_t new_qpn;
	/* A continuous run followed it to a new QP (responder_follow):
	 * first_qpn the QPN the run began with, info.qpn the one now. */
	bool followed;
	uint32_t first_qpn, restarts_followed;
	char followed_time[16];	/* "HH:MM:SS" of the latest */
	/* A continuous run followed its renumbered host to a new address
	 * (responder_follow): how often, when last, and the latest's old
	 * and new GID (has_: the AH had one) and LID (IB; 0: none). */
	uint32_t renumbered_followed;
	char renumbered_time[16];
	bool renumbered_has_gid;
	union ibv_gid renumbered_from, renumbered_to;
	uint16_t renumbered_from_lid, renumbered_to_lid;
	union ibv_gid dgid;
	bool has_dgid;
	char dgid_source[DIAG_MSG_MAX];	/* where the DGID came from */
	uint16_t dlid;
	/* InfiniBand: the SA PathRecord the AH is built from. Without it (a
	 * lid: destination while the SA is unreachable) the AH has the LID
	 * only; path_note says why. */
	bool has_path;
	struct path_record path;
	char path_note[DIAG_MSG_MAX];
	struct route_info route;
	bool route_known;
	int known_hops;
	/* The destination is the probing port itself (its DGID is in our
	 * GID table): probe skips it, as a fan-out to every host in a list
	 * reaches the prober too. */
	bool local_port;
};

struct trace_job;

/* Which of its destination's LMC paths a cell probes (--paths all): the
 * DLID, our source path bits, and the SA's PathRecord to that DLID. */
struct probe_dlid_path {
	bool wanted;		/* in: expand this cell (check's paths_ok) */
	unsigned index, of;	/* 1-based; of 0: the target's own path */
	unsigned dlids;		/* DLIDs of the range (of / our LIDs) */
	uint16_t dlid;
	uint8_t src_path_bits;
	bool has_path;		/* record: the PathRecord to dlid */
	struct path_record record;
	char error[DIAG_MSG_MAX];	/* no PathRecord: why */
	/* The range is the base DLID alone because the SA did not give
	 * the LMC: why. */
	char lmc_unknown[160];
	size_t origin;		/* the index of the cell expanded */
	/* The path lost probes: its walk (probe/probe_path_trace.h), owned
	 * by the caller's probe_path_traces; NULL: not traced. */
	const struct trace_job *trace;
};

/* Where t's rendezvous listens: the host (the name as given, or its
 * GID's address) and the port. */
void probe_target_rendezvous(const struct probe_target *t, char *host,
			     size_t len, uint16_t *port);

/* One destination with one parameter set. */
struct probe_cell {
	struct probe_target *target;
	struct probe_params asked;
	struct probe_dlid_path dlid_path;
	/* The user chose asked.sl; else on IB the path's SL replaces it
	 * (under QoS routing the SL is part of the route). */
	bool sl_given;
	uint32_t count;		/* probes to send; 0: the session's count */
	/* Request bytes; 0: the session's size. probe --mtu gives each
	 * destination its own size per run (its search's next step). */
	uint32_t size;
	/* Sends nothing in this run (probe --mtu: its search is over). */
	bool paused;
	struct ibv_ah_attr attr;
	struct sgid_choice sgid_choice;	/* -g auto; reason "" otherwise */
	struct ah_check check;
	struct ibv_ah *ah;
	char error[DIAG_MSG_MAX * 2];
	uint64_t create_usec;
	uint32_t sent, received, send_errors;
	/* Replies after their deadline, matched by sequence; the latest
	 * of them this long past its deadline. */
	uint32_t late;
	uint64_t late_max_ns;
	uint32_t duplicates;	/* a second reply to one probe */
	uint64_t next_send_ns;
	struct rtt_samples rtt;	/* end to end */
	/* The round trips split (rtt_split): the network's share and the
	 * responder's dwell that was taken off, where the responder said
	 * it; replies without it (older responders), those whose dwell
	 * came out longer than the round trip, the weakest stamp source
	 * that went into `network`, and the longest wait of a reply for its
	 * reply AH at the responder (first contact). */
	struct rtt_samples network, dwell;
	uint32_t dwell_unknown, clock_errors;
	bool stamps_seen;
	enum stamp_source stamps;
	uint64_t reply_ah_wait_max_ns;
	uint32_t timing_waiting;	/* replies waiting for stamps */
	uint64_t last_reply_ns;	/* CLOCK_MONOTONIC of the latest answer */
	bool observed_valid;
	struct probe_reply last_reply;
	/* The responder's running count from the replies: the count the
	 * reply to this set's reply_ordinal-th probe (1-based) carried, for
	 * the latest such probe answered; 0: none yet, or an older
	 * responder. */
	uint32_t reply_count, reply_ordinal;
	/* The hop limit the last reply arrived with (its GRH), for the
	 * hops back. */
	bool reply_grh_seen;
	uint8_t reply_hop_limit_seen;
	/* The responder's final count, asked after a run with loss
	 * (probe_session_recheck). */
	enum oneway_final final;
	uint32_t final_received, final_answered;
	bool final_reasons_known;	/* the count said why (newer serve) */
	uint32_t final_resolving;	/* unanswered for want of a reply AH */
	/* Of the answered, those posted after waiting for their reply AH
	 * (a newer serve says), how many such replies came back, and how
	 * many of those after their deadline (first contact, not loss). */
	bool final_after_park_known;
	uint32_t final_answered_after_park, arrived_after_park;
	uint32_t late_after_park;
	struct rendezvous_rq_drops final_rq;	/* its receive queue's drops */
	bool reported;		/* given to on_done already */
	bool judged;
	struct verdict verdict;
};

struct probe_session {
	struct probe_settings settings;
	struct ud_endpoint ep;
	struct ah_port_facts facts;
	uint32_t port_mtu;	/* active MTU in bytes; 0 unknown */
	char hostname[256];	/* names the source in merged reports */
	const char *device;
	/* Why this device/port and not the first one, when it was chosen
	 * automatically (device_pick_port); "" otherwise. */
	char device_note[DIAG_MSG_MAX];
	enum provider provider;	/* who runs the device: its AH rules */
	/* The QP's partition: the P_Key table of the port (pkeys_known),
	 * the P_Key chosen (--pkey or the first path's; 0: none) and its
	 * index. */
	struct pkey_table pkeys;
	bool pkeys_known;
	uint16_t pkey;
	uint16_t pkey_index;
	/* Owned by the session: made by probe_session_alloc_cells, freed by
	 * probe_session_close. */
	struct probe_cell *cells;
	size_t cell_count;
	/* The window in flight and every recent probe's cell by sequence,
	 * so a reply is credited to its own cell, in time, late or twice. */
	struct probe_ledger ledger;
	/* The timing of each round trip by sequence, until it is split. */
	struct rtt_join join;
	uint32_t probe_id;
	/* Set when our own QP failed (wc_failure_judge): the run ends, and
	 * the failure is the local host's, never a destination's. */
	char fatal[DIAG_MSG_MAX * 2];
	/* Called once per cell as soon as its last probe resolved with
	 * every probe answered (judged already), for streaming output;
	 * cells with loss are judged at the end. NULL: none. */
	void (*on_done)(struct probe_session *s, struct probe_cell *c);
	/* Called every period_ms during the run (running statistics of a
	 * continuous run); NULL: never. */
	void (*on_period)(struct probe_session *s);
	uint32_t period_ms;
	uint64_t next_period_ns;
	uint64_t total_sent;	/* probes sent in this run */
	uint64_t run_start_ns;	/* the first probe's time, for age_ms */
	/* When the last probe resolved (answered or past its deadline):
	 * with run_start_ns, the probing phase alone, without device open,
	 * rendezvous and AH creation. 0 until a run ended. */
	uint64_t run_end_ns;
	bool run_over;		/* counts were asked: final verdicts */
	bool progress_shown;	/* the progress line is on stderr */
};

/* Port facts, device and host name of the session (before targets are
 * resolved: they need the link layer). */
void probe_session_init(struct probe_session *s, const struct device_info *dev,
			const struct port_info *port);

/* count zeroed cells for s, which owns them from now on (the caller
 * fills each cell's target and parameters). Returns 0, or -1 when out of
 * memory (the session then has none). */
int probe_session_alloc_cells(struct probe_session *s, size_t count);

/* Reads the port's P_Key table into s (for --pkey and the paths'
 * P_Keys). Returns 0, or -1 with err set (the table stays unknown). */
int probe_session_read_pkeys(struct probe_session *s,
			     const struct device_info *dev, char *err,
			     size_t len);

/* Learns every cell's target (cells of one target stand together): its
 * QPN and Q_Key from the rendezvous unless t->has_qpn, and the address to
 * probe; a target that fails keeps ready false and says why in t->error.
 * All targets at once: a session with many dead peers waits one
 * rendezvous deadline, not one each. On InfiniBand the DGID is the
 * responder's port GID and every ready target then gets an SA PathRecord,
 * all in one windowed batch; the session's partition (s->pkey_index) is
 * chosen, and targets whose path is in another partition fail. */
void probe_session_resolve_targets(struct probe_session *s);
/* What the SA is asked a PathRecord with: the partition pkey (0: any;
 * the first resolution asks --pkey's, a path asked later the QP's, which
 * it cannot leave) and the source GID of --gid-index when the port has
 * it. */
void probe_session_path_wants(const struct probe_session *s, uint16_t pkey,
			      struct path_constraints *want);

/* Opens the UD endpoint on dev/port for the cells (targets resolved). One
 * QP has one Q_Key: the first ready target's; targets whose Q_Key differs
 * are marked not ready. Returns 0, or -1 with err. */
int probe_session_open(struct probe_session *s, const struct device_info *dev,
		       const struct port_info *port, char *err, size_t len);

/* Builds, checks and (unless settings.dry_run) creates the AH of every
 * cell of a ready target (c->error says why one failed). The cells of one target in turn: the
 * first resolves the next hop, the others find it cached. The targets at
 * once: a silent next hop costs ~1 s on rxe, more on some drivers, once
 * for all of them. */
void probe_session_prepare(struct probe_session *s);
bool probe_cell_active(const struct probe_cell *c);

/* Whether the cell before c is of the same target and chose its source
 * GID for the same reason: -v says the choice once per destination. */
bool probe_cell_sgid_choice_repeats(const struct probe_session *s,
				    const struct probe_cell *c);

/* Sends and receives until every active cell is done, or *stop is set
 * (then in-flight probes still get their deadline). Returns 0, or a
 * negative errno when polling failed or the local QP failed (s->fatal
 * then says how: exit 3, not a destination's failure). */
int probe_session_run(struct probe_session *s,
		      const volatile sig_atomic_t *stop);

/* Whether a received datagram (GRH area, then payload; len bytes) is a
 * reply to this session's probes, decoded into *reply: one of another
 * run (another probe id) or junk is not. */
bool probe_session_reply_ours(const struct probe_session *s,
			      const uint8_t *buf, size_t len,
			      struct probe_reply *reply);

/* Forgets c's counts (probes sent, answered, late, duplicates, send
 * errors, verdict) so another run measures it afresh; its AH, RTT
 * samples and last reply stay. */
void probe_cell_restart(struct probe_cell *c);

/* The request size c sends. */
uint32_t probe_cell_size(const struct probe_session *s,
			 const struct probe_cell *c);

/* Probes of c answered or past their deadline (sent, minus those in
 * flight). */
uint32_t probe_cell_resolved(const struct probe_session *s,
			     const struct probe_cell *c);

/* The verdict on c as if it had sent sent probes: from the session's
 * port facts and provider, its target's route and recheck, and c's
 * counts and last reply. c itself is not changed. */
void probe_cell_judge(const struct probe_session *s,
		      const struct probe_cell *c, uint32_t sent,
		      struct verdict *v);

/* c's status after resolved of its probes (all it sent, for a finished
 * cell): error when its target or AH failed, pending before the first
 * probe resolved, else by how many of those were answered. The one
 * judgement that the text table, JSON and the summaries all render. */
enum probe_status probe_cell_status(const struct probe_cell *c,
				    uint32_t resolved);

/* The verdict on c so far (a running row), counting resolved probes
 * only; c itself is not changed. */
void probe_cell_running_verdict(const struct probe_session *s,
				const struct probe_cell *c, struct verdict *v);

/* Clears the progress line from stderr before a row reaches a terminal. */
void probe_session_progress_clear(struct probe_session *s);

/* After a run: asks the rendezvous of every target that lost probes
 * again, all at once, to tell a responder that restarted (another QPN)
 * or is up but unreachable over UD from one that is gone, and asks it
 * for each lossy set's final count (which way the probes were lost).
 * Cells already streamed (on_done) were judged without it. */
void probe_session_recheck(struct probe_session *s);
/* Asks target t's rendezvous for the count of one set of requests sent
 * from this session (q); 0 with *a, -1 with err. trace asks it for the
 * datagrams of its silent hops. */
int probe_session_ask_count(const struct probe_session *s,
			    const struct probe_target *t,
			    const struct rendezvous_count_question *q,
			    struct rendezvous_count_answer *a, char *err,
			    size_t errlen);

/* Judges the cells not judged yet: those that answered first, since
 * their hop counts explain the losses of other sets to the same target. */
void probe_session_judge(struct probe_session *s);

/* Drains sends, destroys the AHs and the endpoint; frees the cells (with
 * their samples) and the ledger. */
void probe_session_close(struct probe_session *s);

#endif
