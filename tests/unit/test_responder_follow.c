/* Unit tests of what a rendezvous answer means to a continuous run that
 * lost every probe of a round: the same QP, a new one to follow (the
 * responder restarted), or an address that moved (renumbered), and the
 * address a renumbered responder is followed to. */
#include <stdio.h>
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

static union ibv_gid mapped4(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	union ibv_gid g;

	memset(&g, 0, sizeof(g));
	g.raw[10] = g.raw[11] = 0xff;
	g.raw[12] = a;
	g.raw[13] = b;
	g.raw[14] = c;
	g.raw[15] = d;
	return g;
}

/* RoCE v2 (rxe-like and mlx5-like alike: the GID is the netdev's
 * address): the name's new address is where the probes go. */
static void renumbered_roce(void)
{
	struct responder_info now = info(17, 0x1234, 0, "\x04");
	struct responder_info moved = info(17, 0x1234, 0, "\x05");
	struct responder_info both = info(17, 0x1234, 0, "\x04");
	struct responder_info old_serve = info(17, 0x1234, 0, NULL);
	union ibv_gid old = mapped4(198, 18, 4, 4);
	union ibv_gid new = mapped4(198, 18, 4, 5);
	struct follow_address to;
	char why[256], words[160];

	/* Both addresses on the host for a while: the old GID still
	 * listed, the name already elsewhere. */
	both.gid_count = 3;
	both.gids[2].gid = new;
	is_int(follow_judge(&now, &moved, &old, false, 0, &new),
	       FOLLOW_RENUMBERED, "RoCE: the name gives a new address the "
	       "answer lists, the old one gone: renumbered");
	is_int(follow_judge(&now, &both, &old, false, 0, &new),
	       FOLLOW_RENUMBERED, "RoCE: the name moved while the host still "
	       "holds the old address: follow the name");
	is_int(follow_judge(&now, &old_serve, &old, false, 0, &new),
	       FOLLOW_RENUMBERED, "RoCE: an older serve lists no GIDs, the "
	       "name's new address says it moved");
	is_int(follow_judge(&now, &now, &old, false, 0, &old), FOLLOW_SAME,
	       "RoCE: the name still gives the address probed: the same");
	is_int(follow_judge(&now, &now, &old, true, 0, &new), FOLLOW_SAME,
	       "IB: the name's address (IPoIB) is no GID: not compared");

	ok(follow_new_address(&moved, &old, &new, false, &to, why,
			      sizeof(why)) == 0 &&
	   to.has_dgid && memcmp(to.dgid.raw, new.raw, 16) == 0 && !to.lid,
	   "RoCE: followed to the address its rendezvous answered at");
	ok(follow_new_address(&moved, &old, &old, false, &to, why,
			      sizeof(why)) == -1 &&
	   strstr(why, "198.18.4.4") && strstr(why, "no longer lists"),
	   "RoCE: answered at the old address that it no longer lists: not "
	   "followed, said why (%s)", why);
	ok(follow_new_address(&moved, &old, NULL, false, &to, why,
			      sizeof(why)) == -1,
	   "RoCE: no address answered at: nothing to follow");
	to.has_dgid = true;
	to.dgid = new;
	to.lid = 0;
	follow_renumber_text(&old, 0, &to, false, words, sizeof(words));
	is_str(words, "GID ::ffff:198.18.4.4 -> ::ffff:198.18.4.5",
	       "RoCE: the words name both GIDs");
}

/* InfiniBand: the SM gave the port another LID; its port GID stays. */
static void renumbered_ib(void)
{
	struct responder_info now = info(17, 0x1234, 0x10, NULL);
	struct responder_info moved = info(17, 0x1234, 0x40, NULL);
	union ibv_gid port_gid;
	struct follow_address to;
	char why[256], words[160];

	memset(&port_gid, 0, sizeof(port_gid));
	port_gid.raw[0] = 0xfe;
	port_gid.raw[1] = 0x80;
	port_gid.raw[15] = 0x21;
	moved.gid_count = 1;
	moved.gids[0].gid = port_gid;
	moved.gids[0].index = 0;
	snprintf(moved.gids[0].type, sizeof(moved.gids[0].type), "IB");
	is_int(follow_judge(&now, &moved, NULL, true, 0x10, NULL),
	       FOLLOW_RENUMBERED, "IB: a new base LID for the same QPN: "
	       "renumbered");
	ok(follow_new_address(&moved, NULL, NULL, true, &to, why,
			      sizeof(why)) == 0 &&
	   to.lid == 0x40 && to.has_dgid &&
	   memcmp(to.dgid.raw, port_gid.raw, 16) == 0,
	   "IB: followed to its new LID and the port GID it advertises "
	   "(the PathRecord's DGID)");
	follow_renumber_text(&port_gid, 0x10, &to, true, words,
			     sizeof(words));
	is_str(words, "LID 0x0010 -> 0x0040",
	       "IB: the same port GID: the words name both LIDs");
	moved.gid_count = 0;
	moved.lid = 0;
	ok(follow_new_address(&moved, NULL, NULL, true, &to, why,
			      sizeof(why)) == -1 && strstr(why, "neither"),
	   "IB: an answer with neither GID nor LID cannot be followed");
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
	is_int(follow_judge(&now, &same, &dgid, false, 0, NULL), FOLLOW_SAME,
	       "the same QP: nothing to follow (the loss is the path's)");
	is_int(follow_judge(&now, &restarted, &dgid, false, 0, NULL), FOLLOW_NEW_QP,
	       "another QPN: the responder restarted, follow it");
	is_int(follow_judge(&now, &rekeyed, &dgid, false, 0, NULL), FOLLOW_NEW_QP,
	       "another Q_Key (serve --qkey changed): follow it too");
	is_int(follow_judge(&now, &moved, &dgid, false, 0, NULL), FOLLOW_RENUMBERED,
	       "our DGID no longer among its GIDs: renumbered");
	is_int(follow_judge(&now, &old_serve, &dgid, false, 0, NULL), FOLLOW_NEW_QP,
	       "an answer without GIDs cannot say the address moved");

	/* InfiniBand without a GRH: the LID is the address. */
	now = info(17, 0x1234, 0x10, NULL);
	restarted = info(18, 0x1234, 0x10, NULL);
	moved = info(18, 0x1234, 0x40, NULL);
	is_int(follow_judge(&now, &restarted, NULL, true, 0x10, NULL),
	       FOLLOW_NEW_QP, "IB: same base LID, new QPN: follow");
	is_int(follow_judge(&now, &restarted, NULL, true, 0x13, NULL),
	       FOLLOW_NEW_QP, "IB: a DLID of its LMC range still its own");
	is_int(follow_judge(&now, &moved, NULL, true, 0x13, NULL), FOLLOW_RENUMBERED,
	       "IB: its base LID moved away from our DLID: renumbered");
	is_int(follow_judge(&now, &same, NULL, false, 0, NULL), FOLLOW_SAME,
	       "RoCE without a DGID to compare: the QPN decides");
	renumbered_roce();
	renumbered_ib();
	return tap_done();
}
