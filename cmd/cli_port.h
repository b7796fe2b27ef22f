/* The preamble of every command that works on one local port: the devices
 * found, the port -d and -P ask for (default: the first ACTIVE one), the
 * note when another port than the expected one is taken, and the error and
 * exit status when there is none. */
#ifndef IBAHPROBE_CLI_PORT_H
#define IBAHPROBE_CLI_PORT_H

#include <stdint.h>

#include "base/diag.h"
#include "verbs/device.h"

struct cli_port {
	struct device_list devices;	/* owns dev and port */
	const struct device_info *dev;	/* NULL: no port */
	const struct port_info *port;
	/* "using mlx5_1 port 1: mlx5_0 port 1 is DOWN": a port other than
	 * the one a user would expect was taken; "" if not. */
	char note[DIAG_MSG_MAX];
	char err[DIAG_MSG_MAX];		/* why there is no port */
};

enum cli_port_flags {
	/* No port is the caller's to say (ah --dry-run assumes one, serve
	 * keeps its old facts): cli_open_port returns -1 with err set and
	 * says nothing. */
	CLI_PORT_NO_FAIL = 1 << 0,
	/* The note is kept in note only, not warned on stderr (trace on
	 * RoCE prints it in its own output). */
	CLI_PORT_KEEP_NOTE = 1 << 1,
};

/* Finds device's port (device NULL: any device; port 0: the first ACTIVE
 * port). Returns 0 with dev and port set; when there is none, the error on
 * stderr (and as JSON under -j) and EXIT_ENVIRONMENT, or -1 with
 * CLI_PORT_NO_FAIL. cli_close_port frees it either way. */
int cli_open_port(struct cli_port *cp, const char *device, uint8_t port,
		  unsigned flags);
void cli_close_port(struct cli_port *cp);

/* -g N (gid_index >= 0) against the GID table of the port opened: 0, or
 * the error said ("sgid_index 9 is empty on ...") and EXIT_USAGE, before
 * anything is sent. */
int cli_check_gid_index(const struct cli_port *cp, int gid_index);

/* Every device -d names (all without -d), for a command that lists them
 * rather than picking one port (ports). Returns 0, or the error said and
 * EXIT_ENVIRONMENT. */
int cli_discover_devices(struct device_list *list, const char *device);

#endif
