/* Unit tests of destination specs and destination lists: every DEST form,
 * ports, case, the mistakes admins make, and files with comments. */
#include <stdlib.h>
#include <unistd.h>

#include "base/dest.h"
#include "base/diag.h"
#include "base/gid.h"
#include "tap.h"

static char err[DIAG_MSG_MAX + 64];

/* The parse of one spec as a line: "kind lid guid name gid port". */
static const char *describe(const char *text)
{
	static char line[512];
	char gid[GID_TEXT_MAX];
	struct dest d;

	if (dest_parse(text, &d, err, sizeof(err))) {
		snprintf(line, sizeof(line), "error: %s", err);
		return line;
	}
	snprintf(line, sizeof(line), "%s lid=%u guid=%#llx name=%s gid=%s port=%u",
		 dest_kind_name(d.kind), d.lid, (unsigned long long)d.guid,
		 d.name ? d.name : "-",
		 d.has_gid ? gid_format(&d.gid, gid, sizeof(gid)) : "-",
		 d.has_port ? d.port : 0);
	dest_clear(&d);
	return line;
}

static void test_forms(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "1", "lid lid=1 guid=0 name=- gid=- port=0" },
		{ "0x10", "lid lid=16 guid=0 name=- gid=- port=0" },
		{ "lid:0xbfff", "lid lid=49151 guid=0 name=- gid=- port=0" },
		{ "LID:5", "lid lid=5 guid=0 name=- gid=- port=0" },
		{ "gid:fe80::1", "gid lid=0 guid=0 name=- gid=fe80::1 port=0" },
		{ "gid:10.0.0.1", "gid lid=0 guid=0 name=- gid=::ffff:10.0.0.1 port=0" },
		{ "gid:ff02::1", "gid lid=0 guid=0 name=- gid=ff02::1 port=0" },
		{ "guid:0x100001", "guid lid=0 guid=0x100001 name=- gid=- port=0" },
		{ "node:s1 HCA-1", "node lid=0 guid=0 name=s1 HCA-1 gid=- port=0" },
		{ "fe80::2", "addr lid=0 guid=0 name=- gid=fe80::2 port=0" },
		{ "FE80::2", "addr lid=0 guid=0 name=- gid=fe80::2 port=0" },
		{ "10.0.0.1", "addr lid=0 guid=0 name=- gid=::ffff:10.0.0.1 port=0" },
		{ "10.0.0.1:18515", "addr lid=0 guid=0 name=- gid=::ffff:10.0.0.1 port=18515" },
		{ "[2001:db8::1]:99", "addr lid=0 guid=0 name=- gid=2001:db8::1 port=99" },
		{ "[fe80::1]", "addr lid=0 guid=0 name=- gid=fe80::1 port=0" },
		{ "host1", "host lid=0 guid=0 name=host1 gid=- port=0" },
		{ "host-a.example.com:80", "host lid=0 guid=0 name=host-a.example.com gid=- port=80" },
		{ "123abc", "host lid=0 guid=0 name=123abc gid=- port=0" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		is_str(describe(cases[i].text), cases[i].want, "'%s'",
		       cases[i].text);
}

/* A link-local address with its scope: lo is the one interface every
 * host has. */
static void test_scope(void)
{
	struct dest d;
	char gid[GID_TEXT_MAX];

	is_int(dest_parse("fe80::2%lo", &d, err, sizeof(err)), 0, "fe80::2%%lo");
	is_str(d.scope, "lo", "scope kept");
	is_str(gid_format(&d.gid, gid, sizeof(gid)), "fe80::2", "address without it");
	is_str(d.text, "fe80::2%lo", "text as given");
	dest_clear(&d);
	is_int(dest_parse("[fe80::2%lo]:99", &d, err, sizeof(err)), 0,
	       "with a port");
	is_str(d.scope, "lo", "scope kept");
	is_int(d.port, 99, "port kept");
	dest_clear(&d);
	is_int(dest_parse("fe80::2", &d, err, sizeof(err)), 0, "no scope");
	is_str(d.scope, "", "empty scope");
	dest_clear(&d);
	is_str(describe("2001:db8::1%lo"), "error: destination '2001:db8::1%lo': "
	       "a scope (%IF) goes with an IPv6 link-local address only",
	       "scope on a global address refused");
	is_str(describe("10.0.0.1%lo"), "error: destination '10.0.0.1%lo': "
	       "a scope (%IF) goes with an IPv6 link-local address only",
	       "scope on IPv4 refused");
	is_str(describe("fe80::2%no-such-if0"), "error: destination "
	       "'fe80::2%no-such-if0': no interface 'no-such-if0' on this host "
	       "('ip link' lists them)", "unknown interface refused");
	is_str(describe("fe80::2%"), "error: destination 'fe80::2%': no "
	       "interface '' on this host ('ip link' lists them)",
	       "empty scope refused");
}

static void test_mistakes(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "", "error: destination is empty" },
		{ "lid:0", "error: lid '0' is out of range: expected 1-49151 (0x1-0xbfff)" },
		{ "49152", "error: lid '49152' is out of range: expected 1-49151 (0x1-0xbfff)" },
		{ "guid:0", "error: port guid '0' is out of range: expected "
			    "1-18446744073709551615 (0x1-0xffffffffffffffff)" },
		{ "node:", "error: node name in 'node:' must be 1-64 characters" },
		{ "gid:zz", "error: gid 'zz' is not valid: expected an IPv6-format "
			    "GID such as fe80::2 or an IPv4 address" },
		{ "h:0", "error: port '0' is out of range: expected 1-65535" },
		{ "h:65536", "error: port '65536' is out of range: expected 1-65535" },
		{ "[::1", "error: destination '[::1' has no closing ']'" },
		{ "[::1]x", "error: destination '[::1]x' has junk after ']'" },
		{ "2001:db8::1:18515", "error: destination '2001:db8::1:18515' is "
			"not a valid IPv6 address (an address with a port is "
			"written [ADDR]:PORT)" },
	};
	/* Not host names: a mistyped dotted quad would otherwise go to DNS
	 * (and getaddrinfo reads "1.2.3" as 1.2.0.3). */
	static const char *const not_hosts[] = { "bad host!", "1.2.3",
		"10.0.0.256", "x.123", "-h", ".h", " 1" };
	char name65[5 + 65 + 1] = "node:";

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		is_str(describe(cases[i].text), cases[i].want, "'%s'",
		       cases[i].text);
	for (size_t i = 0; i < sizeof(not_hosts) / sizeof(*not_hosts); i++) {
		char want[DIAG_MSG_MAX];

		snprintf(want, sizeof(want), "error: destination '%s' is not a "
			 "LID, GID, address or host name: expected lid:N, "
			 "gid:ADDR, guid:0x..., node:NAME, an address or a "
			 "host name", not_hosts[i]);
		is_str(describe(not_hosts[i]), want, "'%s' refused", not_hosts[i]);
	}
	memset(name65 + 5, 'x', 65);
	name65[5 + 65] = '\0';
	ok(strstr(describe(name65), "must be 1-64 characters") != NULL,
	   "a node name over 64 bytes (NodeDescription) refused");
	name65[5 + 64] = '\0';
	ok(strncmp(describe(name65), "node ", 5) == 0, "64 bytes fit");
}

static void test_host_resolution(void)
{
	struct dest d;
	char gid[GID_TEXT_MAX];

	is_int(dest_parse("localhost", &d, err, sizeof(err)), 0, "localhost parses");
	is_int(dest_resolve_host(&d, err, sizeof(err)), 0, "and resolves");
	ok(d.has_gid, "to a GID");
	gid_format(&d.gid, gid, sizeof(gid));
	ok(strcmp(gid, "::ffff:127.0.0.1") == 0 || strcmp(gid, "::1") == 0,
	   "the loopback address (%s)", gid);
	dest_clear(&d);

	is_int(dest_parse("no-such-host.invalid", &d, err, sizeof(err)), 0,
	       "an .invalid name parses");
	is_int(dest_resolve_host(&d, err, sizeof(err)), -1, "but does not resolve");
	ok(strncmp(err, "cannot resolve host 'no-such-host.invalid': ", 44) == 0,
	   "the message names it: %s", err);
	dest_clear(&d);
}

/* dest_list_read over an in-memory file. */
static int read_text(struct dest_list *list, const char *text)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int rc;

	rc = dest_list_read(list, in, "dests", err, sizeof(err));
	fclose(in);
	return rc;
}

static void test_lists(void)
{
	struct dest_list list = { 0 };
	char path[] = "/tmp/ibahprobe-test-dest.XXXXXX";
	char *argv[] = { "lid:1", "10.0.0.1" };
	FILE *f;
	int fd;

	is_int(read_text(&list, "# nodes\n\n  lid:4  # H2\n\t10.0.0.2\nnode:H1"),
	       0, "comments, blanks, spaces, no final newline");
	is_int(list.count, 3, "three destinations");
	ok(list.count == 3 && strcmp(list.items[0].text, "lid:4") == 0 &&
	   strcmp(list.items[1].text, "10.0.0.2") == 0 &&
	   strcmp(list.items[2].text, "node:H1") == 0, "in file order, trimmed");
	dest_list_free(&list);
	is_int(list.count, 0, "freed");

	is_int(read_text(&list, "lid:1\n# x\nlid:0\nlid:2\n"), -1, "a bad line");
	is_str(err, "dests:3: lid '0' is out of range: expected 1-49151 (0x1-0xbfff)",
	       "named by file and line");
	dest_list_free(&list);

	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fputs("lid:2\n", f);
	fclose(f);
	is_int(dest_list_collect(&list, 2, argv, path, err, sizeof(err)), 0,
	       "operands and a file");
	ok(list.count == 3 && list.items[0].lid == 1 && list.items[2].lid == 2,
	   "operands first, then the file");
	dest_list_free(&list);
	unlink(path);
	is_int(dest_list_collect(&list, 0, argv, path, err, sizeof(err)), -1,
	       "a missing file");
	ok(strstr(err, "cannot open destination file") &&
	   strstr(err, "No such file or directory"), "says why: %s", err);
	dest_list_free(&list);
	is_int(dest_list_collect(&list, 0, argv, "/", err, sizeof(err)), -1,
	       "a directory");
	ok(strstr(err, "cannot read /: Is a directory") != NULL, "says why: %s", err);
	dest_list_free(&list);
}

/* keep_invalid: a spec that does not parse stays in the list, in its
 * place, with its error (the file's line too); the rest parse as ever. */
static void test_kept_invalid(void)
{
	struct dest_list list = { .keep_invalid = true };
	char *argv[] = { "lid:1", "c:185170", "" };

	is_int(dest_list_collect(&list, 3, argv, NULL, err, sizeof(err)), 0,
	       "operands that do not parse fail nothing");
	ok(list.count == 3 && !list.items[0].error &&
	   list.items[0].kind == DEST_LID && list.items[0].lid == 1,
	   "the good one parsed");
	ok(list.count == 3 && list.items[1].error &&
	   strcmp(list.items[1].text, "c:185170") == 0 &&
	   strcmp(list.items[1].error, "port '185170' is out of range: "
		  "expected 1-65535") == 0, "the bad one kept, with why");
	ok(list.count == 3 && list.items[2].error &&
	   strcmp(list.items[2].error, "destination is empty") == 0,
	   "an empty operand too");
	is_int(read_text(&list, "lid:2\nlid:0\n"), 0, "a file with a bad line");
	ok(list.count == 5 && list.items[3].lid == 2 &&
	   list.items[4].error &&
	   strcmp(list.items[4].error, "dests:2: lid '0' is out of range: "
		  "expected 1-49151 (0x1-0xbfff)") == 0,
	   "kept with its file and line");
	dest_list_free(&list);
}

/* mcast: groups: an MGID, or IPoIB's groups built from a P_Key (with the
 * full-member bit set); the MGID is in gid, has_gid stays false (a group
 * has no PathRecord). */
static void test_mcast(void)
{
	static const struct {
		const char *text, *mgid;
		uint16_t pkey;
	} good[] = {
		{ "mcast:ff12:401b:ffff::ffff:ffff", "ff12:401b:ffff::ffff:ffff", 0 },
		{ "mcast:ipoib", "ff12:401b:ffff::ffff:ffff", 0xffff },
		{ "MCAST:IPoIB:0x0001", "ff12:401b:8001::ffff:ffff", 0x0001 },
		{ "mcast:ipoib:0x8012", "ff12:401b:8012::ffff:ffff", 0x8012 },
		{ "mcast:ipoib6", "ff12:601b:ffff::1", 0xffff },
		{ "mcast:ipoib6:0x7fff", "ff12:601b:ffff::1", 0x7fff },
		{ "mcast:239.1.2.3", "::ffff:239.1.2.3", 0 },
		{ "mcast:224.0.0.1", "::ffff:224.0.0.1", 0 },
		{ "mcast:ff0e::1234", "ff0e::1234", 0 },
	};
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "mcast:", "'mcast:' names no group: expected mcast:MGID, "
			    "mcast:ipoib[:PKEY] or mcast:ipoib6[:PKEY]" },
		{ "mcast:fe80::1", "'fe80::1' is not a multicast GID (an MGID "
				   "starts with ff)" },
		{ "mcast:10.0.0.1", "'10.0.0.1' is not a multicast address "
				    "(IPv4 groups are in 224.0.0.0/4)" },
		{ "mcast:240.0.0.1", "'240.0.0.1' is not a multicast address "
				     "(IPv4 groups are in 224.0.0.0/4)" },
		{ "mcast:ipoib:", NULL },
		{ "mcast:ipoib:0x10000", NULL },
		{ "mcast:ipoibx", NULL },
		{ "mcast:zz", NULL },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		char gid[GID_TEXT_MAX];
		struct dest d;

		if (dest_parse(good[i].text, &d, err, sizeof(err))) {
			ok(0, "'%s': %s", good[i].text, err);
			continue;
		}
		ok(d.kind == DEST_MCAST && !d.has_gid, "'%s' is a group",
		   good[i].text);
		is_str(gid_format(&d.gid, gid, sizeof(gid)), good[i].mgid,
		       "'%s' MGID", good[i].text);
		is_int(d.pkey, good[i].pkey, "'%s' P_Key", good[i].text);
		dest_clear(&d);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char want[DIAG_MSG_MAX];
		const char *got = describe(bad[i].text);

		snprintf(want, sizeof(want), "error: %s",
			 bad[i].want ? bad[i].want : "");
		if (bad[i].want)
			is_str(got, want, "'%s' refused", bad[i].text);
		else
			ok(strncmp(got, "error: ", 7) == 0, "'%s' refused: %s",
			   bad[i].text, got);
	}
	is_str(dest_kind_name(DEST_MCAST), "mcast", "kind name");
}

/* read_flow_label: plan's "# flow-label LIST (why)" line is read as the
 * file's flow labels; other comments stay comments; a malformed line or
 * two that differ fail the file with FILE:LINE. */
static void test_flow_label_line(void)
{
	struct dest_list list = { .read_flow_label = true };
	struct dest_list plain = { 0 };

	is_int(read_text(&list, "# ibahprobe plan: round 0 of 4 (seed 0) "
			 "for n1\n# flow-label 1-3,0x10 (4 ECMP branches, "
			 "each crossed with probability >= 99%)\nn2\n"),
	       0, "plan's host file");
	ok(list.flow_label.text && strcmp(list.flow_label.text, "1-3,0x10") == 0,
	   "its LIST as written: %s", list.flow_label.text ? list.flow_label.text : "(none)");
	ok(list.flow_label.values.count == 4 &&
	   list.flow_label.values.values[3] == 0x10, "and its values");
	is_str(list.flow_label.where, "dests:2", "and where");
	is_int(list.count, 1, "the destination read as ever");
	dest_list_free(&list);
	ok(!list.flow_label.text && !list.flow_label.where, "freed");

	list.read_flow_label = true;
	is_int(read_text(&list, "#flow-label 5\nn2 # flow-label 7\n"
			 "# flow-labels 9\n#  flow-label\t5\n"), 0,
	       "no blank after '#', a trailing comment, another word, the "
	       "same list again");
	ok(list.flow_label.text && strcmp(list.flow_label.text, "5") == 0 &&
	   list.flow_label.values.count == 1, "the whole-line one counts: %s",
	   list.flow_label.text ? list.flow_label.text : "(none)");
	dest_list_free(&list);

	list.read_flow_label = true;
	is_int(read_text(&list, "n2\n"), 0, "a file without one");
	ok(!list.flow_label.text, "has no flow labels");
	dest_list_free(&list);

	list.read_flow_label = true;
	is_int(read_text(&list, "# flow-label 1-3\nn2\n# flow-label 1,2,3\n"),
	       0, "the same labels written twice");
	dest_list_free(&list);

	list.read_flow_label = true;
	is_int(read_text(&list, "# flow-label 1-3\nn2\n# flow-label 1-4 (x)\n"),
	       -1, "two lines that differ");
	is_str(err, "dests:3: a second flow-label line names 1-4, dests:1's "
	       "named 1-3: one file, one list of flow labels", "named both");
	dest_list_free(&list);

	list.read_flow_label = true;
	is_int(read_text(&list, "n1\n# flow-label 0x100000\n"), -1,
	       "a label wider than 20 bits");
	is_str(err, "dests:2: flow-label line: 20-bit flow label '0x100000' is "
	       "out of range: expected 0-1048575 (0x0-0xfffff)", "named");
	dest_list_free(&list);

	list.read_flow_label = true;
	is_int(read_text(&list, "# flow-label experiments\nn1\n"), -1,
	       "a word that is no list");
	ok(strncmp(err, "dests:1: flow-label line: ", 26) == 0, "named: %s", err);
	dest_list_free(&list);

	list.read_flow_label = true;
	is_int(read_text(&list, "# flow-label   \nn1\n"), -1, "no list");
	is_str(err, "dests:1: the flow-label line names no labels (plan writes "
	       "it as '# flow-label 1-21 (...)')", "said so");
	dest_list_free(&list);

	is_int(read_text(&plain, "# flow-label x\n# flow-label 1\nn1\n"), 0,
	       "without read_flow_label: comments (ah, path)");
	ok(!plain.flow_label.text && plain.count == 1, "nothing taken");
	dest_list_free(&plain);
}

int main(void)
{
	test_flow_label_line();
	test_mcast();
	test_kept_invalid();
	test_forms();
	test_scope();
	test_mistakes();
	test_host_resolution();
	test_lists();
	return tap_done();
}
