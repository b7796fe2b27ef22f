/* The flow labels a destination file asks for: plan writes the line
 * "# flow-label 1-21 (4 ECMP branches, ...)" into each host's file (its
 * FLOW LABELS and TRACE POLICY), and probe -f and trace -f take it as
 * their --flow-label when the command line gives none. */
#ifndef IBAHPROBE_DEST_FLOW_LABEL_H
#define IBAHPROBE_DEST_FLOW_LABEL_H

#include <stddef.h>

#include "base/parse.h"

/* The flow-label line of one file, once it has been seen. */
struct dest_flow_label {
	char *text;		/* LIST as written; NULL: no such line */
	struct value_list values;
	char *where;		/* "FILE:LINE" of its first line */
};

/* Takes line number lineno of the file label (as read, comment and
 * all) into fl when it is a flow-label line: a whole-line comment whose
 * first word is "flow-label" ("#flow-label" too; other comments, and a
 * destination with a comment after it, are not). Its LIST (the next word, any text after it being the reason plan
 * gives) must be a list of 20-bit flow labels as --flow-label takes it,
 * and a line of the same file seen before must name the same labels.
 * Returns 0, or -1 with err ("FILE:LINE: ..."). */
int dest_flow_label_take(struct dest_flow_label *fl, const char *line,
			 const char *label, unsigned long lineno, char *err,
			 size_t errlen);

void dest_flow_label_free(struct dest_flow_label *fl);

#endif
