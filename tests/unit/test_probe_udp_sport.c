/* probe's udp_sport (lib/probe/probe_text.c probe_udp_sport, printed by
 * lib/probe/probe_print.c): the UDP source port a flow label stands for on a
 * RoCE v2 source GID, null on RoCE v1, InfiniBand and for flow label 0;
 * the JSON result carries it under params (parsed back with json-c), and
 * the -v text line names whether the provider sends it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "out/output.h"
#include "probe/probe_print.h"
#include "probe/probe_text.h"
#include "capture.h"
#include "tap.h"

static int fake_ah;
static struct ibv_qp fake_qp = { .qp_num = 17 };

struct fixture {
	struct probe_session s;
	struct gid_info gids[3];
	struct dest dest;
	struct probe_target target;
	struct probe_cell cell;
};

/* A RoCE port: GID 0 RoCE v1, GID 1 RoCE v2 (IPv6), GID 2 RoCE v2
 * (IPv4-mapped); one cell from GID sgid_index with flow label fl. */
static void fixture_init(struct fixture *f, uint8_t sgid_index, uint32_t fl)
{
	memset(f, 0, sizeof(*f));
	f->gids[0] = (struct gid_info){ .index = 0, .kind = GID_KIND_ROCE_V1 };
	f->gids[1] = (struct gid_info){ .index = 1, .kind = GID_KIND_ROCE_V2 };
	f->gids[2] = (struct gid_info){ .index = 2, .kind = GID_KIND_ROCE_V2 };
	f->gids[1].gid.raw[0] = 0x20;
	f->gids[2].gid.raw[10] = f->gids[2].gid.raw[11] = 0xff;
	f->s.facts.link_layer = LINK_LAYER_ETHERNET;
	f->s.facts.port_num = 1;
	f->s.facts.gids = f->gids;
	f->s.facts.gid_count = 3;
	f->s.facts.gid_table_known = true;
	f->s.facts.gid_table_len = 3;
	f->s.settings.count = 1;
	f->s.settings.gid_index = sgid_index;
	f->s.provider = PROVIDER_MLX5;
	f->s.device = "mlx5_0";
	f->s.cells = &f->cell;
	f->s.cell_count = 1;
	f->s.ep.qp = &fake_qp;
	f->dest.text = "d";
	f->target.dest = &f->dest;
	f->target.ready = true;
	f->cell.target = &f->target;
	f->cell.ah = (struct ibv_ah *)&fake_ah;
	f->cell.asked.flow_label = fl;
	f->cell.asked.hop_limit = 64;
	f->cell.attr.is_global = 1;
	f->cell.attr.grh.sgid_index = sgid_index;
	f->cell.attr.grh.flow_label = fl;
	f->cell.attr.grh.hop_limit = 64;
	f->cell.sent = 1;
	f->cell.verdict.hops = -1;
	f->cell.verdict.hop_limit_sent = -1;
}

static void test_rule(void)
{
	struct fixture f;

	fixture_init(&f, 1, 0x12345);
	is_int(probe_udp_sport(&f.s, &f.cell), 0xe341,
	       "RoCE v2, flow label 0x12345: port 0xe341");
	fixture_init(&f, 2, 0x4000);
	is_int(probe_udp_sport(&f.s, &f.cell), 0xc001,
	       "an IPv4-mapped RoCE v2 GID: the port all the same (UDP)");
	fixture_init(&f, 1, 0);
	is_int(probe_udp_sport(&f.s, &f.cell), -1,
	       "flow label 0: none (mlx5 and hns pick a random port)");
	fixture_init(&f, 0, 0x12345);
	is_int(probe_udp_sport(&f.s, &f.cell), -1, "RoCE v1: no UDP, none");
	fixture_init(&f, 5, 0x12345);
	is_int(probe_udp_sport(&f.s, &f.cell), -1,
	       "a GID index not in the table: none");
	fixture_init(&f, 1, 0x12345);
	f.cell.attr.is_global = 0;
	is_int(probe_udp_sport(&f.s, &f.cell), -1, "no GRH: none");
	fixture_init(&f, 1, 0x12345);
	f.s.facts.link_layer = LINK_LAYER_IB;
	f.gids[1].kind = GID_KIND_IB;
	is_int(probe_udp_sport(&f.s, &f.cell), -1, "InfiniBand: none");
}

static void test_text(void)
{
	struct fixture f;
	char buf[256];

	fixture_init(&f, 1, 0x12345);
	probe_text_udp_sport(&f.s, &f.cell, buf, sizeof(buf));
	is_str(buf, "    UDP source port 0xe341 (58177) for flow label 0x12345: "
		    "the port this provider sends\n", "-v line on mlx5");
	f.s.provider = PROVIDER_RXE;
	probe_text_udp_sport(&f.s, &f.cell, buf, sizeof(buf));
	is_str(buf, "    UDP source port 0xdf94 (57236): rxe's own for QP 0x11 "
		    "(flow label 0x12345 asks 0xe341)\n",
	       "-v line on rxe: the QP's port, the flow label's aside");
	fixture_init(&f, 1, 0);
	f.s.provider = PROVIDER_RXE;
	probe_text_udp_sport(&f.s, &f.cell, buf, sizeof(buf));
	is_str(buf, "    UDP source port 0xdf94 (57236): rxe's own for QP "
		    "0x11\n", "rxe, flow label 0: the QP's port all the same");
	fixture_init(&f, 1, 0x12345);
	f.s.provider = PROVIDER_IRDMA;
	probe_text_udp_sport(&f.s, &f.cell, buf, sizeof(buf));
	ok(strstr(buf, "not known") != NULL, "-v line on irdma: not known");
	fixture_init(&f, 0, 0x12345);
	strcpy(buf, "junk");
	probe_text_udp_sport(&f.s, &f.cell, buf, sizeof(buf));
	is_str(buf, "", "RoCE v1: no -v line");
}

/* The fixture record_of prints (capture_out takes no argument). */
static const struct fixture *printed;

static void print_record(void)
{
	struct probe_run run;

	memset(&run, 0, sizeof(run));
	run_info_start(&run.info);
	probe_cell_print(&run, &printed->s, &printed->cell,
			 &printed->cell.verdict, 1, false, NULL);
}

/* probe_cell_print's JSON record for f, parsed; NULL when not JSON. */
static json_object *record_of(const struct fixture *f)
{
	printed = f;
	return json_tokener_parse(capture_out(OUT_JSON, print_record));
}

/* params.KEY of the record: its value, -1 for null, -2 absent. */
static long param_of(json_object *rec, const char *key)
{
	json_object *params, *port;

	if (!rec || !json_object_object_get_ex(rec, "params", &params) ||
	    !json_object_object_get_ex(params, key, &port))
		return -2;
	if (!port)
		return -1;
	return (long)json_object_get_int64(port);
}

static void test_json(void)
{
	struct fixture f;
	json_object *rec;

	fixture_init(&f, 1, 0x12345);
	rec = record_of(&f);
	ok(rec != NULL, "the result record is JSON");
	is_int(param_of(rec, "udp_sport"), 0xe341, "params.udp_sport is 58177 (0xe341)");
	is_int(param_of(rec, "wire_udp_sport"), 0xe341,
	       "mlx5: params.wire_udp_sport is the flow label's");
	json_object_put(rec);
	fixture_init(&f, 1, 0x12345);
	f.s.provider = PROVIDER_RXE;
	rec = record_of(&f);
	is_int(param_of(rec, "wire_udp_sport"), 0xdf94,
	       "rxe: params.wire_udp_sport is the QP's");
	json_object_put(rec);
	fixture_init(&f, 1, 0x12345);
	f.s.provider = PROVIDER_BNXT_RE;
	rec = record_of(&f);
	is_int(param_of(rec, "wire_udp_sport"), -1,
	       "bnxt_re: params.wire_udp_sport is null");
	json_object_put(rec);
	fixture_init(&f, 0, 0x12345);
	rec = record_of(&f);
	is_int(param_of(rec, "udp_sport"), -1, "RoCE v1: params.udp_sport is null");
	json_object_put(rec);
	fixture_init(&f, 1, 0x12345);
	f.s.facts.link_layer = LINK_LAYER_IB;
	rec = record_of(&f);
	is_int(param_of(rec, "udp_sport"), -1, "InfiniBand: params.udp_sport is null");
	json_object_put(rec);
}

int main(void)
{
	test_rule();
	test_text();
	test_json();
	return tap_done();
}
