/* One local port for a command: discovery, the choice of port and what is
 * said about it, written once for probe, check, ah and the rest. */
#include <string.h>

#include "cli.h"
#include "cli_port.h"
#include "verbs/sgid_select.h"

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

int cli_check_gid_index(const struct cli_port *cp, int gid_index)
{
	struct ah_port_facts facts;
	char err[DIAG_MSG_MAX];

	if (gid_index < 0 || !cp->port)
		return 0;
	ah_port_facts_from_port(cp->port, &facts);
	if (sgid_index_check(&facts, cp->dev->name, (uint32_t)gid_index, err,
			     sizeof(err)))
		return cli_usage_error("%s", err);
	return 0;
}
