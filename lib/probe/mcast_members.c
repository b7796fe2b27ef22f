/* A multicast probe's answers by member: see mcast_members.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gid.h"
#include "probe/mcast_members.h"

int mcast_tally_init(struct mcast_tally *t, uint32_t probes,
		     uint32_t first_sequence)
{
	memset(t, 0, sizeof(*t));
	t->first_sequence = first_sequence;
	t->capacity = probes;
	t->deadline_ns = calloc(probes ? probes : 1, sizeof(*t->deadline_ns));
	t->sent_ns = calloc(probes ? probes : 1, sizeof(*t->sent_ns));
	if (!t->deadline_ns || !t->sent_ns) {
		mcast_tally_free(t);
		return -1;
	}
	return 0;
}

void mcast_tally_free(struct mcast_tally *t)
{
	for (size_t i = 0; i < t->count; i++)
		free(t->members[i].credited);
	free(t->members);
	free(t->deadline_ns);
	free(t->sent_ns);
	memset(t, 0, sizeof(*t));
}

uint32_t mcast_tally_sent(struct mcast_tally *t, uint64_t now,
			  uint64_t deadline_ns)
{
	uint32_t i = t->sent;

	if (i < t->capacity) {
		t->sent_ns[i] = now;
		t->deadline_ns[i] = deadline_ns;
		t->sent++;
	}
	return t->first_sequence + i;
}

static bool same_responder(const struct mcast_responder *a,
			   const struct mcast_responder *b)
{
	return memcmp(&a->gid, &b->gid, sizeof(a->gid)) == 0 &&
	       a->lid == b->lid && a->qpn == b->qpn;
}

/* A new member, answered nothing yet; NULL when out of room. */
static struct mcast_member *member_add(struct mcast_tally *t,
				       const struct mcast_responder *who)
{
	struct mcast_member *m;

	if (t->count >= MCAST_MEMBERS_MAX)
		return NULL;
	if (t->count == t->room) {
		size_t room = t->room ? t->room * 2 : 8;
		struct mcast_member *grown =
			realloc(t->members, room * sizeof(*grown));

		if (!grown)
			return NULL;
		t->members = grown;
		t->room = room;
	}
	m = &t->members[t->count];
	memset(m, 0, sizeof(*m));
	m->credited = calloc(t->capacity ? t->capacity : 1, 1);
	if (!m->credited)
		return NULL;
	m->who = *who;
	m->hops = -1;
	t->count++;
	return m;
}

enum probe_credit mcast_tally_credit(struct mcast_tally *t,
				     const struct mcast_responder *who,
				     uint32_t sequence, uint64_t now,
				     size_t *index)
{
	/* Unsigned: a sequence below the first wraps far above sent. */
	uint32_t probe = sequence - t->first_sequence;
	struct mcast_member *m = NULL;
	uint64_t rtt;

	if (probe >= t->sent) {
		t->strangers++;
		return PROBE_CREDIT_UNKNOWN;
	}
	for (size_t i = 0; i < t->count && !m; i++)
		if (same_responder(&t->members[i].who, who))
			m = &t->members[i];
	if (!m)
		m = member_add(t, who);
	if (!m) {
		t->strangers++;
		return PROBE_CREDIT_UNKNOWN;
	}
	*index = (size_t)(m - t->members);
	if (m->credited[probe]) {
		m->duplicates++;
		return PROBE_CREDIT_DUPLICATE;
	}
	m->credited[probe] = 1;
	if (now > t->deadline_ns[probe]) {
		m->late++;
		return PROBE_CREDIT_LATE;
	}
	rtt = now > t->sent_ns[probe] ? now - t->sent_ns[probe] : 0;
	if (m->received == 0 || rtt < m->rtt_min_ns)
		m->rtt_min_ns = rtt;
	if (rtt > m->rtt_max_ns)
		m->rtt_max_ns = rtt;
	m->rtt_sum_ns += rtt;
	m->received++;
	return PROBE_CREDIT_ANSWERED;
}

void mcast_member_observe(struct mcast_member *m,
			  const struct probe_observed *o, int hop_limit_sent)
{
	m->observed_valid = true;
	m->observed = *o;
	/* A switch never touches the hop limit, a router takes one: what
	 * is missing on arrival is the routers the group's route crossed
	 * to this member. */
	if (o->grh_present && hop_limit_sent >= 0 &&
	    o->hop_limit <= hop_limit_sent)
		m->hops = hop_limit_sent - o->hop_limit;
	else
		m->hops = -1;
}

static bool listed_is(const struct mcast_member *m, const union ibv_gid *gid,
		      uint16_t lid)
{
	if (!gid_is_zero(&m->who.gid))
		return memcmp(&m->who.gid, gid, sizeof(*gid)) == 0;
	return lid != 0 && m->who.lid == lid;
}

int mcast_tally_merge_listed(struct mcast_tally *t,
			     const union ibv_gid *gids, const uint16_t *lids,
			     size_t n)
{
	size_t answered = t->count;

	t->listing_known = true;
	for (size_t i = 0; i < n; i++) {
		uint16_t lid = lids ? lids[i] : 0;
		struct mcast_responder who = { .gid = gids[i], .lid = lid };
		bool found = false;

		for (size_t k = 0; k < answered; k++)
			if (listed_is(&t->members[k], &gids[i], lid)) {
				t->members[k].listed = true;
				found = true;
			}
		if (found)
			continue;
		if (!member_add(t, &who))
			return -1;
		t->members[t->count - 1].listed = true;
	}
	return 0;
}

enum mcast_member_state mcast_member_state(const struct mcast_tally *t,
					   const struct mcast_member *m)
{
	if (m->received == 0)
		return MCAST_MEMBER_SILENT;
	if (t->listing_known && !m->listed)
		return MCAST_MEMBER_UNLISTED;
	return MCAST_MEMBER_ANSWERED;
}

const char *mcast_member_state_name(enum mcast_member_state s)
{
	switch (s) {
	case MCAST_MEMBER_ANSWERED: return "answered";
	case MCAST_MEMBER_UNLISTED: return "unlisted";
	case MCAST_MEMBER_SILENT: return "silent";
	}
	return "?";
}

void mcast_tally_summarize(const struct mcast_tally *t, uint32_t expect,
			   struct mcast_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->expected = expect;
	for (size_t i = 0; i < t->count; i++)
		switch (mcast_member_state(t, &t->members[i])) {
		case MCAST_MEMBER_UNLISTED:
			s->unlisted++;
			__attribute__((fallthrough));	/* it answered */
		case MCAST_MEMBER_ANSWERED:
			s->answered++;
			break;
		case MCAST_MEMBER_SILENT:
			s->silent++;
			break;
		}
	s->ok = s->silent == 0 && s->answered >= expect;
}

void mcast_summary_describe(const struct mcast_summary *s, char *buf,
			    size_t len)
{
	int n = snprintf(buf, len, "%zu member%s answered", s->answered,
			 s->answered == 1 ? "" : "s");

	if (n >= 0 && (size_t)n < len && s->silent)
		n += snprintf(buf + n, len - (size_t)n, ", %zu listed by the "
			      "SA silent", s->silent);
	if (n >= 0 && (size_t)n < len && s->unlisted)
		n += snprintf(buf + n, len - (size_t)n, ", %zu answered "
			      "without being listed", s->unlisted);
	if (n >= 0 && (size_t)n < len && s->answered < s->expected)
		snprintf(buf + n, len - (size_t)n, "; expected %u, %zu "
			 "short", s->expected, s->expected - s->answered);
}
