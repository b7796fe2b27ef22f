/* serve --mcast's GROUP text (lib/base/mcast_spec.c). */
#include <arpa/inet.h>
#include <string.h>

#include "tap.h"
#include "base/mcast_spec.h"

static void want_gid(const char *text, const char *gid,
		     enum mcast_spec_family family)
{
	struct mcast_spec spec;
	union ibv_gid want;
	char err[256];

	inet_pton(AF_INET6, gid, want.raw);
	is_int(mcast_spec_parse(text, &spec, err, sizeof(err)), 0, "%s parses",
	       text);
	is_mem(spec.gid.raw, want.raw, 16, "%s is %s", text, gid);
	is_int(spec.family, family, "%s: its family", text);
}

static void want_error(const char *list, const char *words)
{
	struct mcast_spec_list l = { 0 };
	char err[256] = "";

	is_int(mcast_spec_list_add(&l, list, err, sizeof(err)), -1,
	       "'%s' is refused", list);
	ok(strstr(err, words) != NULL, "'%s': says '%s' (%s)", list, words,
	   err);
}

int main(void)
{
	struct mcast_spec_list l = { 0 };
	char err[256];

	want_gid("ff12:401b:ffff::ffff:ffff", "ff12:401b:ffff::ffff:ffff",
		 MCAST_SPEC_MGID);
	want_gid("ipoib", "ff12:401b:ffff::ffff:ffff", MCAST_SPEC_IPOIB);
	want_gid("ipoib:0x0001", "ff12:401b:8001::ffff:ffff", MCAST_SPEC_IPOIB);
	want_gid("ipoib6:0x8002", "ff12:601b:8002::1", MCAST_SPEC_IPOIB);
	want_gid("239.1.2.3", "::ffff:239.1.2.3", MCAST_SPEC_IPV4);
	want_gid("::ffff:224.0.0.251", "::ffff:224.0.0.251", MCAST_SPEC_IPV4);
	want_gid("ff0e::1:2:3", "ff0e::1:2:3", MCAST_SPEC_MGID);

	is_int(mcast_spec_list_add(&l, "239.1.2.3,ff0e::1", err, sizeof(err)),
	       0, "a list");
	is_int(mcast_spec_list_add(&l, "239.1.2.4", err, sizeof(err)), 0,
	       "a second --mcast adds");
	is_int(l.count, 3, "three groups");
	is_str(l.specs[2].text, "239.1.2.4", "the text kept");

	want_error("", "empty group");
	want_error("239.1.2.3,", "empty group");
	want_error("10.0.0.1", "not an IPv4 multicast address");
	want_error("fe80::1", "not multicast");
	want_error("::ffff:10.0.0.1", "not multicast");
	want_error("bogus", "neither an MGID");
	want_error("ipoib:0x10000", "0x10000");
	want_error("ipoibx", "neither an MGID");
	want_error("239.1.2.3,239.1.2.3", "named twice");
	want_error("ipoib,ff12:401b:ffff::ffff:ffff", "named twice");
	want_error("ipoib,239.1.2.3", "one port is either InfiniBand or RoCE");
	want_error("224.1.1.1,ipoib6", "one port is either InfiniBand or RoCE");
	want_error("224.0.0.1,224.0.0.2,224.0.0.3,224.0.0.4,224.0.0.5,"
		   "224.0.0.6,224.0.0.7,224.0.0.8,224.0.0.9,224.0.0.10,"
		   "224.0.0.11,224.0.0.12,224.0.0.13,224.0.0.14,224.0.0.15,"
		   "224.0.0.16,224.0.0.17", "more than 16 groups");
	return tap_done();
}
