/* Unit tests of serve's lines (lib/peer/responder_print.h): the summary's
 * text names every reason a request was dropped, as JSON's "dropped"
 * object does, and JSON keeps a count for each reason; the ready line
 * keeps its facts on lines under 100 columns. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "out/output.h"
#include "peer/responder.h"
#include "peer/responder_print.h"
#include "capture.h"
#include "tap.h"

static struct responder responder;
static struct responder_info info;

static void print_summary(void)
{
	responder_summary_print(&responder, "SIGTERM");
}

static void print_ready(void)
{
	static const struct responder_timing timing = {
		.busy_poll = true, .hw_stamps = false,
		.why_not = "the device reports no completion timestamps "
			   "(completion_timestamp_mask 0)",
	};

	responder_ready_print(&info, "[fe80::1234:5678:9abc:def0%eth1]:18515",
			      true, "/run/ibahprobe/serve-mlx5_bond_0.pid",
			      &timing, NULL, 0);
}

static void print_ready_groups(void)
{
	static const struct responder_group groups[] = {
		{ .group = "239.1.2.3", .mgid.raw = { [10] = 0xff, 0xff, 239,
						      1, 2, 3 },
		  .qkey = 0x1ab4e0be, .join = "igmp", .netdev = "eth1" },
		{ .group = "ipoib", .mgid.raw = { 0xff, 0x12, 0x40, 0x1b, 0xff,
						  0xff, [12] = 0xff, 0xff,
						  0xff, 0xff },
		  .mlid = 0xc000, .qkey = 0x0b1b, .join = "already_member" },
	};

	responder_ready_print(&info, NULL, false, NULL, NULL, groups, 2);
}

/* serve --mcast: each group on a line of its own, and in JSON. */
static void test_ready_groups(void)
{
	json_object *o, *v, *g;
	const char *text = capture_out(OUT_TEXT, print_ready_groups);

	ok(strstr(text, "\n  mcast 239.1.2.3 mgid ::ffff:239.1.2.3 mlid "
		  "0x0000 qkey 0x1ab4e0be join igmp netdev eth1\n") != NULL,
	   "text: a RoCE group, its GID, Q_Key and netdev");
	ok(strstr(text, "\n  mcast ipoib mgid ff12:401b:ffff::ffff:ffff mlid "
		  "0xc000 qkey 0x00000b1b join already_member\n") != NULL,
	   "text: an IB group, its MLID and how it was joined");
	o = json_tokener_parse(capture_out(OUT_JSONL, print_ready_groups));
	ok(o && json_object_object_get_ex(o, "mcast", &v) &&
	   json_object_array_length(v) == 2, "JSON: mcast lists both");
	g = o ? json_object_array_get_idx(v, 1) : NULL;
	ok(g && json_object_object_get_ex(g, "mgid", &v) &&
	   strcmp(json_object_get_string(v), "ff12:401b:ffff::ffff:ffff") == 0 &&
	   json_object_object_get_ex(g, "mlid", &v) &&
	   json_object_get_int(v) == 0xc000 &&
	   json_object_object_get_ex(g, "qkey", &v) &&
	   json_object_get_int(v) == 0x0b1b &&
	   json_object_object_get_ex(g, "join", &v) &&
	   strcmp(json_object_get_string(v), "already_member") == 0 &&
	   json_object_object_get_ex(g, "netdev", &v) && v == NULL,
	   "JSON: mgid, mlid, qkey, join, netdev null on IB");
	json_object_put(o);
}

static char *summary(enum out_format format)
{
	return capture_out(format, print_summary);
}

static void test_ready(void)
{
	const char *text, *line;
	size_t widest = 0;
	json_object *o, *v;

	snprintf(info.device, sizeof(info.device), "mlx5_bond_0");
	info.port_num = 1;
	info.qpn = 16777215;
	info.qkey = 0x1ab4e0be;
	snprintf(info.link_layer, sizeof(info.link_layer), "Ethernet");
	info.gid_count = 2;
	info.gids[0].index = 3;
	memset(info.gids[0].gid.raw, 0xab, 16);
	snprintf(info.gids[0].type, sizeof(info.gids[0].type), "RoCE v2");
	info.gids[1].index = 1;
	info.gids[1].gid.raw[0] = 0xfe;
	info.gids[1].gid.raw[1] = 0x80;
	snprintf(info.gids[1].type, sizeof(info.gids[1].type), "RoCE v2");
	text = capture_out(OUT_TEXT, print_ready);
	for (line = text; *line;) {
		size_t n = strcspn(line, "\n");

		widest = n > widest ? n : widest;
		line += n + (line[n] == '\n');
	}
	ok(widest < 100, "every line of the ready text under 100 columns "
	   "(widest %zu)", widest);
	ok(strncmp(text, "ready: device mlx5_bond_0 port 1 lid 0 qpn 16777215 "
		   "qkey 0x1ab4e0be link_layer Ethernet\n  rendezvous "
		   "[fe80::1234:5678:9abc:def0%eth1]:18515 registered yes\n"
		   "  pidfile /run/ibahprobe/serve-mlx5_bond_0.pid\n  timing: "
		   "busy poll, completion timestamps no\n  gid 3 ",
		   strlen("ready: device mlx5_bond_0 port 1 lid 0 qpn 16777215 "
			  "qkey 0x1ab4e0be link_layer Ethernet\n  rendezvous "
			  "[fe80::1234:5678:9abc:def0%eth1]:18515 registered "
			  "yes\n  pidfile /run/ibahprobe/serve-mlx5_bond_0.pid"
			  "\n  timing: busy poll, completion timestamps no"
			  "\n  gid 3 ")) == 0,
	   "the port's facts, where to find it, its pidfile, how it waits "
	   "and stamps, the GIDs");
	o = json_tokener_parse(capture_out(OUT_JSONL, print_ready));
	ok(o && json_object_object_get_ex(o, "rendezvous", &v) &&
	   strcmp(json_object_get_string(v),
		  "[fe80::1234:5678:9abc:def0%eth1]:18515") == 0 &&
	   json_object_object_get_ex(o, "registered", &v) &&
	   json_object_get_boolean(v) &&
	   json_object_object_get_ex(o, "gids", &v) &&
	   json_object_array_length(v) == 2, "JSON: the same keys as ever");
	ok(json_object_object_get_ex(o, "mcast", &v) &&
	   json_object_array_length(v) == 0, "JSON: no groups, mcast []");
	ok(json_object_object_get_ex(o, "wait", &v) &&
	   strcmp(json_object_get_string(v), "busy_poll") == 0 &&
	   json_object_object_get_ex(o, "completion_timestamps", &v) &&
	   !json_object_get_boolean(v) &&
	   json_object_object_get_ex(o, "completion_timestamps_note", &v) &&
	   strstr(json_object_get_string(v), "completion_timestamp_mask 0"),
	   "JSON: the wait, no completion timestamps and why");
	json_object_put(o);
}

int main(void)
{
	json_object *o, *dropped, *v;

	test_ready_groups();

	responder.answered = 40;
	responder.reverse.created = 3;
	is_str(summary(OUT_TEXT),
	       "summary: stopped by SIGTERM, answered 40, dropped 0, reverse "
	       "AHs created 3\n", "nothing dropped: no reasons");

	responder.dropped[DROP_REVERSE_AH] = 10;
	responder.dropped[DROP_RATE_LIMIT] = 2;
	responder.dropped[DROP_TRUNCATED] = 1;
	is_str(summary(OUT_TEXT),
	       "summary: stopped by SIGTERM, answered 40, dropped 13 "
	       "(truncated 1, reverse_ah 10, rate_limited 2), reverse AHs "
	       "created 3\n", "each reason named, with its count");

	responder.dropped[DROP_TRUNCATED] = 0;
	responder.dropped[DROP_RATE_LIMIT] = 0;
	is_str(summary(OUT_TEXT),
	       "summary: stopped by SIGTERM, answered 40, dropped 10 "
	       "(reverse_ah 10), reverse AHs created 3\n", "one reason");

	responder.dropped[DROP_RATE_LIMIT] = 2;
	o = json_tokener_parse(summary(OUT_JSONL));
	ok(o && json_object_object_get_ex(o, "dropped", &dropped) &&
	   json_object_object_length(dropped) == DROP_COUNT,
	   "JSON: a count for every reason");
	ok(json_object_object_get_ex(dropped, "reverse_ah", &v) &&
	   json_object_get_int(v) == 10 &&
	   json_object_object_get_ex(dropped, "rate_limited", &v) &&
	   json_object_get_int(v) == 2 &&
	   json_object_object_get_ex(dropped, "truncated", &v) &&
	   json_object_get_int(v) == 0, "named as the text names them");
	ok(json_object_object_get_ex(o, "dropped_total", &v) &&
	   json_object_get_int(v) == 12, "and their total");
	ok(json_object_object_get_ex(o, "reverse_ahs_remade", &v) &&
	   json_object_get_int(v) == 0 &&
	   json_object_object_get_ex(o, "rq_empty_seen", &v) &&
	   json_object_object_get_ex(o, "rq_drop_counter", &v) && v == NULL,
	   "JSON: AHs made again, the empty queue, no counter (null)");
	json_object_put(o);

	responder.ahs_refreshed = 2;
	responder.rq_drops.rq_empty = 5;
	responder.rq_drops.counter_name = "out_of_buffer";
	responder.dropped[DROP_REVERSE_AH] = 0;
	responder.dropped[DROP_RATE_LIMIT] = 0;
	is_str(summary(OUT_TEXT),
	       "summary: stopped by SIGTERM, answered 40, dropped 0, reverse "
	       "AHs created 3, reverse AHs made again 2, receive queue found "
	       "empty 5 times\n", "text: only what happened");
	o = json_tokener_parse(summary(OUT_JSONL));
	ok(o && json_object_object_get_ex(o, "rq_drop_counter", &v) &&
	   strcmp(json_object_get_string(v), "out_of_buffer") == 0 &&
	   json_object_object_get_ex(o, "reverse_ahs_remade", &v) &&
	   json_object_get_int(v) == 2, "JSON: the counter's name, 2 remade");
	json_object_put(o);
	test_ready();
	return tap_done();
}
