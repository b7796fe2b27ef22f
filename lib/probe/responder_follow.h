/* A continuous run follows a responder that restarted: after a round in
 * which every probe to a destination was lost, its rendezvous is asked
 * again, in a thread of its own so the probing goes on meanwhile; an
 * answer with another QPN (a new serve process) or Q_Key moves the
 * destination's probes to it, and one without the GID or LID the probes
 * use (its host renumbered) says so. The downtime stays counted as loss.
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
	 * LID (IB) the probes are addressed to: its host was renumbered;
	 * an AH to the new address is needed, which only a new run makes
	 * (the destination's name resolves again then). */
	FOLLOW_RENUMBERED,
};

/* The decision, of plain inputs: the info the probes use, the new
 * answer, the DGID the AH carries (NULL without a GRH) and, on
 * InfiniBand, the DLID. */
enum follow_change follow_judge(const struct responder_info *now,
				const struct responder_info *answer,
				const union ibv_gid *dgid, bool infiniband,
				uint16_t dlid);

/* One destination's asking: a thread at a time. */
struct follow_ask {
	pthread_t thread;
	bool running;		/* a thread was started and not joined */
	bool done;		/* written by the thread, read under lock */
	pthread_mutex_t lock;
	char host[DIAG_MSG_MAX];
	uint16_t port;
	uint32_t timeout_ms;
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
	bool renumbered;		/* an answer without our GID/LID */
	bool renumbered_said;
};

void follow_state_init(struct follow_state *f, uint32_t qpn);
/* Starts asking host:port (a thread) unless an ask is under way; 0, or
 * -1 when the thread could not be started (asked again next round). */
int follow_ask_start(struct follow_state *f, const char *host,
		     uint16_t port, uint32_t timeout_ms);
/* A finished ask, joined: 1 with *answer, 0 when it failed (err), -1
 * when none finished (none started, or still running). */
int follow_ask_take(struct follow_state *f, struct responder_info *answer,
		    char *err, size_t errlen);
/* Whether an ask is under way and not finished. */
bool follow_ask_pending(struct follow_state *f);
/* Waits for an ask under way (the run's end). */
void follow_state_free(struct follow_state *f);

struct probe_target;
struct probe_cell;
struct probe_round_cell;

/* At a round's end of a continuous run, for one destination (its state
 * f, its cells): follows what an earlier ask found (a new QPN or Q_Key:
 * the target's info takes it; a renumbered host: said once). The
 * sentence for the admin goes to event ("" when nothing happened);
 * now_unix is the time a restart is named by. True when the target's QP
 * changed. */
bool follow_take(struct follow_state *f, struct probe_target *t,
		 const struct probe_cell *cells, size_t cell_count,
		 bool infiniband, double now_unix, char *event,
		 size_t event_len);
/* Then, with the round closed (rounds: the cells' rounds): asks the
 * rendezvous again when no probe of this round came back. */
void follow_ask(struct follow_state *f, const struct probe_target *t,
		const struct probe_cell *cells, size_t cell_count,
		const struct probe_round_cell *rounds, uint32_t timeout_ms);

#endif
