/* ibahprobe version: the version, and with -j the features compiled in. */
#include <json-c/json.h>

#include "cli.h"
#include "base/diag.h"
#include "out/output.h"

static int version_exec(const struct common_opts *common, void *ctx,
			int argc, char **argv)
{
	(void)ctx;
	(void)common;
	(void)argv;
	if (argc > 0)
		return cli_usage_error("version takes no arguments");
	out_open_object(NULL);
	out_string("version", "ibahprobe %s\n", IBAHPROBE_VERSION);
	out_open_object("features");
	/* The libraries the binary is linked with, as the build found them. */
	out_bool("verbs", NULL, true);
	out_bool("umad", NULL, true);
	out_bool("mad", NULL, true);
	out_string("json_c", NULL, json_c_version());
	out_close_object();
	out_close_object();
	return EXIT_FINE;
}

static const struct opt_spec version_options[] = { OPT_END };

const struct command cmd_version = {
	.name = "version",
	.summary = "show the version (with -j: the features compiled in)",
	.options = version_options,
	.exec = version_exec,
};
