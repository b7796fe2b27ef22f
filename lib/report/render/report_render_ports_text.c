/* The fleet port audit as text: each host's ports with their routable
 * GIDs, then the consensus, every line under 100 columns (a list of
 * hosts is cut with "and N more"). */
#include <stdio.h>
#include <string.h>

#include "report/render/report_render_ports.h"

#define LINE_MAX_COLS 99

static const char *index_or_dash(int index, char *buf, size_t len)
{
	if (index < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%d", index);
	return buf;
}

static void port_lines(FILE *f, const struct audit_port *p, int host_w)
{
	char rate[32], mtu[16], v4[16], v6[16], vlan[32];
	char pkeys[LINE_MAX_COLS + 1] = "";
	size_t at = 0, shown = 0;

	if (p->rate_gbps >= 0)
		snprintf(rate, sizeof(rate), "%g Gb/s", p->rate_gbps);
	else
		snprintf(rate, sizeof(rate), "-");
	if (p->active_mtu)
		snprintf(mtu, sizeof(mtu), "%u", p->active_mtu);
	else
		snprintf(mtu, sizeof(mtu), "-");
	/* Four keys at most: a port in many partitions is the exception. */
	for (; shown < p->pkey_count && shown < 4; shown++)
		at += (size_t)snprintf(pkeys + at, sizeof(pkeys) - at,
				       "%s0x%04x", shown ? "," : "",
				       p->pkeys[shown]);
	if (!p->pkeys_known)
		snprintf(pkeys, sizeof(pkeys), "unknown");
	else if (shown < p->pkey_count)
		snprintf(pkeys + at, sizeof(pkeys) - at, ",...");
	fprintf(f, "%-*s %s/%u %s %s rate %s mtu %s fw %s pkeys %s\n", host_w,
		p->host, p->device, p->port_num, p->link_layer, p->state, rate,
		mtu, p->fw_ver ? p->fw_ver : "-", pkeys[0] ? pkeys : "-");
	if (strcmp(p->link_layer, "Ethernet") != 0)
		fprintf(f, "    lid %u lmc %u\n", p->lid, p->lmc);
	for (size_t k = 0; k < p->netdev_count; k++) {
		const struct audit_netdev *nd = &p->netdevs[k];

		if (!nd->vlan_known)
			snprintf(vlan, sizeof(vlan), "VLAN unknown");
		else if (nd->vlan_id < 0)
			snprintf(vlan, sizeof(vlan), "no VLAN");
		else
			snprintf(vlan, sizeof(vlan), "VLAN %d", nd->vlan_id);
		fprintf(f, "    netdev %s (%s): RoCE v2 IPv4 GID %s, IPv6 GID "
			"%s\n", nd->name, vlan,
			index_or_dash(nd->v2_ipv4_index, v4, sizeof(v4)),
			index_or_dash(nd->v2_ipv6_index, v6, sizeof(v6)));
	}
	for (size_t k = 0; k < p->gid_count; k++) {
		const struct audit_gid *g = &p->gids[k];

		if (!audit_gid_routable(g))
			continue;
		fprintf(f, "    gid %u %s %s%s%s\n", g->index, g->text,
			gid_kind_name(g->kind), g->netdev ? " " : "",
			g->netdev ? g->netdev : "");
	}
}

/* "  at index 5 on 64 hosts: a, b, c and 61 more", cut to fit. */
static void member_line(FILE *f, enum audit_fact_id id,
			const struct audit_fact *fact,
			const struct audit_value *v)
{
	char words[128], count[32], more[48], line[LINE_MAX_COLS + 64];
	size_t at, k;

	ports_value_words(id, v->value, words, sizeof(words));
	at = (size_t)snprintf(line, sizeof(line), "    %s on %s %s%s:", words,
			      ports_count_text(v->count, count, sizeof(count)),
			      fact->unit, v->count == 1 ? "" : "s");
	if (at >= sizeof(line))
		at = sizeof(line) - 1;
	for (k = 0; k < v->member_count; k++) {
		size_t need = strlen(v->members[k]) + 2;
		size_t left = v->member_count - k - 1;

		snprintf(more, sizeof(more), " and %zu more", left + 1);
		/* Room for this name and, if others follow, the tail. */
		if (at + need + (left ? strlen(more) : 0) > LINE_MAX_COLS)
			break;
		at += (size_t)snprintf(line + at, sizeof(line) - at, "%s %s",
				       k ? "," : "", v->members[k]);
	}
	if (k < v->member_count)
		snprintf(line + at, sizeof(line) - at, "%s and %s more",
			 k ? "" : " ",
			 ports_count_text(v->member_count - k, count,
					  sizeof(count)));
	fprintf(f, "%s\n", line);
}

/* A sentence wider than a line is wrapped at its spaces. */
static void wrapped(FILE *f, const char *text, const char *first,
		    const char *indent)
{
	const char *lead = first;

	while (strlen(text) + strlen(lead) > LINE_MAX_COLS) {
		size_t cut = LINE_MAX_COLS - strlen(lead);

		while (cut > 0 && text[cut] != ' ')
			cut--;
		if (cut == 0)
			break;
		fprintf(f, "%s%.*s\n", lead, (int)cut, text);
		text += cut + 1;
		lead = indent;
	}
	fprintf(f, "%s%s\n", lead, text);
}

void report_render_ports_text(FILE *f, const struct ports_audit *a)
{
	char hosts[32], ports[32], sentence[2048];
	int host_w = 0;

	for (size_t i = 0; i < a->port_count; i++) {
		int w = (int)strlen(a->ports[i].host);

		if (w > host_w && w < 40)
			host_w = w;
	}
	fprintf(f, "fleet port audit: %s host%s, %s port%s\n",
		ports_count_text(a->host_count, hosts, sizeof(hosts)),
		a->host_count == 1 ? "" : "s",
		ports_count_text(a->port_count, ports, sizeof(ports)),
		a->port_count == 1 ? "" : "s");
	for (size_t i = 0; i < a->port_count; i++)
		port_lines(f, &a->ports[i], host_w);
	fputs("consensus:\n", f);
	for (int id = 0; id < AUDIT_FACT_COUNT; id++) {
		const struct audit_fact *fact = &a->facts[id];

		if (!fact->value_count)
			continue;
		wrapped(f, ports_fact_sentence(a, (enum audit_fact_id)id,
					       sentence, sizeof(sentence)),
			"  ", "    ");
		for (size_t v = 1; v < fact->value_count; v++)
			member_line(f, (enum audit_fact_id)id, fact,
				    &fact->values[v]);
	}
	for (size_t w = 0; w < a->warning_count; w++)
		fprintf(f, "warning: %s\n", a->warnings[w]);
}
