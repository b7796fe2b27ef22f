/* Where the traffic class changed (lib/trace/tclass_locate.c): between the
 * last point that saw the value sent and the first that saw another;
 * silent points widen the interval; DSCP and ECN apart. */
#include "tap.h"
#include "trace/tclass_locate.h"

#define SAW(v) { .known = true, .tclass = (v) }
#define SILENT { .known = false }

static void test_dscp(void)
{
	struct tclass_change c;
	const struct tclass_seen kept[] = { SAW(0x28), SAW(0x28), SAW(0x28) };
	const struct tclass_seen last[] = { SAW(0), SAW(0), SAW(0x30) };
	const struct tclass_seen first[] = { SAW(0x50), SAW(0x50), SAW(0x30) };
	const struct tclass_seen gap[] = { SAW(0), SILENT, SILENT, SAW(0x30) };
	const struct tclass_seen dark[] = { SILENT, SILENT, SAW(0x30) };
	const struct tclass_seen none[] = { SILENT, SILENT };

	tclass_locate(0x28, kept, 3, TCLASS_MASK_DSCP, &c);
	ok(!c.changed && c.after == -1 && c.before == -1, "kept: no change");
	tclass_locate(0, last, 3, TCLASS_MASK_DSCP, &c);
	ok(c.changed && c.after == 1 && c.before == 2,
	   "changed after point 1, seen at point 2");
	ok(c.sent == 0 && c.seen == 0x30, "from 0x00 to 0x30");
	tclass_locate(0, first, 3, TCLASS_MASK_DSCP, &c);
	ok(c.changed && c.after == -1 && c.before == 0,
	   "the first router saw it changed: between the source and it");
	is_int(c.seen, 0x50, "the first value seen other than sent");
	tclass_locate(0, gap, 4, TCLASS_MASK_DSCP, &c);
	ok(c.changed && c.after == 0 && c.before == 3,
	   "silent points widen the interval");
	tclass_locate(0, dark, 3, TCLASS_MASK_DSCP, &c);
	ok(c.changed && c.after == -1 && c.before == 2,
	   "nothing known before the responder: anywhere up to it");
	tclass_locate(0, none, 2, TCLASS_MASK_DSCP, &c);
	ok(!c.changed, "nothing known: no change claimed");
	tclass_locate(0, last, 0, TCLASS_MASK_DSCP, &c);
	ok(!c.changed, "no points");
}

static void test_ecn(void)
{
	struct tclass_change c;
	/* ECT(0) sent (0x02); the second router saw CE (0x03). */
	const struct tclass_seen ce[] = { SAW(0x02), SAW(0x03), SAW(0x03) };
	/* DSCP rewritten, ECN kept. */
	const struct tclass_seen dscp[] = { SAW(0x02), SAW(0x32) };

	tclass_locate(0x02, ce, 3, TCLASS_MASK_DSCP, &c);
	ok(!c.changed, "a CE mark is no DSCP change");
	tclass_locate(0x02, ce, 3, TCLASS_MASK_ECN, &c);
	ok(c.changed && c.after == 0 && c.before == 1 && c.seen == 0x03,
	   "CE marked between points 0 and 1");
	tclass_locate(0x02, dscp, 2, TCLASS_MASK_ECN, &c);
	ok(!c.changed, "a DSCP rewrite keeping ECN is no ECN change");
	tclass_locate(0x02, dscp, 2, TCLASS_MASK_DSCP, &c);
	ok(c.changed && c.seen == 0x30, "the DSCP rewrite, ECN masked off");
}

int main(void)
{
	test_dscp();
	test_ecn();
	return tap_done();
}
