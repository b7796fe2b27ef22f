/* ibahprobe plan: which destinations each host probes in one round (a
 * full mesh inside its group, a few sampled peers outside it, rotated so
 * that every pair is covered within R rounds), as text, JSON or one file
 * per host for `probe -f`. Touches no device. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "base/atomic_file.h"
#include "base/dest.h"
#include "base/diag.h"
#include "fleet/host_groups.h"
#include "base/line_reader.h"
#include "out/output.h"
#include "base/parse.h"
#include "fleet/ecmp_flow_labels.h"
#include "fleet/fleet_plan.h"
#include "fleet/trace_policy.h"
#include "trace/roce_trace.h"
#include "base/text_escape.h"

/* As probe -f reads a destination file: a host is a destination. */
#define HOSTS_LINE_MAX 256
#define HOSTS_MAX 1000000

enum plan_option {
	PL_OPT_GROUPS, PL_OPT_PER_ROUND, PL_OPT_ROUNDS, PL_OPT_ROUND,
	PL_OPT_ROUND_EVERY, PL_OPT_SEED, PL_OPT_OUTPUT, PL_OPT_ECMP_WIDTH,
	PL_OPT_ECMP_CONFIDENCE, PL_OPT_TRACES, PL_OPT_TRACES_PER_ROUND,
	PL_OPT_END,
};

static const struct opt_spec plan_options[] = {
	[PL_OPT_GROUPS] = { "groups", 0, "FILE", "the group (rack, leaf "
			    "switch) of each host: HOST GROUP per line; a "
			    "host not in it is a group of its own",
			    COMPLETE_FILE, NULL },
	[PL_OPT_PER_ROUND] = { "per-round", 0, "K", "peers outside its group "
			       "a host probes per round, at most (1-100000; "
			       "default 16, or what --rounds needs)",
			       COMPLETE_NONE, NULL },
	[PL_OPT_ROUNDS] = { "rounds", 0, "R", "rounds that cover every pair "
			    "(1-1000000; default: the fewest K allows)",
			    COMPLETE_NONE, NULL },
	[PL_OPT_ROUND] = { "round", 0, "N", "the round to plan, counted "
			   "from 0; the plan repeats every R rounds "
			   "(default 0)", COMPLETE_NONE, NULL },
	[PL_OPT_ROUND_EVERY] = { "round-every", 0, "SECONDS", "instead of "
				 "--round: the round of the wall clock, its "
				 "seconds since the epoch divided by SECONDS "
				 "(1-31536000), the same on every host whose "
				 "clock is synchronised", COMPLETE_NONE, NULL },
	[PL_OPT_SEED] = { "seed", 0, "S", "seed of the layout: the same "
			  "seed, hosts and groups give the same plan "
			  "(default 0)", COMPLETE_NONE, NULL },
	[PL_OPT_OUTPUT] = { "output", 'o', "DIR", "write one file per host, "
			    "DIR/HOST, for probe -f (DIR is created)",
			    COMPLETE_FILE, NULL },
	[PL_OPT_ECMP_WIDTH] = { "ecmp-width", 0, "W", "ECMP branches "
				"expected towards a destination (1-256; "
				"default 4): plan says the flow labels that "
				"cross them all (probe --flow-label)",
				COMPLETE_NONE, NULL },
	[PL_OPT_ECMP_CONFIDENCE] = { "ecmp-confidence", 0, "PCT", "how sure "
				     "the flow labels cross every branch, a "
				     "percentage above 0 and below 100 "
				     "(default 99)", COMPLETE_NONE, NULL },
	[PL_OPT_TRACES] = { "traces", 0, "DIR", "also write each host's "
			    "trace policy of the round, DIR/HOST, for trace "
			    "-f (DIR is created)", COMPLETE_FILE, NULL },
	[PL_OPT_TRACES_PER_ROUND] = { "traces-per-round", 0, "T", "passing "
				      "destinations a host traces per round, "
				      "in rotation (1-100000; default 1)",
				      COMPLETE_NONE, NULL },
	[PL_OPT_END] = OPT_END,
};

/* The options of plan: its context. */
struct plan_opts {
	const char *groups;
	uint32_t per_round, rounds;	/* 0: not given */
	uint64_t round, seed;
	bool round_given;
	uint32_t round_every;	/* 0: not given */
	const char *output;
	/* Flow labels per destination: asked for when either is given. */
	uint32_t ecmp_width;	/* 0: not given */
	double ecmp_confidence;	/* 0: not given */
	const char *traces;
	uint32_t traces_per_round;	/* 0: not given */
};

/* A percentage strictly between 0 and 100: "99", "99.9". */
static int parse_confidence(const char *arg, double *out)
{
	char *end, shown[TEXT_ESCAPE_SIZE(48)];
	double pct;

	errno = 0;
	pct = strtod(arg, &end);
	if (!arg[0] || *end || errno || !(pct > 0) || !(pct < 100) ||
	    strspn(arg, "0123456789.") != strlen(arg))
		return cli_usage_error("--ecmp-confidence: '%s' is no "
				       "percentage (a number above 0 and "
				       "below 100, like 99)",
				       text_escape(arg, strnlen(arg, 48), shown,
						   sizeof(shown)));
	*out = pct / 100;
	return 0;
}

/* The flow labels each destination is probed (and traced) with: 1 to
 * count (0 is no label: a provider picks a random UDP source port per AH
 * for it); count 0 when not asked for. */
struct plan_labels {
	uint32_t width, count;
	double confidence;
};

static int plan_option(void *ctx, int index, const char *arg)
{
	struct plan_opts *opts = ctx;
	char err[DIAG_MSG_MAX];
	int rc = 0;

	switch (index) {
	case PL_OPT_GROUPS:
		if (!arg[0])
			return cli_usage_error("--groups needs a file name");
		opts->groups = arg;
		break;
	case PL_OPT_PER_ROUND:
		rc = parse_u32(arg, "--per-round", 1, FLEET_PLAN_MAX_PER_ROUND,
			       &opts->per_round, err, sizeof(err));
		break;
	case PL_OPT_ROUNDS:
		rc = parse_u32(arg, "--rounds", 1, FLEET_PLAN_MAX_ROUNDS,
			       &opts->rounds, err, sizeof(err));
		break;
	case PL_OPT_ROUND:
		rc = parse_u64(arg, "--round", 0, UINT64_MAX, &opts->round, err,
			       sizeof(err));
		opts->round_given = true;
		break;
	case PL_OPT_ROUND_EVERY:
		rc = parse_u32(arg, "--round-every", 1, 31536000,
			       &opts->round_every, err, sizeof(err));
		break;
	case PL_OPT_SEED:
		rc = parse_u64(arg, "--seed", 0, UINT64_MAX, &opts->seed, err,
			       sizeof(err));
		break;
	case PL_OPT_OUTPUT:
		if (!arg[0])
			return cli_usage_error("-o needs a directory name");
		opts->output = arg;
		break;
	case PL_OPT_ECMP_WIDTH:
		rc = parse_u32(arg, "--ecmp-width", 1, ECMP_WIDTH_MAX,
			       &opts->ecmp_width, err, sizeof(err));
		break;
	case PL_OPT_ECMP_CONFIDENCE:
		return parse_confidence(arg, &opts->ecmp_confidence);
	case PL_OPT_TRACES:
		if (!arg[0])
			return cli_usage_error("--traces needs a directory "
					       "name");
		opts->traces = arg;
		break;
	case PL_OPT_TRACES_PER_ROUND:
		rc = parse_u32(arg, "--traces-per-round", 1,
			       FLEET_PLAN_MAX_PER_ROUND,
			       &opts->traces_per_round, err, sizeof(err));
		break;
	}
	return rc ? cli_usage_error("%s", err) : 0;
}

struct host_list {
	size_t count, capacity;
	char **names;
	unsigned long *lines;
};

static void host_list_free(struct host_list *h)
{
	for (size_t i = 0; i < h->count; i++)
		free(h->names[i]);
	free(h->names);
	free(h->lines);
	memset(h, 0, sizeof(*h));
}

static int host_list_add(struct host_list *h, const char *name,
			 unsigned long line)
{
	if (h->count == h->capacity) {
		size_t capacity = h->capacity ? 2 * h->capacity : 256;
		char **names = reallocarray(h->names, capacity, sizeof(*names));
		unsigned long *lines;

		if (!names)
			return -1;
		h->names = names;
		lines = reallocarray(h->lines, capacity, sizeof(*lines));
		if (!lines)
			return -1;
		h->lines = lines;
		h->capacity = capacity;
	}
	h->names[h->count] = strdup(name);
	if (!h->names[h->count])
		return -1;
	h->lines[h->count++] = line;
	return 0;
}

/* One host per line: a word that probe -f takes as a destination. */
static int host_line(struct host_list *hosts, char *text, const char *label,
		     unsigned long line)
{
	char *start = text, *end, *hash = strchr(text, '#');
	char msg[DIAG_MSG_MAX], shown[TEXT_ESCAPE_SIZE(48)];
	struct dest d;

	if (hash)
		*hash = '\0';
	while (*start == ' ' || *start == '\t')
		start++;
	end = start + strlen(start);
	while (end > start && (end[-1] == ' ' || end[-1] == '\t' ||
			       end[-1] == '\r'))
		*--end = '\0';
	if (!*start)
		return 0;
	text_escape(start, strnlen(start, 48), shown, sizeof(shown));
	for (char *p = start; *p; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f)
			return cli_usage_error("%s:%lu: '%s' is no host name "
					       "(one host per line)", label,
					       line, shown);
	if (dest_parse(start, &d, msg, sizeof(msg)))
		return cli_usage_error("%s:%lu: %s", label, line, msg);
	dest_clear(&d);
	if (host_list_add(hosts, start, line))
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	return 0;
}

static const struct host_list *sort_hosts;

static int by_name(const void *a, const void *b)
{
	return strcmp(sort_hosts->names[*(const uint32_t *)a],
		      sort_hosts->names[*(const uint32_t *)b]);
}

/* A host twice would be probed twice and get two plans: refused, naming
 * the first repeat in file order and the line it repeats. */
static int hosts_distinct(const struct host_list *hosts, const char *label)
{
	uint32_t *order = malloc(hosts->count * sizeof(*order));
	size_t again = SIZE_MAX, first = 0;
	char shown[TEXT_ESCAPE_SIZE(48)];

	if (!order)
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	for (size_t i = 0; i < hosts->count; i++)
		order[i] = (uint32_t)i;
	sort_hosts = hosts;
	qsort(order, hosts->count, sizeof(*order), by_name);
	for (size_t i = 1; i < hosts->count; i++) {
		uint32_t a = order[i - 1], b = order[i];

		if (strcmp(hosts->names[a], hosts->names[b]) != 0)
			continue;
		if (a > b) {
			uint32_t t = a;

			a = b;
			b = t;
		}
		if (again == SIZE_MAX || b < again) {
			again = b;
			first = a;
		}
	}
	free(order);
	if (again == SIZE_MAX)
		return 0;
	text_escape(hosts->names[again], strnlen(hosts->names[again], 48),
		    shown, sizeof(shown));
	return cli_usage_error("%s:%lu: host '%s' is listed twice (first on "
			       "line %lu)", label, hosts->lines[again], shown,
			       hosts->lines[first]);
}

static int read_hosts(const char *path, struct host_list *hosts)
{
	bool std = strcmp(path, "-") == 0;
	char label[TEXT_ESCAPE_SIZE(128)], err[DIAG_MSG_MAX * 2];
	struct line_reader lines;
	FILE *in;
	int rc;

	text_escape(path, strnlen(path, 128), label, sizeof(label));
	if (std)
		snprintf(label, sizeof(label), "<stdin>");
	in = std ? stdin : fopen(path, "r");
	if (!in)
		return cli_usage_error("cannot open host file '%s': %s", label,
				       strerror(errno));
	if (line_reader_init(&lines, in, label, HOSTS_LINE_MAX, HOSTS_MAX)) {
		if (!std)
			fclose(in);
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	}
	while ((rc = line_reader_next(&lines, err, sizeof(err))) > 0) {
		rc = host_line(hosts, lines.buf, label, lines.line);
		if (rc)
			break;
	}
	if (rc < 0)
		rc = cli_usage_error("%s", err);
	line_reader_free(&lines);
	if (!std)
		fclose(in);
	if (rc)
		return rc;
	if (hosts->count == 0)
		return cli_usage_error("%s names no host; a plan needs at "
				       "least two", label);
	if (hosts->count == 1)
		return cli_usage_error("%s names one host; a plan needs at "
				       "least two", label);
	return hosts_distinct(hosts, label);
}

/* Groups of the plan, numbered in host order: the file's groups that
 * hold a listed host, and a group of its own for each host the file does
 * not name. name_of[g]: the file's group name, NULL for a host alone. */
struct plan_groups {
	uint32_t *group_of;
	size_t count;
	const char **name_of;
};

static void warn_unlisted(const struct plan_opts *opts,
			  const struct host_groups *hg, const uint8_t *used)
{
	size_t unlisted = 0, first = 0;
	char shown[TEXT_ESCAPE_SIZE(48)];

	for (size_t i = 0; i < hg->count; i++)
		if (!used[i] && unlisted++ == 0)
			first = i;
	if (!unlisted)
		return;
	text_escape(hg->entries[first].host,
		    strnlen(hg->entries[first].host, 48), shown, sizeof(shown));
	diag_warn("%s: %zu host%s not in the host list, left out (the first: "
		  "'%s', line %lu)", opts->groups, unlisted,
		  unlisted == 1 ? " is" : "s are", shown,
		  hg->entries[first].line);
}

static void warn_alone(const struct plan_opts *opts,
		       const struct host_list *hosts, size_t alone,
		       size_t first)
{
	char shown[TEXT_ESCAPE_SIZE(48)];

	text_escape(hosts->names[first], strnlen(hosts->names[first], 48),
		    shown, sizeof(shown));
	diag_warn("%s: %zu host%s no group, %s a group of its own (the "
		  "first: '%s')", opts->groups, alone,
		  alone == 1 ? " has" : "s have", alone == 1 ? "is" : "each",
		  shown);
}

static int groups_assign(const struct plan_opts *opts,
			 const struct host_groups *hg,
			 const struct host_list *hosts, struct plan_groups *pg)
{
	uint32_t *id_of_file_group = malloc((hg->group_count + 1) *
					    sizeof(uint32_t));
	uint8_t *used = calloc(hg->count + 1, 1);
	size_t alone = 0, first_alone = 0;

	pg->group_of = malloc(hosts->count * sizeof(uint32_t));
	pg->name_of = malloc(hosts->count * sizeof(char *));
	if (!id_of_file_group || !used || !pg->group_of || !pg->name_of) {
		free(id_of_file_group);
		free(used);
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	}
	for (size_t g = 0; g < hg->group_count; g++)
		id_of_file_group[g] = UINT32_MAX;
	for (size_t h = 0; h < hosts->count; h++) {
		long e = host_groups_entry(hg, hosts->names[h]);
		uint32_t g;

		if (e < 0) {
			if (alone++ == 0)
				first_alone = h;
			pg->name_of[pg->count] = NULL;
			pg->group_of[h] = (uint32_t)pg->count++;
			continue;
		}
		used[e] = 1;
		g = hg->entries[e].group;
		if (id_of_file_group[g] == UINT32_MAX) {
			pg->name_of[pg->count] = hg->group_names[g];
			id_of_file_group[g] = (uint32_t)pg->count++;
		}
		pg->group_of[h] = id_of_file_group[g];
	}
	if (opts->groups) {
		warn_unlisted(opts, hg, used);
		if (alone)
			warn_alone(opts, hosts, alone, first_alone);
	}
	free(id_of_file_group);
	free(used);
	return 0;
}

/* With -o (and --traces) every host becomes a file name: one that stays
 * inside DIR and is no hidden file (the temporary files are). Checked for
 * all hosts before any file is written. */
static int hosts_are_file_names(const char *option, const char *dir_name,
				const struct host_list *hosts)
{
	for (size_t h = 0; h < hosts->count; h++) {
		const char *name = hosts->names[h];
		char shown[TEXT_ESCAPE_SIZE(48)];

		if (!strchr(name, '/') && name[0] != '.')
			continue;
		text_escape(name, strnlen(name, 48), shown, sizeof(shown));
		return cli_usage_error("%s: host '%s' (line %lu) cannot name "
				       "a file in %s (a '/' or a leading "
				       "'.'); write the plan as text or JSON",
				       option, shown, hosts->lines[h],
				       dir_name);
	}
	return 0;
}

/* DIR, created when missing; its descriptor in *fd. A DIR that is
 * something else is bad input, a DIR we cannot make the environment's. */
static int output_dir_open(const char *option, const char *path, int *fd)
{
	struct stat st;

	if (mkdir(path, 0777) && errno != EEXIST)
		return cli_fail(EXIT_ENVIRONMENT, "cannot create %s: %s",
				path, strerror(errno));
	if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
		return cli_usage_error("%s %s is no directory", option, path);
	*fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0)
		return cli_fail(EXIT_ENVIRONMENT, "cannot open %s: %s",
				path, strerror(errno));
	return 0;
}

/* "# flow-label 1-21 (...)": the list for probe/trace --flow-label as
 * the line's third word, then why that many. */
static void write_labels_line(FILE *f, const struct plan_labels *labels)
{
	if (!labels->count)
		return;
	fprintf(f, "# flow-label %s%u (%u ECMP branches, each crossed with "
		"probability >= %g%%)\n", labels->count > 1 ? "1-" : "",
		labels->count, labels->width, 100 * labels->confidence);
}

/* DIR/HOST through a temporary file and a rename (base/atomic_file.h), so
 * a probe -f that reads it meanwhile gets the last round's list or this
 * one, whole. */
static int write_host_file(const struct plan_opts *opts, int dir,
			   const struct fleet_plan *plan,
			   const struct host_list *hosts,
			   const struct plan_labels *labels, uint32_t host,
			   const uint32_t *dests, size_t n)
{
	struct atomic_file af;

	if (atomic_file_open(&af, dir, hosts->names[host],
			     atomic_file_umasked(0666)))
		return -1;
	fprintf(af.f, "# ibahprobe plan: round %llu of %u (seed %llu) for %s\n",
		(unsigned long long)(opts->round % plan->rounds), plan->rounds,
		(unsigned long long)opts->seed, hosts->names[host]);
	write_labels_line(af.f, labels);
	for (size_t i = 0; i < n; i++)
		fprintf(af.f, "%s\n", hosts->names[dests[i]]);
	return atomic_file_commit(&af);
}

/* DIR/HOST of --traces, as trace -f reads it: the comment lines of the
 * policy (the flow labels, what to do with failing flows), then the
 * destinations to trace while they pass, this round's share of the
 * rotation (fleet/trace_policy.h). */
static int write_trace_file(const struct plan_opts *opts, int dir,
			    const struct fleet_plan *plan,
			    const struct host_list *hosts,
			    const struct plan_labels *labels, uint32_t host,
			    const uint32_t *sample, size_t n)
{
	struct atomic_file af;

	if (atomic_file_open(&af, dir, hosts->names[host],
			     atomic_file_umasked(0666)))
		return -1;
	fprintf(af.f, "# ibahprobe plan: traces of round %llu of %u (seed "
		"%llu) for %s\n",
		(unsigned long long)(opts->round % plan->rounds), plan->rounds,
		(unsigned long long)opts->seed, hosts->names[host]);
	write_labels_line(af.f, labels);
	fputs("# failing: trace each failing flow at once: trace -j "
	      "--failed RESULTS\n", af.f);
	fputs("# passing: trace these destinations with every flow label "
	      "above\n", af.f);
	for (size_t i = 0; i < n; i++)
		fprintf(af.f, "%s\n", hosts->names[sample[i]]);
	return atomic_file_commit(&af);
}

static void emit_groups(const struct fleet_plan *plan,
			const struct host_list *hosts,
			const struct plan_groups *pg)
{
	out_open_object("groups");
	for (size_t g = 0; g < pg->count; g++) {
		if (!pg->name_of[g])
			continue;
		out_open_array(pg->name_of[g]);
		for (size_t i = plan->group_start[g];
		     i < plan->group_start[g + 1]; i++)
			out_element_string(NULL,
					   hosts->names[plan->group_members[i]]);
		out_close_array();
	}
	out_close_object();
	out_open_array("ungrouped");
	for (size_t g = 0; g < pg->count; g++)
		if (!pg->name_of[g])
			out_element_string(
				NULL, hosts->names[plan->group_members
							   [plan->group_start[g]]]);
	out_close_array();
}

/* "1-21" (or "1"): the flow labels as --flow-label takes them. */
static void labels_list(const struct plan_labels *labels, char *buf,
			size_t len)
{
	snprintf(buf, len, "%s%u", labels->count > 1 ? "1-" : "",
		 labels->count);
}

static void emit_labels(const struct plan_labels *labels, bool text)
{
	char list[32];

	if (!labels->count)
		return;
	labels_list(labels, list, sizeof(list));
	out_open_object("flow_labels");
	out_uint("ecmp_width", NULL, labels->width);
	out_double("confidence", NULL, labels->confidence);
	out_uint("count", NULL, labels->count);
	out_string("list", NULL, list);
	out_close_object();
	if (text && !out_is_json())
		out_text("# flow-label %s (%u ECMP branches, each crossed "
			 "with probability >= %g%%)\n", list, labels->width,
			 100 * labels->confidence);
}

/* Where a plan goes besides stdout: -o's and --traces' directories (-1:
 * not asked for), and the buffers of one host's lists. */
struct plan_sinks {
	int dir, trace_dir;
	uint32_t *dests, *sample;
	size_t *picks;
};

static int write_failed(const char *dir_name, const char *host)
{
	int saved = errno;

	return cli_fail(EXIT_ENVIRONMENT, "cannot write %s/%s: %s", dir_name,
			host, strerror(saved));
}

/* This round's share of the rotation of passing flows to trace: into
 * sink->sample, its count returned. */
static size_t trace_sample(const struct plan_opts *opts,
			   const struct plan_sinks *sink, size_t n)
{
	uint32_t per_round = opts->traces_per_round
				     ? opts->traces_per_round
				     : TRACE_POLICY_DEFAULT_PER_ROUND;
	size_t k = trace_policy_sample(n, opts->round, per_round, sink->picks);

	for (size_t i = 0; i < k; i++)
		sink->sample[i] = sink->dests[sink->picks[i]];
	return k;
}

/* One host's line or array, its -o file and its --traces file. */
static int emit_host(const struct plan_opts *opts,
		     const struct fleet_plan *plan,
		     const struct host_list *hosts,
		     const struct plan_labels *labels,
		     const struct plan_sinks *sink, uint32_t h)
{
	size_t n = fleet_plan_destinations(plan, h, opts->round, sink->dests);

	if (sink->dir >= 0 && write_host_file(opts, sink->dir, plan, hosts,
					      labels, h, sink->dests, n))
		return write_failed(opts->output, hosts->names[h]);
	if (sink->trace_dir >= 0) {
		size_t k = trace_sample(opts, sink, n);

		if (write_trace_file(opts, sink->trace_dir, plan, hosts,
				     labels, h, sink->sample, k))
			return write_failed(opts->traces, hosts->names[h]);
	}
	out_open_array(hosts->names[h]);
	if (sink->dir < 0)
		out_text("%s", hosts->names[h]);
	for (size_t i = 0; i < n; i++) {
		if (out_is_json())
			out_element_string(NULL, hosts->names[sink->dests[i]]);
		else if (sink->dir < 0)
			out_text(" %s", hosts->names[sink->dests[i]]);
	}
	out_close_array();
	if (sink->dir < 0)
		out_newline();
	return 0;
}

/* -j with --traces: each host's destinations to trace while passing. */
static void emit_traces(const struct plan_opts *opts,
			const struct fleet_plan *plan,
			const struct host_list *hosts,
			const struct plan_sinks *sink)
{
	if (!opts->traces || !out_is_json())
		return;
	out_string("traces_output", NULL, opts->traces);
	out_open_object("traces");
	for (uint32_t h = 0; h < hosts->count; h++) {
		size_t n = fleet_plan_destinations(plan, h, opts->round,
						   sink->dests);
		size_t k = trace_sample(opts, sink, n);

		out_open_array(hosts->names[h]);
		for (size_t i = 0; i < k; i++)
			out_element_string(NULL, hosts->names[sink->sample[i]]);
		out_close_array();
	}
	out_close_object();
}

/* Text: "HOST DEST..." per host; JSON: the document; -o: the files (and
 * the JSON document with -j); --traces: the trace policy's files. */
static int emit_plan(const struct plan_opts *opts,
		     const struct fleet_plan *plan,
		     const struct host_list *hosts,
		     const struct plan_groups *pg,
		     const struct plan_labels *labels, int dir, int trace_dir)
{
	struct plan_sinks sink = { .dir = dir, .trace_dir = trace_dir };
	size_t most = 0;
	int rc = 0;

	for (uint32_t h = 0; h < hosts->count; h++)
		if (fleet_plan_max_destinations(plan, h) > most)
			most = fleet_plan_max_destinations(plan, h);
	sink.dests = malloc((most + 1) * sizeof(*sink.dests));
	sink.sample = malloc((most + 1) * sizeof(*sink.sample));
	sink.picks = malloc((most + 1) * sizeof(*sink.picks));
	if (!sink.dests || !sink.sample || !sink.picks) {
		rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
		goto out;
	}
	out_open_object(NULL);
	out_string("schema", NULL, "ibahprobe.plan.v1");
	out_uint("round", NULL, opts->round);
	out_uint("rounds", NULL, plan->rounds);
	out_uint("per_round", NULL, plan->per_round);
	out_uint("seed", NULL, opts->seed);
	emit_groups(plan, hosts, pg);
	if (opts->output)
		out_string("output", NULL, opts->output);
	else
		out_null("output", NULL);
	emit_labels(labels, dir < 0);
	out_open_object("hosts");
	for (uint32_t h = 0; h < hosts->count && !rc; h++)
		rc = emit_host(opts, plan, hosts, labels, &sink, h);
	if (rc)
		goto out;
	out_close_object();
	emit_traces(opts, plan, hosts, &sink);
	out_close_object();
out:
	free(sink.dests);
	free(sink.sample);
	free(sink.picks);
	return rc;
}

static int make_plan(const struct plan_opts *opts, struct fleet_plan *plan,
		     const struct plan_groups *pg,
		     size_t hosts)
{
	struct fleet_plan_params params = {
		.hosts = hosts, .group_of = pg->group_of, .groups = pg->count,
		.seed = opts->seed, .per_round = opts->per_round,
		.rounds = opts->rounds,
	};
	char err[DIAG_MSG_MAX];

	if (fleet_plan_make(plan, &params, err, sizeof(err)) == 0) {
		diag_verbose(1, "plan: %zu hosts in %zu groups, %llu ring "
			     "offsets over %u rounds: at most %u peers "
			     "outside the group per round", hosts, pg->count,
			     (unsigned long long)plan->offset_count,
			     plan->rounds, plan->window);
		return 0;
	}
	if (!plan->min_rounds)
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	return cli_usage_error("%s (--rounds %u, or a larger --per-round)",
			       err, plan->min_rounds);
}

/* -o's and --traces' files are both named HOST: one directory would
 * hold only one of them. */
static int dirs_apart(const struct plan_opts *opts, int dir, int trace_dir)
{
	struct stat a, b;

	if (fstat(dir, &a) || fstat(trace_dir, &b))
		return cli_fail(EXIT_ENVIRONMENT, "cannot stat %s: %s",
				opts->output, strerror(errno));
	if (a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return cli_usage_error("-o %s and --traces %s are one "
				       "directory: both write a file per host; "
				       "give two", opts->output, opts->traces);
	return 0;
}

/* The flow labels per destination, when --ecmp-width, --ecmp-confidence
 * or --traces asks for them (a trace policy traces every branch). More
 * than probe takes, or than trace takes with --traces, is refused. */
static int plan_flow_labels(const struct plan_opts *opts,
			    struct plan_labels *labels)
{
	uint32_t most = opts->traces ? ROCE_TRACE_MAX_FLOWS
				     : ECMP_FLOW_LABELS_MAX;

	if (!opts->ecmp_width && !opts->ecmp_confidence && !opts->traces)
		return 0;
	labels->width = opts->ecmp_width ? opts->ecmp_width
					 : ECMP_WIDTH_DEFAULT;
	labels->confidence = opts->ecmp_confidence ? opts->ecmp_confidence
						   : ECMP_CONFIDENCE_DEFAULT;
	labels->count = ecmp_flow_labels_needed(labels->width,
						labels->confidence);
	if (labels->count && labels->count <= most) {
		diag_verbose(1, "plan: %u flow labels per destination cross "
			     "%u ECMP branches with probability >= %g%%",
			     labels->count, labels->width,
			     100 * labels->confidence);
		return 0;
	}
	return cli_usage_error("--ecmp-width %u at %g%% needs more than %u "
			       "flow labels per destination (what %s takes): "
			       "a lower --ecmp-confidence or --ecmp-width",
			       labels->width, 100 * labels->confidence, most,
			       opts->traces ? "trace" : "probe");
}

static int plan_exec(const struct common_opts *common, void *ctx,
		     int argc, char **argv)
{
	struct plan_opts *opts = ctx;
	struct host_list hosts = { 0 };
	struct host_groups hg = { 0 };
	struct plan_groups pg = { 0 };
	struct fleet_plan plan = { 0 };
	struct plan_labels labels = { 0 };
	char err[DIAG_MSG_MAX * 2];
	int rc, dir = -1, trace_dir = -1;

	(void)common;
	if (opts->round_given && opts->round_every)
		return cli_usage_error("--round and --round-every exclude each "
				       "other: give the round, or let the "
				       "clock say it");
	/* Every host that runs plan within one period computes one round,
	 * so the fleet's rotation needs no coordination beyond NTP. */
	if (opts->round_every)
		opts->round = (uint64_t)time(NULL) / opts->round_every;
	if (argc != 1)
		return cli_usage_error("plan takes one HOSTS file (- for "
				       "stdin), got %d operands", argc);
	if (opts->groups && strcmp(opts->groups, "-") == 0 &&
	    strcmp(argv[0], "-") == 0)
		return cli_usage_error("HOSTS and --groups cannot both be "
				       "stdin");
	rc = read_hosts(argv[0], &hosts);
	if (!rc && opts->groups && host_groups_load(&hg, opts->groups, err,
						   sizeof(err)))
		rc = cli_usage_error("--groups: %s", err);
	if (!rc && opts->groups && hg.count == 0)
		rc = cli_usage_error("--groups: %s names no host",
				     opts->groups);
	if (!rc)
		rc = groups_assign(opts, &hg, &hosts, &pg);
	if (!rc)
		rc = make_plan(opts, &plan, &pg, hosts.count);
	if (!rc)
		rc = plan_flow_labels(opts, &labels);
	if (!rc && opts->output)
		rc = hosts_are_file_names("-o", opts->output, &hosts);
	if (!rc && opts->traces)
		rc = hosts_are_file_names("--traces", opts->traces, &hosts);
	if (!rc && opts->output)
		rc = output_dir_open("-o", opts->output, &dir);
	if (!rc && opts->traces)
		rc = output_dir_open("--traces", opts->traces, &trace_dir);
	if (!rc && dir >= 0 && trace_dir >= 0)
		rc = dirs_apart(opts, dir, trace_dir);
	if (!rc)
		rc = emit_plan(opts, &plan, &hosts, &pg, &labels, dir,
			       trace_dir);
	if (dir >= 0)
		close(dir);
	if (trace_dir >= 0)
		close(trace_dir);
	fleet_plan_free(&plan);
	free(pg.group_of);
	free(pg.name_of);
	host_groups_free(&hg);
	host_list_free(&hosts);
	return rc;
}

static const char *const plan_common_used[] = {
	"json", "pretty", "verbose", "quiet", "help", "version", NULL,
};

const struct command cmd_plan = {
	.name = "plan",
	.args = "HOSTS",
	.summary = "which destinations each host probes this round: a full "
		   "mesh inside its group, sampled peers outside it",
	.options = plan_options,
	.ctx_size = sizeof(struct plan_opts),
	.parse_option = plan_option,
	.exec = plan_exec,
	.common_used = plan_common_used,
};
