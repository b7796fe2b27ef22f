/* The members a group's probe expects (lib/sa/mcast_sender.c): FullMember
 * records only, not this port, and an untrusted or hidden answer named as
 * no listing rather than as a group without members. */
#include <string.h>

#include "sa/mcast_sender.h"
#include "tap.h"

static union ibv_gid port(uint8_t last)
{
	union ibv_gid g = { .raw = { 0xfe, 0x80 } };

	g.raw[15] = last;
	return g;
}

int main(void)
{
	struct mcmember_record recs[4] = {
		{ .port_gid = port(1), .join_state = MC_JOIN_FULL_MEMBER },
		{ .port_gid = port(2),
		  .join_state = MC_JOIN_SEND_ONLY_NON_MEMBER },
		{ .port_gid = port(3), .join_state = MC_JOIN_FULL_MEMBER },
		{ .port_gid = port(4), .join_state = MC_JOIN_FULL_MEMBER |
						     MC_JOIN_NON_MEMBER },
	};
	struct mcast_members m = { .trusted = true, .sa_key = 1, .count = 4,
				   .records = recs };
	union ibv_gid self = port(3);
	struct mcast_listing l;

	ok(mcast_listing_from_members(&m, &self, &l) == 0, "trusted");
	ok(l.known, "listing known");
	is_int(l.count, 2, "FullMembers but this port: 2");
	ok(l.count == 2 && l.gids[0].raw[15] == 1 && l.gids[1].raw[15] == 4,
	   "ports 1 and 4");
	mcast_listing_free(&l);

	m.trusted = false;
	mcast_listing_from_members(&m, &self, &l);
	ok(!l.known, "untrusted: no listing");
	is_str(l.why_not, "the SA lists members to a trusted query only (an "
			  "SA key)", "and why");
	mcast_listing_free(&l);

	m.trusted = true;
	memset(&recs[0].port_gid, 0, sizeof(recs[0].port_gid));
	recs[0].join_state = 0;
	m.count = 1;
	mcast_listing_from_members(&m, &self, &l);
	ok(!l.known, "PortGID hidden: no listing");
	is_str(l.why_not, "the SA hid the members (it did not take the SA "
			  "key 0x1 as its own)", "and why");
	mcast_listing_free(&l);
	m.sa_key = 0xabcdef0123;
	mcast_listing_from_members(&m, &self, &l);
	is_str(l.why_not, "the SA hid the members (it did not take the SA "
			  "key 0xabcdef0123 as its own)", "the key asked with");
	mcast_listing_free(&l);

	m.count = 0;
	mcast_listing_from_members(&m, &self, &l);
	ok(l.known && l.count == 0, "trusted, no records: known, empty");
	mcast_listing_free(&l);

	m.count = 1;
	recs[0].port_gid = port(1);
	recs[0].join_state = MC_JOIN_FULL_MEMBER;
	m.truncated = true;
	mcast_listing_from_members(&m, NULL, &l);
	ok(!l.known, "cut short: no listing");
	mcast_listing_free(&l);
	return tap_done();
}
