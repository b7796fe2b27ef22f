/* serve --mcast: the Q_Key its QP takes from the groups
 * (mcast_membership_qkey), and the ready line's view of them. */
#include <string.h>

#include "tap.h"
#include "sa/mcast_membership.h"

static void group(struct mcast_membership *m, const char *text,
		  uint32_t qkey, enum mcast_join_kind kind)
{
	struct mcast_membership_group *g = &m->groups[m->count++];
	char err[128];

	memset(g, 0, sizeof(*g));
	mcast_spec_parse(text, &g->spec, err, sizeof(err));
	g->qkey = qkey;
	g->kind = kind;
	g->ip_fd = -1;
}

int main(void)
{
	struct mcast_membership m = { 0 };
	struct responder_group view[2];
	char err[512] = "";
	uint32_t qkey = 0;

	is_int(mcast_membership_qkey(&m, 0x1ab4e0be, false, &qkey, err,
				     sizeof(err)), 0, "no groups: fine");
	is_int(qkey, 0x1ab4e0be, "no groups: serve's Q_Key");

	group(&m, "ipoib", 0x0b1b, MCAST_JOINED_ALREADY_MEMBER);
	is_int(mcast_membership_qkey(&m, 0x1ab4e0be, false, &qkey, err,
				     sizeof(err)), 0, "one IPoIB group");
	is_int(qkey, 0x0b1b, "the QP takes the group's Q_Key");
	is_int(mcast_membership_qkey(&m, 0x0b1b, true, &qkey, err,
				     sizeof(err)), 0, "--qkey the group's");
	is_int(mcast_membership_qkey(&m, 0x1ab4e0be, true, &qkey, err,
				     sizeof(err)), -1, "--qkey another: refused");
	ok(strstr(err, "group ipoib has Q_Key 0x00000b1b, not 0x1ab4e0be "
		       "(--qkey)") != NULL, "says both Q_Keys (%s)", err);

	group(&m, "ff12:a01b::1", 0x1ab4e0be, MCAST_JOINED_FULL_MEMBER);
	is_int(mcast_membership_qkey(&m, 0x1ab4e0be, false, &qkey, err,
				     sizeof(err)), -1,
	       "groups of two Q_Keys: refused");
	ok(strstr(err, "cannot share one QP") != NULL, "says why (%s)", err);

	mcast_membership_view(&m, view);
	is_str(view[0].join, "already_member", "view: how joined");
	is_int(view[0].qkey, 0x0b1b, "view: the group's Q_Key");
	ok(view[0].netdev == NULL, "view: no netdev on InfiniBand");
	is_str(view[1].group, "ff12:a01b::1", "view: the group as given");
	is_str(mcast_join_kind_name(MCAST_JOINED_IGMP), "igmp", "igmp");
	is_str(mcast_join_kind_name(MCAST_JOINED_MLD), "mld", "mld");
	return tap_done();
}
