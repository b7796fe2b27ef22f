/* Unit tests of what a rendezvous answer means to a continuous run that
 * lost every probe of a round: the same QP, a new one to follow (the
 * responder restarted), or an address that moved (renumbered). */
#include <string.h>

#include "probe/responder_follow.h"
#include "tap.h"

static struct responder_info info(uint32_t qpn, uint32_t qkey, uint16_t lid,
				  const char *gid_last)
{
	struct responder_info i;

	memset(&i, 0, sizeof(i));
	i.qpn = qpn;
	i.qkey = qkey;
	i.lid = lid;
	if (gid_last) {
		i.gid_count = 2;
		/* fe80::1 and ::ffff:198.18.4.N */
		i.gids[0].gid.raw[0] = 0xfe;
		i.gids[0].gid.raw[1] = 0x80;
		i.gids[0].gid.raw[15] = 1;
		i.gids[1].gid.raw[10] = 0xff;
		i.gids[1].gid.raw[11] = 0xff;
		i.gids[1].gid.raw[12] = 198;
		i.gids[1].gid.raw[13] = 18;
		i.gids[1].gid.raw[14] = 4;
		i.gids[1].gid.raw[15] = (uint8_t)gid_last[0];
	}
	return i;
}

int main(void)
{
	struct responder_info now = info(17, 0x1234, 0, "\x04");
	struct responder_info same = info(17, 0x1234, 0, "\x04");
	struct responder_info restarted = info(18, 0x1234, 0, "\x04");
	struct responder_info rekeyed = info(17, 0x5678, 0, "\x04");
	struct responder_info moved = info(18, 0x1234, 0, "\x05");
	struct responder_info old_serve = info(18, 0x1234, 0, NULL);
	union ibv_gid dgid;

	dgid = now.gids[1].gid;
	is_int(follow_judge(&now, &same, &dgid, false, 0), FOLLOW_SAME,
	       "the same QP: nothing to follow (the loss is the path's)");
	is_int(follow_judge(&now, &restarted, &dgid, false, 0), FOLLOW_NEW_QP,
	       "another QPN: the responder restarted, follow it");
	is_int(follow_judge(&now, &rekeyed, &dgid, false, 0), FOLLOW_NEW_QP,
	       "another Q_Key (serve --qkey changed): follow it too");
	is_int(follow_judge(&now, &moved, &dgid, false, 0), FOLLOW_RENUMBERED,
	       "our DGID no longer among its GIDs: renumbered, not followed");
	is_int(follow_judge(&now, &old_serve, &dgid, false, 0), FOLLOW_NEW_QP,
	       "an answer without GIDs cannot say the address moved");

	/* InfiniBand without a GRH: the LID is the address. */
	now = info(17, 0x1234, 0x10, NULL);
	restarted = info(18, 0x1234, 0x10, NULL);
	moved = info(18, 0x1234, 0x40, NULL);
	is_int(follow_judge(&now, &restarted, NULL, true, 0x10),
	       FOLLOW_NEW_QP, "IB: same base LID, new QPN: follow");
	is_int(follow_judge(&now, &restarted, NULL, true, 0x13),
	       FOLLOW_NEW_QP, "IB: a DLID of its LMC range still its own");
	is_int(follow_judge(&now, &moved, NULL, true, 0x13), FOLLOW_RENUMBERED,
	       "IB: its base LID moved away from our DLID: renumbered");
	is_int(follow_judge(&now, &same, NULL, false, 0), FOLLOW_SAME,
	       "RoCE without a DGID to compare: the QPN decides");
	return tap_done();
}
