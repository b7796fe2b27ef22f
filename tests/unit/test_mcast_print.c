/* A multicast probe's rows (lib/probe/mcast_print.c): the mcast_member
 * and mcast_group records with the keys probe(8) documents, an answered
 * member's numbers and a silent one's nulls, and the text lines. */
#include <string.h>

#include <json-c/json.h>

#include "base/parse.h"
#include "probe/mcast_print.h"
#include "capture.h"
#include "tap.h"

#define MS 1000000u

static struct mcast_tally tally;
static struct mcast_summary summary;
static struct run_info info = { .id = "run", .start_time = "now" };
static struct mcast_print_group group = {
	.info = &info, .dest = "mcast:239.1.2.3", .qkey = 0x1ab4e0be,
	.hop_limit = 64,
};

static void print_group(void)
{
	out_open_array(NULL);
	mcast_group_print(&group, &tally, &summary, NULL);
	out_close_array();
}

static void print_failed(void)
{
	out_open_array(NULL);
	mcast_group_print(&group, &tally, &summary, "no such group");
	out_close_array();
}

/* JSON Lines: the records at the root, one a line (probe --jsonl). */
static void print_group_lines(void)
{
	mcast_group_print(&group, &tally, &summary, NULL);
}

static void test_json_lines(void)
{
	char *text = capture_out(OUT_JSONL, print_group_lines);
	char *line, *save = NULL;
	int n = 0, objects = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		json_object *o = json_tokener_parse(line);

		n++;
		objects += o && json_object_is_type(o, json_type_object);
		json_object_put(o);
	}
	is_int(n, 3, "JSON Lines: three lines");
	is_int(objects, 3, "each an object");
}

static void setup(void)
{
	struct mcast_responder b = { .qpn = 0x11 };
	struct probe_observed seen = { .grh_present = true, .hop_limit = 63,
				       .traffic_class = 0x28 };
	union ibv_gid listed[2];
	char err[64];
	size_t i;

	parse_gid("239.1.2.3", &group.mgid, err, sizeof(err));
	parse_gid("198.18.3.3", &b.gid, err, sizeof(err));
	listed[0] = b.gid;
	parse_gid("198.18.4.4", &listed[1], err, sizeof(err));
	mcast_tally_init(&tally, 2, 1);
	mcast_tally_sent(&tally, 0, 100 * MS);
	mcast_tally_sent(&tally, 0, 100 * MS);
	mcast_tally_credit(&tally, &b, 1, 2 * MS, &i);
	mcast_tally_credit(&tally, &b, 2, 4 * MS, &i);
	mcast_member_observe(&tally.members[i], &seen, 64);
	snprintf(tally.members[i].host, sizeof(tally.members[i].host),
		 "host-c");
	mcast_tally_merge_listed(&tally, listed, NULL, 2);
	mcast_tally_summarize(&tally, 0, &summary);
}

static void test_json(void)
{
	json_object *o = json_tokener_parse(capture_out(OUT_JSON,
							print_group));
	json_object *b, *d, *g, *v;

	ok(o && json_object_array_length(o) == 3, "two members, one group");
	if (!o || json_object_array_length(o) != 3)
		return;
	b = json_object_array_get_idx(o, 0);
	d = json_object_array_get_idx(o, 1);
	g = json_object_array_get_idx(o, 2);
	ok(json_object_object_get_ex(b, "record", &v) &&
	   strcmp(json_object_get_string(v), "mcast_member") == 0,
	   "record mcast_member");
	ok(json_object_object_get_ex(b, "schema", &v) &&
	   strcmp(json_object_get_string(v), "ibahprobe.probe.v1") == 0,
	   "the schema");
	ok(json_object_object_get_ex(b, "mcast_group", &v) &&
	   strcmp(json_object_get_string(v), "::ffff:239.1.2.3") == 0,
	   "the group's GID");
	ok(json_object_object_get_ex(b, "member", &v) &&
	   json_object_object_get_ex(v, "gid", &v) &&
	   strcmp(json_object_get_string(v), "::ffff:198.18.3.3") == 0,
	   "member.gid");
	ok(json_object_object_get_ex(b, "member", &v) &&
	   json_object_object_get_ex(v, "host", &v) &&
	   strcmp(json_object_get_string(v), "host-c") == 0, "member.host");
	ok(json_object_object_get_ex(d, "member", &v) &&
	   json_object_object_get_ex(v, "host", &v) && !v,
	   "a name not known: null");
	ok(json_object_object_get_ex(b, "member_state", &v) &&
	   strcmp(json_object_get_string(v), "answered") == 0, "answered");
	ok(json_object_object_get_ex(b, "status", &v) &&
	   strcmp(json_object_get_string(v), "reachable") == 0,
	   "status reachable: 2 of 2");
	ok(json_object_object_get_ex(b, "hops", &v) &&
	   json_object_get_int(v) == 1, "hops 1");
	ok(json_object_object_get_ex(b, "rtt_us", &v) &&
	   json_object_object_get_ex(v, "avg", &v) &&
	   json_object_get_double(v) == 3000.0, "rtt avg 3000 us");
	ok(json_object_object_get_ex(b, "observed", &v) &&
	   json_object_object_get_ex(v, "traffic_class", &v) &&
	   json_object_get_int(v) == 0x28, "observed traffic class");
	ok(json_object_object_get_ex(d, "member_state", &v) &&
	   strcmp(json_object_get_string(v), "silent") == 0, "D silent");
	ok(json_object_object_get_ex(d, "rtt_us", &v) && !v, "silent: rtt null");
	ok(json_object_object_get_ex(d, "hops", &v) && !v, "silent: hops null");
	ok(json_object_object_get_ex(d, "status", &v) &&
	   strcmp(json_object_get_string(v), "unreachable") == 0,
	   "silent: unreachable");
	ok(json_object_object_get_ex(g, "record", &v) &&
	   strcmp(json_object_get_string(v), "mcast_group") == 0,
	   "record mcast_group");
	ok(json_object_object_get_ex(g, "silent", &v) &&
	   json_object_get_int(v) == 1, "1 silent");
	ok(json_object_object_get_ex(g, "ok", &v) &&
	   !json_object_get_boolean(v), "not ok");
	ok(json_object_object_get_ex(g, "qkey", &v) &&
	   json_object_get_int64(v) == 0x1ab4e0be, "qkey");
	ok(json_object_object_get_ex(g, "summary", &v) &&
	   strcmp(json_object_get_string(v), "1 member answered, 1 listed "
					     "by the SA silent") == 0,
	   "summary");
	json_object_put(o);
}

static void test_text(void)
{
	const char *text = capture_out(OUT_TEXT, print_group);

	is_str(text,
	       "mcast:239.1.2.3 (group 239.1.2.3)\n"
	       "  member ::ffff:198.18.3.3 (host-c) qpn 0x000011  answered  2/2  "
	       "rtt 2000.000/3000.000/4000.000 us  hops 1  arrived "
	       "hop_limit 63 tclass 0x28\n"
	       "  member ::ffff:198.18.4.4  silent  0/2\n"
	       "  qkey 0x1ab4e0be  hop_limit 64  2 probes\n"
	       "  1 member answered, 1 listed by the SA silent\n",
	       "text rows");
	text = capture_out(OUT_TEXT, print_failed);
	is_str(text,
	       "mcast:239.1.2.3 (group 239.1.2.3)\n"
	       "  qkey 0x1ab4e0be  hop_limit 64\n"
	       "  error: no such group\n",
	       "a group that could not be probed");
}

int main(void)
{
	setup();
	test_json();
	test_text();
	test_json_lines();
	mcast_tally_free(&tally);
	return tap_done();
}
