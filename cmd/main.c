/* ibahprobe's entry point: common options, the command table, and the
 * dispatch that gives every command the same parsing, help and errors. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "base/dest.h"
#include "base/diag.h"
#include "out/output.h"
#include "base/parse.h"

const struct command *const commands[] = {
	&cmd_ports, &cmd_path, &cmd_ah, &cmd_serve, &cmd_probe, &cmd_check,
	&cmd_report, &cmd_plan, &cmd_trace, &cmd_help, &cmd_version, &cmd_complete, NULL,
};

enum common_option {
	OPT_DEVICE, OPT_PORT, OPT_GID_INDEX, OPT_TIMEOUT, OPT_JSON, OPT_PRETTY,
	OPT_VERBOSE, OPT_QUIET, OPT_HELP, OPT_VERSION, OPT_COMMON_COUNT,
};

const struct opt_spec common_options[] = {
	[OPT_DEVICE] = { "device", 'd', "NAME", "RDMA device (default: the "
			 "first with an active port)", COMPLETE_DEVICE, NULL },
	[OPT_PORT] = { "port", 'P', "N", "port number (default: the first "
		       "active port)", COMPLETE_NONE, NULL },
	[OPT_GID_INDEX] = { "gid-index", 'g', "N|auto", "source GID index, "
			    "or auto: the GID of the route to each "
			    "destination",
			    COMPLETE_WORDS, "auto" },
	[OPT_TIMEOUT] = { "timeout", 't', "MS", "per-query or per-probe "
			  "deadline in milliseconds (default 1000)",
			  COMPLETE_NONE, NULL },
	[OPT_JSON] = { "json", 'j', NULL, "JSON output", COMPLETE_NONE, NULL },
	[OPT_PRETTY] = { "pretty", 0, NULL, "indented JSON output (implies "
			 "--json)", COMPLETE_NONE, NULL },
	[OPT_VERBOSE] = { "verbose", 'v', NULL, "say more on stderr "
			  "(repeatable)", COMPLETE_NONE, NULL },
	[OPT_QUIET] = { "quiet", 'q', NULL, "no warnings on stderr",
			COMPLETE_NONE, NULL },
	[OPT_HELP] = { "help", 'h', NULL, "show help and exit", COMPLETE_NONE,
		       NULL },
	[OPT_VERSION] = { "version", 'V', NULL, "show the version and exit",
			  COMPLETE_NONE, NULL },
	[OPT_COMMON_COUNT] = OPT_END,
};

/* getopt values: common options and command options kept apart. */
#define VAL_COMMON 0x1000
#define VAL_OWN 0x2000
#define MAX_OPTIONS 64

const struct command *command_find(const char *name)
{
	for (size_t i = 0; commands[i]; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

/* Usage errors met while the command line is parsed wait until all of it is
 * read: whether they are reported as JSON depends on -j, --pretty or
 * --jsonl anywhere on the line, and that is known only at its end. Only
 * the first is reported, as before; its message is kept here. There is no
 * second scan of argv that could disagree with getopt about -j. */
static struct {
	bool parsing;
	bool held;
	int exit_status;
	char message[DIAG_MSG_MAX * 2];
} held_error;

static bool json_lines_requested;

void cli_set_json_lines(void)
{
	json_lines_requested = true;
}

static int vfail(int exit_status, const char *fmt, va_list ap)
{
	char msg[DIAG_MSG_MAX * 2];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (held_error.parsing) {
		if (!held_error.held) {
			held_error.held = true;
			held_error.exit_status = exit_status;
			snprintf(held_error.message, sizeof(held_error.message),
				 "%s", msg);
		}
		return exit_status;
	}
	diag_error("%s", msg);
	return out_fail(exit_status, msg);
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail(EXIT_USAGE, fmt, ap);
	va_end(ap);
	return rc;
}

int cli_fail(int exit_status, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail(exit_status, fmt, ap);
	va_end(ap);
	return rc;
}

int cli_collect_dests(const char *cmd, int argc, char **argv,
		      const char *file, struct dest_list *dests)
{
	char err[DIAG_MSG_MAX + 64];

	if (dest_list_collect(dests, argc, argv, file, err, sizeof(err)))
		return cli_usage_error("%s", err);
	return cmd ? cli_need_dests(cmd, dests) : 0;
}

int cli_need_dests(const char *cmd, const struct dest_list *dests)
{
	if (dests->count == 0)
		return cli_usage_error("%s needs at least one destination; "
				       "'ibahprobe %s -h' shows the forms",
				       cmd, cmd);
	return 0;
}

static bool listed(const char *const *names, const char *name)
{
	for (; names && *names; names++)
		if (strcmp(*names, name) == 0)
			return true;
	return !names;
}

/* only: the long names to print; NULL: all. */
static void print_option_lines(const struct opt_spec *opts,
			       const char *const *only)
{
	char left[64];

	for (size_t i = 0; opts[i].long_name; i++) {
		const struct opt_spec *o = &opts[i];

		if (!listed(only, o->long_name))
			continue;
		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
				 o->short_name, o->long_name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s",
				 o->long_name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		printf("  %-28s %s\n", left, o->help);
	}
}

void cli_print_command_help(const struct command *cmd)
{
	printf("Usage: ibahprobe [OPTIONS] %s [OPTIONS]%s%s\n\n%s\n", cmd->name,
	       cmd->args ? " " : "", cmd->args ? cmd->args : "", cmd->summary);
	if (cmd->options && cmd->options[0].long_name) {
		printf("\nOptions of %s:\n", cmd->name);
		print_option_lines(cmd->options, NULL);
	}
	/* A command's help offers only what changes what it does. */
	printf("\nCommon options:\n");
	print_option_lines(common_options, cmd->common_used);
	printf("\nExit status: 0 fine, 1 a destination failed, 2 usage or bad "
	       "input, 3 environment.\nSee ibahprobe-%s(8).\n", cmd->name);
}

void cli_print_overview(void)
{
	printf("Usage: ibahprobe [OPTIONS] COMMAND [OPTIONS] [ARGS]\n\n"
	       "UD reachability and address-handle diagnostics for "
	       "InfiniBand and RoCE.\n\nCommands:\n");
	for (size_t i = 0; commands[i]; i++)
		if (!commands[i]->hidden)
			printf("  %-10s %s\n", commands[i]->name,
			       commands[i]->summary);
	printf("\nCommon options:\n");
	print_option_lines(common_options, NULL);
	printf("\nExit status: 0 fine, 1 a destination failed, 2 usage or bad "
	       "input, 3 environment.\n'ibahprobe help COMMAND' shows a "
	       "command's options; see ibahprobe(8).\n");
}

static int print_version(void)
{
	return cmd_version.exec(NULL, NULL, 0, NULL);
}

/* The command's context, with its defaults; NULL when it has none (or
 * memory is short: the caller tells the two apart by ctx_size). */
static void *command_ctx_new(const struct command *cmd)
{
	void *ctx;

	if (!cmd || !cmd->ctx_size)
		return NULL;
	ctx = calloc(1, cmd->ctx_size);
	if (ctx && cmd->ctx_defaults)
		memcpy(ctx, cmd->ctx_defaults, cmd->ctx_size);
	return ctx;
}

static void command_ctx_free(const struct command *cmd, void *ctx)
{
	if (ctx && cmd->ctx_release)
		cmd->ctx_release(ctx);
	free(ctx);
}

struct option_table {
	struct option longs[MAX_OPTIONS + 1];
	char shorts[MAX_OPTIONS * 3 + 2];
};

static void table_add(struct option_table *t, size_t *n, size_t *s,
		      const struct opt_spec *o, int val)
{
	t->longs[*n] = (struct option){ o->long_name,
					o->arg ? required_argument : no_argument,
					NULL, val };
	(*n)++;
	if (o->short_name) {
		t->shorts[(*s)++] = (char)o->short_name;
		if (o->arg)
			t->shorts[(*s)++] = ':';
	}
}

/* "+" stops at the command name; ":" lets us word missing arguments. */
static void table_build(struct option_table *t, const struct opt_spec *own,
			bool stop_at_operand)
{
	size_t n = 0, s = 0;

	memset(t, 0, sizeof(*t));
	if (stop_at_operand)
		t->shorts[s++] = '+';
	t->shorts[s++] = ':';
	for (size_t i = 0; common_options[i].long_name; i++)
		table_add(t, &n, &s, &common_options[i], VAL_COMMON + (int)i);
	for (size_t i = 0; own && own[i].long_name && n < MAX_OPTIONS; i++)
		table_add(t, &n, &s, &own[i], VAL_OWN + (int)i);
}

static int apply_common(int index, const char *arg, struct common_opts *common,
			bool *help, bool *version)
{
	char err[DIAG_MSG_MAX];
	uint32_t value;

	switch (index) {
	case OPT_DEVICE:
		common->device = arg;
		return 0;
	case OPT_PORT:
		if (parse_port_num(arg, &common->port, err, sizeof(err)))
			return cli_usage_error("%s", err);
		return 0;
	case OPT_GID_INDEX:
		if (strcmp(arg, "auto") == 0) {
			common->gid_index = GID_INDEX_AUTO;
			return 0;
		}
		if (parse_u32(arg, "gid index", 0, 255, &value, err,
			      sizeof(err)))
			return cli_usage_error("%s (or auto)", err);
		common->gid_index = (int)value;
		return 0;
	case OPT_TIMEOUT:
		if (parse_timeout_ms(arg, &common->timeout_ms, err,
				     sizeof(err)))
			return cli_usage_error("%s", err);
		return 0;
	case OPT_JSON:
		common->json = true;
		return 0;
	case OPT_PRETTY:
		common->json = common->pretty = true;
		return 0;
	case OPT_VERBOSE:
		if (diag_verbosity < 0)
			diag_verbosity = 0;
		diag_verbosity++;
		return 0;
	case OPT_QUIET:
		diag_verbosity = -1;
		return 0;
	case OPT_HELP:
		*help = true;
		return 0;
	case OPT_VERSION:
		*version = true;
		return 0;
	}
	return cli_usage_error("internal: unknown common option %d", index);
}

/* A short option maps to its table entry by letter. */
static int apply_short(int c, const char *arg, const struct command *cmd,
		       void *ctx, struct common_opts *common, bool *help,
		       bool *version)
{
	for (size_t i = 0; common_options[i].long_name; i++)
		if (common_options[i].short_name == c)
			return apply_common((int)i, arg, common, help, version);
	for (size_t i = 0; cmd && cmd->options[i].long_name; i++)
		if (cmd->options[i].short_name == c)
			return cmd->parse_option(ctx, (int)i, arg);
	return cli_usage_error("internal: unhandled option %c", c);
}

/* Names the option getopt complained about, as the user typed it. */
static const char *option_name_of(const struct command *cmd, int opt,
				  const char *token, char *buf, size_t len)
{
	if (opt > 0 && opt < 0x100)
		snprintf(buf, len, "-%c", opt);
	else if (opt >= VAL_OWN && cmd)
		snprintf(buf, len, "--%s", cmd->options[opt - VAL_OWN].long_name);
	else if (opt >= VAL_COMMON)
		snprintf(buf, len, "--%s",
			 common_options[opt - VAL_COMMON].long_name);
	else
		snprintf(buf, len, "%s", token ? token : "?");
	return buf;
}

/* getopt_long says '?' for an unknown option, for an abbreviation that
 * fits several (probe --js: --json or --jsonl) and for --flag=VALUE: the
 * latter two deserve their own words. */
enum long_trouble { LONG_UNKNOWN, LONG_AMBIGUOUS, LONG_TAKES_NO_ARGUMENT };

static enum long_trouble long_option_trouble(const struct option_table *t,
					     const char *token)
{
	const struct option *match = NULL;
	size_t len, fits = 0;

	if (strncmp(token, "--", 2) != 0)
		return LONG_UNKNOWN;
	token += 2;
	len = strcspn(token, "=");
	for (size_t i = 0; t->longs[i].name; i++) {
		if (strncmp(t->longs[i].name, token, len) != 0)
			continue;
		if (strlen(t->longs[i].name) == len) {
			match = &t->longs[i];
			fits = 1;
			break;
		}
		match = &t->longs[i];
		fits++;
	}
	if (fits > 1)
		return LONG_AMBIGUOUS;
	if (fits == 1 && token[len] == '=' && match->has_arg == no_argument)
		return LONG_TAKES_NO_ARGUMENT;
	return LONG_UNKNOWN;
}

/* The two levels of a command line: the common options before the command
 * name (getopt stops at that name), and the rest, where the command's own
 * options and the common ones may stand among the operands. */
enum parse_stage { BEFORE_COMMAND, AFTER_COMMAND };

/* Parses the options of one level (cmd NULL after an unknown command: the
 * common options only, so a -j after it still counts). Goes on past a bad
 * option, so that every -j on the line is seen; returns 0, or the status of
 * the first failure (held, see held_error), and leaves optind at the first
 * operand. */
static int parse_level(int argc, char **argv, enum parse_stage stage,
		       const struct command *cmd, void *ctx,
		       struct common_opts *common, bool *help, bool *version)
{
	struct option_table t;
	enum long_trouble trouble;
	char name[80];
	int c, rc, first = 0;

	table_build(&t, cmd ? cmd->options : NULL, stage == BEFORE_COMMAND);
	/* 0, not 1: GNU getopt then forgets the previous level's ordering
	 * mode, so options may follow operands at the command level. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, t.shorts, t.longs, NULL)) != -1) {
		const char *token = argv[optind - 1];

		rc = 0;
		/* optopt is the letter for a short option; a long one has
		 * moved optind past its own word. */
		trouble = c == '?' && (optopt == 0 || optopt >= 0x100)
				  ? long_option_trouble(&t, token)
				  : LONG_UNKNOWN;
		if (trouble == LONG_AMBIGUOUS)
			rc = cli_usage_error("option '%s' is ambiguous; "
					     "'ibahprobe %s%s-h' lists the "
					     "options", token,
					     cmd ? cmd->name : "", cmd ? " " : "");
		else if (trouble == LONG_TAKES_NO_ARGUMENT)
			rc = cli_usage_error("option '%.*s' takes no argument",
					     (int)strcspn(token, "="), token);
		else if (c == '?')
			rc = cli_usage_error(
				"unknown option '%s'%s%s; 'ibahprobe %s%s-h' "
				"lists the options",
				option_name_of(cmd, optopt, token, name,
					       sizeof(name)),
				cmd ? " for " : "", cmd ? cmd->name : "",
				cmd ? cmd->name : "", cmd ? " " : "");
		else if (c == ':')
			rc = cli_usage_error(
				"option '%s' needs an argument",
				option_name_of(cmd, optopt, token, name,
					       sizeof(name)));
		else if (c >= VAL_OWN)
			rc = cmd->parse_option(ctx, c - VAL_OWN, optarg);
		else if (c >= VAL_COMMON)
			rc = apply_common(c - VAL_COMMON, optarg, common, help,
					  version);
		else
			rc = apply_short(c, optarg, cmd, ctx, common, help,
					 version);
		if (rc && !first)
			first = rc;
	}
	return first;
}

/* Output that could not be written is the local host's failure (exit 3),
 * whatever the destinations did: the results are lost. */
static int finish(int status)
{
	if (out_finish() != 0)
		return EXIT_ENVIRONMENT;
	return status;
}

/* The format the whole command line asks for: JSON Lines (probe --jsonl)
 * before JSON (-j, --pretty) before text. */
static void output_format_from(const struct common_opts *common)
{
	if (json_lines_requested)
		out_init(OUT_JSONL, false);
	else
		out_init(common->json ? OUT_JSON : OUT_TEXT, common->pretty);
}

/* The first failure of a list of steps that all ran. */
static int first_failure(int status, int next)
{
	return status ? status : next;
}

/* Parses the whole command line, then runs the command (or help), with
 * the command's context made before its options are read. */
static int dispatch(int argc, char **argv, const struct command **cmd_out,
		    void **ctx)
{
	struct common_opts common = {
		.gid_index = GID_INDEX_AUTO,
		.timeout_ms = DEFAULT_TIMEOUT_MS,
	};
	const struct command *cmd = NULL;
	bool help = false, version = false;
	int rc;

	held_error.parsing = true;
	rc = parse_level(argc, argv, BEFORE_COMMAND, NULL, NULL, &common,
			 &help, &version);
	if (optind >= argc) {
		if (!help && !version)
			rc = first_failure(rc, cli_usage_error(
				"no command given; 'ibahprobe help' lists the "
				"commands"));
	} else {
		cmd = command_find(argv[optind]);
		if (!cmd)
			rc = first_failure(rc, cli_usage_error(
				"unknown command '%s'; 'ibahprobe help' lists "
				"the commands", argv[optind]));
		*cmd_out = cmd;
		*ctx = command_ctx_new(cmd);
		if (cmd && cmd->ctx_size && !*ctx) {
			held_error.parsing = false;
			output_format_from(&common);
			return cli_fail(EXIT_ENVIRONMENT, "out of memory");
		}
		argc -= optind;
		argv += optind;
		rc = first_failure(rc, parse_level(argc, argv, AFTER_COMMAND,
						   cmd, *ctx, &common, &help,
						   &version));
	}
	held_error.parsing = false;
	output_format_from(&common);
	if (held_error.held) {
		diag_error("%s", held_error.message);
		return out_fail(held_error.exit_status, held_error.message);
	}
	if (rc)
		return rc;
	if (!cmd && version)
		return print_version();
	if (help) {
		if (cmd)
			cli_print_command_help(cmd);
		else
			cli_print_overview();
		return EXIT_FINE;
	}
	if (version)
		return print_version();
	return cmd->exec(&common, *ctx, argc - optind, argv + optind);
}

int main(int argc, char **argv)
{
	const struct command *cmd = NULL;
	void *ctx = NULL;
	int rc;

	rc = finish(dispatch(argc, argv, &cmd, &ctx));
	if (cmd)
		command_ctx_free(cmd, ctx);
	return rc;
}
