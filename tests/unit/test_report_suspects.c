/* Unit tests of report's suspects on constructed matrices: a dead
 * destination, a dead source, a dead host (said once, as the host), a
 * destination whose failures a dead host partly explains, thin noise and
 * too few pairs (no suspect), ties (shared rank, order by name), the
 * failure kinds counted apart, and with --groups a rack cut off (named
 * once, as the group) but not a rack with one working member. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/host_groups.h"
#include "report/report_groups.h"
#include "report/report_input.h"
#include "report/report_matrix.h"
#include "report/report_suspects.h"
#include "tap.h"

/* A matrix as text: one string per source hI (I from 1), one character
 * per destination hJ: 'o' reachable, 'p' partial loss, 'u' unreachable,
 * 'e' error, '.' not probed. A row of "" is a host that sent nothing (a
 * destination only). */
static void cell_line(FILE *f, int src, int dst, char kind)
{
	const char *status = kind == 'o' ? "reachable"
			   : kind == 'p' ? "partial_loss"
			   : kind == 'u' ? "unreachable" : "error";
	unsigned received = kind == 'o' ? 10 : kind == 'p' ? 6 : 0;

	if (kind == 'e') {
		fprintf(f, "{\"dest\":\"h%d\",\"source\":{\"host\":\"h%d\","
			"\"device\":\"mlx5_0\",\"port_num\":1,\"lid\":0,"
			"\"sgid\":\"::ffff:10.0.0.%d\"},\"params\":"
			"{\"hop_limit\":64,\"traffic_class\":0,\"flow_label\":0,"
			"\"sl\":0},\"status\":\"error\",\"error\":\"no route\","
			"\"ah_attr\":{\"is_global\":1,\"grh\":{\"dgid\":"
			"\"::ffff:10.0.0.%d\",\"flow_label\":0,\"sgid_index\":1,"
			"\"hop_limit\":64,\"traffic_class\":0}}}\n",
			dst, src, src, dst);
		return;
	}
	fprintf(f, "{\"dest\":\"h%d\",\"source\":{\"host\":\"h%d\","
		"\"device\":\"mlx5_0\",\"port_num\":1,\"lid\":0,"
		"\"sgid\":\"::ffff:10.0.0.%d\"},\"params\":{\"hop_limit\":64,"
		"\"traffic_class\":0,\"flow_label\":0,\"sl\":0},"
		"\"status\":\"%s\",\"sent\":10,\"received\":%u,\"lost\":%u,"
		"\"late\":0,\"rtt_us\":%s,\"hops\":0,\"verdicts\":[\"%s\"],"
		"\"findings\":[],\"ah_attr\":{\"is_global\":1,\"grh\":"
		"{\"dgid\":\"::ffff:10.0.0.%d\",\"flow_label\":0,"
		"\"sgid_index\":1,\"hop_limit\":64,\"traffic_class\":0}}}\n",
		dst, src, src, status, received, 10 - received,
		received ? "{\"min\":5,\"median\":5,\"p99\":5,\"max\":5}"
			 : "null", status, dst);
}

static void load(struct report *r, const char *const *rows, size_t n)
{
	char *text = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; rows[i][j]; j++)
			if (rows[i][j] != '.')
				cell_line(f, (int)i + 1, (int)j + 1,
					  rows[i][j]);
	fclose(f);
	report_init(r);
	if (report_read_buffer(r, "in.jsonl", text, len, NULL, err,
			       sizeof(err)) ||
	    report_build(r, err, sizeof(err)))
		fprintf(stderr, "cannot build the report: %s\n", err), exit(1);
	free(text);
}

static const char *listed(const struct report_suspects *s, char *buf,
			  size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < s->count && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%zu %s %s %zu",
					 k ? "; " : "", s->items[k].rank,
					 report_suspect_kind_name(s->items[k].kind),
					 s->items[k].name, s->items[k].explained);
	return buf;
}

/* The suspects of a matrix as one line: "rank kind name explained" for
 * each, "; " between them. */
static const char *find(const char *const *rows, size_t n,
			struct report_suspects *s, struct report *r,
			char *buf, size_t len)
{
	load(r, rows, n);
	if (report_suspects_find(s, r, NULL))
		fprintf(stderr, "out of memory\n"), exit(1);
	return listed(s, buf, len);
}

/* The same with --groups: "HOST GROUP" lines. */
static const char *find_grouped(const char *const *rows, size_t n,
				const char *groups, struct report_suspects *s,
				struct report *r, char *buf, size_t len)
{
	struct host_groups hg = { 0 };
	struct report_grouping g;
	char err[256] = "";
	FILE *in = fmemopen((void *)groups, strlen(groups), "r");

	load(r, rows, n);
	if (host_groups_read(&hg, in, "g.txt", err, sizeof(err)) ||
	    report_groups_build(&g, r, &hg, err, sizeof(err)))
		fprintf(stderr, "groups: %s\n", err), exit(1);
	fclose(in);
	if (report_suspects_find(s, r, &g))
		fprintf(stderr, "out of memory\n"), exit(1);
	/* The names point into g: copy the line before it goes. */
	listed(s, buf, len);
	for (size_t k = 0; k < s->count; k++)
		s->items[k].name = NULL;
	report_groups_free(&g);
	host_groups_free(&hg);
	return buf;
}

/* Nine hosts in racks A (h1-h3), B (h4-h6) and C (h7-h9): 'u' between the
 * racks in cut (a bitmask of A=1, B=2, C=4) and the others, 'o' else;
 * dead: a host whose pairs all fail. */
static void racks(char m[9][10], int cut, int dead)
{
	for (int i = 0; i < 9; i++) {
		for (int j = 0; j < 9; j++) {
			bool ci = cut >> (i / 3) & 1, cj = cut >> (j / 3) & 1;

			m[i][j] = i == j ? '.'
				: ci != cj || i + 1 == dead || j + 1 == dead
				? 'u' : 'o';
		}
		m[i][9] = '\0';
	}
}

#define RACKS "h1 A\nh2 A\nh3 A\nh4 B\nh5 B\nh6 B\nh7 C\nh8 C\nh9 C\n"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void axis_is(const struct report_suspect_axis *a, size_t probed,
		    size_t partial, size_t unreachable, size_t error,
		    size_t elsewhere, const char *why)
{
	ok(a->probed == probed && a->failing == partial + unreachable + error &&
	   a->status[REPORT_REACHABLE] == 0 &&
	   a->status[REPORT_PARTIAL] == partial &&
	   a->status[REPORT_UNREACHABLE] == unreachable &&
	   a->status[REPORT_ERROR] == error && a->elsewhere == elsewhere,
	   "%s: probed %zu, failing %zu (%zu partial, %zu unreachable, %zu "
	   "error), %zu elsewhere", why, a->probed, a->failing,
	   a->status[REPORT_PARTIAL], a->status[REPORT_UNREACHABLE],
	   a->status[REPORT_ERROR], a->elsewhere);
}

int main(void)
{
	struct report r;
	struct report_suspects s;
	char got[512];

	{
		/* h4's responder is down: every source fails to it, and
		 * its own probes work. */
		static const char *const m[] = {
			".oou", "o.ou", "oo.p", "ooo.",
		};

		is_str(find(m, N(m), &s, &r, got, sizeof(got)),
		       "1 destination h4 3", "a dead destination, alone");
		ok(s.count == 1 && s.items[0].as_destination &&
		   !s.items[0].as_source, "a destination: column evidence only");
		axis_is(&s.items[0].destination, 3, 1, 2, 0, 0,
			"h4 as destination");
		ok(s.failing == 3 && s.explained == 3, "3 of 3 failing pairs "
		   "explained (%zu of %zu)", s.explained, s.failing);
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		/* h2 cannot send: all its probes fail (errors and
		 * unreachable), it answers everyone. */
		static const char *const m[] = {
			".ooo", "e.uu", "oo.o", "ooo.",
		};

		is_str(find(m, N(m), &s, &r, got, sizeof(got)),
		       "1 source h2 3", "a dead source, alone");
		axis_is(&s.items[0].source, 3, 0, 2, 1, 0, "h2 as source");
		ok(!s.items[0].as_destination, "a source: row evidence only");
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		/* h3's port is down: nothing to it, nothing from it. Said
		 * once, as the host, and no other row or column is named
		 * for the pair it shares with h3. */
		static const char *const m[] = {
			".ouo", "o.uo", "uu.u", "oou.",
		};

		is_str(find(m, N(m), &s, &r, got, sizeof(got)),
		       "1 host h3 6", "a dead host: both axes, once");
		ok(s.items[0].as_destination && s.items[0].as_source,
		   "a host: both axes are its evidence");
		axis_is(&s.items[0].destination, 3, 0, 3, 0, 0, "h3's column");
		axis_is(&s.items[0].source, 3, 0, 3, 0, 0, "h3's row");
		ok(s.failing == 6 && s.explained == 6, "every failing pair "
		   "explained");
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		/* A dead host h1 and a dead destination h4: h4's failure
		 * from h1 is h1's, h4 still fails from both others. */
		static const char *const m[] = {
			".uuu", "u.ou", "uo.u", "uoo.",
		};

		is_str(find(m, N(m), &s, &r, got, sizeof(got)),
		       "1 host h1 6; 2 destination h4 2",
		       "the weaker suspect explains what the stronger does not");
		axis_is(&s.items[1].destination, 3, 0, 3, 0, 1,
			"h4: 3 failing, 1 explained by h1");
		ok(s.items[1].other_count == 1 && s.items[1].others[0].suspect == 0 &&
		   s.items[1].others[0].pairs == 1, "h4's other failure is "
		   "credited to h1");
		ok(s.items[0].other_count == 0, "the first suspect owes "
		   "nothing to another");
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		/* Two dead destinations: h1 and h2 fail to both, 2 of their
		 * 3 pairs each, but the two explain those; neither source
		 * is a suspect. Equal evidence: equal rank, by name. */
		static const char *const m[] = {
			".ouu", "o.uu", "oo.u", "oou.",
		};

		is_str(find(m, N(m), &s, &r, got, sizeof(got)),
		       "1 destination h3 3; 1 destination h4 3",
		       "two dead destinations; their sources are none");
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		/* h4 fails from all three, h3 from two of three (h4 reaches
		 * it): both columns, h4 first. h1 fails to both, but once
		 * h4 explains h1 -> h4 one pair of h1's is left: none. */
		static const char *const m[] = {
			".ouu", "o.uu", "oo.u", "ooo.",
		};

		is_str(find(m, N(m), &s, &r, got, sizeof(got)),
		       "1 destination h4 3; 2 destination h3 2",
		       "a stronger and a weaker destination, ranked");
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		/* Ties: h3 and h4 both dead destinations of three
		 * sources that do not probe each other: equal rank, by
		 * name. h1..h2 never answer as destinations. */
		static const char *const m[] = {
			"..uu", "..uu", "", "", "..uu",
		};

		is_str(find(m, N(m), &s, &r, got, sizeof(got)),
		       "1 destination h3 3; 1 destination h4 3",
		       "a tie shares the rank, by name");
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		/* Thin noise: six hosts, a failing pair here and there, no
		 * node with half its pairs failing. */
		static const char *const m[] = {
			".ooupo", "o.oooo", "oo.ooe", "ooo.uo", "pooo.o",
			"oouoo.",
		};

		is_str(find(m, N(m), &s, &r, got, sizeof(got)), "",
		       "thin noise: no suspect");
		ok(s.failing == 6 && s.explained == 0, "6 failing pairs, none "
		   "explained (%zu, %zu)", s.failing, s.explained);
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		/* Every pair fails, but each node has two: too few to say
		 * which end. */
		static const char *const m[] = { ".uu", "u.u", "uu." };

		is_str(find(m, N(m), &s, &r, got, sizeof(got)), "",
		       "two pairs per node are too few");
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		/* Half of h4's pairs fail (2 of 4): a suspect at the
		 * threshold; 1 of 4 is not. */
		static const char *const m[] = {
			".ooou", "o.oou", "oo.oo", "ooo.o", "oooo.",
		};

		is_str(find(m, N(m), &s, &r, got, sizeof(got)),
		       "1 destination h5 2", "half failing is a suspect");
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		static const char *const m[] = {
			".ooou", "o.ooo", "oo.oo", "ooo.o", "oooo.",
		};

		is_str(find(m, N(m), &s, &r, got, sizeof(got)), "",
		       "one failing pair is the pair's, not a suspect");
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		static const char *const m[] = { ".oo", "o.o", "oo." };

		is_str(find(m, N(m), &s, &r, got, sizeof(got)), "",
		       "a healthy fabric has no suspect");
		ok(s.failing == 0, "and no failing pair");
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		/* Rack C cut off: its hosts reach each other, no one else.
		 * Without groups, three hosts; with them, the rack once. */
		char m[9][10];
		const char *rows[9];

		racks(m, 4, 0);
		for (int i = 0; i < 9; i++)
			rows[i] = m[i];
		is_str(find(rows, 9, &s, &r, got, sizeof(got)),
		       "1 host h7 12; 1 host h8 12; 1 host h9 12",
		       "rack C cut off, without groups: its three hosts");
		report_suspects_free(&s);
		report_free(&r);
		is_str(find_grouped(rows, 9, RACKS, &s, &r, got, sizeof(got)),
		       "1 group C 36", "with groups: the rack, once");
		ok(s.count == 1 && s.items[0].member_count == 3 &&
		   s.items[0].member_kinds[0] == REPORT_SUSPECT_HOST &&
		   strcmp(s.items[0].members[2]->source_name, "h9") == 0,
		   "its members: three hosts, h7 to h9");
		axis_is(&s.items[0].destination, 24, 0, 18, 0, 0,
			"C's columns: 24 pairs, 18 from outside failing");
		axis_is(&s.items[0].source, 24, 0, 18, 0, 0, "C's rows");
		ok(s.failing == 36 && s.explained == 36, "every failing pair "
		   "explained once (%zu of %zu)", s.explained, s.failing);
		report_suspects_free(&s);
		report_free(&r);

		/* One dead host in B: B has working members, no group. */
		racks(m, 0, 5);
		is_str(find_grouped(rows, 9, RACKS, &s, &r, got, sizeof(got)),
		       "1 host h5 16", "one dead host of a rack is the host");
		report_suspects_free(&s);
		report_free(&r);

		/* One group of all hosts: nothing outside it to fail to. */
		racks(m, 4, 0);
		is_str(find_grouped(rows, 9, "h1 X\nh2 X\nh3 X\nh4 X\nh5 X\n"
				    "h6 X\nh7 X\nh8 X\nh9 X\n", &s, &r, got,
				    sizeof(got)),
		       "1 host h7 12; 1 host h8 12; 1 host h9 12",
		       "a single group is the fabric, never a suspect");
		report_suspects_free(&s);
		report_free(&r);

		/* Rack C cut off and h2 dead: the rack first (36 pairs),
		 * then h2 with what the rack does not explain. */
		racks(m, 4, 2);
		is_str(find_grouped(rows, 9, RACKS, &s, &r, got, sizeof(got)),
		       "1 group C 36; 2 host h2 10",
		       "a rack and a host, each with its own pairs");
		ok(s.count == 2 && s.items[1].other_count == 1 &&
		   s.items[1].others[0].suspect == 0 &&
		   s.items[1].others[0].pairs == 6,
		   "h2's 6 pairs with rack C are the rack's");
		report_suspects_free(&s);
		report_free(&r);
	}
	{
		/* h3 fails to 2 of its 4 destinations, both in its own
		 * group and both down (h4 a dead destination, h5 a dead
		 * host): toward the outside h3 works, so the group is no
		 * suspect, though each member would be one on its own. */
		static const char *const m[] = {
			".poue", "o.ouu", "oo.uu", "ooo.u", "eeee.",
		};

		is_str(find_grouped(m, N(m), "h1 A\nh2 A\nh3 B\nh4 B\nh5 B\n",
				    &s, &r, got, sizeof(got)),
		       "1 host h5 8; 2 destination h4 3",
		       "members failing only toward each other make no group");
		report_suspects_free(&s);
		report_free(&r);
	}
	return tap_done();
}
