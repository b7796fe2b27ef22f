/* The flow-label line of a destination file: see dest_flow_label.h. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dest_flow_label.h"
#include "base/diag.h"

#define FLOW_LABEL_WORD "flow-label"
/* Every 20-bit label at most: the commands apply their own limits. */
#define FLOW_LABEL_ALL (0xfffffu + 1)

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Past "# flow-label" and the blanks after it; NULL when line is not a
 * flow-label line. */
static const char *after_word(const char *line)
{
	size_t n = strlen(FLOW_LABEL_WORD);
	const char *p = skip_blanks(line);

	if (*p != '#')
		return NULL;
	p = skip_blanks(p + 1);
	if (strncmp(p, FLOW_LABEL_WORD, n) != 0 ||
	    (p[n] && !isspace((unsigned char)p[n])))
		return NULL;
	return skip_blanks(p + n);
}

static bool same_values(const struct value_list *a,
			const struct value_list *b)
{
	return a->count == b->count &&
	       (a->count == 0 ||
		memcmp(a->values, b->values,
		       a->count * sizeof(*a->values)) == 0);
}

int dest_flow_label_take(struct dest_flow_label *fl, const char *line,
			 const char *label, unsigned long lineno, char *err,
			 size_t errlen)
{
	const char *list = after_word(line);
	struct value_list values;
	char msg[DIAG_MSG_MAX];
	char *text;
	size_t len;

	if (!list)
		return 0;
	len = strcspn(list, " \t\r");
	if (len == 0) {
		snprintf(err, errlen, "%s:%lu: the flow-label line names no "
			 "labels (plan writes it as '# flow-label 1-21 "
			 "(...)')", label, lineno);
		return -1;
	}
	text = strndup(list, len);
	if (!text) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (parse_value_list(text, "20-bit flow label", 0, 0xfffff,
			     FLOW_LABEL_ALL, &values, msg, sizeof(msg))) {
		snprintf(err, errlen, "%s:%lu: flow-label line: %s", label,
			 lineno, msg);
		free(text);
		return -1;
	}
	if (fl->text) {
		bool same = same_values(&fl->values, &values);

		if (!same)
			snprintf(err, errlen, "%s:%lu: a second flow-label "
				 "line names %s, %s's named %s: one file, one "
				 "list of flow labels", label, lineno, text,
				 fl->where, fl->text);
		value_list_free(&values);
		free(text);
		return same ? 0 : -1;
	}
	if (asprintf(&fl->where, "%s:%lu", label, lineno) < 0) {
		fl->where = NULL;
		value_list_free(&values);
		free(text);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fl->text = text;
	fl->values = values;
	return 0;
}

void dest_flow_label_free(struct dest_flow_label *fl)
{
	free(fl->text);
	free(fl->where);
	value_list_free(&fl->values);
	*fl = (struct dest_flow_label){ 0 };
}
