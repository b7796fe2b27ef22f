/* Host groups files: parsing, validation and lookup by host name. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "fleet/host_groups.h"
#include "base/line_reader.h"
#include "base/text_escape.h"

/* What is read before group ids are known. */
struct raw_line {
	char *host;
	char *group;
	unsigned long line;
};

struct raw {
	size_t count, capacity;
	struct raw_line *lines;
};

static void raw_free(struct raw *raw)
{
	for (size_t i = 0; i < raw->count; i++) {
		free(raw->lines[i].host);
		free(raw->lines[i].group);
	}
	free(raw->lines);
	memset(raw, 0, sizeof(*raw));
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next word of *p: its start and length; *p moves past it. */
static size_t next_word(char **p, char **start)
{
	char *s = *p;
	size_t len = 0;

	while (is_blank(*s))
		s++;
	*start = s;
	while (s[len] && !is_blank(s[len]))
		len++;
	*p = s + len;
	return len;
}

static int check_name(const char *word, size_t len, const char *what,
		      char *msg, size_t msglen)
{
	char shown[TEXT_ESCAPE_SIZE(48)];

	text_escape(word, len < 48 ? len : 48, shown, sizeof(shown));
	if (len > HOST_GROUPS_NAME_MAX) {
		snprintf(msg, msglen, "a %s name of %zu bytes (at most %d)",
			 what, len, HOST_GROUPS_NAME_MAX);
		return -1;
	}
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)word[i] < 0x20 || word[i] == 0x7f) {
			snprintf(msg, msglen, "a control character in %s '%s'",
				 what, shown);
			return -1;
		}
	return 0;
}

/* One line without its comment: nothing, or HOST GROUP. */
static int parse_line(struct raw *raw, char *text, unsigned long line,
		      char *msg, size_t msglen)
{
	char *p = text, *host, *group, *extra;
	size_t host_len, group_len;
	char shown[TEXT_ESCAPE_SIZE(48)];

	host_len = next_word(&p, &host);
	if (!host_len)
		return 0;
	group_len = next_word(&p, &group);
	text_escape(host, host_len < 48 ? host_len : 48, shown, sizeof(shown));
	if (!group_len) {
		snprintf(msg, msglen, "'%s' has no group; a line is HOST "
			 "GROUP", shown);
		return -1;
	}
	if (next_word(&p, &extra)) {
		snprintf(msg, msglen, "a third word after '%s'; a line is "
			 "HOST GROUP", shown);
		return -1;
	}
	if (check_name(host, host_len, "host", msg, msglen) ||
	    check_name(group, group_len, "group", msg, msglen))
		return -1;
	if (raw->count == raw->capacity) {
		size_t capacity = raw->capacity ? 2 * raw->capacity : 64;
		struct raw_line *grown = reallocarray(raw->lines, capacity,
						      sizeof(*grown));

		if (!grown)
			goto oom;
		raw->lines = grown;
		raw->capacity = capacity;
	}
	raw->lines[raw->count] = (struct raw_line){
		strndup(host, host_len), strndup(group, group_len), line };
	if (!raw->lines[raw->count].host || !raw->lines[raw->count].group) {
		free(raw->lines[raw->count].host);
		free(raw->lines[raw->count].group);
		goto oom;
	}
	raw->count++;
	return 0;
oom:
	snprintf(msg, msglen, "out of memory");
	return -1;
}

static int by_host_then_line(const void *a, const void *b, void *arg)
{
	const struct raw_line *lines = arg;
	const struct raw_line *x = &lines[*(const uint32_t *)a];
	const struct raw_line *y = &lines[*(const uint32_t *)b];
	int c = strcmp(x->host, y->host);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int by_group_then_line(const void *a, const void *b, void *arg)
{
	const struct raw_line *lines = arg;
	const struct raw_line *x = &lines[*(const uint32_t *)a];
	const struct raw_line *y = &lines[*(const uint32_t *)b];
	int c = strcmp(x->group, y->group);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* The first line (in file order) that repeats a host, with the line before
 * it that names the same host. sorted: by host, then line. */
static int find_repeat(const struct raw *raw, const uint32_t *sorted,
		       const char *label, char *err, size_t errlen)
{
	const struct raw_line *first = NULL, *again = NULL;
	char shown[TEXT_ESCAPE_SIZE(48)];

	for (size_t i = 1; i < raw->count; i++) {
		const struct raw_line *a = &raw->lines[sorted[i - 1]];
		const struct raw_line *b = &raw->lines[sorted[i]];

		if (strcmp(a->host, b->host) == 0 &&
		    (!again || b->line < again->line)) {
			again = b;
			first = a;
		}
	}
	if (!again)
		return 0;
	text_escape(again->host, strnlen(again->host, 48), shown,
		    sizeof(shown));
	snprintf(err, errlen, "%s:%lu: host '%s' is listed twice (first on "
		 "line %lu)", label, again->line, shown, first->line);
	return -1;
}

/* A run of lines naming one group: where it starts in the sorted
 * indices, how long it is, and its first line's index. */
struct group_run {
	uint32_t first, start, len;
};

static int by_first_line(const void *a, const void *b)
{
	const struct group_run *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

/* Group ids in the order of each group's first line, so a file's order
 * is kept (rack01 before rack02 when that is how it is written). */
static int groups_number(struct host_groups *hg, const struct raw *raw,
			 uint32_t *sorted)
{
	struct group_run *runs;
	size_t distinct = 0;

	qsort_r(sorted, raw->count, sizeof(*sorted), by_group_then_line,
		raw->lines);
	runs = calloc(raw->count ? raw->count : 1, sizeof(*runs));
	if (!runs)
		return -1;
	for (size_t i = 0; i < raw->count; i++) {
		if (i == 0 || strcmp(raw->lines[sorted[i - 1]].group,
				     raw->lines[sorted[i]].group) != 0)
			runs[distinct++] = (struct group_run){ sorted[i],
							       (uint32_t)i, 0 };
		runs[distinct - 1].len++;
	}
	/* Raw indices follow the file's lines. */
	qsort(runs, distinct, sizeof(*runs), by_first_line);
	hg->group_names = calloc(distinct ? distinct : 1, sizeof(char *));
	if (!hg->group_names) {
		free(runs);
		return -1;
	}
	for (size_t id = 0; id < distinct; id++) {
		hg->group_names[id] = strdup(raw->lines[runs[id].first].group);
		if (!hg->group_names[id]) {
			free(runs);
			return -1;
		}
		hg->group_count++;
		for (uint32_t k = 0; k < runs[id].len; k++)
			hg->entries[sorted[runs[id].start + k]].group =
				(uint32_t)id;
	}
	free(runs);
	return 0;
}

/* Validated lines become entries: hosts taken over from raw. */
static int finish(struct host_groups *hg, struct raw *raw, const char *label,
		  char *err, size_t errlen)
{
	uint32_t *sorted = malloc((raw->count ? raw->count : 1) *
				  sizeof(*sorted));
	int rc = -1;

	hg->entries = calloc(raw->count ? raw->count : 1,
			     sizeof(*hg->entries));
	if (!sorted || !hg->entries) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < raw->count; i++)
		sorted[i] = (uint32_t)i;
	qsort_r(sorted, raw->count, sizeof(*sorted), by_host_then_line,
		raw->lines);
	if (find_repeat(raw, sorted, label, err, errlen))
		goto out;
	for (size_t i = 0; i < raw->count; i++) {
		hg->entries[i].host = raw->lines[i].host;
		hg->entries[i].line = raw->lines[i].line;
		raw->lines[i].host = NULL;
	}
	hg->count = raw->count;
	/* Lookups bsearch the host order: keep it (lines are distinct by
	 * host, so the order by host alone). */
	hg->by_host = sorted;
	sorted = malloc((raw->count ? raw->count : 1) * sizeof(*sorted));
	if (!sorted) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < raw->count; i++)
		sorted[i] = (uint32_t)i;
	if (groups_number(hg, raw, sorted)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	rc = 0;
out:
	free(sorted);
	return rc;
}

int host_groups_read(struct host_groups *hg, FILE *in, const char *label,
		     char *err, size_t errlen)
{
	struct line_reader lines;
	struct raw raw = { 0 };
	char msg[DIAG_MSG_MAX];
	int rc;

	memset(hg, 0, sizeof(*hg));
	if (line_reader_init(&lines, in, label, HOST_GROUPS_LINE_MAX,
			     HOST_GROUPS_MAX_LINES)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while ((rc = line_reader_next(&lines, err, errlen)) > 0) {
		char *hash = strchr(lines.buf, '#');

		if (hash)
			*hash = '\0';
		if (parse_line(&raw, lines.buf, lines.line, msg, sizeof(msg))) {
			snprintf(err, errlen, "%s:%lu: %s", label, lines.line,
				 msg);
			rc = -1;
			break;
		}
	}
	line_reader_free(&lines);
	if (rc == 0 && raw.count > UINT32_MAX - 1) {
		snprintf(err, errlen, "%s: too many lines", label);
		rc = -1;
	}
	if (rc == 0)
		rc = finish(hg, &raw, label, err, errlen);
	raw_free(&raw);
	if (rc)
		host_groups_free(hg);
	return rc < 0 ? -1 : 0;
}

int host_groups_load(struct host_groups *hg, const char *path, char *err,
		     size_t errlen)
{
	bool std = strcmp(path, "-") == 0;
	FILE *in = std ? stdin : fopen(path, "r");
	char shown[TEXT_ESCAPE_SIZE(128)];
	int rc;

	memset(hg, 0, sizeof(*hg));
	text_escape(path, strnlen(path, 128), shown, sizeof(shown));
	if (!in) {
		snprintf(err, errlen, "cannot open groups file '%s': %s", shown,
			 strerror(errno));
		return -1;
	}
	rc = host_groups_read(hg, in, std ? "<stdin>" : shown, err, errlen);
	if (!std)
		fclose(in);
	return rc;
}

int host_groups_from_pairs(struct host_groups *hg, const char *const *hosts,
			   const char *const *groups, size_t n,
			   const char *label, char *err, size_t errlen)
{
	struct raw raw = { 0 };
	int rc = -1;

	memset(hg, 0, sizeof(*hg));
	if (n > UINT32_MAX - 1) {
		snprintf(err, errlen, "%s: too many hosts", label);
		return -1;
	}
	raw.lines = calloc(n ? n : 1, sizeof(*raw.lines));
	if (!raw.lines)
		goto oom;
	raw.capacity = n;
	for (size_t i = 0; i < n; i++) {
		raw.lines[i] = (struct raw_line){ strdup(hosts[i]),
						  strdup(groups[i]), i + 1 };
		raw.count++;
		if (!raw.lines[i].host || !raw.lines[i].group)
			goto oom;
	}
	rc = finish(hg, &raw, label, err, errlen);
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	raw_free(&raw);
	if (rc)
		host_groups_free(hg);
	return rc;
}

long host_groups_entry(const struct host_groups *hg, const char *host)
{
	size_t lo = 0, hi = hg->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t e = hg->by_host[mid];
		int c = strcmp(host, hg->entries[e].host);

		if (c == 0)
			return e;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

long host_groups_find(const struct host_groups *hg, const char *host)
{
	long e = host_groups_entry(hg, host);

	return e < 0 ? -1L : (long)hg->entries[e].group;
}

void host_groups_free(struct host_groups *hg)
{
	for (size_t i = 0; i < hg->count; i++)
		free(hg->entries[i].host);
	free(hg->entries);
	for (size_t i = 0; i < hg->group_count; i++)
		free(hg->group_names[i]);
	free(hg->group_names);
	free(hg->by_host);
	memset(hg, 0, sizeof(*hg));
}
