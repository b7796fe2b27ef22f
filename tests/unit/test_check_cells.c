/* Unit tests of which checklist entries share one probe cell: the same
 * destination and parameters do (the responder would count their probes
 * as one set), any difference in what is sent or to whom does not; the
 * shared cell sends the most any of them asks. */
#include "probe/check_cells.h"
#include "probe/checklist.h"
#include "base/diag.h"
#include "tap.h"

static int read_list(struct checklist *l, const char *const *lines, size_t n)
{
	char err[DIAG_MSG_MAX * 2];

	for (size_t i = 0; i < n; i++)
		if (checklist_add_line(l, lines[i], (unsigned)i + 1, err,
				       sizeof(err))) {
			printf("# cannot parse '%s': %s\n", lines[i], err);
			return -1;
		}
	return 0;
}

static bool alike(const char *a, const char *b)
{
	const char *lines[] = { a, b };
	struct checklist l = { 0 };
	bool same = false;

	if (read_list(&l, lines, 2) == 0 && l.count == 2)
		same = check_entries_probe_alike(&l.entries[0], &l.entries[1]);
	checklist_free(&l);
	return same;
}

int main(void)
{
	ok(alike("c:18517 count=200 reachable", "c:18517 count=200 loss<=5%"),
	   "one destination on two lines, nothing else sent: one cell");
	ok(alike("c:18517 loss<=5%", "c:18517 count=9 hops=1"),
	   "counts may differ: still one set at the responder");
	ok(alike("c:18517 loss<=5%", "c:18517 hop_limit=64 hops=1"),
	   "hop_limit=64 is what is sent without it");
	ok(alike("198.18.4.4:18517 loss<=5%", "198.18.4.4:18517 hops=1"),
	   "one address on two lines");
	ok(!alike("c:18517 loss<=5%", "c:18518 loss<=5%"),
	   "another rendezvous port: another responder");
	ok(!alike("c:18517 loss<=5%", "d:18517 loss<=5%"),
	   "another host");
	ok(!alike("c:18517 loss<=5%", "c:18517 tclass=0x28 loss<=5%"),
	   "another traffic class: another set");
	ok(!alike("c:18517 loss<=5%", "c:18517 flow_label=0x1 loss<=5%"),
	   "another flow label: another set");
	ok(!alike("c:18517 loss<=5%", "c:18517 hop_limit=2 loss<=5%"),
	   "another hop limit: another set");
	ok(!alike("lid:3 loss<=5%", "lid:3 sl=0 loss<=5%"),
	   "an SL given against the path's: not the same set");
	ok(!alike("lid:3 sl=1 loss<=5%", "lid:3 sl=2 loss<=5%"),
	   "two SLs: two sets");

	{
		const char *lines[] = {
			"c:18517 reachable",
			"c:18517 count=200 loss<=5%",
			"c:18517 tclass=0x28 count=900 reachable",
			"c:18517 count=50 hops=1",
			"lid:3 path_mtu>=1024",
		};
		struct checklist l = { 0 };

		if (read_list(&l, lines, 5) == 0) {
			is_int(check_cell_count(&l, 0, 5), 200,
			       "the shared cell sends the most its entries "
			       "ask, not another set's");
			is_int(check_cell_count(&l, 2, 5), 900,
			       "an entry alone sends its own count");
		} else {
			ok(false, "the list parses");
		}
		checklist_free(&l);
	}
	return tap_done();
}
