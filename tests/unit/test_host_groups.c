/* Unit tests of host groups files: HOST GROUP lines with comments and
 * blanks, group ids in the order of first appearance, lookups, and every
 * malformed line refused with FILE:LINE: no group, a third word, a host
 * twice, a control character, an over-long name or line, a NUL. */
#include <stdlib.h>
#include <string.h>

#include "fleet/host_groups.h"
#include "tap.h"

static int read_text(struct host_groups *hg, const char *text, size_t len,
		     char *err, size_t errlen)
{
	FILE *in = fmemopen((void *)text, len, "r");
	int rc = host_groups_read(hg, in, "g.txt", err, errlen);

	fclose(in);
	return rc;
}

static void refused(const char *text, size_t len, const char *want,
		    const char *why)
{
	struct host_groups hg;
	char err[256] = "";

	is_int(read_text(&hg, text, len, err, sizeof(err)), -1, "%s", why);
	is_str(err, want, "%s: the message", why);
	is_int(hg.count, 0, "%s: nothing kept", why);
}

/* Groups made by a program (report --groups sa): the same lookups, group
 * ids in the order of first pair, names kept byte for byte, and a host
 * twice refused. */
static void test_from_pairs(void)
{
	const char *hosts[] = { "h2", "h1", "fe80::a", "h3" };
	const char *groups[] = { "S2", "S1", "S2", "S\x1b" "1" };
	const char *twice[] = { "h1", "h1" };
	struct host_groups hg;
	char err[256] = "";

	is_int(host_groups_from_pairs(&hg, hosts, groups, 4, "--groups sa",
				      err, sizeof(err)), 0, "pairs taken");
	is_int(hg.group_count, 3, "three groups");
	is_str(hg.group_names[0], "S2", "first pair's group first");
	is_str(hg.group_names[2], "S\x1b" "1", "a control character kept");
	is_int(host_groups_find(&hg, "h1"), 1, "h1 in S1");
	is_int(host_groups_find(&hg, "fe80::a"), 0, "an address in S2");
	is_int(host_groups_find(&hg, "h9"), -1, "no h9");
	host_groups_free(&hg);
	is_int(host_groups_from_pairs(&hg, twice, groups, 2, "--groups sa",
				      err, sizeof(err)), -1, "a host twice");
	is_str(err, "--groups sa:2: host 'h1' is listed twice (first on "
	       "line 1)", "... named");
	is_int(hg.count, 0, "... nothing kept");
}

int main(void)
{
	test_from_pairs();
	static const char good[] =
		"# rack layout\n"
		"node03 rack2\n"
		"\n"
		"  node01\track1   # first rack\n"
		"node02 rack1\r\n"
		"node10 rack2\n"
		"node04 rack0\n";
	struct host_groups hg;
	char err[256], long_name[400], long_line[700];

	is_int(read_text(&hg, good, strlen(good), err, sizeof(err)), 0,
	       "a file with comments, blanks, tabs and CRLF");
	is_int(hg.count, 5, "five hosts");
	is_int(hg.group_count, 3, "three groups");
	is_str(hg.group_names[0], "rack2", "groups in order of first line: "
	       "rack2 first");
	is_str(hg.group_names[1], "rack1", "then rack1");
	is_str(hg.group_names[2], "rack0", "then rack0");
	is_str(hg.entries[1].host, "node01", "entries in file order");
	is_int(hg.entries[1].line, 4, "with their line");
	is_int(host_groups_find(&hg, "node01"), 1, "node01 in rack1");
	is_int(host_groups_find(&hg, "node10"), 0, "node10 in rack2");
	is_int(host_groups_find(&hg, "node04"), 2, "node04 in rack0");
	is_int(host_groups_find(&hg, "node05"), -1, "node05 in none");
	is_int(host_groups_find(&hg, "node0"), -1, "a prefix is no match");
	host_groups_free(&hg);

	is_int(read_text(&hg, "# nothing\n\n", 11, err, sizeof(err)), 0,
	       "a file of comments only");
	is_int(hg.count, 0, "names no host");
	is_int(host_groups_find(&hg, "x"), -1, "and finds none");
	host_groups_free(&hg);

	refused("a r1\nb\n", 7, "g.txt:2: 'b' has no group; a line is HOST "
		"GROUP", "a host without its group");
	refused("a r1 r2\n", 8, "g.txt:1: a third word after 'a'; a line is "
		"HOST GROUP", "a third word");
	refused("a r1\nb r1\nc r2\nb r2\na r1\n", 25,
		"g.txt:4: host 'b' is listed twice (first on line 2)",
		"a host twice: the first repeat, with the line it repeats");
	refused("a\x1b[2J r1\n", 10, "g.txt:1: a control character in host "
		"'a\\x1b[2J'", "an escape sequence in a host name");
	refused("a r\x7f\n", 5, "g.txt:1: a control character in group "
		"'r\\x7f'", "DEL in a group name");
	refused("a r1\nb\0 r1\n", 11, "g.txt:2:2: a NUL byte in a text line",
		"a NUL");
	memset(long_name, 'h', 300);
	memcpy(long_name + 300, " r1\n", 5);
	refused(long_name, strlen(long_name), "g.txt:1: a host name of 300 "
		"bytes (at most 256)", "a host name over 256 bytes");
	memset(long_line, ' ', 650);
	memcpy(long_line + 650, "a r1\n", 6);
	refused(long_line, strlen(long_line), "g.txt:1: line is longer than "
		"600 characters", "a line over 600 characters");

	is_int(host_groups_load(&hg, "/nonexistent/groups", err, sizeof(err)),
	       -1, "a missing file");
	is_str(err, "cannot open groups file '/nonexistent/groups': No such "
	       "file or directory", "named, with the cause");
	return tap_done();
}
