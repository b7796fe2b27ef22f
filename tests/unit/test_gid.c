/* Unit tests of GID text and classification: IPv4-mapped GIDs print in
 * dotted form, and the classes the AH rules and source-GID choice use. */
#include "port_fixture.h"
#include "base/gid.h"
#include "tap.h"

int main(void)
{
	char buf[GID_TEXT_MAX];
	union ibv_gid gid;

	gid = fixture_gid("10.0.0.2");
	is_str(gid_format(&gid, buf, sizeof(buf)), "::ffff:10.0.0.2",
	       "IPv4-mapped in dotted form");
	ok(gid_is_ipv4_mapped(&gid), "is IPv4-mapped");
	ok(!gid_is_link_local(&gid) && !gid_is_multicast(&gid) && !gid_is_zero(&gid),
	   "and nothing else");
	is_str(gid_format_address(&gid, buf, sizeof(buf)), "10.0.0.2",
	       "its address is the plain dotted quad");
	gid = fixture_gid("2001:db8:4::4");
	is_str(gid_format_address(&gid, buf, sizeof(buf)), "2001:db8:4::4",
	       "an IPv6 GID's address is the GID");

	gid = fixture_gid("FE80:0:0:0:0002:c903:00a1:b2c3");
	is_str(gid_format(&gid, buf, sizeof(buf)), "fe80::2:c903:a1:b2c3",
	       "IB port GID, compressed, lower case");
	ok(gid_is_link_local(&gid) && !gid_is_ipv4_mapped(&gid), "link-local");

	gid = fixture_gid("fe80:0:0:0:ffff:1:2:3");
	ok(gid_is_link_local(&gid), "fe80::/64 with a high interface id");
	gid = fixture_gid("febf::1");
	ok(gid_is_link_local(&gid), "febf:: is in fe80::/10 (RFC 4291)");
	gid = fixture_gid("fec0::1");
	ok(!gid_is_link_local(&gid), "fec0:: (an IB site prefix) is not");

	gid = fixture_gid("ff12:401b:ffff::1");
	ok(gid_is_multicast(&gid) && !gid_is_link_local(&gid), "multicast MGID");

	memset(&gid, 0, sizeof(gid));
	ok(gid_is_zero(&gid), ":: is zero");
	is_str(gid_format(&gid, buf, sizeof(buf)), "::", ":: prints as ::");

	gid = fixture_gid("::ffff:0:1");
	ok(!gid_is_ipv4_mapped(&gid) || gid.raw[10] == 0xff,
	   "only ::ffff:0:0/96 is IPv4-mapped");
	gid = fixture_gid("::1:ffff:a00:2");
	ok(!gid_is_ipv4_mapped(&gid), "::1:ffff:a00:2 is not IPv4-mapped");
	return tap_done();
}
