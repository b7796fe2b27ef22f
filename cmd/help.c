/* ibahprobe help [COMMAND]: the overview, or one command's options. */
#include "cli.h"
#include "base/diag.h"

static int help_exec(const struct common_opts *common, void *ctx,
		     int argc, char **argv)
{
	const struct command *cmd;

	(void)ctx;
	(void)common;
	if (argc == 0) {
		cli_print_overview();
		return EXIT_FINE;
	}
	if (argc > 1)
		return cli_usage_error("help takes one command name");
	cmd = command_find(argv[0]);
	if (!cmd)
		return cli_usage_error("unknown command '%s'; 'ibahprobe help' "
				       "lists the commands",
				       argv[0]);
	cli_print_command_help(cmd);
	return EXIT_FINE;
}

static const struct opt_spec help_options[] = { OPT_END };

const struct command cmd_help = {
	.name = "help",
	.args = "[COMMAND]",
	.summary = "show the commands, or one command's options",
	.options = help_options,
	.exec = help_exec,
};
