/* ibahprobe report: probe results of many hosts (probe --jsonl or -j
 * output, any mix of files) merged into one source x destination matrix,
 * as text, JSON, an SVG heat map or an HTML page. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "base/atomic_file.h"
#include "base/diag.h"
#include "base/parse.h"
#include "fleet/host_groups.h"
#include "out/output.h"
#include "sa/path_resolve.h"
#include "report/hop_changes.h"
#include "report/identifiability.h"
#include "report/localise.h"
#include "report/report_baseline.h"
#include "report/report_groups.h"
#include "report/report_groups_sa.h"
#include "report/report_input.h"
#include "report/report_matrix.h"
#include "report/render/report_render.h"
#include "report/report_traces.h"
#include "report/trace_aliases.h"
#include "report/ports_audit.h"
#include "report/render/report_render_ports.h"
#include "base/text_escape.h"

enum report_option {
	RP_OPT_SVG, RP_OPT_HTML, RP_OPT_OUTPUT, RP_OPT_TITLE, RP_OPT_EXPECT,
	RP_OPT_LATEST, RP_OPT_BASELINE, RP_OPT_RTT_REGRESSION, RP_OPT_GROUPS,
	RP_OPT_TRACES, RP_OPT_PORTS, RP_OPT_EXPECT_GID_INDEX, RP_OPT_EXPECT_MTU,
	RP_OPT_END,
};

static const struct opt_spec report_options[] = {
	[RP_OPT_SVG] = { "svg", 0, NULL, "a self-contained SVG heat map",
			 COMPLETE_NONE, NULL },
	[RP_OPT_HTML] = { "html", 0, NULL, "a self-contained HTML page (the "
			  "heat map and a findings table)", COMPLETE_NONE,
			  NULL },
	[RP_OPT_OUTPUT] = { "output", 'o', "FILE", "write the SVG or HTML to "
			    "FILE (replaced atomically) instead of stdout",
			    COMPLETE_FILE, NULL },
	[RP_OPT_TITLE] = { "title", 0, "TEXT", "title of the SVG or HTML "
			   "(default \"ibahprobe fabric report\")",
			   COMPLETE_NONE, NULL },
	[RP_OPT_EXPECT] = { "expect", 0, "HOSTS", "hosts that should have "
			    "probed each other: FILE or a,b,c",
			    COMPLETE_FILE, NULL },
	[RP_OPT_LATEST] = { "latest", 0, NULL, "keep only the newest run of "
			    "each source (by start_time)", COMPLETE_NONE,
			    NULL },
	[RP_OPT_BASELINE] = { "baseline", 0, "OLD", "list what changed since "
			      "the results in OLD; exit 1 on a regression",
			      COMPLETE_FILE, NULL },
	[RP_OPT_RTT_REGRESSION] = { "rtt-regression", 0, "PCT", "with "
				    "--baseline: RTT growth that regresses "
				    "(default 50%, and 20 us)",
				    COMPLETE_NONE, NULL },
	[RP_OPT_GROUPS] = { "groups", 0, "FILE", "fold hosts into group x "
			    "group blocks (FILE: \"HOST GROUP\" lines, as "
			    "plan --groups reads; sa: each host's leaf switch, "
			    "asked of the InfiniBand SA on -d/-P); a host not "
			    "in it is a group of its own", COMPLETE_FILE,
			    REPORT_GROUPS_SA },
	[RP_OPT_TRACES] = { "traces", 0, "FILE", "trace -j output of the "
			    "same sources and destinations (again for more "
			    "files): name the routers and links the failing "
			    "results share", COMPLETE_FILE, NULL },
	[RP_OPT_PORTS] = { "ports", 0, NULL, "the FILEs are ports -j "
			   "output of many hosts: audit their ports (GID "
			   "index, MTU, firmware) instead", COMPLETE_NONE,
			   NULL },
	[RP_OPT_EXPECT_GID_INDEX] = { "expect-gid-index", 0, "N", "with "
				      "--ports: exit 1 unless GID index N is "
				      "a routable RoCE v2 IPv4 GID on every "
				      "RoCE port (NCCL_IB_GID_INDEX=N works)",
				      COMPLETE_NONE, NULL },
	[RP_OPT_EXPECT_MTU] = { "expect-mtu", 0, "BYTES", "with --ports: "
				"exit 1 unless every port's active MTU is "
				"BYTES", COMPLETE_WORDS, "256 512 1024 2048 "
				"4096" },
	[RP_OPT_END] = OPT_END,
};

/* At most this many --traces files: one per source host is the usual
 * case, and a fabric past this many hosts concatenates them. */
#define REPORT_TRACE_FILES_MAX 4096

/* The options of report: its context. */
struct report_opts {
	bool svg, html, latest;
	const char *output;
	const char *title;	/* NULL: the default */
	const char *expect;	/* NULL: none */
	const char *baseline;	/* NULL: no --baseline */
	const char *groups;	/* NULL: none */
	bool groups_sa;		/* --groups sa: from the SA, not a file */
	const char **traces;	/* --traces files, in order */
	size_t trace_count;
	double rtt_regression_pct;	/* < 0: not given */
	bool ports;			/* --ports: the fleet port audit */
	long expect_gid_index, expect_mtu;	/* < 0: not given */
};

static const struct report_opts report_defaults = {
	.rtt_regression_pct = -1, .expect_gid_index = -1, .expect_mtu = -1,
};

/* --expect-gid-index N: a GID table index (rxe's holds 1024 slots). */
static int parse_expect_gid_index(struct report_opts *opts, const char *arg)
{
	char err[DIAG_MSG_MAX];
	uint32_t n;

	if (parse_u32(arg, "--expect-gid-index", 0, 4095, &n, err,
		      sizeof(err)))
		return cli_usage_error("%s", err);
	opts->expect_gid_index = n;
	return 0;
}

/* --expect-mtu BYTES: one of the IB MTUs a port can be active at. */
static int parse_expect_mtu(struct report_opts *opts, const char *arg)
{
	static const char *const mtus[] = { "256", "512", "1024", "2048",
					    "4096" };
	char shown[256];

	for (size_t k = 0; k < sizeof(mtus) / sizeof(mtus[0]); k++)
		if (strcmp(arg, mtus[k]) == 0) {
			opts->expect_mtu = strtol(arg, NULL, 10);
			return 0;
		}
	return cli_usage_error("--expect-mtu: '%s' is no active MTU (256, "
			       "512, 1024, 2048 or 4096)",
			       text_escape(arg, strlen(arg), shown,
					   sizeof(shown)));
}

/* A percentage above 0: "50", "12.5"; at most 100000 (a thousandfold). */
static int parse_pct(struct report_opts *opts, const char *arg)
{
	char *end, shown[256];
	double pct;

	errno = 0;
	pct = strtod(arg, &end);
	if (!arg[0] || *end || errno || !(pct > 0) || pct > 100000 ||
	    strspn(arg, "0123456789.") != strlen(arg))
		return cli_usage_error("--rtt-regression: '%s' is no percentage "
				       "(a number above 0 and up to 100000, "
				       "like 50)",
				       text_escape(arg, strlen(arg), shown,
						   sizeof(shown)));
	opts->rtt_regression_pct = pct;
	return 0;
}

static int add_traces(struct report_opts *opts, const char *arg)
{
	const char **files;

	if (!arg[0])
		return cli_usage_error("--traces needs the file of trace -j "
				       "output");
	if (opts->trace_count == REPORT_TRACE_FILES_MAX)
		return cli_usage_error("--traces: more than %d files; "
				       "concatenate them",
				       REPORT_TRACE_FILES_MAX);
	files = realloc(opts->traces, (opts->trace_count + 1) * sizeof(*files));
	if (!files)
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	opts->traces = files;
	opts->traces[opts->trace_count++] = arg;
	return 0;
}

static int report_option(void *ctx, int index, const char *arg)
{
	struct report_opts *opts = ctx;
	switch (index) {
	case RP_OPT_SVG:
		opts->svg = true;
		break;
	case RP_OPT_HTML:
		opts->html = true;
		break;
	case RP_OPT_OUTPUT:
		if (!arg[0])
			return cli_usage_error("-o needs a file name");
		opts->output = arg;
		break;
	case RP_OPT_TITLE:
		opts->title = arg;
		break;
	case RP_OPT_EXPECT:
		if (!arg[0])
			return cli_usage_error("--expect needs a file or a "
					       "comma-separated list of hosts");
		opts->expect = arg;
		break;
	case RP_OPT_LATEST:
		opts->latest = true;
		break;
	case RP_OPT_GROUPS:
		if (!arg[0])
			return cli_usage_error("--groups needs a file name, "
					       "or sa");
		opts->groups = arg;
		opts->groups_sa = strcmp(arg, REPORT_GROUPS_SA) == 0;
		break;
	case RP_OPT_BASELINE:
		if (!arg[0])
			return cli_usage_error("--baseline needs the file of "
					       "the earlier results");
		opts->baseline = arg;
		break;
	case RP_OPT_RTT_REGRESSION:
		return parse_pct(opts, arg);
	case RP_OPT_TRACES:
		return add_traces(opts, arg);
	case RP_OPT_PORTS:
		opts->ports = true;
		break;
	case RP_OPT_EXPECT_GID_INDEX:
		return parse_expect_gid_index(opts, arg);
	case RP_OPT_EXPECT_MTU:
		return parse_expect_mtu(opts, arg);
	}
	return 0;
}

/* One expected host: blanks around it go, and a name twice is refused
 * (its row would be ambiguous). */
static int expect_add(struct strvec *hosts, const char *start, size_t len,
		      const char *where)
{
	char name[1024], shown[1200];

	while (len && (*start == ' ' || *start == '\t'))
		start++, len--;
	while (len && (start[len - 1] == ' ' || start[len - 1] == '\t' ||
		       start[len - 1] == '\r'))
		len--;
	if (!len)
		return 0;
	if (len >= sizeof(name))
		return cli_usage_error("--expect: %s: a host name of %zu "
				       "bytes", where, len);
	memcpy(name, start, len);
	name[len] = '\0';
	text_escape(name, len, shown, sizeof(shown));
	if (memchr(name, '\0', len) || strpbrk(name, " \t"))
		return cli_usage_error("--expect: %s: '%s' is no host name",
				       where, shown);
	for (size_t i = 0; i < hosts->count; i++)
		if (strcmp(hosts->items[i], name) == 0)
			return cli_usage_error("--expect: %s: '%s' is listed "
					       "twice", where, shown);
	if (strvec_add(hosts, name))
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	return 0;
}

/* --expect names a file when one of that name exists or the name holds a
 * '/'; else it is the list itself ("node01,node02"). */
static int read_expect(const struct report_opts *opts, struct strvec *hosts)
{
	const char *arg = opts->expect;
	struct stat st;
	char where[1100], label[1024];
	int rc = 0;

	if (stat(arg, &st) == 0 || strchr(arg, '/')) {
		FILE *f = fopen(arg, "r");
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;
		unsigned long lineno = 0;

		text_escape(arg, strlen(arg), label, sizeof(label));
		if (!f)
			return cli_usage_error("--expect: cannot open %s: %s",
					       label, strerror(errno));
		while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
			char *hash = memchr(line, '#', (size_t)n);

			lineno++;
			if (hash)
				n = hash - line;
			while (n && line[n - 1] == '\n')
				n--;
			snprintf(where, sizeof(where), "%s:%lu", label, lineno);
			rc = expect_add(hosts, line, (size_t)n, where);
		}
		free(line);
		fclose(f);
		if (rc == 0 && hosts->count == 0)
			rc = cli_usage_error("--expect: %s names no host",
					     label);
		return rc;
	}
	for (const char *p = arg; rc == 0;) {
		size_t len = strcspn(p, ",");

		rc = expect_add(hosts, p, len, "the list");
		if (!p[len])
			break;
		p += len + 1;
	}
	if (rc == 0 && hosts->count == 0)
		rc = cli_usage_error("--expect names no host");
	return rc;
}

/* --ports reads other documents and makes another report: the
 * matrix's options have nothing to act on there. */
static int check_ports_options(const struct report_opts *opts)
{
	const char *matrix_only = opts->svg ? "svg"
				  : opts->expect ? "expect"
				  : opts->latest ? "latest"
				  : opts->baseline ? "baseline"
				  : opts->groups ? "groups"
				  : opts->trace_count ? "traces"
				  : opts->rtt_regression_pct >= 0
					  ? "rtt-regression"
					  : NULL;

	if (!opts->ports) {
		if (opts->expect_gid_index >= 0 || opts->expect_mtu >= 0)
			return cli_usage_error("--expect-%s pins a value of "
					       "the port audit: give --ports "
					       "and ports -j files",
					       opts->expect_mtu >= 0 ? "mtu"
							: "gid-index");
		return 0;
	}
	if (matrix_only)
		return cli_usage_error("--ports and --%s exclude each other: "
				       "--%s is of the probe results' matrix",
				       matrix_only, matrix_only);
	return 0;
}

static int check_options(struct report_opts *opts,
			 const struct common_opts *common)
{
	int rc = check_ports_options(opts);

	if (rc)
		return rc;
	if (opts->svg && opts->html)
		return cli_usage_error("--svg and --html exclude each other: "
				       "the HTML page holds the SVG");
	if ((opts->svg || opts->html) && common->json)
		return cli_usage_error("-j and --%s exclude each other",
				       opts->svg ? "svg" : "html");
	if (opts->output && !opts->svg && !opts->html)
		return cli_usage_error("-o writes the --svg or --html form; "
				       "redirect stdout for text and JSON");
	if (opts->title && !opts->svg && !opts->html)
		return cli_usage_error("--title names the --svg or --html form; "
				       "text and JSON have none");
	if (opts->rtt_regression_pct >= 0 && !opts->baseline)
		return cli_usage_error("--rtt-regression is a threshold of "
				       "--baseline");
	if (opts->baseline && (opts->svg || opts->html || opts->expect))
		return cli_usage_error("--baseline and --%s exclude each other: "
				       "--baseline lists what changed",
				       opts->svg ? "svg" : opts->html ? "html"
								    : "expect");
	if (opts->groups && opts->svg)
		return cli_usage_error("--groups and --svg exclude each other: "
				       "the blocks are drawn by the --html "
				       "page");
	if (opts->groups && opts->baseline)
		return cli_usage_error("--groups and --baseline exclude each other");
	if (opts->trace_count && (opts->baseline || opts->svg))
		return cli_usage_error("--traces and --%s exclude each other: "
				       "the suspects on the path are in the "
				       "text, JSON and HTML forms",
				       opts->baseline ? "baseline" : "svg");
	if (!opts->title)
		opts->title = opts->ports ? "ibahprobe fleet port audit"
					  : "ibahprobe fabric report";
	return 0;
}

/* On stderr, whatever the form: a script reading the JSON gets them in
 * "warnings" too. */
static void print_warnings(const struct report *r)
{
	char text[2048];

	for (size_t k = 0; k < r->warnings.count; k++)
		diag_warn("%s", text_escape(r->warnings.items[k],
					    strlen(r->warnings.items[k]), text,
					    sizeof(text)));
}

/* An unreadable input is bad input (exit 2), as probe -f and path -f
 * treat theirs: the user named a file that is not there. */
static int read_files(struct report *r, int argc, char **argv)
{
	char err[DIAG_MSG_MAX * 2];
	char *stdin_only[] = { "-" };

	if (argc == 0) {
		argc = 1;
		argv = stdin_only;
	}
	for (int i = 0; i < argc; i++) {
		bool is_stdin = strcmp(argv[i], "-") == 0;
		FILE *f = is_stdin ? stdin : fopen(argv[i], "r");
		int rc;

		if (!f) {
			/* A name from a glob is anyone's: no escape
			 * sequence from it reaches the terminal. */
			char name[1024];

			return cli_usage_error(
				"cannot open %s: %s",
				text_escape(argv[i], strlen(argv[i]), name,
					    sizeof(name)),
				strerror(errno));
		}
		rc = report_read_stream(r, is_stdin ? "<stdin>" : argv[i], f,
					NULL, err, sizeof(err));
		if (!is_stdin)
			fclose(f);
		if (rc)
			return cli_usage_error("%s", err);
	}
	return 0;
}

/* --traces: read after the results (a bad one is bad input, exit 2),
 * then joined with them; "-" only when the results are not on stdin. */
static int read_traces(const struct report_opts *opts, struct report_traces *t,
		       int argc, char **argv)
{
	char err[DIAG_MSG_MAX * 2], name[1024];
	bool results_on_stdin = argc == 0;

	for (int i = 0; i < argc; i++)
		results_on_stdin |= strcmp(argv[i], "-") == 0;
	for (size_t k = 0; k < opts->trace_count; k++) {
		const char *path = opts->traces[k];
		bool is_stdin = strcmp(path, "-") == 0;
		FILE *f;
		int rc;

		text_escape(path, strlen(path), name, sizeof(name));
		if (is_stdin && results_on_stdin)
			return cli_usage_error("--traces -: the results are "
					       "read from stdin too; give the "
					       "traces by file name");
		f = is_stdin ? stdin : fopen(path, "r");
		if (!f)
			return cli_usage_error("--traces: cannot open %s: %s",
					       name, strerror(errno));
		rc = report_traces_read(t, is_stdin ? "<stdin>" : name, f, err,
					sizeof(err));
		if (!is_stdin)
			fclose(f);
		if (rc)
			return cli_usage_error("--traces: %s", err);
	}
	return 0;
}

/* The inputs merged into one matrix. */
static int read_inputs(struct report *r, int argc, char **argv)
{
	int rc = read_files(r, argc, argv);
	char err[DIAG_MSG_MAX * 2];

	if (rc == 0 && report_build(r, err, sizeof(err)))
		return cli_usage_error("%s", err);
	return rc;
}

static int write_bytes(int fd, const char *data, size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* All of doc (a temporary file) to fd, a chunk at a time. */
static int write_all(int fd, FILE *doc)
{
	char chunk[65536];
	size_t n;

	rewind(doc);
	while ((n = fread(chunk, 1, sizeof(chunk), doc)) > 0)
		if (write_bytes(fd, chunk, n))
			return -1;
	return ferror(doc) ? -1 : 0;
}

/* A FIFO or a device is written through, as the shell's > would: there
 * is nothing to replace. */
static int write_through(const char *path, FILE *doc)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC), saved;

	if (fd < 0 || write_all(fd, doc)) {
		saved = errno;
		if (fd >= 0)
			close(fd);
		return cli_fail(EXIT_ENVIRONMENT, "cannot write %s: %s", path,
				strerror(saved));
	}
	if (close(fd))
		return cli_fail(EXIT_ENVIRONMENT, "cannot write %s: %s", path,
				strerror(errno));
	return 0;
}

/* Temp file in the same directory, then rename (base/atomic_file.h): a
 * web server or a reader of FILE sees the old report or the new one, never
 * half of one. An existing file keeps its mode and owner; a symbolic link
 * is never replaced by a file (its target would silently stop being
 * updated). */
static int write_atomically(const char *path, FILE *doc)
{
	struct atomic_file af;
	struct stat old;
	bool exists;
	int fd;

	exists = lstat(path, &old) == 0;
	if (exists && S_ISLNK(old.st_mode))
		return cli_usage_error("-o %s is a symbolic link: give the "
				       "file it points to, which is then "
				       "replaced", path);
	if (exists && S_ISDIR(old.st_mode))
		return cli_usage_error("-o %s is a directory: give a file "
				       "name", path);
	if (exists && (S_ISFIFO(old.st_mode) || S_ISCHR(old.st_mode) ||
		       S_ISBLK(old.st_mode) || S_ISSOCK(old.st_mode)))
		return write_through(path, doc);
	if (atomic_file_open(&af, AT_FDCWD, path,
			     exists ? old.st_mode & 07777
				    : atomic_file_umasked(0666)))
		return cli_fail(EXIT_ENVIRONMENT, "cannot write %s: %s", path,
				strerror(errno));
	/* Nothing is buffered in af.f yet: the document goes to its fd. */
	if (write_all(fileno(af.f), doc)) {
		atomic_file_abort(&af);
		return cli_fail(EXIT_ENVIRONMENT, "cannot write %s: %s", path,
				strerror(errno));
	}
	/* Owner first: chown clears the set-id bits that the commit's
	 * fchmod sets. A file of another owner that we may not give away
	 * is written in place instead, which keeps its owner but is not
	 * atomic. */
	if (exists && (old.st_uid != geteuid() || old.st_gid != getegid()) &&
	    fchown(fileno(af.f), old.st_uid, old.st_gid)) {
		atomic_file_abort(&af);
		diag_warn("cannot give the new %s to its owner (uid %u): "
			  "rewriting it in place", path,
			  (unsigned)old.st_uid);
		fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || write_all(fd, doc) || close(fd))
			return cli_fail(EXIT_ENVIRONMENT, "cannot write %s: %s",
					path, strerror(errno));
		return 0;
	}
	if (atomic_file_commit(&af))
		return cli_fail(EXIT_ENVIRONMENT, "cannot write %s: %s", path,
				strerror(errno));
	return 0;
}

/* Rendered to a temporary file, not to memory: the SVG of a thousand
 * hosts is most of a gigabyte. Then copied to stdout or FILE whole, so
 * neither gets a part of it when rendering fails. */
static int render_markup(const struct report_opts *opts, const struct report *r,
			 const struct report_grouping *groups)
{
	FILE *doc = tmpfile();
	int rc = 0;

	if (!doc)
		return cli_fail(EXIT_ENVIRONMENT, "cannot buffer output: %s",
				strerror(errno));
	if (opts->svg)
		report_render_svg(doc, r, opts->title);
	else if (groups)
		report_groups_render_html(doc, r, groups, opts->title);
	else
		report_render_html(doc, r, opts->title);
	if (fflush(doc) || ferror(doc)) {
		fclose(doc);
		return cli_fail(EXIT_ENVIRONMENT, "cannot buffer output: %s",
				strerror(errno));
	}
	if (opts->output)
		rc = write_atomically(opts->output, doc);
	else if (fflush(stdout) || write_all(STDOUT_FILENO, doc))
		rc = cli_fail(EXIT_ENVIRONMENT, "cannot write output: %s",
			      strerror(errno));
	fclose(doc);
	return rc;
}

/* Straight to stdout as it is written: the document of a fabric is
 * larger than any tree of it should be. Only a failing stdout stops it
 * half way, and then nothing reads it. */
static int render_json(const struct common_opts *common,
		       const struct report *r)
{
	if (report_render_json(stdout, r, common->pretty))
		return cli_fail(EXIT_ENVIRONMENT, "cannot write output: %s",
				strerror(errno));
	return 0;
}

/* --baseline: the earlier results and the current ones, each merged as
 * report merges them, then compared pair by pair. Exit 1 on a
 * regression only: a pair lost in both runs is no news. */
static int report_baseline(const struct report_opts *opts,
			   const struct common_opts *common, int argc,
			   char **argv)
{
	struct report old, cur;
	struct report_diff diff = { 0 };
	char *old_argv[] = { (char *)opts->baseline };
	char *stdin_only[] = { "-" };
	double pct = opts->rtt_regression_pct >= 0 ? opts->rtt_regression_pct
						  : REPORT_RTT_REGRESSION_PCT;
	int rc;

	report_init(&old);
	report_init(&cur);
	old.latest = cur.latest = opts->latest;
	if (argc == 0) {
		argc = 1;
		argv = stdin_only;
	}
	if (strcmp(opts->baseline, "-") == 0) {
		for (int i = 0; i < argc; i++)
			if (strcmp(argv[i], "-") == 0) {
				rc = cli_usage_error("--baseline - and the "
						     "current results cannot "
						     "both be stdin");
				goto out;
			}
	}
	rc = read_inputs(&old, 1, old_argv);
	if (rc == 0)
		rc = read_inputs(&cur, argc, argv);
	if (rc == 0 && report_diff_build(&old, &cur, pct, REPORT_RTT_FLOOR_US,
					 &diff))
		rc = cli_fail(EXIT_ENVIRONMENT, "out of memory comparing "
			      "%zu pairs with %zu", cur.pairs, old.pairs);
	if (rc)
		goto out;
	print_warnings(&old);
	print_warnings(&cur);
	if (common->json) {
		if (report_diff_render_json(stdout, &diff, opts->baseline,
					    (const char *const *)argv,
					    (size_t)argc, common->pretty))
			rc = cli_fail(EXIT_ENVIRONMENT, "cannot write output: "
				      "%s", strerror(errno));
	} else {
		report_diff_render_text(&diff);
	}
	if (rc == 0)
		rc = diff.regressions ? EXIT_PROBLEM : EXIT_FINE;
out:
	report_diff_free(&diff);
	report_free(&old);
	report_free(&cur);
	return rc;
}

/* Like plan --groups: hosts the file does not name are groups of their
 * own, worth a warning (a typo in the file looks just like that). */
static void warn_ungrouped(const struct report_opts *opts,
			   const struct report_grouping *g)
{
	char name[1024];

	for (size_t k = 0; opts->groups && !opts->groups_sa && k < g->count;
	     k++)
		if (g->groups[k].ungrouped) {
			diag_warn("%s: %zu host%s in no group, each a group "
				  "of its own (the first: '%s')", opts->groups,
				  g->ungrouped,
				  g->ungrouped == 1 ? "" : "s",
				  text_escape(g->groups[k].name,
					      strlen(g->groups[k].name), name,
					      sizeof(name)));
			return;
		}
}

/* --groups sa: the hosts the SA gave no leaf switch, in one line with
 * why; then the destinations that sent no results of their own (their
 * LID is not in any result). */
static void warn_sa_ungrouped(const struct report_grouping *g,
			      const struct sa_groups *s)
{
	char line[1024];
	size_t hosts = 0, len = 0;

	for (int k = 0; k < LEAF_STATUS_COUNT; k++)
		hosts += s->ungrouped[k];
	for (int k = 0; k < LEAF_STATUS_COUNT; k++)
		if (s->ungrouped[k])
			len += (size_t)snprintf(line + len, len < sizeof(line)
						? sizeof(line) - len : 0,
						"%s%zu %s", len ? ", " : "",
						s->ungrouped[k],
						leaf_status_reason(k));
	if (hosts)
		diag_warn("--groups sa: %zu host%s in no group, each a group "
			  "of its own: %s", hosts, hosts == 1 ? "" : "s", line);
	if (g->ungrouped > hosts)
		diag_warn("--groups sa: %zu destination%s that sent no "
			  "results of their own in no group (their LID is in "
			  "no result), each a group of its own",
			  g->ungrouped - hosts,
			  g->ungrouped - hosts == 1 ? "" : "s");
}

/* --groups sa opens the SA before the results are read: a host without
 * an InfiniBand port learns it before a long merge. Exit 3, as path and
 * trace: a RoCE port gets its own words. */
static int open_sa(const struct common_opts *common, struct sa_client *sa)
{
	char err[DIAG_MSG_MAX * 2], dev[IBV_SYSFS_NAME_MAX + 1];
	uint8_t port;

	if (sa_client_open(sa, common->device, common->port, err,
			   sizeof(err)) == SA_CLIENT_OK)
		return 0;
	if (!path_port_is_roce(common->device, common->port, dev, sizeof(dev),
			       &port))
		return cli_fail(EXIT_ENVIRONMENT, "--groups sa needs the "
				"InfiniBand SA: %s; give a groups file "
				"instead", err);
	return cli_fail(EXIT_ENVIRONMENT, "--groups sa needs the InfiniBand "
			"SA: %s port %u is RoCE, which has none (leaf switches "
			"are not known there); give a groups file instead",
			dev, port);
}

/* Every source port's leaf switch, asked in two windowed batches, as
 * the host groups a file would give. */
static int sa_host_groups(const struct common_opts *common,
			  struct sa_client *sa, const struct report *r,
			  struct host_groups *hg, struct sa_groups *s)
{
	char err[DIAG_MSG_MAX * 2];

	if (sa_groups_collect(s, r))
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	if (sa_groups_fetch(s, sa, PATH_DEFAULT_WINDOW, common->timeout_ms,
			    PATH_DEFAULT_RETRIES, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	diag_verbose(1, "report: %zu LinkRecord and %zu NodeRecord queries "
		     "for %zu source ports of %zu sources",
		     s->link_queries, s->node_queries, s->port_count,
		     s->source_count);
	if (sa_groups_build(s, hg, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	if (s->split_hosts)
		diag_verbose(1, "report: %zu host%s on several leaf switches: "
			     "each port in its own switch's group",
			     s->split_hosts, s->split_hosts == 1 ? "" : "s");
	return 0;
}

/* Read before the results: a bad groups file is reported before a long
 * merge, and "-" cannot be both the groups file and the results. */
static int load_groups(const struct report_opts *opts, struct host_groups *hg,
		       int argc, char **argv)
{
	char err[DIAG_MSG_MAX * 2];
	bool results_on_stdin = argc == 0;

	for (int i = 0; i < argc; i++)
		results_on_stdin |= strcmp(argv[i], "-") == 0;
	if (strcmp(opts->groups, "-") == 0 && results_on_stdin)
		return cli_usage_error("--groups -: the results are read from "
				       "stdin too; give the groups file by "
				       "name");
	if (host_groups_load(hg, opts->groups, err, sizeof(err)))
		return cli_usage_error("--groups: %s", err);
	return 0;
}

/* --groups folds every form but the SVG; without it the HTML page of a
 * fabric above REPORT_GROUPS_AUTO_HOSTS sources or destinations is the
 * canvas page too (one group, "all hosts"): the SVG page would hold a
 * DOM node per cell. */
static int fold_groups(const struct report_opts *opts, const struct report *r,
		       const struct host_groups *hg,
		       struct report_grouping *g, bool *folded)
{
	char err[DIAG_MSG_MAX * 2];

	*folded = false;
	if (!opts->groups && !(opts->html &&
			      (r->row_count > REPORT_GROUPS_AUTO_HOSTS ||
			       r->col_count > REPORT_GROUPS_AUTO_HOSTS)))
		return 0;
	if (report_groups_build(g, r, opts->groups ? hg : NULL, err,
				sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	*folded = true;
	warn_ungrouped(opts, g);
	return 0;
}

/* --ports: every file read and checked before a byte is written (a bad
 * one is exit 2 with stdout empty), the audit rendered to a temporary
 * file and then copied whole. Exit 1 when a pinned value differs. */
static int report_ports(const struct report_opts *opts,
			const struct common_opts *common, int argc,
			char **argv)
{
	char err[DIAG_MSG_MAX * 2], name[1024];
	char *stdin_only[] = { "-" };
	struct ports_audit a;
	FILE *doc = NULL;
	int rc = 0;

	ports_audit_init(&a);
	a.expect_gid_index = opts->expect_gid_index;
	a.expect_mtu = opts->expect_mtu;
	if (argc == 0) {
		argc = 1;
		argv = stdin_only;
	}
	for (int i = 0; rc == 0 && i < argc; i++) {
		bool is_stdin = strcmp(argv[i], "-") == 0;
		FILE *f = is_stdin ? stdin : fopen(argv[i], "r");

		text_escape(argv[i], strlen(argv[i]), name, sizeof(name));
		if (!f) {
			rc = cli_usage_error("cannot open %s: %s", name,
					     strerror(errno));
			break;
		}
		if (ports_audit_read_stream(&a, is_stdin ? "<stdin>" : name, f,
					    err, sizeof(err)))
			rc = cli_usage_error("%s", err);
		if (!is_stdin)
			fclose(f);
	}
	if (rc == 0 && ports_audit_build(&a, err, sizeof(err)))
		rc = cli_usage_error("%s", err);
	if (rc == 0 && !(doc = tmpfile()))
		rc = cli_fail(EXIT_ENVIRONMENT, "cannot buffer output: %s",
			      strerror(errno));
	if (rc == 0) {
		for (size_t k = 0; k < a.warning_count; k++)
			diag_warn("%s", text_escape(a.warnings[k],
						    strlen(a.warnings[k]),
						    err, sizeof(err)));
		if (common->json)
			report_render_ports_json(doc, &a, common->pretty);
		else if (opts->html)
			report_render_ports_html(doc, &a, opts->title);
		else
			report_render_ports_text(doc, &a);
		if (fflush(doc) || ferror(doc))
			rc = cli_fail(EXIT_ENVIRONMENT, "cannot buffer "
				      "output: %s", strerror(errno));
	}
	if (rc == 0 && opts->output)
		rc = write_atomically(opts->output, doc);
	else if (rc == 0 && (fflush(stdout) || write_all(STDOUT_FILENO, doc)))
		rc = cli_fail(EXIT_ENVIRONMENT, "cannot write output: %s",
			      strerror(errno));
	if (doc)
		fclose(doc);
	if (rc == 0 && !ports_audit_as_expected(&a))
		rc = EXIT_PROBLEM;
	ports_audit_free(&a);
	return rc;
}

static int report_exec(const struct common_opts *common, void *ctx,
		       int argc, char **argv)
{
	struct report_opts *opts = ctx;
	struct report r;
	struct report_grouping groups;
	struct host_groups hg = { 0 };
	struct sa_groups sa_groups = { 0 };
	struct sa_client sa;
	struct report_traces traces = { 0 };
	struct trace_aliases aliases = { 0 };
	struct report_path_suspects path_suspects = { 0 };
	struct localise localise = { 0 };
	struct identifiability identifiability = { 0 };
	struct hop_changes hop_changes = { 0 };
	bool folded = false, sa_open = false;
	int rc;

	rc = check_options(opts, common);
	if (rc)
		return rc;
	if (opts->baseline)
		return report_baseline(opts, common, argc, argv);
	if (opts->ports)
		return report_ports(opts, common, argc, argv);
	report_init(&r);
	r.latest = opts->latest;
	if (opts->expect)
		rc = read_expect(opts, &r.expect);
	if (rc == 0 && opts->groups_sa) {
		rc = open_sa(common, &sa);
		sa_open = rc == 0;
	} else if (rc == 0 && opts->groups) {
		rc = load_groups(opts, &hg, argc, argv);
	}
	if (rc == 0)
		rc = read_inputs(&r, argc, argv);
	if (rc == 0 && opts->trace_count) {
		rc = read_traces(opts, &traces, argc, argv);
		if (rc == 0 && trace_aliases_fold(&traces, &aliases))
			rc = cli_fail(EXIT_ENVIRONMENT, "out of memory telling "
				      "the addresses of %zu traces' routers "
				      "apart", traces.count);
		/* One join of the results with the traces, for the four
		 * readers below. */
		if (rc == 0 && (report_traces_join(&traces, &r) ||
				report_path_suspects_find(&path_suspects, &r,
							  &traces)))
			rc = cli_fail(EXIT_ENVIRONMENT, "out of memory joining "
				      "%zu traces with %zu results",
				      traces.count, r.record_count);
		if (rc == 0 && localise_run(&localise, &r, &traces))
			rc = cli_fail(EXIT_ENVIRONMENT, "out of memory "
				      "localising %zu results over %zu traces",
				      r.record_count, traces.count);
		if (rc == 0 && identifiability_find(&identifiability, &r,
						     &traces))
			rc = cli_fail(EXIT_ENVIRONMENT, "out of memory "
				      "comparing the paths of %zu traces",
				      traces.count);
		if (rc == 0 && hop_changes_find(&hop_changes, &r, &traces))
			rc = cli_fail(EXIT_ENVIRONMENT, "out of memory "
				      "comparing the hops of %zu results",
				      r.record_count);
		/* Read by those four only: its memory back for rendering. */
		report_trace_join_free(&traces.join);
		if (rc == 0) {
			r.path_suspects = &path_suspects;
			r.localise = &localise;
			r.identifiability = &identifiability;
			r.hop_changes = &hop_changes;
		}
	}
	if (rc == 0 && sa_open)
		rc = sa_host_groups(common, &sa, &r, &hg, &sa_groups);
	if (sa_open)
		sa_client_close(&sa);
	if (rc == 0)
		print_warnings(&r);
	if (rc == 0)
		rc = fold_groups(opts, &r, &hg, &groups, &folded);
	if (rc == 0 && folded && opts->groups_sa)
		warn_sa_ungrouped(&groups, &sa_groups);
	if (rc == 0) {
		if (opts->svg || opts->html)
			rc = render_markup(opts, &r, folded ? &groups : NULL);
		else if (folded && common->json)
			report_groups_render_json(&r, &groups);
		else if (folded)
			report_groups_render_text(&r, &groups);
		else if (common->json)
			rc = render_json(common, &r);
		else
			report_render_text(&r);
	}
	if (folded)
		report_groups_free(&groups);
	host_groups_free(&hg);
	sa_groups_free(&sa_groups);
	if (rc == 0)
		rc = report_all_fine(&r) ? EXIT_FINE : EXIT_PROBLEM;
	report_free(&r);
	report_path_suspects_free(&path_suspects);
	localise_free(&localise);
	identifiability_free(&identifiability);
	hop_changes_free(&hop_changes);
	report_traces_free(&traces);
	return rc;
}

static void report_opts_release(void *ctx)
{
	struct report_opts *opts = ctx;

	free(opts->traces);
}

/* report touches no device but for --groups sa, which asks the SA on
 * -d/-P with -t: -g changes nothing. */
static const char *const report_common_used[] = {
	"device", "port", "timeout", "json", "pretty", "verbose", "quiet",
	"help", "version", NULL,
};

const struct command cmd_report = {
	.name = "report",
	.args = "[FILE...]",
	.operands = COMPLETE_FILE,
	.summary = "merge probe results of many hosts into one source x "
		   "destination matrix: text, JSON, SVG or HTML",
	.options = report_options,
	.ctx_size = sizeof(struct report_opts),
	.ctx_defaults = &report_defaults,
	.parse_option = report_option,
	.exec = report_exec,
	.ctx_release = report_opts_release,
	.common_used = report_common_used,
};
