/* A continuous run follows a responder that restarted: after a round in
 * which every probe to a destination was lost, its rendezvous is asked
 * again, in a thread of its own so the probing goes on meanwhile; an
 * answer with another QPN (a new serve process) or Q_Key moves the
 * destination's probes to it, and one from a host that was renumbered
 * (it no longer has the GID or LID the probes use, or its name now gives
 * another address) moves them to its new address: a new AH (on IB from a
 * new PathRecord). The downtime stays counted as loss.
 * Short runs keep the end-of-run check (probe_session_recheck), which
 * only reports a restart.
 *
 * At a round's end: the destinations that got nothing back are asked
 * (follow_ask), the caller waits a moment for the answers (a serve that
 * is back answers in a millisecond; one still down refuses at once),
 * and takes them (follow_take): a responder back before the round ended
 * is followed at its end, so the loss is the downtime plus at most a
 * round. */
#ifndef IBAHPROBE_RESPONDER_FOLLOW_H
#define IBAHPROBE_RESPONDER_FOLLOW_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "base/diag.h"
#include "peer/rendezvous.h"

/* What an answer of the rendezvous says against what the probes use. */
enum follow_change {
	FOLLOW_SAME,		/* the QP the probes go to: nothing to do */
	FOLLOW_NEW_QP,		/* another QPN or Q_Key: follow it */
	/* The responder no longer has the GID (RoCE, IB with a GRH) or the
	 * LID (IB) the probes are addressed to, or (RoCE) its name now
	 * gives another address: its host was renumbered; the probes need
	 * an AH to the new address (follow_new_address). */
	FOLLOW_RENUMBERED,
};

/* The decision, of plain inputs: the info the probes use, the new
 * answer, the DGID the AH carries (NULL without a GRH), on InfiniBand
 * the DLID, and on RoCE the address the rendezvous answered at when the
 * destination is a name resolved again (NULL otherwise). */
enum follow_change follow_judge(const struct responder_info *now,
				const struct responder_info *answer,
				const union ibv_gid *dgid, bool infiniband,
				uint16_t dlid, const union ibv_gid *reached);

/* Where a renumbered responder is now. */
struct follow_address {
	bool has_dgid;
	union ibv_gid dgid;
	uint16_t lid;		/* IB: its base LID; 0 unknown */
};

/* The address to follow a responder judged FOLLOW_RENUMBERED to, of
 * plain inputs. RoCE: the address its rendezvous answered at (reached:
 * the name resolved again; a RoCE v2 GID is its netdev's IP address),
 * never the old DGID. InfiniBand: the port GID it advertises
 * (ib_responder_dgid) and the base LID it answers with; the PathRecord
 * to it is the caller's. Returns 0 with *to, or -1 with why (the name
 * still gives the old address, or no address to follow). */
int follow_new_address(const struct responder_info *answer,
		       const union ibv_gid *old_dgid,
		       const union ibv_gid *reached, bool infiniband,
		       struct follow_address *to, char *why, size_t len);

/* The words of a renumbering for the admin: "GID a -> b", or on IB
 * without a GID change "LID 0x.. -> 0x..", into buf. */
void follow_renumber_text(const union ibv_gid *old_dgid, uint16_t old_lid,
			  const struct follow_address *to, bool infiniband,
			  char *buf, size_t len);

/* One destination's asking: a thread at a time. */
struct follow_ask {
	pthread_t thread;
	bool running;		/* a thread was started and not joined */
	bool done;		/* written by the thread, read under lock */
	pthread_mutex_t lock;
	char host[DIAG_MSG_MAX];
	uint16_t port;
	uint32_t timeout_ms;
	/* host is a name: the thread resolves it again and asks the
	 * address it gives (reached); for an address, reached is it. */
	bool by_name;
	bool has_reached;
	union ibv_gid reached;
	int rc;
	struct responder_info answer;
	char err[DIAG_MSG_MAX * 2];
};

/* Per destination, what following did so far. */
struct follow_state {
	struct follow_ask ask;
	uint32_t restarts;		/* QPN changes followed */
	uint32_t first_qpn;		/* the QPN the run began with */
	uint32_t old_qpn, new_qpn;	/* of the latest restart */
	double restart_unix;		/* when it was followed; 0: never */
	/* Renumberings followed: how many, when the latest was, and its
	 * words ("GID a -> b"). */
	uint32_t renumbered;
	double renumbered_unix;
	/* A renumbering that cannot be followed, or a rendezvous that no
	 * longer answers: said once until probes come back. */
	bool stuck_said, unanswered_said;
};

void follow_state_init(struct follow_state *f, uint32_t qpn);
/* Starts asking host:port (a thread) unless an ask is under way; by_name:
 * host is a name to resolve again first, else reached (NULL: unknown) is
 * the address host stands for. 0, or -1 when the thread could not be
 * started (asked again next round). */
int follow_ask_start(struct follow_state *f, const char *host,
		     uint16_t port, uint32_t timeout_ms, bool by_name,
		     const union ibv_gid *reached);
/* A finished ask, joined: 1 with *answer (and *reached, NULL when not
 * known), 0 when it failed (err), -1 when none finished (none started,
 * or still running). */
int follow_ask_take(struct follow_state *f, struct responder_info *answer,
		    const union ibv_gid **reached, char *err, size_t errlen);
/* Whether an ask is under way and not finished. */
bool follow_ask_pending(struct follow_state *f);
/* Waits for an ask under way (the run's end). */
void follow_state_free(struct follow_state *f);

struct probe_target;
struct probe_cell;
struct probe_round_cell;

struct ah_port_facts;
struct path_constraints;

/* What a continuous run's follow needs of its port: its facts, and on
 * InfiniBand the device and the SA constraints a new PathRecord is asked
 * with (the QP's partition, a given source GID). */
struct follow_port {
	const struct ah_port_facts *facts;
	const char *device;
	const struct path_constraints *want;
	uint32_t timeout_ms;
};

/* At a round's end of a continuous run, for one destination (its state
 * f, its cells): follows what an earlier ask found. A new QPN or Q_Key:
 * the target's info takes it. A renumbered host: the target takes its
 * new address (on IB with a PathRecord from the SA, asked here) and each
 * cell's attr is built anew for it: the caller makes their AHs again.
 * The sentence for the admin goes to event ("" when nothing happened);
 * now_unix is the time a follow is named by. Returns what was followed
 * (FOLLOW_SAME: nothing). */
enum follow_change follow_take(struct follow_state *f, struct probe_target *t,
			       struct probe_cell *cells, size_t cell_count,
			       const struct follow_port *port, double now_unix,
			       char *event, size_t event_len);
/* Then, with the round closed (rounds: the cells' rounds): asks the
 * rendezvous again when no probe of this round came back. */
void follow_ask(struct follow_state *f, const struct probe_target *t,
		const struct probe_cell *cells, size_t cell_count,
		const struct probe_round_cell *rounds, uint32_t timeout_ms);

#endif
