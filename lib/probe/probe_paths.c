/* --paths all in the probe engine, and its closing lines; see
 * probe_paths.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/output.h"
#include "probe/probe_path_trace.h"
#include "probe/probe_paths.h"
#include "probe/probe_round.h"
#include "sa/path_resolve.h"
#include "trace/lid_paths.h"
#include "trace/lid_paths_expand.h"

static bool cell_wanted(const struct probe_session *s,
			const struct probe_cell *c)
{
	return s->settings.paths_all || c->dlid_path.wanted;
}

/* A target's cells stand together: index i starts the run of its own. */
static bool starts_run(const struct probe_cell *cells, size_t i)
{
	return i == 0 || cells[i - 1].target != cells[i].target;
}

static bool run_wanted(const struct probe_session *s, size_t first)
{
	const struct probe_target *t = s->cells[first].target;

	if (!t->ready || !t->has_path || t->local_port)
		return false;
	for (size_t k = first; k < s->cell_count && s->cells[k].target == t;
	     k++)
		if (cell_wanted(s, &s->cells[k]))
			return true;
	return false;
}

/* The SA's ranges and PathRecords of the targets starting at firsts[]. */
static int ask_ranges(struct probe_session *s, const size_t *firsts,
		      struct lid_paths_dest *ranges, size_t n,
		      struct lid_paths_expansion *x, char *err, size_t len)
{
	struct path_constraints want;
	struct path_session ps;
	struct trace_store store;
	struct trace_fetch_stats stats;
	int rc;

	for (size_t i = 0; i < n; i++)
		ranges[i].dlid = s->cells[firsts[i]].target->path.dlid;
	/* As the targets' own paths were asked (ib_resolve_paths). */
	probe_session_path_wants(s, s->settings.has_pkey ? s->settings.pkey : 0,
				 &want);
	if (path_session_open(&ps, s->device, s->facts.port_num, err, len) !=
	    SA_CLIENT_OK)
		return -1;
	trace_store_init(&store);
	rc = lid_paths_expand(&ps, &want, &store, ranges, n,
			      &(struct lid_paths_query){
				      .window = PATH_DEFAULT_WINDOW,
				      .retries = PATH_DEFAULT_RETRIES,
				      .timeout_ms = s->settings.timeout_ms },
			      x, &stats, err, len);
	trace_store_free(&store);
	path_session_close(&ps);
	return rc;
}

/* The path p (DLID base + p / ours, path bits p % ours) of cell c. */
static void fill_path(struct probe_cell *c, const struct lid_paths_dest *r,
		      const struct lid_paths_expansion *x, unsigned p,
		      unsigned ours, size_t origin)
{
	const struct probe_target *t = c->target;
	unsigned d = p / ours;
	const struct path_result *res = lid_paths_result(x, r, d);
	struct probe_dlid_path *dp = &c->dlid_path;
	uint16_t mask = (uint16_t)(ours - 1);

	dp->index = p + 1;
	dp->of = r->count * ours;
	dp->dlids = r->count;
	dp->dlid = (uint16_t)(r->base + d);
	dp->src_path_bits = (uint8_t)(p % ours);
	dp->origin = origin;
	snprintf(dp->lmc_unknown, sizeof(dp->lmc_unknown), "%s",
		 r->lmc_unknown);
	if (!res) {
		dp->has_path = true;
		dp->record = t->path;
	} else if (res->status == PATH_OK) {
		dp->has_path = true;
		dp->record = res->record;
	} else {
		dp->has_path = false;
		snprintf(dp->error, sizeof(dp->error), "DLID %u: %.200s",
			 dp->dlid, res->error);
		return;
	}
	dp->record.slid = (uint16_t)((dp->record.slid & ~mask) |
				     dp->src_path_bits);
}

void probe_session_expand_paths(struct probe_session *s)
{
	struct lid_paths_expansion x = { 0 };
	struct lid_paths_dest *ranges = NULL;
	struct probe_cell *cells = NULL;
	size_t *firsts = calloc(s->cell_count ? s->cell_count : 1,
				sizeof(*firsts));
	size_t n = 0, total = 0, k = 0, r = 0;
	unsigned ours = 1u << (s->facts.lmc & 7);
	char err[DIAG_MSG_MAX * 2] = "out of memory";
	bool failed = true;

	if (!firsts)
		goto out;
	for (size_t i = 0; i < s->cell_count; i++)
		if (starts_run(s->cells, i) && run_wanted(s, i))
			firsts[n++] = i;
	if (n == 0) {
		failed = false;
		goto out;
	}
	ranges = calloc(n, sizeof(*ranges));
	if (!ranges || ask_ranges(s, firsts, ranges, n, &x, err, sizeof(err)))
		goto out;
	for (size_t i = 0, t = 0; i < s->cell_count; i++) {
		if (t < n && i == firsts[t])
			t++;
		/* Inside the run of target t - 1, or of one not expanded. */
		total += t > 0 && s->cells[i].target ==
					  s->cells[firsts[t - 1]].target &&
				 cell_wanted(s, &s->cells[i])
				 ? ranges[t - 1].count * ours : 1;
	}
	cells = calloc(total, sizeof(*cells));
	if (!cells)
		goto out;
	for (size_t i = 0; i < s->cell_count;) {
		const struct probe_target *t = s->cells[i].target;
		size_t end = i;

		while (end < s->cell_count && s->cells[end].target == t)
			end++;
		if (r < n && firsts[r] == i) {
			/* Cells not asked for first, once; then path by
			 * path, each with every set of the target. */
			for (size_t c = i; c < end; c++)
				if (!cell_wanted(s, &s->cells[c])) {
					cells[k] = s->cells[c];
					cells[k++].dlid_path.origin = c;
				}
			for (unsigned p = 0; p < ranges[r].count * ours; p++)
				for (size_t c = i; c < end; c++) {
					if (!cell_wanted(s, &s->cells[c]))
						continue;
					cells[k] = s->cells[c];
					fill_path(&cells[k++], &ranges[r], &x,
						  p, ours, c);
				}
			r++;
		} else {
			for (size_t c = i; c < end; c++) {
				cells[k] = s->cells[c];
				cells[k++].dlid_path.origin = c;
			}
		}
		i = end;
	}
	free(s->cells);
	s->cells = cells;
	s->cell_count = k;
	failed = false;
out:
	/* Without its paths a target asked for all of them is not probed:
	 * its base path alone would pass for all. */
	for (size_t t = 0; failed && t < n; t++) {
		struct probe_target *target = s->cells[firsts[t]].target;

		target->ready = false;
		snprintf(target->error, sizeof(target->error),
			 "its LMC paths (--paths all): %s", err);
	}
	lid_paths_expansion_free(&x);
	free(ranges);
	free(firsts);
}

bool probe_dlid_path_shares_set(const struct probe_dlid_path *p)
{
	return p->of && p->dlids > 1;
}

bool probe_path_fine(const struct probe_path_count *p)
{
	return p->probed && p->sent > 0 && p->received >= p->sent;
}

static int path_words(const struct probe_path_count *p, char *buf,
		      size_t len)
{
	char bits[32] = "";

	if (p->show_src_path_bits)
		snprintf(bits, sizeof(bits), " src_path_bits %u",
			 p->src_path_bits);
	if (!p->probed)
		return snprintf(buf, len, "DLID 0x%x%s (path %u of %u) not "
				"probed", p->dlid, bits, p->index, p->of);
	if (p->sent == 0)
		return snprintf(buf, len, "DLID 0x%x%s (path %u of %u) sent "
				"nothing", p->dlid, bits, p->index, p->of);
	return snprintf(buf, len, "DLID 0x%x%s (path %u of %u) lost %u of %u",
			p->dlid, bits, p->index, p->of,
			p->received < p->sent ? p->sent - p->received : 0,
			p->sent);
}

/* Appends with snprintf's rules: a full buffer stays terminated. */
static void append(char *buf, size_t len, size_t *used, const char *text)
{
	if (*used >= len)
		return;
	*used += (size_t)snprintf(buf + *used, len - *used, "%s", text);
}

void probe_paths_summary(const struct probe_path_count *paths, size_t n,
			 char *buf, size_t len)
{
	size_t used = 0, broken = 0, fine = 0;
	char words[128];

	if (len == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (probe_path_fine(&paths[i])) {
			fine++;
			continue;
		}
		if (broken++)
			append(buf, len, &used, "; ");
		path_words(&paths[i], words, sizeof(words));
		append(buf, len, &used, words);
	}
	if (!broken) {
		snprintf(words, sizeof(words), n == 1 ? "its one path fine"
			 : "all %zu paths fine", n);
		append(buf, len, &used, words);
		return;
	}
	if (!fine) {
		append(buf, len, &used, n == 1 ? "" : "; no path fine");
		return;
	}
	append(buf, len, &used, fine == 1 ? "; path " : "; paths ");
	for (size_t i = 0, shown = 0; i < n; i++) {
		if (!probe_path_fine(&paths[i]))
			continue;
		snprintf(words, sizeof(words), "%s%u", shown++ ? ", " : "",
			 paths[i].index);
		append(buf, len, &used, words);
	}
	append(buf, len, &used, " fine");
}

bool probe_paths_count(const struct probe_session *s, size_t first,
		       struct probe_path_count *paths, size_t *n)
{
	return probe_paths_count_round(s, NULL, first, paths, n);
}

bool probe_paths_count_round(const struct probe_session *s,
			     const struct probe_round_cell *rounds,
			     size_t first, struct probe_path_count *paths,
			     size_t *n)
{
	const struct probe_target *t = s->cells[first].target;

	*n = 0;
	for (size_t k = first; k < s->cell_count && s->cells[k].target == t;
	     k++) {
		const struct probe_cell *c = &s->cells[k];
		const struct probe_dlid_path *dp = &c->dlid_path;
		struct probe_path_count *p;

		if (!dp->of)
			continue;
		if (*n == 0 || paths[*n - 1].index != dp->index) {
			p = &paths[(*n)++];
			*p = (struct probe_path_count){
				.index = dp->index, .of = dp->of,
				.dlid = dp->dlid,
				.show_src_path_bits = dp->of > dp->dlids,
				.src_path_bits = dp->src_path_bits,
				.probed = true,
			};
		}
		p = &paths[*n - 1];
		p->probed = p->probed && c->ah && t->ready;
		p->sent += rounds ? rounds[k].sent : c->sent;
		p->received += rounds ? rounds[k].received : c->received;
	}
	return *n > 0;
}

/* The closing lines (rounds NULL: the run's counts, and the traced
 * paths' walks) or a round's. */
static void print_summaries(const struct probe_session *s,
			    const struct probe_round_cell *rounds)
{
	struct probe_path_count *paths;
	char line[2048];
	size_t n;

	paths = calloc(s->cell_count ? s->cell_count : 1, sizeof(*paths));
	if (!paths)
		return;
	for (size_t i = 0; i < s->cell_count; i++) {
		const struct probe_target *t = s->cells[i].target;

		if (!starts_run(s->cells, i) || t->local_port ||
		    !probe_paths_count_round(s, rounds, i, paths, &n))
			continue;
		probe_paths_summary(paths, n, line, sizeof(line));
		out_text("paths of %s%s: %s\n", t->dest->text,
			 rounds ? " this round" : "", line);
		if (rounds)
			continue;
		/* Each traced path once, at its first cell. */
		for (size_t k = i; k < s->cell_count &&
		     s->cells[k].target == t; k++) {
			const struct probe_dlid_path *dp = &s->cells[k].dlid_path;

			if (dp->trace && (k == i || s->cells[k - 1].dlid_path.index
					  != dp->index))
				probe_path_trace_print_text(dp);
		}
	}
	free(paths);
}

void probe_paths_print_summaries(const struct probe_session *s)
{
	print_summaries(s, NULL);
}

void probe_paths_print_round_summaries(const struct probe_session *s,
				       const struct probe_round_cell *rounds)
{
	print_summaries(s, rounds);
}

void probe_dlid_path_print(const struct probe_cell *c, const char *lead)
{
	const struct probe_dlid_path *dp = &c->dlid_path;
	char first[32];

	if (!dp->of)
		return;
	snprintf(first, sizeof(first), "%spath %%" PRIu64, lead ? lead : "");
	out_open_object("dlid_path");
	out_uint("index", lead ? first : NULL, dp->index);
	out_uint("of", lead ? " of %" PRIu64 : NULL, dp->of);
	out_uint("dlid", lead ? ": DLID 0x%" PRIx64 : NULL, dp->dlid);
	out_uint("src_path_bits", lead ? " src_path_bits %" PRIu64 : NULL,
		 dp->src_path_bits);
	probe_path_trace_print_json(dp);
	out_close_object();
}
