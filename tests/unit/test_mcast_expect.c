/* probe --expect-member's list (lib/base/mcast_expect.c): hosts and
 * addresses with their rendezvous ports, and what it refuses. */
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "base/mcast_expect.h"
#include "tap.h"

static void test_hosts(void)
{
	struct dest_list l = { 0 };
	char err[DIAG_MSG_MAX];

	is_int(mcast_expect_hosts_add(&l, "c,198.18.3.2:18832,[fe80::2]:9",
				      err, sizeof(err)),
	       0, "three members");
	is_int((int)l.count, 3, "all kept");
	is_int(l.items[0].kind, DEST_HOST, "a name");
	is_int(l.items[1].kind, DEST_ADDR, "an address");
	ok(l.items[1].has_port && l.items[1].port == 18832, "its port");
	is_int(mcast_expect_hosts_add(&l, "b", err, sizeof(err)), 0,
	       "repeated lists add up");
	is_int((int)l.count, 4, "four");
	dest_list_free(&l);
}

static void test_refused(void)
{
	struct dest_list l = { 0 };
	char err[DIAG_MSG_MAX], many[1024] = "";

	is_int(mcast_expect_hosts_add(&l, "b,,c", err, sizeof(err)), -1,
	       "an empty item");
	is_str(err, "expected member list 'b,,c' has an empty item: "
	       "expected HOST[,HOST...]", "says so");
	dest_list_free(&l);
	is_int(mcast_expect_hosts_add(&l, "mcast:239.1.2.3", err,
				      sizeof(err)),
	       -1, "a group");
	is_str(err, "expected member 'mcast:239.1.2.3' is a mcast "
	       "destination: expected a host name or address (HOST[:PORT])",
	       "a group is no member");
	is_int((int)l.count, 0, "nothing kept");
	is_int(mcast_expect_hosts_add(&l, "lid:5", err, sizeof(err)), -1,
	       "a LID");
	is_int(mcast_expect_hosts_add(&l, "bad host!", err, sizeof(err)), -1,
	       "no host name");
	for (int i = 0; i <= MCAST_EXPECT_MAX; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many),
			 "%sh%d", i ? "," : "", i);
	is_int(mcast_expect_hosts_add(&l, many, err, sizeof(err)), -1,
	       "too many");
	ok(strstr(err, "more than 64") != NULL, "names the limit: %s", err);
	dest_list_free(&l);
}

int main(void)
{
	test_hosts();
	test_refused();
	return tap_done();
}
