/* ibahprobe ports: devices, ports, link layer, LIDs, MTU, port flags and
 * the GID table with types, from verbs (or umad where verbs sees none). */
#include <stdio.h>

#include "cli.h"
#include "device.h"
#include "diag.h"
#include "gid.h"
#include "output.h"

static void print_gid(const struct gid_info *g)
{
	char text[GID_TEXT_MAX];

	out_open_object(NULL);
	out_uint("index", "    gid %u", g->index);
	out_string("gid", " %s", gid_format(&g->gid, text, sizeof(text)));
	out_string("type", " type %s", gid_kind_name(g->kind));
	out_string("family", " family %s",
		   g->kind == GID_KIND_IB ? "ib"
		   : gid_is_ipv4_mapped(&g->gid) ? "ipv4" : "ipv6");
	if (g->netdev[0])
		out_string("netdev", " netdev %s", g->netdev);
	else
		out_null("netdev", NULL);
	out_newline();
	out_close_object();
}

static void print_port(const struct port_info *p)
{
	out_open_object(NULL);
	out_uint("port_num", "  port %u", p->port_num);
	out_string("state", " state %s", port_state_name(p->state));
	out_string("link_layer", " link_layer %s",
		   link_layer_name(p->link_layer));
	out_uint("lid", " lid %u", p->lid);
	out_uint("lmc", " lmc %u", p->lmc);
	out_uint("sm_lid", " sm_lid %u", p->sm_lid);
	if (p->active_mtu)
		out_uint("active_mtu", " active_mtu %u", p->active_mtu);
	else
		out_null("active_mtu", " active_mtu %s");
	if (p->rate_mbps)
		out_double("rate_gbps", " rate %g Gb/s", p->rate_mbps / 1000.0);
	else
		out_null("rate_gbps", " rate %s");
	out_bool("grh_required", " grh_required %s", p->grh_required);
	out_uint("gid_table_len", NULL, p->gid_table_len);
	out_newline();
	out_open_array("gids");
	for (size_t i = 0; i < p->gid_count; i++)
		print_gid(&p->gids[i]);
	out_close_array();
	out_close_object();
}

static int ports_run(const struct common_opts *common, int argc, char **argv)
{
	struct device_list list;
	char err[DIAG_MSG_MAX], guid[24];
	size_t shown = 0, readable = 0;

	(void)argv;
	if (argc > 0)
		return cli_usage_error("ports takes no arguments, only -d and "
				       "-P to narrow the list");
	if (device_discover(&list, common->device, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	out_open_array(NULL);
	for (size_t d = 0; d < list.count; d++) {
		const struct device_info *dev = &list.devices[d];

		out_open_object(NULL);
		out_string("device", "%s", dev->name);
		out_string("source", " (%s)", device_source_name(dev->source));
		snprintf(guid, sizeof(guid), "0x%016llx",
			 (unsigned long long)dev->node_guid);
		out_string("node_guid", " node_guid %s", guid);
		/* InfiniBand and RoCE both say "InfiniBand" here; the port's
		 * link layer tells them apart. Only the others need words. */
		out_string("transport", dev->transport == IBV_TRANSPORT_IB
						? NULL : " transport %s",
			   device_transport_name(dev->transport));
		out_bool("ud_probes", NULL, dev->ud == DEVICE_UD_OK);
		if (dev->ud != DEVICE_UD_OK)
			out_string("ud_unsupported", ": not usable for UD "
				   "probes: %s", device_ud_reason(dev->ud));
		else
			out_null("ud_unsupported", NULL);
		/* A device that could not be read is a row of its own. */
		out_string("status", NULL, dev->error[0] ? "error" : "ok");
		if (dev->error[0]) {
			out_string("error", ": error %s", dev->error);
			out_int("errno", NULL, dev->error_errno);
		} else {
			out_null("error", NULL);
			out_null("errno", NULL);
			readable++;
		}
		out_newline();
		out_open_array("ports");
		for (size_t p = 0; p < dev->port_count; p++) {
			if (common->port &&
			    dev->ports[p].port_num != common->port)
				continue;
			print_port(&dev->ports[p]);
			shown++;
		}
		out_close_array();
		out_close_object();
	}
	out_close_array();
	device_list_free(&list);
	/* The rows say why each failed; with none readable the environment
	 * is at fault. */
	if (readable == 0) {
		diag_error("no RDMA device could be read: each row says why");
		return EXIT_ENVIRONMENT;
	}
	if (common->port && shown == 0)
		return cli_fail(EXIT_ENVIRONMENT,
				"no port %u on %s; 'ibahprobe ports' lists the "
				"ports", common->port,
				common->device ? common->device
					       : "any device");
	return EXIT_FINE;
}

static const struct opt_spec ports_options[] = {
	OPT_END,
};

const struct command cmd_ports = {
	.name = "ports",
	.summary = "devices, ports, link layer, LIDs, MTU, port flags and GID "
		   "tables",
	.options = ports_options,
	.run = ports_run,
};
