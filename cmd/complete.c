/* ibahprobe __complete: the command and option tables for the bash and zsh
 * completions and the man-page test, so none keeps its own copy.
 *   __complete commands              one command name per line
 *   __complete options [COMMAND]     "--long<TAB>-s<TAB>ARG<TAB>KIND<TAB>WORDS"
 *   __complete operands COMMAND      KIND of its positional arguments
 *   __complete devices               RDMA device names in /sys */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "base/diag.h"

static const char *kind_name(enum complete_kind kind)
{
	switch (kind) {
	case COMPLETE_FILE: return "file";
	case COMPLETE_DEVICE: return "device";
	case COMPLETE_WORDS: return "words";
	case COMPLETE_NONE: break;
	}
	return "none";
}

static void print_options(const struct opt_spec *opts)
{
	char shortopt[3] = "";

	for (size_t i = 0; opts && opts[i].long_name; i++) {
		if (opts[i].short_name)
			snprintf(shortopt, sizeof(shortopt), "-%c",
				 opts[i].short_name);
		else
			shortopt[0] = '\0';
		printf("--%s\t%s\t%s\t%s\t%s\n", opts[i].long_name, shortopt,
		       opts[i].arg ? opts[i].arg : "", kind_name(opts[i].complete),
		       opts[i].words ? opts[i].words : "");
	}
}

static void print_devices(void)
{
	DIR *dir = opendir("/sys/class/infiniband");
	struct dirent *e;

	if (!dir)
		return;
	while ((e = readdir(dir)))
		if (e->d_name[0] != '.')
			printf("%s\n", e->d_name);
	closedir(dir);
}

static int complete_exec(const struct common_opts *common, void *ctx,
			 int argc, char **argv)
{
	const struct command *cmd;

	(void)ctx;
	(void)common;
	if (argc >= 1 && strcmp(argv[0], "commands") == 0 && argc == 1) {
		for (size_t i = 0; commands[i]; i++)
			if (!commands[i]->hidden)
				printf("%s\n", commands[i]->name);
		return EXIT_FINE;
	}
	if (argc >= 1 && strcmp(argv[0], "options") == 0 && argc <= 2) {
		if (argc == 1) {
			print_options(common_options);
			return EXIT_FINE;
		}
		cmd = command_find(argv[1]);
		if (!cmd)
			return cli_usage_error("unknown command '%s'", argv[1]);
		print_options(cmd->options);
		return EXIT_FINE;
	}
	if (argc == 2 && strcmp(argv[0], "operands") == 0) {
		cmd = command_find(argv[1]);
		if (!cmd)
			return cli_usage_error("unknown command '%s'", argv[1]);
		printf("%s\n", kind_name(cmd->operands));
		return EXIT_FINE;
	}
	if (argc == 1 && strcmp(argv[0], "devices") == 0) {
		print_devices();
		return EXIT_FINE;
	}
	return cli_usage_error("usage: ibahprobe __complete commands | options "
			       "[COMMAND] | operands COMMAND | devices");
}

static const struct opt_spec complete_options[] = { OPT_END };

const struct command cmd_complete = {
	.name = "__complete",
	.args = "commands | options [COMMAND] | operands COMMAND | devices",
	.summary = "tables for shell completion (internal)",
	.options = complete_options,
	.exec = complete_exec,
	.hidden = true,
};
