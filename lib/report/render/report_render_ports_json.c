/* The fleet port audit as one JSON document (PORTS_AUDIT_SCHEMA): every
 * port with its facts and netdevs, then the consensus with every member
 * listed. */
#include <stdio.h>

#include "out/json_writer.h"
#include "report/render/report_render_ports.h"

static void json_index(struct json_writer *w, const char *key, int index)
{
	if (index < 0)
		jw_null(w, key);
	else
		jw_uint(w, key, (uint64_t)index);
}

static void json_port(struct json_writer *w, const struct audit_port *p)
{
	char key[8];

	jw_open_object(w, NULL);
	jw_string(w, "host", p->host);
	jw_string(w, "device", p->device);
	jw_uint(w, "port_num", p->port_num);
	jw_string(w, "link_layer", p->link_layer);
	jw_string(w, "state", p->state);
	if (p->rate_gbps >= 0)
		jw_double(w, "rate_gbps", p->rate_gbps);
	else
		jw_null(w, "rate_gbps");
	if (p->active_mtu)
		jw_uint(w, "active_mtu", p->active_mtu);
	else
		jw_null(w, "active_mtu");
	jw_string(w, "fw_ver", p->fw_ver);
	jw_uint(w, "lid", p->lid);
	jw_uint(w, "lmc", p->lmc);
	if (p->pkeys_known) {
		jw_open_array(w, "pkeys");
		for (size_t k = 0; k < p->pkey_count; k++) {
			snprintf(key, sizeof(key), "0x%04x", p->pkeys[k]);
			jw_string(w, NULL, key);
		}
		jw_close_array(w);
	} else {
		jw_null(w, "pkeys");
	}
	json_index(w, "roce_v2_ipv4_gid_index", p->v2_ipv4_index);
	json_index(w, "roce_v2_ipv6_gid_index", p->v2_ipv6_index);
	jw_open_array(w, "netdevs");
	for (size_t k = 0; k < p->netdev_count; k++) {
		const struct audit_netdev *nd = &p->netdevs[k];

		jw_open_object(w, NULL);
		jw_string(w, "netdev", nd->name);
		json_index(w, "vlan_id", nd->vlan_id);
		jw_bool(w, "vlan_known", nd->vlan_known);
		json_index(w, "roce_v2_ipv4_gid_index", nd->v2_ipv4_index);
		json_index(w, "roce_v2_ipv6_gid_index", nd->v2_ipv6_index);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_open_array(w, "routable_gids");
	for (size_t k = 0; k < p->gid_count; k++) {
		const struct audit_gid *g = &p->gids[k];

		if (!audit_gid_routable(g))
			continue;
		jw_open_object(w, NULL);
		jw_uint(w, "index", g->index);
		jw_string(w, "gid", g->text);
		jw_string(w, "type", gid_kind_name(g->kind));
		jw_string(w, "family", g->kind == GID_KIND_IB ? "ib"
				       : gid_is_ipv4_mapped(&g->gid) ? "ipv4"
								     : "ipv6");
		jw_string(w, "netdev", g->netdev);
		json_index(w, "vlan_id", g->vlan_id);
		jw_bool(w, "vlan_known", g->vlan_known);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
}

static void json_fact(struct json_writer *w, const struct ports_audit *a,
		      enum audit_fact_id id)
{
	const struct audit_fact *f = &a->facts[id];
	char sentence[2048];

	jw_open_object(w, NULL);
	jw_string(w, "fact", f->key);
	jw_string(w, "unit", f->unit);
	jw_string(w, "summary", ports_fact_sentence(a, id, sentence,
						    sizeof(sentence)));
	jw_bool(w, "agrees", f->value_count == 1);
	jw_string(w, "expected", f->pinned ? f->expected : NULL);
	if (f->pinned)
		jw_uint(w, "disagreeing", f->disagreeing);
	else
		jw_null(w, "disagreeing");
	jw_open_array(w, "values");
	for (size_t v = 0; v < f->value_count; v++) {
		const struct audit_value *val = &f->values[v];

		jw_open_object(w, NULL);
		jw_string(w, "value", val->value);
		jw_uint(w, "count", val->count);
		jw_open_array(w, "members");
		for (size_t m = 0; m < val->member_count; m++)
			jw_string(w, NULL, val->members[m]);
		jw_close_array(w);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
}

int report_render_ports_json(FILE *f, const struct ports_audit *a,
			     bool pretty)
{
	struct json_writer w;

	json_writer_init(&w, f, pretty);
	jw_open_object(&w, NULL);
	jw_string(&w, "schema", PORTS_AUDIT_SCHEMA);
	jw_uint(&w, "hosts", a->host_count);
	jw_uint(&w, "devices", a->device_count);
	jw_uint(&w, "port_count", a->port_count);
	jw_bool(&w, "as_expected", ports_audit_as_expected(a));
	jw_open_array(&w, "ports");
	for (size_t i = 0; i < a->port_count; i++)
		json_port(&w, &a->ports[i]);
	jw_close_array(&w);
	jw_open_array(&w, "consensus");
	for (int id = 0; id < AUDIT_FACT_COUNT; id++)
		if (a->facts[id].value_count)
			json_fact(&w, a, (enum audit_fact_id)id);
	jw_close_array(&w);
	jw_open_array(&w, "warnings");
	for (size_t k = 0; k < a->warning_count; k++)
		jw_string(&w, NULL, a->warnings[k]);
	jw_close_array(&w);
	jw_close_object(&w);
	return json_writer_finish(&w);
}
