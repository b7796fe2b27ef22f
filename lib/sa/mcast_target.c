/* Groups to AHs and joinability verdicts; see mcast_target.h. */
#include <stdio.h>
#include <string.h>

#include "base/gid.h"
#include "sa/mcast_target.h"
#include "verbs/ah_mcast.h"

void mcast_targets_resolve(struct path_session *s,
			   const struct dest_list *dests, const bool *want,
			   const struct ah_fields *fields,
			   const struct ah_port_facts *facts,
			   uint32_t timeout_ms, struct mcast_target *targets)
{
	struct mcast_port_caps caps;
	char err[DIAG_MSG_MAX * 2];
	bool caps_known = false, caps_tried = false;

	for (size_t i = 0; i < dests->count; i++) {
		const struct dest *d = &dests->items[i];
		struct mcast_target *t = &targets[i];
		struct mcast_result r;

		if ((want && !want[i]) || d->kind != DEST_MCAST)
			continue;
		memset(t, 0, sizeof(*t));
		mcast_group_lookup(s, &d->gid, timeout_ms, MCAST_RETRIES, &r);
		if (r.status != MCAST_OK) {
			snprintf(t->error, sizeof(t->error), "%.*s",
				 (int)sizeof(t->error) - 1, r.error);
			continue;
		}
		t->group = r.record;
		if (ah_build_from_mcmember(&r.record, &s->sa.port_gid, fields,
					   facts, &t->attr)) {
			char gid[GID_TEXT_MAX];

			snprintf(t->error, sizeof(t->error),
				 "this port's GID %s is not in its GID table",
				 gid_format(&s->sa.port_gid, gid, sizeof(gid)));
			continue;
		}
		t->built = true;
		if (!caps_tried) {
			caps_tried = true;
			caps_known = mcast_port_caps_fetch(s, timeout_ms,
							   MCAST_RETRIES, &caps,
							   err, sizeof(err)) == 0;
			if (!caps_known)
				diag_warn("cannot tell which groups this port "
					  "can join: %s", err);
		}
		if (!caps_known)
			continue;
		t->has_joinability = true;
		mcast_joinable_judge(&t->group, &caps, &t->joinability);
		mcast_joinable_describe(&t->group, &caps, &t->joinability,
					t->joinable_words,
					sizeof(t->joinable_words));
	}
}
