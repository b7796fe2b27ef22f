/* The walk of each path of probe --paths all that lost probes; see
 * probe_path_trace.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text_escape.h"
#include "out/output.h"
#include "out/text_layout.h"
#include "probe/probe_path_trace.h"
#include "sa/path_resolve.h"

/* Text lines of a walk: as wide as trace's. */
#define PATH_TRACE_WIDTH 99

bool probe_path_needs_trace(const struct probe_path_count *p)
{
	return p->probed && p->sent > 0 && !probe_path_fine(p);
}

uint16_t probe_path_slid(const struct probe_dlid_path *dp, uint16_t our_lid,
			 uint8_t our_lmc)
{
	uint16_t mask = (uint16_t)((1u << (our_lmc & 7)) - 1);

	if (dp->has_path && dp->record.slid)
		return dp->record.slid;
	return (uint16_t)((our_lid & ~mask) | (dp->src_path_bits & mask));
}

/* Points the cells of path index of the run at first to job. */
static void point_cells(struct probe_session *s, size_t first, unsigned index,
			const struct trace_job *job)
{
	const struct probe_target *t = s->cells[first].target;

	for (size_t k = first; k < s->cell_count && s->cells[k].target == t;
	     k++)
		if (s->cells[k].dlid_path.of &&
		    s->cells[k].dlid_path.index == index)
			s->cells[k].dlid_path.trace = job;
}

/* The first cell of path index of the run at first. */
static const struct probe_cell *path_cell(const struct probe_session *s,
					  size_t first, unsigned index)
{
	const struct probe_target *t = s->cells[first].target;

	for (size_t k = first; k < s->cell_count && s->cells[k].target == t;
	     k++)
		if (s->cells[k].dlid_path.of &&
		    s->cells[k].dlid_path.index == index)
			return &s->cells[k];
	return NULL;
}

int probe_path_traces_plan(struct probe_session *s,
			   struct probe_path_traces *t)
{
	struct probe_path_count *paths;
	size_t n;

	memset(t, 0, sizeof(*t));
	paths = calloc(s->cell_count ? s->cell_count : 1, sizeof(*paths));
	t->jobs = calloc(s->cell_count ? s->cell_count : 1, sizeof(*t->jobs));
	if (!paths || !t->jobs) {
		free(paths);
		free(t->jobs);
		t->jobs = NULL;
		return -1;
	}
	for (size_t i = 0; i < s->cell_count; i++) {
		const struct probe_cell *c = &s->cells[i];

		if ((i && s->cells[i - 1].target == c->target) ||
		    c->target->local_port || !probe_paths_count(s, i, paths, &n))
			continue;
		for (size_t p = 0; p < n; p++) {
			const struct probe_cell *pc;
			struct trace_job *job;

			if (!probe_path_needs_trace(&paths[p]))
				continue;
			pc = path_cell(s, i, paths[p].index);
			if (!pc)
				continue;
			job = &t->jobs[t->count++];
			job->slid = probe_path_slid(&pc->dlid_path,
						    s->facts.lid,
						    s->facts.lmc);
			job->dlid = paths[p].dlid;
			job->src_port = s->facts.port_num;
			job->active = true;
			point_cells(s, i, paths[p].index, job);
		}
	}
	free(paths);
	return 0;
}

int probe_path_traces_run(struct probe_session *s, struct probe_path_traces *t,
			  char *err, size_t len)
{
	struct path_session ps;
	struct trace_store store;
	struct trace_fetch_stats stats;
	int rc;

	if (t->count == 0)
		return 0;
	if (path_session_open(&ps, s->device, s->facts.port_num, err, len) !=
	    SA_CLIENT_OK)
		return -1;
	trace_store_init(&store);
	rc = ib_trace_fetch_all(&ps.sa, t->jobs, t->count, &store,
				PATH_DEFAULT_WINDOW, s->settings.timeout_ms,
				PATH_DEFAULT_RETRIES, &stats, err, len);
	trace_store_free(&store);
	path_session_close(&ps);
	return rc;
}

void probe_path_traces_free(struct probe_session *s,
			    struct probe_path_traces *t)
{
	for (size_t i = 0; i < s->cell_count; i++)
		s->cells[i].dlid_path.trace = NULL;
	free(t->jobs);
	memset(t, 0, sizeof(*t));
}

/* "H11 (LID 4) port 1", "S1 (LID 2) 3>8", "H31 (LID 12) port 1": the
 * port each hop was left by (the source), entered and left by, or
 * entered by (the end, or a hop left by no port). */
static void hop_words(const struct trace_result *r, size_t i, char *buf,
		      size_t len)
{
	const struct trace_hop *h = &r->hops[i];
	unsigned out_port = trace_hop_out_port(r, i);
	char name[4 * sizeof(h->description)];
	size_t n = strnlen(h->description, sizeof(h->description));

	/* A node description is anyone's text: escaped. */
	text_escape_prefix(h->description, n, name, sizeof(name));
	if (i == 0)
		snprintf(buf, len, "%s (LID %u) port %u", name, h->lid,
			 h->out_port);
	else if (out_port)
		snprintf(buf, len, "%s (LID %u) %u>%u", name, h->lid,
			 h->in_port, out_port);
	else
		snprintf(buf, len, "%s (LID %u) port %u", name, h->lid,
			 h->in_port);
}

void probe_path_trace_print_text(const struct probe_dlid_path *dp)
{
	const struct trace_job *job = dp->trace;
	const struct trace_result *r;
	const char *error;
	char text[4096], words[320], line[4096 + 256];
	size_t used = 0, tu = 0;

	if (!job)
		return;
	r = &job->result;
	error = trace_result_error(r);
	out_text("  path %u traced, SLID %u -> DLID %u, %s%s\n", dp->index,
		 job->slid, job->dlid, trace_status_str(r->status),
		 r->hop_count ? ":" : "");
	text[0] = '\0';
	for (size_t i = 0; i < r->hop_count; i++) {
		hop_words(r, i, words, sizeof(words));
		tu += (size_t)snprintf(text + tu, tu < sizeof(text)
				       ? sizeof(text) - tu : 0, "%s%s",
				       i ? " > " : "", words);
		if (tu >= sizeof(text))
			break;
	}
	line[0] = '\0';
	if (r->hop_count)
		text_wrap_append(line, sizeof(line), &used, text, 4, 6,
				 PATH_TRACE_WIDTH);
	if (error)
		text_wrap_append(line, sizeof(line), &used, error, 4, 6,
				 PATH_TRACE_WIDTH);
	out_text("%s", line);
}

void probe_path_trace_print_json(const struct probe_dlid_path *dp)
{
	const struct trace_job *job = dp->trace;
	const struct trace_result *r;
	const char *error;

	if (!job)
		return;
	r = &job->result;
	error = trace_result_error(r);
	out_open_object("trace");
	out_string("status", NULL, trace_status_key(r->status));
	out_uint("slid", NULL, job->slid);
	out_uint("dlid", NULL, job->dlid);
	out_open_array("hops");
	for (size_t i = 0; i < r->hop_count; i++) {
		const struct trace_hop *h = &r->hops[i];
		unsigned out_port = trace_hop_out_port(r, i);

		out_open_object(NULL);
		out_uint("hop", NULL, i);
		out_string("node_description", NULL, h->description);
		out_uint("lid", NULL, h->lid);
		if (i == 0)
			out_null("in_port", NULL);
		else
			out_uint("in_port", NULL, h->in_port);
		if (out_port)
			out_uint("out_port", NULL, out_port);
		else
			out_null("out_port", NULL);
		out_close_object();
	}
	out_close_array();
	if (error) {
		/* No hop to point at when the source itself is unknown or
		 * the walk never broke (it did not end). */
		if (r->reason[0] && r->hop_count)
			out_uint("broken_at", NULL, r->where);
		else
			out_null("broken_at", NULL);
		out_string("error", NULL, error);
	} else {
		out_null("broken_at", NULL);
		out_null("error", NULL);
	}
	out_close_object();
}
