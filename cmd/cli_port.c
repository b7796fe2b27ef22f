/* One local port for a command: discovery, the choice of port and what is
 * said about it, written once for probe, check, ah and the rest. */
#include <string.h>

#include "cli.h"
#include "cli_port.h"

int cli_discover_devices(struct device_list *list, const char *device)
{
	char err[DIAG_MSG_MAX];

	if (device_discover(list, device, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	return 0;
}

int cli_open_port(struct cli_port *cp, const char *device, uint8_t port,
		  unsigned flags)
{
	memset(cp, 0, sizeof(*cp));
	if (device_discover(&cp->devices, device, cp->err, sizeof(cp->err)))
		goto none;
	cp->port = device_pick_port(&cp->devices, device, port, &cp->dev,
				    cp->note, sizeof(cp->note), cp->err,
				    sizeof(cp->err));
	if (!cp->port) {
		cp->dev = NULL;
		goto none;
	}
	if (cp->note[0] && !(flags & CLI_PORT_KEEP_NOTE))
		diag_warn("%s", cp->note);
	return 0;
none:
	if (flags & CLI_PORT_NO_FAIL)
		return -1;
	return cli_fail(EXIT_ENVIRONMENT, "%s", cp->err);
}

void cli_close_port(struct cli_port *cp)
{
	device_list_free(&cp->devices);
	cp->dev = NULL;
	cp->port = NULL;
}
