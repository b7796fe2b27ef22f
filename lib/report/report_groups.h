/* A fabric report folded into group x group blocks (report --groups):
 * the matrix's rows and columns sorted into the groups of a host groups
 * file (rack, leaf switch, rail), and per block the counts of its pairs,
 * the worst status and the median RTT. Pure logic over the matrix's
 * public API: report_matrix.h builds the cells, this only folds them. */
#ifndef IBAHPROBE_REPORT_GROUPS_H
#define IBAHPROBE_REPORT_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "fleet/host_groups.h"
#include "report/report_matrix.h"

/* The HTML page switches to the canvas-drawn block matrix by itself above
 * this many sources or destinations: the SVG has one element per cell. */
#define REPORT_GROUPS_AUTO_HOSTS 200

struct report_block {
	size_t pairs;		/* probed cells */
	size_t status[REPORT_STATUS_COUNT];
	size_t remarked;	/* cells whose traffic class was remarked */
	bool has_rtt;		/* some probed cell had an answer */
	double rtt_median_us;	/* median of the cells' medians */
};

struct report_group {
	char *name;
	/* A host the file does not name: a group of its own, named after
	 * the host (plan --groups does the same and calls them ungrouped). */
	bool ungrouped;
	size_t *rows, row_count;	/* indices into report.rows, ascending */
	size_t *cols, col_count;	/* indices into report.cols */
};

struct report_grouping {
	/* The file's groups that hold a node, in the file's order, then
	 * the ungrouped hosts in the matrix's order. */
	struct report_group *groups;
	size_t count;
	size_t ungrouped;	/* how many groups are ungrouped hosts */
	struct report_block *blocks;	/* count x count, row-major:
					 * source group x destination group */
};

/* Folds r (built) by hg; hg NULL: one group "all hosts" holding every
 * node (the large-fabric page without a groups file). A node belongs to
 * the group of its host (as a source), else of its address or of any text
 * probers gave for it. -1 with err set when memory runs out. */
int report_groups_build(struct report_grouping *g, const struct report *r,
			const struct host_groups *hg, char *err,
			size_t errlen);
const struct report_block *report_groups_block(const struct report_grouping *g,
					       size_t src, size_t dst);
/* The worst status of the block's probed pairs; -1 when none was probed. */
int report_block_worst(const struct report_block *b);
/* Pairs that are not reachable without loss. */
size_t report_block_failing(const struct report_block *b);
void report_groups_free(struct report_grouping *g);

#endif
