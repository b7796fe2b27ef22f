/* probe --mtu's output: see mtu_print.h. */
#include "probe/mtu_print.h"

#include <stdio.h>
#include <string.h>

#include "out/output.h"
#include "probe/probe_text.h"
#include "wire/probe_wire.h"
#include "out/text_layout.h"

#define MTU_ROW_MAX 2048

static const char *dest_text(const struct probe_session *s, size_t i)
{
	return s->cells[i].target->dest->text;
}

void mtu_print_head(const struct mtu_run *run, const struct probe_session *s)
{
	char line[MTU_ROW_MAX];
	size_t used = 0;
	char head[512];

	if (out_format() != OUT_TEXT)
		return;
	snprintf(head, sizeof(head),
		 "MTU discovery from %s port %u (%s), port MTU %u: %u probe%s "
		 "per size, %u bytes up to each destination's bound, timeout "
		 "%u ms", s->device, s->facts.port_num,
		 link_layer_name(s->facts.link_layer), s->port_mtu,
		 run->probes_per_size, run->probes_per_size == 1 ? "" : "s",
		 PROBE_REQUEST_MIN_SIZE, s->settings.timeout_ms);
	line[0] = '\0';
	text_wrap_append(line, sizeof(line), &used, head, 0, 2,
			 PROBE_TEXT_WIDTH);
	out_text("%s", line);
	out_flush_record();
}

/* The table's widths: the destination column fits the longest. */
struct mtu_cols {
	int dest;
};

#define COL_NUM 7	/* "ARRIVES" */
#define COL_LOST 5
#define COL_BOUND 5
#define COL_FROM 9	/* "responder" */

static int prefix_width(const struct mtu_cols *w)
{
	return w->dest + 2 + COL_NUM + 2 + COL_LOST + 2 + COL_BOUND + 2 +
	       COL_FROM + 2;
}

static void number_or_dash(char *buf, size_t len, uint32_t v)
{
	if (v)
		snprintf(buf, len, "%u", v);
	else
		snprintf(buf, len, "-");
}

static void verdict_words(const struct mtu_dest *d, char *buf, size_t len)
{
	switch (d->state) {
	case MTU_DEST_DONE:
		snprintf(buf, len, "%s", d->verdict.text);
		return;
	case MTU_DEST_UNREACHABLE:
		snprintf(buf, len, "unreachable: %s", d->error);
		return;
	case MTU_DEST_ERROR:
		snprintf(buf, len, "error: %s", d->error);
		return;
	case MTU_DEST_SEARCHING:
	case MTU_DEST_INTERRUPTED:
		if (d->search.smallest_lost && d->search.largest_arrived)
			snprintf(buf, len, "interrupted: %u arrives, %u lost "
				 "so far", d->search.largest_arrived,
				 d->search.smallest_lost);
		else if (d->search.largest_arrived)
			snprintf(buf, len, "interrupted: %u arrives so far",
				 d->search.largest_arrived);
		else
			snprintf(buf, len, "interrupted before a size arrived");
		return;
	case MTU_DEST_SKIPPED:
		break;
	}
	buf[0] = '\0';
}

static bool searched(const struct mtu_dest *d)
{
	return d->state == MTU_DEST_DONE || d->state == MTU_DEST_INTERRUPTED;
}

static void text_row(const struct mtu_cols *w, const char *dest,
		     const struct mtu_dest *d)
{
	char arrives[16], lost[16], bound[16], words[600];
	char row[MTU_ROW_MAX], prefix[256];
	int pw = prefix_width(w);
	size_t used = 0;

	number_or_dash(arrives, sizeof(arrives),
		       searched(d) ? d->search.largest_arrived : 0);
	number_or_dash(lost, sizeof(lost),
		       searched(d) ? d->search.smallest_lost : 0);
	number_or_dash(bound, sizeof(bound), d->bound);
	snprintf(prefix, sizeof(prefix), "%-*s  %*s  %*s  %*s  %-*s  ",
		 w->dest, dest, COL_NUM, arrives, COL_LOST, lost, COL_BOUND,
		 bound, COL_FROM, mtu_bound_source_key(d->source));
	verdict_words(d, words, sizeof(words));
	row[0] = '\0';
	/* The verdict wraps under its own column; the columns go in the
	 * first line's indent. */
	text_wrap_append(row, sizeof(row), &used, words, pw, pw,
			 PROBE_TEXT_WIDTH);
	if (used >= (size_t)pw)
		memcpy(row, prefix, (size_t)pw);
	out_text("%s", row);
}

static void text_steps(const struct mtu_dest *d)
{
	const struct mtu_search *m = &d->search;

	out_text("    bounds: port MTU %u", d->port_mtu);
	if (d->netdev_mtu)
		out_text(", netdev MTU %u (payload %u)", d->netdev_mtu,
			 mtu_netdev_payload_max(d->netdev_mtu, d->encap));
	if (d->path_mtu)
		out_text(", path MTU %u", d->path_mtu);
	if (d->responder_mtu)
		out_text(", responder's port MTU %u", d->responder_mtu);
	out_text("; searched %u..%u\n", m->lower, m->upper);
	for (size_t k = 0; k < m->step_count; k++) {
		const struct mtu_step *st = &m->steps[k];

		out_text("    step %2zu: %4u bytes: %u of %u answered, %s%s\n",
			 k + 1, st->size, st->answered, st->sent,
			 st->answered ? "arrives" : "lost",
			 st->retry ? " (tried again)" : "");
	}
}

/* Counts per outcome, for the summary. */
struct mtu_counts {
	size_t total, fine, blackhole, unreachable, error, interrupted;
};

static void count(const struct mtu_dest *d, struct mtu_counts *n)
{
	const char *key = mtu_dest_key(d);

	if (d->state == MTU_DEST_SKIPPED)
		return;
	n->total++;
	if (!strcmp(key, "no_blackhole"))
		n->fine++;
	else if (!strcmp(key, "blackhole"))
		n->blackhole++;
	else if (!strcmp(key, "unreachable"))
		n->unreachable++;
	else if (!strcmp(key, "interrupted"))
		n->interrupted++;
	else
		n->error++;
}

static void print_text(const struct mtu_run *run,
		       const struct probe_session *s,
		       const struct mtu_dest *d)
{
	struct mtu_cols w = { .dest = 4 };
	struct mtu_counts n = { 0 };
	char line[MTU_ROW_MAX];
	size_t used = 0;
	char summary[512];

	for (size_t i = 0; i < s->cell_count; i++) {
		int len = (int)strlen(dest_text(s, i));

		if (len > w.dest && len <= 40)
			w.dest = len;
	}
	out_text("%-*s  %*s  %*s  %*s  %-*s  %s\n", w.dest, "DEST", COL_NUM,
		 "ARRIVES", COL_LOST, "LOST", COL_BOUND, "BOUND", COL_FROM,
		 "FROM", "VERDICT");
	for (size_t i = 0; i < s->cell_count; i++) {
		if (d[i].state == MTU_DEST_SKIPPED) {
			out_text("skipped %s: it is this port (its GID)\n",
				 dest_text(s, i));
			continue;
		}
		count(&d[i], &n);
		text_row(&w, dest_text(s, i), &d[i]);
		if (diag_verbosity > 0 && searched(&d[i]))
			text_steps(&d[i]);
	}
	snprintf(summary, sizeof(summary),
		 "%zu destination%s: %zu carr%s its bound, %zu blackhole%s, "
		 "%zu unreachable, %zu error%s%s; replies are %u bytes, so "
		 "only the way there is measured",
		 n.total, n.total == 1 ? "" : "s", n.fine,
		 n.fine == 1 ? "ies" : "y", n.blackhole,
		 n.blackhole == 1 ? "" : "s", n.unreachable, n.error,
		 n.error == 1 ? "" : "s",
		 run->interrupted ? ", interrupted" : "", PROBE_REPLY_SIZE);
	line[0] = '\0';
	text_wrap_append(line, sizeof(line), &used, summary, 0, 2,
			 PROBE_TEXT_WIDTH);
	out_text("%s", line);
}

static void json_uint_or_null(const char *key, uint32_t v)
{
	if (v)
		out_uint(key, NULL, v);
	else
		out_null(key, NULL);
}

static void json_dest(const struct probe_session *s, size_t i,
		      const struct mtu_dest *d)
{
	char words[600];
	bool done = searched(d);

	out_open_object(NULL);
	out_string("dest", NULL, dest_text(s, i));
	out_string("status", NULL, mtu_dest_key(d));
	verdict_words(d, words, sizeof(words));
	out_string("verdict", NULL, words);
	json_uint_or_null("largest_arrived",
			  done ? d->search.largest_arrived : 0);
	json_uint_or_null("smallest_lost", done ? d->search.smallest_lost : 0);
	out_uint("bound", NULL, d->bound);
	out_string("bound_source", NULL, mtu_bound_source_key(d->source));
	json_uint_or_null("port_mtu", d->port_mtu);
	json_uint_or_null("netdev_mtu", d->netdev_mtu);
	json_uint_or_null("path_mtu", d->path_mtu);
	json_uint_or_null("responder_mtu", d->responder_mtu);
	json_uint_or_null("ip_mtu",
			  d->state == MTU_DEST_DONE ? d->verdict.ip_mtu : 0);
	out_uint("random_losses", NULL, d->search.random_losses);
	if (d->error[0])
		out_string("error", NULL, d->error);
	else
		out_null("error", NULL);
	out_open_array("steps");
	for (size_t k = 0; done && k < d->search.step_count; k++) {
		const struct mtu_step *st = &d->search.steps[k];

		out_open_object(NULL);
		out_uint("size", NULL, st->size);
		out_uint("sent", NULL, st->sent);
		out_uint("answered", NULL, st->answered);
		out_bool("arrived", NULL, st->answered > 0);
		out_bool("retry", NULL, st->retry);
		out_close_object();
	}
	out_close_array();
	out_close_object();
}

static void print_json(const struct mtu_run *run,
		       const struct probe_session *s,
		       const struct mtu_dest *d)
{
	struct mtu_counts n = { 0 };

	out_open_object(NULL);
	run_info_print(&run->info, MTU_SCHEMA);
	out_string("host", NULL, run->host);
	out_open_object("source");
	out_string("device", NULL, s->device);
	out_uint("port", NULL, s->facts.port_num);
	out_string("link_layer", NULL, link_layer_name(s->facts.link_layer));
	json_uint_or_null("port_mtu", s->port_mtu);
	out_close_object();
	out_uint("probes_per_size", NULL, run->probes_per_size);
	out_uint("timeout_ms", NULL, s->settings.timeout_ms);
	out_uint("lower_bound", NULL, PROBE_REQUEST_MIN_SIZE);
	/* The reply is always this small: the way back is not measured. */
	out_uint("reply_size", NULL, PROBE_REPLY_SIZE);
	out_bool("interrupted", NULL, run->interrupted);
	out_open_array("destinations");
	for (size_t i = 0; i < s->cell_count; i++) {
		if (d[i].state == MTU_DEST_SKIPPED)
			continue;
		count(&d[i], &n);
		json_dest(s, i, &d[i]);
	}
	out_close_array();
	out_open_object("summary");
	out_uint("destinations", NULL, n.total);
	out_uint("no_blackhole", NULL, n.fine);
	out_uint("blackhole", NULL, n.blackhole);
	out_uint("unreachable", NULL, n.unreachable);
	out_uint("error", NULL, n.error);
	out_uint("interrupted", NULL, n.interrupted);
	out_close_object();
	out_close_object();
}

void mtu_print_results(const struct mtu_run *run,
		       const struct probe_session *s,
		       const struct mtu_dest *d)
{
	if (out_format() == OUT_TEXT)
		print_text(run, s, d);
	else
		print_json(run, s, d);
}
