/* Loss direction from the responder's counts; see oneway_loss.h. */
#include <stdio.h>
#include <string.h>

#include "probe/oneway_loss.h"

const char *oneway_direction_name(enum oneway_direction d)
{
	switch (d) {
	case ONEWAY_NO_LOSS: return "none";
	case ONEWAY_THERE: return "there";
	case ONEWAY_BACK: return "back";
	case ONEWAY_BOTH: return "both";
	case ONEWAY_AT_RESPONDER: return "responder";
	case ONEWAY_RQ_FULL: return "responder_queue";
	case ONEWAY_UNKNOWN: break;
	}
	return "unknown";
}

static uint32_t at_most(uint32_t v, uint32_t cap)
{
	return v < cap ? v : cap;
}

static const char *plural(int64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* Why the counts are not known, for a set with loss. */
static void say_unknown(const struct oneway_input *in,
			struct oneway_verdict *v)
{
	const char *why;

	v->direction = ONEWAY_UNKNOWN;
	/* A running row: the count is asked at the end; nothing to say. */
	if (in->final == ONEWAY_FINAL_LATER &&
	    !(in->replies_seen && in->reply_count == 0))
		return;
	if (in->final == ONEWAY_FINAL_OLD ||
	    (in->replies_seen && in->reply_count == 0))
		why = "the responder does not count requests (an older "
		      "ibahprobe serve)";
	else if (in->final == ONEWAY_FINAL_FORGOTTEN)
		why = "the responder no longer remembers this run (it keeps "
		      "the most recent sets only)";
	else if (in->final == ONEWAY_FINAL_NO_ANSWER)
		why = "its rendezvous did not answer the question";
	else
		why = "the responder's count could not be asked (no "
		      "rendezvous)";
	snprintf(v->text, sizeof(v->text), "loss direction unknown: %s", why);
}

/* Of the first-contact probes, those the responder never answered
 * (the rest it answered after we stopped waiting). */
static int64_t resolving_unanswered(const struct oneway_verdict *v)
{
	return v->resolving - (v->answered_late > 0 ? v->answered_late : 0);
}

/* Every probe arrived and the unanswered ones waited for a reply AH:
 * the responder was resolving its neighbour toward us (first contact),
 * which is no blocked path; a rerun finds the AH made. Replies it posted
 * once the AH was made, after we stopped waiting, are no loss either. */
static void say_resolving(const struct oneway_input *in,
			  struct oneway_verdict *v)
{
	int64_t late = v->answered_late > 0 ? v->answered_late : 0;
	int64_t in_time = v->responder_answered - late;
	size_t n;

	n = (size_t)snprintf(v->text, sizeof(v->text),
			     "not answered: the responder was still resolving "
			     "its way back to you (first contact): it saw "
			     "%lld of %u, ", (long long)v->responder_saw,
			     in->sent);
	if (n < sizeof(v->text) && in_time > 0)
		n += (size_t)snprintf(v->text + n, sizeof(v->text) - n,
				      "%lld answered after%s",
				      (long long)in_time, late ? ", " : "");
	if (n < sizeof(v->text) && late)
		n += (size_t)snprintf(v->text + n, sizeof(v->text) - n,
				      "%lld answered late, once its reply AH "
				      "was made", (long long)late);
	if (n < sizeof(v->text) && in_time <= 0 && !late)
		n += (size_t)snprintf(v->text + n, sizeof(v->text) - n,
				      "none answered yet (a rerun finds its "
				      "reply AH made)");
	if (v->unanswered > resolving_unanswered(v) && n < sizeof(v->text))
		snprintf(v->text + n, sizeof(v->text) - n, "; %lld more not "
			 "answered (its --max-rate: serve -v says)",
			 (long long)(v->unanswered - resolving_unanswered(v)));
}

/* What serve's receive-drop evidence says of the probes it never saw. */
enum rq_finding {
	RQ_NOT_TOLD,		/* an older serve */
	RQ_ALL,			/* its counter rose by at least as many */
	RQ_SOME,		/* its counter rose, by fewer */
	RQ_LIKELY,		/* no counter; serve saw its queue empty */
	RQ_RULED_OUT,		/* its counter did not move */
	RQ_CANNOT_TELL,		/* no counter, no empty queue seen */
};

static enum rq_finding rq_finding_of(const struct rendezvous_rq_drops *rq,
				     int64_t lost_there)
{
	if (!rq->present)
		return RQ_NOT_TOLD;
	if (rq->counter_known && rq->counter_delta >= (uint64_t)lost_there)
		return RQ_ALL;
	if (rq->counter_known)
		return rq->counter_delta ? RQ_SOME : RQ_RULED_OUT;
	return rq->rq_empty ? RQ_LIKELY : RQ_CANNOT_TELL;
}

/* The probes serve never saw, told as drops in its receive queue. */
static size_t say_rq_full(const struct oneway_input *in, uint32_t saw,
			  enum rq_finding f, struct oneway_verdict *v)
{
	if (f == RQ_ALL)
		return (size_t)snprintf(v->text, sizeof(v->text),
					"dropped at the responder (receive "
					"queue full): it saw %u of %u; its "
					"port's %s counter rose by %llu during "
					"the run (every sender's drops count "
					"there)", saw, in->sent, in->rq.counter,
					(unsigned long long)in->rq.counter_delta);
	return (size_t)snprintf(v->text, sizeof(v->text),
				"dropped at the responder (receive queue "
				"full), most likely: it saw %u of %u and found "
				"its receive queue empty %llu %s during the "
				"run (its device counts no such drops)", saw,
				in->sent, (unsigned long long)in->rq.rq_empty,
				in->rq.rq_empty == 1 ? "time" : "times");
}

/* After a finding of loss on the way there: what serve's receive queue
 * has to do with it, a finding of its own (the first one stays as an
 * older serve's prober reads it). */
static void rq_note(const struct oneway_input *in, enum rq_finding f,
		    struct oneway_verdict *v)
{
	switch (f) {
	case RQ_ALL:
	case RQ_SOME:
		snprintf(v->note, sizeof(v->note), "up to %llu of the probes "
			 "the responder never saw were dropped in its receive "
			 "queue (its %s counter rose by as many during the "
			 "run)", (unsigned long long)in->rq.counter_delta,
			 in->rq.counter);
		break;
	case RQ_LIKELY:
		snprintf(v->note, sizeof(v->note), "the responder found its "
			 "receive queue empty %llu %s during the run: some of "
			 "the probes it never saw may have been dropped there",
			 (unsigned long long)in->rq.rq_empty,
			 in->rq.rq_empty == 1 ? "time" : "times");
		break;
	case RQ_RULED_OUT:
		snprintf(v->note, sizeof(v->note), "not dropped in the "
			 "responder's receive queue: its %s counter did not "
			 "move during the run", in->rq.counter);
		break;
	case RQ_CANNOT_TELL:
		snprintf(v->note, sizeof(v->note), "whether the responder's "
			 "receive queue dropped some cannot be told: its device "
			 "counts no such drops");
		break;
	case RQ_NOT_TOLD:
		break;
	}
}

/* Counts of the whole set: what never arrived there, what the
 * responder did not answer, what did not come back. Replies that
 * arrived more often than sent (duplicates) never make loss negative. */
static void judge_counts(const struct oneway_input *in, uint32_t received,
			 bool answered_known, uint32_t answered,
			 struct oneway_verdict *v)
{
	const char *did = answered_known ? "answered" : "saw";
	uint32_t saw = at_most(received, in->sent);
	/* Not known how many it answered: taken as all it saw, so what
	 * did not come back counts as lost on the way back. */
	uint32_t posted = answered_known ? at_most(answered, saw) : saw;
	/* Late after waiting for the reply AH: not back in time. */
	uint32_t back = at_most(in->arrived - at_most(in->late_after_park,
						      in->arrived), posted);
	enum rq_finding rq;
	size_t n = 0;

	v->responder_saw = saw;
	v->responder_answered = posted;
	v->of = in->sent;
	v->lost_there = in->sent - saw;
	v->unanswered = saw - posted;
	v->lost_back = posted - back;
	if (answered_known && in->final_reasons_known)
		v->resolving = at_most(in->final_resolving, v->unanswered);
	/* Answered, late, having waited for the reply AH (the reply
	 * says): the responder's first contact, not loss on the way back. */
	v->answered_late = at_most(in->late_after_park, (uint32_t)v->lost_back);
	v->lost_back -= v->answered_late;
	if (v->answered_late)
		v->resolving = (v->resolving > 0 ? v->resolving : 0) +
			       v->answered_late;
	if (v->lost_there && v->lost_back)
		v->direction = ONEWAY_BOTH;
	else if (v->lost_there)
		v->direction = ONEWAY_THERE;
	else if (v->lost_back)
		v->direction = ONEWAY_BACK;
	else if (v->unanswered || v->answered_late > 0)
		v->direction = ONEWAY_AT_RESPONDER;
	else
		v->direction = ONEWAY_UNKNOWN;	/* the counts disagree */
	rq = v->lost_there ? rq_finding_of(&in->rq, v->lost_there)
			   : RQ_NOT_TOLD;
	if (v->direction == ONEWAY_THERE && (rq == RQ_ALL || rq == RQ_LIKELY))
		v->direction = ONEWAY_RQ_FULL;
	switch (v->direction) {
	case ONEWAY_RQ_FULL:
		n = say_rq_full(in, saw, rq, v);
		break;
	case ONEWAY_THERE:
		n = (size_t)snprintf(v->text, sizeof(v->text),
				     "lost on the way there: the responder "
				     "saw %u of %u", saw, in->sent);
		rq_note(in, rq, v);
		break;
	case ONEWAY_BACK:
		n = (size_t)snprintf(v->text, sizeof(v->text),
				     "lost on the way back: the responder "
				     "%s %u of %u, %lld %s lost", did,
				     posted, in->sent, (long long)v->lost_back,
				     plural(v->lost_back, "reply", "replies"));
		break;
	case ONEWAY_BOTH:
		if (answered_known)
			n = (size_t)snprintf(v->text, sizeof(v->text),
					     "lost both ways: the responder saw "
					     "%u of %u and answered %u, ", saw,
					     in->sent, posted);
		else
			n = (size_t)snprintf(v->text, sizeof(v->text),
					     "lost both ways: the responder saw "
					     "%u of %u, ", saw, in->sent);
		if (n < sizeof(v->text))
			n += (size_t)snprintf(v->text + n, sizeof(v->text) - n,
					      "%lld %s lost on the way back",
					      (long long)v->lost_back,
					      plural(v->lost_back, "reply",
						     "replies"));
		rq_note(in, rq, v);
		break;
	case ONEWAY_AT_RESPONDER:
		if (v->resolving > 0) {
			say_resolving(in, v);
			return;
		}
		n = (size_t)snprintf(v->text, sizeof(v->text),
				     "not answered: the responder saw %u of "
				     "%u and answered %u", saw, in->sent,
				     posted);
		break;
	default:
		snprintf(v->text, sizeof(v->text), "loss direction unknown: "
			 "the responder saw %u of %u and answered %u, and %u "
			 "came back", saw, in->sent, posted, in->arrived);
		return;
	}
	/* Seen but not answered, besides loss on the way: serve's --max-rate
	 * or a reverse AH it could not create (serve -v names which). */
	if (resolving_unanswered(v) > 0 && n < sizeof(v->text))
		n += (size_t)snprintf(v->text + n, sizeof(v->text) - n,
				      "; %lld not answered while the responder "
				      "was still resolving its way back to you "
				      "(first contact)",
				      (long long)resolving_unanswered(v));
	if (v->answered_late > 0 && n < sizeof(v->text))
		n += (size_t)snprintf(v->text + n, sizeof(v->text) - n,
				      "; %lld answered late, the responder "
				      "still resolving its way back to you "
				      "(first contact)",
				      (long long)v->answered_late);
	if (v->unanswered > (resolving_unanswered(v) > 0
				     ? resolving_unanswered(v) : 0) &&
	    v->direction != ONEWAY_AT_RESPONDER && n < sizeof(v->text))
		snprintf(v->text + n, sizeof(v->text) - n, "; %lld seen but "
			 "not answered",
			 (long long)(v->unanswered -
				     (resolving_unanswered(v) > 0
					      ? resolving_unanswered(v) : 0)));
	if (v->direction == ONEWAY_AT_RESPONDER && n < sizeof(v->text))
		snprintf(v->text + n, sizeof(v->text) - n, " (its --max-rate, "
			 "or no reverse path: serve -v says which)");
}

void oneway_judge(const struct oneway_input *in, struct oneway_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->responder_saw = v->responder_answered = v->of = -1;
	v->lost_there = v->lost_back = v->unanswered = -1;
	v->resolving = v->answered_late = -1;
	if (in->arrived - at_most(in->late_after_park, in->arrived) >=
	    in->sent) {
		v->direction = ONEWAY_NO_LOSS;
		v->lost_there = v->lost_back = v->answered_late = 0;
		return;
	}
	if (in->final == ONEWAY_FINAL_KNOWN) {
		v->final = true;
		judge_counts(in, in->final_received, true, in->final_answered,
			     v);
		return;
	}
	/* Without the final count, a reply's count still tells: if it
	 * answered the last probe of the set, the responder had seen all it
	 * would (how many it answered is not known: taken as all it saw). */
	if (in->reply_count == 0 || in->reply_ordinal == 0) {
		say_unknown(in, v);
		return;
	}
	if (in->reply_ordinal >= in->sent) {
		v->final = true;
		judge_counts(in, in->reply_count, false, 0, v);
		v->responder_answered = -1;
		v->unanswered = -1;
		return;
	}
	v->responder_saw = at_most(in->reply_count, in->reply_ordinal);
	v->of = in->reply_ordinal;
	if (v->responder_saw < v->of) {
		v->direction = ONEWAY_THERE;
		v->lost_there = v->of - v->responder_saw;
		snprintf(v->text, sizeof(v->text), "lost on the way there: the "
			 "responder saw %lld of the first %lld (its final count "
			 "unknown)", (long long)v->responder_saw,
			 (long long)v->of);
		return;
	}
	say_unknown(in, v);
}
