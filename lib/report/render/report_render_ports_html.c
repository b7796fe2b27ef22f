/* The fleet port audit as an HTML page in the report's style: the
 * consensus with its member lists, then a table of every port.
 * Self-contained, well-formed XML, every input string escaped. */
#include <stdio.h>
#include <string.h>

#include "out/markup.h"
#include "report/render/report_render_ports.h"
#include "report/render/report_render_style.h"

static void html_consensus(FILE *f, const struct ports_audit *a)
{
	char sentence[2048], words[128];

	fputs("<h2>Consensus</h2>\n<ul class=\"consensus\">\n", f);
	for (int id = 0; id < AUDIT_FACT_COUNT; id++) {
		const struct audit_fact *fact = &a->facts[id];
		bool off = fact->value_count > 1 ||
			   (fact->pinned && fact->disagreeing);

		if (!fact->value_count)
			continue;
		fputs(off ? "<li class=\"failed\">" : "<li>", f);
		markup_printf(f, "%s", ports_fact_sentence(a, (enum audit_fact_id)id,
						  sentence, sizeof(sentence)));
		if (fact->value_count > 1) {
			fputs("<ul>", f);
			for (size_t v = 1; v < fact->value_count; v++) {
				const struct audit_value *val =
					&fact->values[v];

				markup_printf(f, "<li>%s: ",
					      ports_value_words(
						      (enum audit_fact_id)id,
						      val->value, words,
						      sizeof(words)));
				for (size_t m = 0; m < val->member_count; m++)
					markup_printf(f, "%s%s", m ? ", " : "",
						      val->members[m]);
				fputs("</li>", f);
			}
			fputs("</ul>", f);
		}
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

static void html_port(FILE *f, const struct audit_port *p)
{
	markup_printf(f, "<tr><td>%s</td><td>%s/%u</td><td>%s</td><td>%s</td>",
		      p->host, p->device, p->port_num, p->link_layer,
		      p->state);
	if (p->rate_gbps >= 0)
		fprintf(f, "<td>%g Gb/s</td>", p->rate_gbps);
	else
		fputs("<td>-</td>", f);
	if (p->active_mtu)
		fprintf(f, "<td>%u</td>", p->active_mtu);
	else
		fputs("<td>-</td>", f);
	markup_printf(f, "<td>%s</td><td>", p->fw_ver ? p->fw_ver : "-");
	if (!p->pkeys_known)
		fputs("unknown", f);
	for (size_t k = 0; k < p->pkey_count; k++)
		fprintf(f, "%s0x%04x", k ? " " : "", p->pkeys[k]);
	fputs("</td><td><ul>", f);
	for (size_t k = 0; k < p->netdev_count; k++) {
		const struct audit_netdev *nd = &p->netdevs[k];

		markup_printf(f, "<li>%s", nd->name);
		if (!nd->vlan_known)
			fputs(" (VLAN unknown)", f);
		else if (nd->vlan_id >= 0)
			fprintf(f, " (VLAN %d)", nd->vlan_id);
		if (nd->v2_ipv4_index >= 0)
			fprintf(f, ": IPv4 %d", nd->v2_ipv4_index);
		if (nd->v2_ipv6_index >= 0)
			fprintf(f, ", IPv6 %d", nd->v2_ipv6_index);
		fputs("</li>", f);
	}
	fputs("</ul></td><td><ul>", f);
	for (size_t k = 0; k < p->gid_count; k++) {
		const struct audit_gid *g = &p->gids[k];

		if (!audit_gid_routable(g))
			continue;
		markup_printf(f, "<li>%u %s %s%s%s</li>", g->index, g->text,
			      gid_kind_name(g->kind), g->netdev ? " " : "",
			      g->netdev ? g->netdev : "");
	}
	fputs("</ul></td></tr>\n", f);
}

void report_render_ports_html(FILE *f, const struct ports_audit *a,
			      const char *title)
{
	char hosts[32], ports[32];

	markup_printf(f, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/"
		      "1999/xhtml\" lang=\"en\">\n<head>\n"
		      "<meta charset=\"utf-8\"/>\n<title>%s</title>\n", title);
	fprintf(f, "<style>\n"
		"body { font-family: %s; margin: 24px; color: %s; "
		"background: #fafafa; }\n"
		"h1 { font-size: 20px; margin: 0 0 4px; }\n"
		"h2 { font-size: 16px; margin: 24px 0 8px; }\n"
		".summary { margin: 0 0 12px; color: #616161; }\n"
		"table { border-collapse: collapse; font-size: 13px; "
		"background: #ffffff; }\n"
		"th, td { border: 1px solid #e0e0e0; padding: 4px 8px; "
		"text-align: left; vertical-align: top; }\n"
		"th { background: #eeeeee; }\n"
		"ul { margin: 0; padding-left: 16px; }\n"
		".failed { color: %s; }\n"
		".note { color: #616161; }\n"
		"</style>\n</head>\n<body>\n",
		REPORT_STYLE_FONT, REPORT_STYLE_TEXT_DARK,
		report_styles[REPORT_UNREACHABLE].fill);
	markup_printf(f, "<h1>%s</h1>\n<p class=\"summary\">fleet port "
		      "audit: %s host%s, %s port%s</p>\n", title,
		      ports_count_text(a->host_count, hosts, sizeof(hosts)),
		      a->host_count == 1 ? "" : "s",
		      ports_count_text(a->port_count, ports, sizeof(ports)),
		      a->port_count == 1 ? "" : "s");
	html_consensus(f, a);
	fputs("<h2>Ports</h2>\n<table>\n<thead><tr><th>host</th><th>port</th>"
	      "<th>link layer</th><th>state</th><th>rate</th><th>MTU</th>"
	      "<th>firmware</th><th>P_Keys</th><th>netdevs: RoCE v2 GID "
	      "index</th><th>routable GIDs</th></tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < a->port_count; i++)
		html_port(f, &a->ports[i]);
	fputs("</tbody>\n</table>\n", f);
	for (size_t k = 0; k < a->warning_count; k++)
		markup_printf(f, "<p class=\"note\">warning: %s</p>\n",
			      a->warnings[k]);
	fputs("</body>\n</html>\n", f);
}
