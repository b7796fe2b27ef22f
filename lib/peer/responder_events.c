/* The responder's asynchronous device events (ibv_get_async_event(3)):
 * port and GID changes drop the cached reply AHs and read the port again;
 * an error of our QP, CQ or the device ends serve, which must not keep
 * advertising a dead responder. */
#include <stdio.h>

#include "base/diag.h"
#include "peer/responder.h"

/* The port's facts again (GIDs, LID, state) after an event changed them;
 * the old ones stay when the query fails. */
static void reload_port(struct responder *r)
{
	struct device_list fresh;
	const struct device_info *dev;
	const struct port_info *port;
	char err[DIAG_MSG_MAX];

	if (device_discover(&fresh, r->dev->name, err, sizeof(err))) {
		diag_warn("cannot read %s again: %s", r->dev->name, err);
		return;
	}
	port = device_pick_port(&fresh, r->dev->name, r->port->port_num, &dev,
				NULL, 0, err, sizeof(err));
	if (!port) {
		/* A down port is no ACTIVE port: keep the old facts. */
		device_list_free(&fresh);
		return;
	}
	device_list_free(&r->devices);
	r->devices = fresh;
	r->dev = dev;
	r->port = port;
	if (responder_load_local_gids(r))
		diag_warn("out of memory reading the GID table");
	responder_fill_info(r);
}

void responder_handle_async_event(struct responder *r)
{
	struct ibv_async_event ev;
	enum ibv_event_type type;
	enum responder_event_action action;

	if (ibv_get_async_event(r->ep.context, &ev))
		return;
	type = ev.event_type;
	ibv_ack_async_event(&ev);
	r->async_events++;
	action = responder_event_action_of(type, ev.element.port_num,
					   r->port->port_num);
	switch (action) {
	case EVENT_FATAL:
		snprintf(r->fatal, sizeof(r->fatal), "%s reported %s: the "
			 "responder cannot answer any more",
			 r->dev->name, ibv_event_type_str(type));
		return;
	case EVENT_OTHER_PORT:
		return;
	case EVENT_PORT_CHANGED:
	case EVENT_PORT_REREGISTER:
		diag_warn("%s port %u: %s%s; cached reply AHs dropped",
			  r->dev->name, ev.element.port_num,
			  ibv_event_type_str(type),
			  type == IBV_EVENT_PORT_ERR
				  ? " (no replies until the port is up)" : "");
		responder_drop_reverse_ahs(r);
		reload_port(r);
		if (r->port_changed)
			r->port_changed(r->port_changed_ctx, r->port,
					action == EVENT_PORT_REREGISTER);
		return;
	case EVENT_LOGGED:
		diag_verbose(1, "%s: %s", r->dev->name,
			     ibv_event_type_str(type));
		return;
	}
}
