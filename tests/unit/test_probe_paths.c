/* probe --paths all: the closing line that names the failing paths of a
 * destination, the per-path counts it is made from, where each DLID's
 * PathRecord sits in the expansion, and the --paths argument. */
#include <stdio.h>
#include <string.h>

#include "probe/probe_paths.h"
#include "probe/probe_round.h"
#include "trace/lid_paths_expand.h"
#include "tap.h"

static struct probe_path_count path(unsigned index, unsigned of,
				    uint16_t dlid, uint32_t sent,
				    uint32_t received)
{
	return (struct probe_path_count){
		.index = index, .of = of, .dlid = dlid, .probed = true,
		.sent = sent, .received = received,
	};
}

static void test_summary(void)
{
	struct probe_path_count p[4] = {
		path(1, 4, 0x10, 10, 10), path(2, 4, 0x11, 10, 10),
		path(3, 4, 0x12, 10, 0), path(4, 4, 0x13, 10, 10),
	};
	char line[256];

	p[2].dlid = 0x13;
	p[3].dlid = 0x14;
	probe_paths_summary(p, 4, line, sizeof(line));
	is_str(line, "DLID 0x13 (path 3 of 4) lost 10 of 10; paths 1, 2, 4 fine",
	       "one path lost: it is named, the others fine by number");
	p[0].received = 7;
	probe_paths_summary(p, 4, line, sizeof(line));
	is_str(line, "DLID 0x10 (path 1 of 4) lost 3 of 10; DLID 0x13 (path 3 "
	       "of 4) lost 10 of 10; paths 2, 4 fine", "two: both named, in order");
	p[1].received = 0;
	probe_paths_summary(p, 4, line, sizeof(line));
	ok(strstr(line, "; path 4 fine") != NULL, "one fine: 'path 4 fine': %s", line);
	p[3].received = 1;
	probe_paths_summary(p, 4, line, sizeof(line));
	ok(strstr(line, "; no path fine") != NULL &&
	   strstr(line, "fine") == strstr(line, "no path fine") + 8,
	   "none fine: said so: %s", line);
	for (int i = 0; i < 4; i++)
		p[i].received = p[i].sent;
	probe_paths_summary(p, 4, line, sizeof(line));
	is_str(line, "all 4 paths fine", "all fine");
	probe_paths_summary(p, 1, line, sizeof(line));
	is_str(line, "its one path fine", "LMC 0: one path");
	p[1].probed = false;
	probe_paths_summary(p, 4, line, sizeof(line));
	is_str(line, "DLID 0x11 (path 2 of 4) not probed; paths 1, 3, 4 fine",
	       "a path without an AH is not fine: not probed");
	p[1] = path(2, 4, 0x11, 0, 0);
	ok(!probe_path_fine(&p[1]), "nothing sent is not fine");
	p[1] = path(2, 8, 0x10, 10, 2);
	p[1].show_src_path_bits = true;
	p[1].src_path_bits = 1;
	probe_paths_summary(&p[1], 1, line, sizeof(line));
	is_str(line, "DLID 0x10 src_path_bits 1 (path 2 of 8) lost 8 of 10",
	       "our LMC > 0: the source path bits named");
	probe_paths_summary(p, 4, line, 20);
	is_int(strlen(line), 19, "a short buffer: cut, terminated");
}

/* Cells of one target, two sets a path: the counts add up per path. */
static void test_counts(void)
{
	struct probe_target t = { .ready = true };
	struct probe_cell cells[5] = { 0 };
	struct probe_session s = { .cells = cells, .cell_count = 5 };
	struct probe_path_count p[5];
	struct ibv_ah *made = (struct ibv_ah *)&t;
	struct probe_round_cell rounds[5] = { 0 };
	size_t n;

	for (int i = 0; i < 4; i++) {
		cells[i].target = &t;
		cells[i].ah = made;
		cells[i].dlid_path = (struct probe_dlid_path){
			.index = (unsigned)i / 2 + 1, .of = 2, .dlids = 2,
			.dlid = (uint16_t)(0x20 + i / 2),
		};
		cells[i].sent = 5;
		cells[i].received = i == 3 ? 1 : 5;
	}
	cells[4].target = &(struct probe_target){ .ready = true };
	ok(probe_paths_count(&s, 0, p, &n) && n == 2, "two paths of four cells");
	ok(p[0].sent == 10 && p[0].received == 10 && p[0].dlid == 0x20,
	   "path 1: both sets");
	ok(p[1].sent == 10 && p[1].received == 6 && p[1].index == 2 &&
	   !p[1].show_src_path_bits, "path 2: 4 lost; our LMC 0: no path bits");
	ok(!probe_paths_count(&s, 4, p, &n) && n == 0,
	   "a target not expanded has no paths");
	/* A continuous run's round: the round's own counts, not the run's. */
	for (int i = 0; i < 4; i++) {
		rounds[i].sent = 3;
		rounds[i].received = i == 2 ? 0 : 3;
	}
	ok(probe_paths_count_round(&s, rounds, 0, p, &n) && n == 2 &&
	   p[0].sent == 6 && p[0].received == 6 && p[1].sent == 6 &&
	   p[1].received == 3, "a round: path 1 fine, path 2 lost 3 of 6");
	ok(probe_paths_count_round(&s, NULL, 0, p, &n) && p[1].sent == 10 &&
	   p[1].received == 6, "no rounds: the run's counts");
	cells[2].ah = NULL;
	probe_paths_count(&s, 0, p, &n);
	ok(!p[1].probed, "a path whose AH failed in one set is not probed");
	ok(probe_dlid_path_shares_set(&cells[0].dlid_path),
	   "two DLIDs: the responder counts them together");
	cells[0].dlid_path.dlids = 1;
	ok(!probe_dlid_path_shares_set(&cells[0].dlid_path),
	   "one DLID (our path bits apart): its own count");
}

static void test_result_index(void)
{
	struct path_result r[3];
	struct lid_paths_expansion x = { .paths = r };
	struct lid_paths_dest d = { .dlid = 0x12, .base = 0x10, .count = 4,
				    .first_extra = 0 };

	ok(lid_paths_result(&x, &d, 0) == &r[0], "DLID 0x10: first");
	ok(lid_paths_result(&x, &d, 1) == &r[1], "DLID 0x11: second");
	ok(lid_paths_result(&x, &d, 2) == NULL, "DLID 0x12: the one asked: the caller's");
	ok(lid_paths_result(&x, &d, 3) == &r[2], "DLID 0x13: after it");
	ok(lid_paths_result(&x, &d, 4) == NULL, "out of the range: none");
}

static void test_parse(void)
{
	char err[128] = "";
	bool all = true;

	ok(lid_paths_parse("base", &all, err, sizeof(err)) == 0 && !all, "base");
	ok(lid_paths_parse("all", &all, err, sizeof(err)) == 0 && all, "all");
	ok(lid_paths_parse("ALL", &all, err, sizeof(err)) == -1, "ALL refused");
	is_str(err, "--paths takes base or all, not 'ALL'", "and said");
	ok(lid_paths_parse("", &all, err, sizeof(err)) == -1, "empty refused");
}

int main(void)
{
	test_summary();
	test_counts();
	test_result_index();
	test_parse();
	return tap_done();
}
