/* The command table and option tables: the single source for parsing, help
 * text, shell completion and the man-page consistency test. */
#ifndef IBAHPROBE_CLI_H
#define IBAHPROBE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a completion offers after an option or as an argument. */
enum complete_kind {
	COMPLETE_NONE,
	COMPLETE_FILE,
	COMPLETE_DEVICE,	/* RDMA device names */
	COMPLETE_WORDS,		/* the words in opt_spec.words */
};

struct opt_spec {
	const char *long_name;
	int short_name;		/* 0: long form only */
	const char *arg;	/* NULL: a flag without argument */
	const char *help;
	enum complete_kind complete;
	const char *words;	/* COMPLETE_WORDS: space-separated */
};

/* Ends every option table. */
#define OPT_END { NULL, 0, NULL, NULL, COMPLETE_NONE, NULL }

/* Common options, parsed before or after the command name. */
struct common_opts {
	const char *device;
	uint8_t port;		/* 0: first active port */
	int gid_index;		/* GID_INDEX_AUTO or 0..255 */
	uint32_t timeout_ms;
	bool json;
	bool pretty;
};
#define GID_INDEX_AUTO (-1)
#define DEFAULT_TIMEOUT_MS 1000

struct command {
	const char *name;
	const char *args;	/* synopsis of positional arguments */
	/* What completion offers as those arguments: COMPLETE_FILE for a
	 * command that reads files (check, report); else nothing. */
	enum complete_kind operands;
	const char *summary;
	const struct opt_spec *options; /* own options, { NULL } terminated */
	/* The command's state (its own options first) is a context of
	 * ctx_size bytes that the dispatcher makes before the command line
	 * is read, as a copy of ctx_defaults (NULL: zeroed), and hands to
	 * every call below. 0: no context (ctx is NULL). */
	size_t ctx_size;
	const void *ctx_defaults;
	/* Called once per own option seen; index into options. Returns 0 or
	 * an exit status (EXIT_USAGE after saying why). */
	int (*parse_option)(void *ctx, int index, const char *arg);
	/* Runs the command on its positional arguments; returns the exit
	 * status. Output goes through lib/out/output.h. */
	int (*exec)(const struct common_opts *common, void *ctx, int argc,
		    char **argv);
	/* Frees what parse_option allocated in ctx (NULL: nothing); called
	 * once the command is over, whether exec ran or not. */
	void (*ctx_release)(void *ctx);
	bool hidden;		/* internal: not listed in help */
	/* The common options the command uses (long names, NULL ended),
	 * which its help lists; NULL: all of them. */
	const char *const *common_used;
};

extern const struct opt_spec common_options[];
extern const struct command *const commands[];

const struct command *command_find(const char *name);

/* Bad input on the command line: message on stderr (and a JSON error
 * object when -j, --pretty or probe --jsonl is in force), returns
 * EXIT_USAGE. Called while options are parsed, it holds the message until
 * the whole line is read, since a -j may still follow. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Any other failure that ends the command with the given status. */
int cli_fail(int exit_status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct dest_list;
/* DEST arguments and the lines of FILE (-f; NULL: none) into dests;
 * bad input is exit 2. cmd non-NULL: the command needs at least one, and
 * none is bad input naming cmd's help. Returns 0 or EXIT_USAGE. */
int cli_collect_dests(const char *cmd, int argc, char **argv,
		      const char *file, struct dest_list *dests);
/* None in dests is bad input naming cmd's help (cli_collect_dests with
 * cmd, for a command with rules of its own in between). Returns 0 or
 * EXIT_USAGE. */
int cli_need_dests(const char *cmd, const struct dest_list *dests);

/* For an own option that makes the command's output JSON Lines (probe
 * --jsonl): the run, and any error on the same command line, is then
 * written as JSON Lines, one compact object per line. */
void cli_set_json_lines(void);

/* Prints "ibahprobe COMMAND ..." usage and option help to stdout. */
void cli_print_command_help(const struct command *cmd);
void cli_print_overview(void);

/* The command table, one entry per cmd/NAME.c. */
extern const struct command cmd_help;
extern const struct command cmd_version;
extern const struct command cmd_ports;
extern const struct command cmd_ah;
extern const struct command cmd_path;
extern const struct command cmd_serve;
extern const struct command cmd_probe;
extern const struct command cmd_check;
extern const struct command cmd_report;
extern const struct command cmd_plan;
extern const struct command cmd_trace;
extern const struct command cmd_complete;

#endif
