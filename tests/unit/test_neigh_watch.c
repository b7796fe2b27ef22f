/* Unit tests of the rtnetlink neighbour decoder with messages a Linux
 * kernel sent (RTM_GETNEIGH dump answers, which are RTM_NEWNEIGH
 * messages laid out as the notifications are: neigh_fill_info), and of
 * the rule that says when a cached AH's next hop may have moved. */
#include <string.h>

#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include "verbs/neigh_watch.h"
#include "tap.h"

/* 192.0.2.1 on ifindex 4, lladdr 02:fc:00:00:00:05, NUD_STALE. */
static const unsigned char new_v4[] = {
	0x4c, 0x00, 0x00, 0x00, 0x1c, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x09, 0x7d, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
	0x04, 0x00, 0x00, 0x01, 0x08, 0x00, 0x01, 0x00, 0xc0, 0x00, 0x02, 0x01,
	0x0a, 0x00, 0x02, 0x00, 0x02, 0xfc, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00,
	0x08, 0x00, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00, 0x14, 0x00, 0x03, 0x00,
	0xda, 0xcd, 0x00, 0x00, 0x78, 0xcd, 0x00, 0x00, 0x7e, 0xbf, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
};

/* fd00::1 on ifindex 4, NUD_FAILED, no lladdr. */
static const unsigned char new_v6_failed[] = {
	0x4c, 0x00, 0x00, 0x00, 0x1c, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x09, 0x7d, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
	0x20, 0x00, 0x00, 0x01, 0x14, 0x00, 0x01, 0x00, 0xfd, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x00, 0x04, 0x00, 0x06, 0x00, 0x00, 0x00, 0x14, 0x00, 0x03, 0x00,
	0x78, 0xa1, 0x26, 0x00, 0x7c, 0xce, 0x00, 0x00, 0x18, 0xce, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
};

static void test_decode(void)
{
	static const unsigned char mac[6] = { 0x02, 0xfc, 0, 0, 0, 0x05 };
	static const unsigned char v4_mapped[16] = {
		[10] = 0xff, [11] = 0xff, [12] = 192, [13] = 0, [14] = 2,
		[15] = 1,
	};
	static const unsigned char fd00_1[16] = { 0xfd, [15] = 1 };
	unsigned char both[sizeof(new_v4) + sizeof(new_v6_failed)];
	unsigned char msg[sizeof(new_v4)];
	struct neigh_change c[4];

	is_int(neigh_changes_decode(new_v4, sizeof(new_v4), c, 4), 1,
	       "one IPv4 change");
	ok(!c[0].deleted && c[0].ifindex == 4 && c[0].state == NUD_STALE,
	   "new, ifindex 4, stale");
	is_mem(c[0].addr, v4_mapped, 16, "192.0.2.1, IPv4 mapped");
	ok(c[0].lladdr_len == 6 && memcmp(c[0].lladdr, mac, 6) == 0,
	   "its MAC");

	is_int(neigh_changes_decode(new_v6_failed, sizeof(new_v6_failed), c,
				    4), 1, "one IPv6 change");
	ok(c[0].state == NUD_FAILED && c[0].lladdr_len == 0, "failed, no MAC");
	is_mem(c[0].addr, fd00_1, 16, "fd00::1");

	memcpy(both, new_v4, sizeof(new_v4));
	memcpy(both + sizeof(new_v4), new_v6_failed, sizeof(new_v6_failed));
	is_int(neigh_changes_decode(both, sizeof(both), c, 4), 2,
	       "two messages in one datagram");
	is_int(neigh_changes_decode(both, sizeof(both), c, 1), 1,
	       "no more than max");

	/* The kernel sends a deleted neighbour as the same message with
	 * type RTM_DELNEIGH (__neigh_notify). */
	memcpy(msg, new_v4, sizeof(msg));
	msg[4] = RTM_DELNEIGH;
	is_int(neigh_changes_decode(msg, sizeof(msg), c, 4), 1, "deleted");
	ok(c[0].deleted, "said deleted");

	msg[4] = RTM_NEWROUTE;
	is_int(neigh_changes_decode(msg, sizeof(msg), c, 4), 0,
	       "a route message is skipped");

	is_int(neigh_changes_decode(new_v4, sizeof(new_v4) - 1, c, 4), 0,
	       "a message longer than the datagram ends the walk");
	memcpy(msg, new_v4, sizeof(msg));
	msg[28] = 0xff;		/* NDA_DST's rta_len: 0x00ff */
	is_int(neigh_changes_decode(msg, sizeof(msg), c, 4), 0,
	       "an attribute longer than its message: no address, skipped");
	memcpy(msg, new_v4, sizeof(msg));
	msg[16] = 7;		/* AF_BRIDGE */
	is_int(neigh_changes_decode(msg, sizeof(msg), c, 4), 0,
	       "a bridge FDB entry is skipped");
	is_int(neigh_changes_decode(msg, 10, c, 4), 0, "a short datagram");
}

static void test_moves(void)
{
	static const unsigned char old_mac[6] = { 0x02, 0xfc, 0, 0, 0, 0x05 };
	static const unsigned char new_mac[6] = { 0x02, 0xfc, 0, 0, 0, 0x09 };
	struct neigh_change c = { .state = NUD_REACHABLE, .lladdr_len = 6 };

	memcpy(c.lladdr, old_mac, 6);
	ok(!neigh_change_moves(&c, old_mac, 6), "same MAC: not moved");
	ok(neigh_change_moves(&c, NULL, 0), "MAC not known: may have moved");
	memcpy(c.lladdr, new_mac, 6);
	ok(neigh_change_moves(&c, old_mac, 6), "another MAC: moved");
	c.state = NUD_STALE;
	memcpy(c.lladdr, old_mac, 6);
	ok(!neigh_change_moves(&c, old_mac, 6), "stale, same MAC: not moved");
	c.state = NUD_FAILED;
	c.lladdr_len = 0;
	ok(neigh_change_moves(&c, old_mac, 6), "failed: moved");
	c.state = NUD_PROBE;
	ok(!neigh_change_moves(&c, old_mac, 6), "probing, no MAC said: no");
	c.deleted = true;
	ok(neigh_change_moves(&c, old_mac, 6), "deleted: moved");
}

int main(void)
{
	test_decode();
	test_moves();
	return tap_done();
}
