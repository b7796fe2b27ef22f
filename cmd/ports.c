/* ibahprobe ports: devices, ports, link layer, LIDs, MTU, port flags and
 * the GID table with types, from verbs (or umad where verbs sees none). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_port.h"
#include "verbs/device.h"
#include "verbs/pkey_table.h"
#include "verbs/vlan_egress.h"
#include "base/diag.h"
#include "base/gid.h"
#include "out/output.h"

/* Text widths of one listing, so that the rows of its devices, ports and
 * GIDs line up: each value as wide as the widest of its column (a column
 * of equal widths prints unpadded, as does the last value of a line). */
struct ports_widths {
	int device, source, guid;
	int port_num, state, link_layer, lid, lmc, mtu, rate;
	bool rate_known;	/* some port's rate is shown as "N Gb/s" */
	int gid_index, gid, type, family;
};

static void widen(int *width, int len)
{
	if (len > *width)
		*width = len;
}

static int text_len(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int text_len(const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	return len;
}

static const char *gid_family(const struct gid_info *g)
{
	return g->kind == GID_KIND_IB ? "ib"
	       : gid_is_ipv4_mapped(&g->gid) ? "ipv4" : "ipv6";
}

static bool port_shown(const struct common_opts *common,
		       const struct port_info *p)
{
	return !common->port || p->port_num == common->port;
}

static void measure(const struct device_list *list,
		    const struct common_opts *common, struct ports_widths *w)
{
	char text[GID_TEXT_MAX];

	memset(w, 0, sizeof(*w));
	for (size_t d = 0; d < list->count; d++) {
		const struct device_info *dev = &list->devices[d];

		widen(&w->device, (int)strlen(dev->name));
		widen(&w->source, text_len("(%s)",
					   device_source_name(dev->source)));
		for (size_t i = 0; i < dev->port_count; i++) {
			const struct port_info *p = &dev->ports[i];

			if (!port_shown(common, p))
				continue;
			widen(&w->port_num, text_len("%u", p->port_num));
			widen(&w->state,
			      (int)strlen(port_state_name(p->state)));
			widen(&w->link_layer,
			      (int)strlen(link_layer_name(p->link_layer)));
			widen(&w->lid, text_len("%u", p->lid));
			widen(&w->lmc, text_len("%u", p->lmc));
			widen(&w->mtu, p->active_mtu
					       ? text_len("%u", p->active_mtu)
					       : 1);
			widen(&w->rate, p->rate_mbps
						? text_len("%g", p->rate_mbps /
								 1000.0)
						: 1);
			w->rate_known |= p->rate_mbps != 0;
			for (size_t g = 0; g < p->gid_count; g++) {
				const struct gid_info *gi = &p->gids[g];

				widen(&w->gid_index,
				      text_len("%u", gi->index));
				widen(&w->gid, (int)strlen(gid_format(
					&gi->gid, text, sizeof(text))));
				widen(&w->type,
				      (int)strlen(gid_kind_name(gi->kind)));
				widen(&w->family, (int)strlen(gid_family(gi)));
			}
		}
	}
}

/* " lid %-5u": prefix, then the conversion padded to width. */
static const char *padded(char *buf, size_t len, const char *prefix,
			  int width, const char *conv)
{
	snprintf(buf, len, "%s%%-%d%s", prefix, width > 0 ? width : 1, conv);
	return buf;
}

/* The VLAN of the GID's netdev (JSON only): what a fleet audit pairs
 * with the GID index, since a RoCE v2 GID on a VLAN netdev sends tagged
 * frames. /proc/net/vlan/NETDEV is root's to read: a file that exists
 * but cannot be read is "vlan_known": false, not "no VLAN". */
static void print_gid_vlan(const struct gid_info *g)
{
	struct vlan_netdev nd;
	char err[DIAG_MSG_MAX], path[64 + IF_NAMESIZE];
	bool known = true;

	if (!g->netdev[0] || vlan_netdev_read(g->netdev, &nd, err,
					      sizeof(err))) {
		known = g->netdev[0] == '\0';
		nd.is_vlan = false;
	} else if (!nd.is_vlan) {
		snprintf(path, sizeof(path), "/proc/net/vlan/%s", g->netdev);
		known = access(path, F_OK) != 0;
	}
	if (nd.is_vlan)
		out_uint("vlan_id", NULL, nd.vid);
	else
		out_null("vlan_id", NULL);
	out_bool("vlan_known", NULL, known);
}

static void print_gid(const struct gid_info *g, const struct ports_widths *w)
{
	char text[GID_TEXT_MAX], f[4][32];

	out_open_object(NULL);
	out_uint("index", padded(f[0], sizeof(f[0]), "    gid ", w->gid_index,
				 "u"), g->index);
	out_string("gid", padded(f[1], sizeof(f[1]), " ", w->gid, "s"),
		   gid_format(&g->gid, text, sizeof(text)));
	out_string("type", padded(f[2], sizeof(f[2]), " type ", w->type, "s"),
		   gid_kind_name(g->kind));
	/* The family ends the line when there is no netdev: unpadded. */
	out_string("family", g->netdev[0]
				     ? padded(f[3], sizeof(f[3]), " family ",
					      w->family, "s")
				     : " family %s",
		   gid_family(g));
	if (g->netdev[0])
		out_string("netdev", " netdev %s", g->netdev);
	else
		out_null("netdev", NULL);
	print_gid_vlan(g);
	out_newline();
	out_close_object();
}

/* The port's valid P_Keys (JSON only), as "0xffff" in table order; null
 * when the table cannot be read. */
static void print_pkeys(const struct device_info *dev,
			const struct port_info *p)
{
	struct pkey_table t;
	char err[DIAG_MSG_MAX], key[8];

	if (pkey_table_read(dev, p->port_num, &t, err, sizeof(err))) {
		diag_verbose(1, "ports: %s", err);
		out_null("pkeys", NULL);
		return;
	}
	out_open_array("pkeys");
	for (size_t i = 0; i < t.count; i++) {
		if (!(t.keys[i] & PKEY_BASE_MASK))
			continue;	/* an empty slot */
		snprintf(key, sizeof(key), "0x%04x", t.keys[i]);
		out_element_string(NULL, key);
	}
	out_close_array();
}

static void print_port(const struct device_info *dev,
		       const struct port_info *p, const struct ports_widths *w)
{
	char f[9][32];

	out_open_object(NULL);
	out_uint("port_num", padded(f[0], sizeof(f[0]), "  port ", w->port_num,
				    "u"), p->port_num);
	out_string("state", padded(f[1], sizeof(f[1]), " state ", w->state,
				   "s"), port_state_name(p->state));
	out_string("link_layer", padded(f[2], sizeof(f[2]), " link_layer ",
					w->link_layer, "s"),
		   link_layer_name(p->link_layer));
	out_uint("lid", padded(f[3], sizeof(f[3]), " lid ", w->lid, "u"),
		 p->lid);
	out_uint("lmc", padded(f[4], sizeof(f[4]), " lmc ", w->lmc, "u"),
		 p->lmc);
	/* The last of the first line; the rest go on a second, aligned
	 * under "state", so that a port's lines stay under 100 columns. */
	out_uint("sm_lid", " sm_lid %u", p->sm_lid);
	snprintf(f[5], sizeof(f[5]), "\n%*s", 8 + w->port_num, "");
	padded(f[6], sizeof(f[6]), "active_mtu ", w->mtu, "u");
	out_text("%s", f[5]);
	if (p->active_mtu)
		out_uint("active_mtu", f[6], p->active_mtu);
	else
		out_null("active_mtu", padded(f[6], sizeof(f[6]),
					      "active_mtu ", w->mtu, "s"));
	if (p->rate_mbps)
		out_double("rate_gbps", padded(f[7], sizeof(f[7]), " rate ",
					       w->rate, "g Gb/s"),
			   p->rate_mbps / 1000.0);
	else
		/* "-" where others say "N Gb/s". */
		out_null("rate_gbps", padded(f[7], sizeof(f[7]), " rate ",
					     w->rate_known ? w->rate + 5 : 1,
					     "s"));
	out_bool("grh_required", " grh_required %s", p->grh_required);
	out_uint("gid_table_len", NULL, p->gid_table_len);
	print_pkeys(dev, p);
	out_newline();
	out_open_array("gids");
	for (size_t i = 0; i < p->gid_count; i++)
		print_gid(&p->gids[i], w);
	out_close_array();
	out_close_object();
}

static int ports_exec(const struct common_opts *common, void *ctx,
		      int argc, char **argv)
{
	struct device_list list;
	char guid[24], source[16], f[1][32], host[256] = "";
	struct ports_widths w;
	size_t shown = 0, readable = 0;
	int rc;

	(void)ctx;
	(void)argv;
	if (argc > 0)
		return cli_usage_error("ports takes no arguments, only -d and "
				       "-P to narrow the list");
	rc = cli_discover_devices(&list, common->device);
	if (rc)
		return rc;
	/* Every device names the host: ports -j of many hosts, gathered by
	 * pdsh or clush, merge in report --ports. */
	if (gethostname(host, sizeof(host) - 1) || !host[0])
		snprintf(host, sizeof(host), "unknown");
	measure(&list, common, &w);
	out_open_array(NULL);
	for (size_t d = 0; d < list.count; d++) {
		const struct device_info *dev = &list.devices[d];

		out_open_object(NULL);
		out_string("host", NULL, host);
		out_string("device", padded(f[0], sizeof(f[0]), "", w.device,
					    "s"), dev->name);
		out_string("source", NULL, device_source_name(dev->source));
		snprintf(source, sizeof(source), "(%s)",
			 device_source_name(dev->source));
		out_text(" %-*s", w.source, source);
		snprintf(guid, sizeof(guid), "0x%016llx",
			 (unsigned long long)dev->node_guid);
		out_string("node_guid", " node_guid %s", guid);
		/* InfiniBand and RoCE both say "InfiniBand" here; the port's
		 * link layer tells them apart. Only the others need words. */
		out_string("transport", dev->transport == IBV_TRANSPORT_IB
						? NULL : " transport %s",
			   device_transport_name(dev->transport));
		if (dev->fw_ver[0])
			out_string("fw_ver", NULL, dev->fw_ver);
		else
			out_null("fw_ver", NULL);
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
			if (!port_shown(common, &dev->ports[p]))
				continue;
			print_port(dev, &dev->ports[p], &w);
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
	.exec = ports_exec,
};
