/* Following a restarted responder in a continuous run; see
 * responder_follow.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <time.h>

#include "probe/probe_engine.h"
#include "probe/probe_round.h"
#include "probe/responder_follow.h"

static bool has_gid(const struct responder_info *info,
		    const union ibv_gid *gid)
{
	for (size_t i = 0; i < info->gid_count; i++)
		if (memcmp(info->gids[i].gid.raw, gid->raw, sizeof(gid->raw)) ==
		    0)
			return true;
	return false;
}

enum follow_change follow_judge(const struct responder_info *now,
				const struct responder_info *answer,
				const union ibv_gid *dgid, bool infiniband,
				uint16_t dlid)
{
	/* An answer without GIDs (an older serve lists none) cannot say
	 * the address moved. A LID moves within the responder's LMC range
	 * only by our choice: the base LID is what the answer gives. */
	if ((dgid && answer->gid_count && !has_gid(answer, dgid)) ||
	    (infiniband && answer->lid && dlid &&
	     (dlid < answer->lid || dlid - answer->lid >= 128)))
		return FOLLOW_RENUMBERED;
	if (answer->qpn != now->qpn || answer->qkey != now->qkey)
		return FOLLOW_NEW_QP;
	return FOLLOW_SAME;
}

void follow_state_init(struct follow_state *f, uint32_t qpn)
{
	memset(f, 0, sizeof(*f));
	pthread_mutex_init(&f->ask.lock, NULL);
	f->first_qpn = qpn;
}

static void *ask_thread(void *arg)
{
	struct follow_ask *a = arg;
	struct responder_info answer;
	char err[sizeof(a->err)];
	int rc;

	rc = rendezvous_query(a->host, a->port, a->timeout_ms, &answer, err,
			      sizeof(err));
	pthread_mutex_lock(&a->lock);
	a->rc = rc;
	a->answer = answer;
	memcpy(a->err, err, sizeof(err));
	a->done = true;
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

int follow_ask_start(struct follow_state *f, const char *host,
		     uint16_t port, uint32_t timeout_ms)
{
	struct follow_ask *a = &f->ask;

	if (a->running)
		return 0;
	snprintf(a->host, sizeof(a->host), "%s", host);
	a->port = port;
	a->timeout_ms = timeout_ms;
	a->done = false;
	if (pthread_create(&a->thread, NULL, ask_thread, a))
		return -1;
	a->running = true;
	return 0;
}

int follow_ask_take(struct follow_state *f, struct responder_info *answer,
		    char *err, size_t errlen)
{
	struct follow_ask *a = &f->ask;
	bool done;

	if (!a->running)
		return -1;
	pthread_mutex_lock(&a->lock);
	done = a->done;
	pthread_mutex_unlock(&a->lock);
	if (!done)
		return -1;
	pthread_join(a->thread, NULL);
	a->running = false;
	if (a->rc) {
		snprintf(err, errlen, "%s", a->err);
		return 0;
	}
	*answer = a->answer;
	return 1;
}

bool follow_ask_pending(struct follow_state *f)
{
	bool done;

	if (!f->ask.running)
		return false;
	pthread_mutex_lock(&f->ask.lock);
	done = f->ask.done;
	pthread_mutex_unlock(&f->ask.lock);
	return !done;
}

void follow_state_free(struct follow_state *f)
{
	if (f->ask.running)
		pthread_join(f->ask.thread, NULL);
	f->ask.running = false;
	pthread_mutex_destroy(&f->ask.lock);
}

/* Whether every probe of the destination's round was lost (some sent). */
static bool round_all_lost(const struct probe_cell *cells, size_t n,
			   const struct probe_round_cell *rounds)
{
	uint32_t sent = 0, received = 0;

	for (size_t i = 0; i < n; i++) {
		if (!cells[i].ah)
			continue;
		sent += rounds[i].sent;
		received += rounds[i].received;
	}
	return sent > 0 && received == 0;
}

static void clock_text(double unix_time, char *buf, size_t len)
{
	time_t t = (time_t)unix_time;
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%H:%M:%S", &tm))
		snprintf(buf, len, "?");
}

bool follow_take(struct follow_state *f, struct probe_target *t,
		 const struct probe_cell *cells, size_t cell_count,
		 bool infiniband, double now_unix, char *event,
		 size_t event_len)
{
	const struct ibv_ah_attr *attr = cell_count ? &cells[0].attr : NULL;
	struct responder_info answer;
	char err[DIAG_MSG_MAX * 2];

	event[0] = '\0';
	if (!t->ready || !t->from_rendezvous)
		return false;
	if (!f->first_qpn)
		f->first_qpn = t->info.qpn;
	/* A failed ask (the responder still down) is asked again after
	 * the next round without a reply. */
	if (follow_ask_take(f, &answer, err, sizeof(err)) != 1)
		return false;
	switch (follow_judge(&t->info, &answer,
			     attr && attr->is_global ? &attr->grh.dgid : NULL,
			     infiniband, attr ? attr->dlid : 0)) {
	case FOLLOW_NEW_QP:
		f->old_qpn = t->info.qpn;
		f->new_qpn = answer.qpn;
		f->restarts++;
		f->restart_unix = now_unix;
		t->info.qpn = answer.qpn;
		t->info.qkey = answer.qkey;
		t->followed = true;
		t->first_qpn = f->first_qpn;
		t->restarts_followed = f->restarts;
		clock_text(now_unix, t->followed_time,
			   sizeof(t->followed_time));
		snprintf(event, event_len, "responder restarted at %s (QPN %u "
			 "-> %u): following it", t->followed_time, f->old_qpn,
			 f->new_qpn);
		return true;
	case FOLLOW_RENUMBERED:
		f->renumbered = true;
		if (!f->renumbered_said) {
			f->renumbered_said = true;
			snprintf(event, event_len, "the responder's rendezvous "
				 "answers without the address the probes go "
				 "to: its host was renumbered (a new run "
				 "resolves it again)");
		}
		return false;
	case FOLLOW_SAME:
		break;
	}
	return false;
}

void follow_ask(struct follow_state *f, const struct probe_target *t,
		const struct probe_cell *cells, size_t cell_count,
		const struct probe_round_cell *rounds, uint32_t timeout_ms)
{
	char host[DIAG_MSG_MAX];
	uint16_t port;

	if (!t->ready || !t->from_rendezvous ||
	    !round_all_lost(cells, cell_count, rounds))
		return;
	probe_target_rendezvous(t, host, sizeof(host), &port);
	follow_ask_start(f, host, port, timeout_ms);
}
