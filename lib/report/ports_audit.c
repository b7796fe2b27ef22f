/* The fleet port audit: `ports -j` documents read into ports, and the
 * consensus of each fact over hosts, ports or devices (ports_audit.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/parse.h"
#include "base/strmap.h"
#include "report/ports_audit.h"

static const struct {
	const char *key, *unit;
} fact_names[AUDIT_FACT_COUNT] = {
	[AUDIT_FACT_GID_V2_IPV4] = { "roce_v2_ipv4_gid_index", "host" },
	[AUDIT_FACT_GID_V2_IPV6] = { "roce_v2_ipv6_gid_index", "host" },
	[AUDIT_FACT_MTU] = { "active_mtu", "port" },
	[AUDIT_FACT_FIRMWARE] = { "fw_ver", "device" },
	[AUDIT_FACT_RATE] = { "rate_gbps", "port" },
	[AUDIT_FACT_STATE] = { "state", "port" },
};

void ports_audit_init(struct ports_audit *a)
{
	memset(a, 0, sizeof(*a));
	a->expect_gid_index = -1;
	a->expect_mtu = -1;
	for (int k = 0; k < AUDIT_FACT_COUNT; k++) {
		a->facts[k].key = fact_names[k].key;
		a->facts[k].unit = fact_names[k].unit;
	}
}

static void fact_free(struct audit_fact *f)
{
	for (size_t v = 0; v < f->value_count; v++) {
		for (size_t m = 0; m < f->values[v].member_count; m++)
			free(f->values[v].members[m]);
		free(f->values[v].members);
		free(f->values[v].value);
	}
	free(f->values);
	free(f->expected);
	f->values = NULL;
	f->value_count = 0;
	f->expected = NULL;
}

void ports_audit_free(struct ports_audit *a)
{
	for (size_t i = 0; i < a->port_count; i++) {
		struct audit_port *p = &a->ports[i];

		for (size_t g = 0; g < p->gid_count; g++) {
			free(p->gids[g].text);
			free(p->gids[g].netdev);
		}
		free(p->gids);
		free(p->netdevs);
		free(p->fw_ver);
		free(p->link_layer);
		free(p->state);
		free((char *)p->device);
	}
	free(a->ports);
	for (size_t h = 0; h < a->host_count; h++)
		free(a->hosts[h]);
	free(a->hosts);
	for (size_t w = 0; w < a->warning_count; w++)
		free(a->warnings[w]);
	free(a->warnings);
	for (int k = 0; k < AUDIT_FACT_COUNT; k++)
		fact_free(&a->facts[k]);
	memset(a, 0, sizeof(*a));
}

bool audit_gid_routable(const struct audit_gid *g)
{
	return (g->kind == GID_KIND_ROCE_V2 || g->kind == GID_KIND_IB) &&
	       !gid_is_link_local(&g->gid) && !gid_is_zero(&g->gid);
}

/* A reader of one input: where it is, for messages. */
struct doc_reader {
	const char *label;
	size_t doc;		/* 1-based document number */
	char *err;
	size_t errlen;
};

static int bad(struct doc_reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int bad(struct doc_reader *rd, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s: document %zu: %s (is it the output "
		 "of 'ibahprobe ports -j'?)", rd->label, rd->doc, what);
	return -1;
}

static int oom(struct doc_reader *rd)
{
	snprintf(rd->err, rd->errlen, "out of memory reading %s", rd->label);
	return -1;
}

/* A member that must be a string; NULL allowed when nullable. 1 when
 * absent and optional. */
static int get_string(struct doc_reader *rd, json_object *o, const char *key,
		      const char *where, bool required, bool nullable,
		      const char **out)
{
	json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v))
		return required ? bad(rd, "%s has no \"%s\"", where, key) : 1;
	if (!v && nullable)
		return 0;
	if (!json_object_is_type(v, json_type_string) ||
	    !json_object_get_string_len(v))
		return bad(rd, "%s: \"%s\" is no %sstring", where, key,
			   nullable ? "null or non-empty " : "non-empty ");
	*out = json_object_get_string(v);
	return 0;
}

/* An integer member in [0, max]; null allowed when nullable (*out -1). */
static int get_uint(struct doc_reader *rd, json_object *o, const char *key,
		    const char *where, bool nullable, int64_t max,
		    int64_t *out)
{
	json_object *v;
	int64_t n;

	*out = -1;
	if (!json_object_object_get_ex(o, key, &v))
		return bad(rd, "%s has no \"%s\"", where, key);
	if (!v && nullable)
		return 0;
	if (!json_object_is_type(v, json_type_int))
		return bad(rd, "%s: \"%s\" is no integer", where, key);
	errno = 0;
	n = json_object_get_int64(v);
	if (errno || n < 0 || n > max)
		return bad(rd, "%s: \"%s\" is out of range (0 to %lld)", where,
			   key, (long long)max);
	*out = n;
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int read_gid(struct doc_reader *rd, json_object *o, const char *where,
		    struct audit_gid *g)
{
	const char *text, *type, *netdev;
	char err[256], gwhere[600];
	json_object *v;
	int64_t n;
	int k;

	if (!json_object_is_type(o, json_type_object))
		return bad(rd, "%s: a GID is no object", where);
	if (get_uint(rd, o, "index", where, false, UINT32_MAX, &n))
		return -1;
	g->index = (uint32_t)n;
	g->vlan_id = -1;
	snprintf(gwhere, sizeof(gwhere), "%s GID %u", where, g->index);
	if (get_string(rd, o, "gid", gwhere, true, false, &text) ||
	    get_string(rd, o, "type", gwhere, true, false, &type) ||
	    get_string(rd, o, "netdev", gwhere, true, true, &netdev))
		return -1;
	if (parse_gid(text, &g->gid, err, sizeof(err)))
		return bad(rd, "%s: %s", gwhere, err);
	/* The names ports writes, from the one table (gid_kind_name). */
	for (k = GID_KIND_IB; k <= GID_KIND_ROCE_V2; k++)
		if (strcmp(type, gid_kind_name((enum gid_kind)k)) == 0)
			break;
	if (k > GID_KIND_ROCE_V2)
		return bad(rd, "%s: type \"%s\" is none of IB, RoCE v1, "
			   "RoCE v2", gwhere, type);
	g->kind = (enum gid_kind)k;
	/* vlan_id and vlan_known came with the audit: an older document
	 * has neither, and its VLANs are unknown. */
	if (json_object_object_get_ex(o, "vlan_known", &v)) {
		if (!json_object_is_type(v, json_type_boolean))
			return bad(rd, "%s: \"vlan_known\" is no boolean",
				   gwhere);
		g->vlan_known = json_object_get_boolean(v);
		if (get_uint(rd, o, "vlan_id", gwhere, true, 4094, &n))
			return -1;
		g->vlan_id = (int)n;
	}
	g->text = strdup(text);
	g->netdev = dup_or_null(netdev);
	if (!g->text || (netdev && !g->netdev))
		return oom(rd);
	return 0;
}

/* The port's netdevs, each with its lowest routable RoCE v2 GID index per
 * family, and the port's own lowest. */
static int port_netdevs(struct doc_reader *rd, struct audit_port *p)
{
	p->v2_ipv4_index = p->v2_ipv6_index = -1;
	p->netdevs = calloc(p->gid_count ? p->gid_count : 1,
			    sizeof(*p->netdevs));
	if (!p->netdevs)
		return oom(rd);
	for (size_t i = 0; i < p->gid_count; i++) {
		const struct audit_gid *g = &p->gids[i];
		struct audit_netdev *nd = NULL;
		bool v4 = gid_is_ipv4_mapped(&g->gid);
		int *slot;

		if (!g->netdev)
			continue;
		for (size_t k = 0; k < p->netdev_count; k++)
			if (strcmp(p->netdevs[k].name, g->netdev) == 0)
				nd = &p->netdevs[k];
		if (!nd) {
			nd = &p->netdevs[p->netdev_count++];
			nd->name = g->netdev;
			nd->vlan_known = g->vlan_known;
			nd->vlan_id = g->vlan_id;
			nd->v2_ipv4_index = nd->v2_ipv6_index = -1;
		}
		if (g->kind != GID_KIND_ROCE_V2 || !audit_gid_routable(g))
			continue;
		slot = v4 ? &nd->v2_ipv4_index : &nd->v2_ipv6_index;
		if (*slot < 0 || g->index < (uint32_t)*slot)
			*slot = (int)g->index;
		slot = v4 ? &p->v2_ipv4_index : &p->v2_ipv6_index;
		if (*slot < 0 || g->index < (uint32_t)*slot)
			*slot = (int)g->index;
	}
	return 0;
}

static int read_pkeys(struct doc_reader *rd, json_object *o,
		      const char *where, struct audit_port *p)
{
	json_object *v;
	char err[256];

	if (!json_object_object_get_ex(o, "pkeys", &v) || !v)
		return 0;	/* older document, or unreadable: unknown */
	if (!json_object_is_type(v, json_type_array))
		return bad(rd, "%s: \"pkeys\" is no array", where);
	p->pkeys_known = true;
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *e = json_object_array_get_idx(v, i);

		if (p->pkey_count == sizeof(p->pkeys) / sizeof(p->pkeys[0]))
			return bad(rd, "%s: more than %zu P_Keys", where,
				   sizeof(p->pkeys) / sizeof(p->pkeys[0]));
		if (!json_object_is_type(e, json_type_string) ||
		    parse_pkey(json_object_get_string(e),
			       &p->pkeys[p->pkey_count], err, sizeof(err)))
			return bad(rd, "%s: P_Key %zu is no P_Key", where,
				   i + 1);
		p->pkey_count++;
	}
	return 0;
}

static int read_port(struct doc_reader *rd, json_object *o, const char *host,
		     const char *device, const char *fw_ver,
		     struct audit_port *p)
{
	const char *ll, *state;
	char where[512];
	json_object *v, *gids;
	int64_t n;

	if (!json_object_is_type(o, json_type_object))
		return bad(rd, "host %s device %s: a port is no object", host,
			   device);
	if (get_uint(rd, o, "port_num", device, false, 255, &n))
		return -1;
	p->port_num = (unsigned)n;
	snprintf(where, sizeof(where), "host %s %s port %u", host, device,
		 p->port_num);
	if (get_string(rd, o, "link_layer", where, true, false, &ll) ||
	    get_string(rd, o, "state", where, true, false, &state) ||
	    get_uint(rd, o, "active_mtu", where, true, 65535, &n))
		return -1;
	p->active_mtu = n < 0 ? 0 : (unsigned)n;
	if (get_uint(rd, o, "lid", where, false, 65535, &n))
		return -1;
	p->lid = (unsigned)n;
	if (get_uint(rd, o, "lmc", where, false, 7, &n))
		return -1;
	p->lmc = (unsigned)n;
	if (!json_object_object_get_ex(o, "rate_gbps", &v))
		return bad(rd, "%s has no \"rate_gbps\"", where);
	if (v && !json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return bad(rd, "%s: \"rate_gbps\" is no number", where);
	p->rate_gbps = v ? json_object_get_double(v) : -1;
	if (read_pkeys(rd, o, where, p))
		return -1;
	if (!json_object_object_get_ex(o, "gids", &gids) ||
	    !json_object_is_type(gids, json_type_array))
		return bad(rd, "%s: \"gids\" is no array", where);
	p->gid_count = json_object_array_length(gids);
	p->gids = calloc(p->gid_count ? p->gid_count : 1, sizeof(*p->gids));
	p->link_layer = strdup(ll);
	p->state = strdup(state);
	p->fw_ver = dup_or_null(fw_ver);
	p->device = strdup(device);
	p->host = host;
	if (!p->gids || !p->link_layer || !p->state || !p->device ||
	    (fw_ver && !p->fw_ver))
		return oom(rd);
	for (size_t i = 0; i < p->gid_count; i++)
		if (read_gid(rd, json_object_array_get_idx(gids, i), where,
			     &p->gids[i]))
			return -1;
	return port_netdevs(rd, p);
}

static struct audit_port *new_port(struct ports_audit *a)
{
	if (a->port_count == a->port_cap) {
		size_t cap = a->port_cap ? a->port_cap * 2 : 16;
		struct audit_port *ports = realloc(a->ports,
						   cap * sizeof(*ports));

		if (!ports)
			return NULL;
		a->ports = ports;
		a->port_cap = cap;
	}
	memset(&a->ports[a->port_count], 0, sizeof(a->ports[0]));
	return &a->ports[a->port_count++];
}

static int add_warning(struct ports_audit *a, const char *host,
		       const char *device, const char *error)
{
	char **w = realloc(a->warnings, (a->warning_count + 1) * sizeof(*w));
	int len;

	if (!w)
		return -1;
	a->warnings = w;
	len = asprintf(&w[a->warning_count], "host %s: %s could not be "
		       "read: %s", host, device, error ? error : "no reason");
	if (len < 0)
		return -1;
	a->warning_count++;
	return 0;
}

/* A host's document: an array of device objects, each naming the host. */
static int read_document(struct ports_audit *a, struct doc_reader *rd,
			 json_object *doc)
{
	const char *host = NULL;
	char **hosts;

	if (!json_object_is_type(doc, json_type_array))
		return bad(rd, "not an array of devices");
	if (json_object_array_length(doc) == 0)
		return bad(rd, "an empty array: no device, and no host named");
	for (size_t d = 0; d < json_object_array_length(doc); d++) {
		json_object *dev = json_object_array_get_idx(doc, d);
		const char *h, *name, *status, *fw, *error;
		char where[64];
		json_object *ports;

		snprintf(where, sizeof(where), "device %zu", d + 1);
		if (!json_object_is_type(dev, json_type_object))
			return bad(rd, "%s is no object", where);
		if (get_string(rd, dev, "host", where, false, false, &h) < 0)
			return -1;
		if (!h)
			return bad(rd, "%s names no host (ports -j names it "
				   "since the fleet audit; run this version "
				   "on that host)", where);
		if (host && strcmp(h, host) != 0)
			return bad(rd, "devices of two hosts, %s and %s, in "
				   "one document", host, h);
		if (!host) {
			for (size_t k = 0; k < a->host_count; k++)
				if (strcmp(a->hosts[k], h) == 0)
					return bad(rd, "host %s given twice: "
						   "one document per host",
						   h);
			hosts = realloc(a->hosts,
					(a->host_count + 1) * sizeof(*hosts));
			if (!hosts)
				return oom(rd);
			a->hosts = hosts;
			if (!(a->hosts[a->host_count] = strdup(h)))
				return oom(rd);
			host = a->hosts[a->host_count++];
		}
		if (get_string(rd, dev, "device", where, true, false, &name) ||
		    get_string(rd, dev, "status", where, true, false,
			       &status) ||
		    get_string(rd, dev, "fw_ver", where, false, true, &fw) < 0)
			return -1;
		a->device_count++;
		if (strcmp(status, "ok") != 0) {
			if (get_string(rd, dev, "error", where, false, true,
				       &error) < 0)
				return -1;
			a->device_errors++;
			if (add_warning(a, host, name, error))
				return oom(rd);
			continue;
		}
		if (!json_object_object_get_ex(dev, "ports", &ports) ||
		    !json_object_is_type(ports, json_type_array))
			return bad(rd, "host %s device %s: \"ports\" is no "
				   "array", host, name);
		for (size_t p = 0; p < json_object_array_length(ports); p++) {
			struct audit_port *port = new_port(a);

			if (!port)
				return oom(rd);
			if (read_port(rd, json_object_array_get_idx(ports, p),
				      host, name, fw, port))
				return -1;
		}
	}
	return 0;
}

int ports_audit_read(struct ports_audit *a, const char *label,
		     const char *buf, size_t len, char *err, size_t errlen)
{
	struct doc_reader rd = { .label = label, .err = err, .errlen = errlen };
	json_tokener *tok = json_tokener_new();
	size_t at = 0;
	int rc = 0;

	if (!tok) {
		snprintf(err, errlen, "out of memory reading %s", label);
		return -1;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
			       JSON_TOKENER_ALLOW_TRAILING_CHARS |
			       JSON_TOKENER_VALIDATE_UTF8);
	for (;;) {
		json_object *doc;
		size_t chunk;

		while (at < len && strchr(" \t\r\n", buf[at]) && buf[at])
			at++;
		if (at == len)
			break;
		rd.doc++;
		json_tokener_reset(tok);
		chunk = len - at > INT32_MAX ? INT32_MAX : len - at;
		doc = json_tokener_parse_ex(tok, buf + at, (int)chunk);
		if (!doc) {
			enum json_tokener_error jerr =
				json_tokener_get_error(tok);

			rc = bad(&rd, "%s", jerr == json_tokener_continue
					? "the JSON ends half way"
					: json_tokener_error_desc(jerr));
			break;
		}
		at += json_tokener_get_parse_end(tok);
		rc = read_document(a, &rd, doc);
		json_object_put(doc);
		if (rc)
			break;
	}
	json_tokener_free(tok);
	if (rc == 0 && rd.doc == 0) {
		snprintf(err, errlen, "%s: no ports -j document in it", label);
		rc = -1;
	}
	return rc;
}

int ports_audit_read_stream(struct ports_audit *a, const char *label, FILE *f,
			    char *err, size_t errlen)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap);
	int rc;

	if (!buf) {
		snprintf(err, errlen, "out of memory reading %s", label);
		return -1;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			char *more;

			if (cap >= PORTS_AUDIT_FILE_BYTES_MAX) {
				free(buf);
				snprintf(err, errlen, "%s: larger than %zu "
					 "MiB: no ports -j output", label,
					 PORTS_AUDIT_FILE_BYTES_MAX >> 20);
				return -1;
			}
			more = realloc(buf, cap * 2);
			if (!more) {
				free(buf);
				snprintf(err, errlen, "out of memory reading "
					 "%s", label);
				return -1;
			}
			buf = more;
			cap *= 2;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s: %s", label,
			 strerror(errno));
		free(buf);
		return -1;
	}
	if (memchr(buf, '\0', len)) {
		snprintf(err, errlen, "%s: a NUL byte: no JSON", label);
		rc = -1;
	} else
		rc = ports_audit_read(a, label, buf, len, err, errlen);
	free(buf);
	return rc;
}

/* One fact's values as they are gathered: value text -> position + 1. */
struct fact_builder {
	struct audit_fact *fact;
	struct strmap index;
};

static int fact_add(struct fact_builder *b, const char *value,
		    const char *member)
{
	struct audit_fact *f = b->fact;
	void **slot = strmap_slot(&b->index, value);
	struct audit_value *v;
	char **members;

	if (!slot)
		return -1;
	if (!*slot) {
		struct audit_value *values = realloc(
			f->values, (f->value_count + 1) * sizeof(*values));

		if (!values)
			return -1;
		f->values = values;
		v = &f->values[f->value_count];
		memset(v, 0, sizeof(*v));
		if (!(v->value = strdup(value)))
			return -1;
		*slot = (void *)(uintptr_t)++f->value_count;
	}
	v = &f->values[(uintptr_t)*slot - 1];
	/* A host with several ports at one value counts once. */
	if (v->member_count &&
	    strcmp(v->members[v->member_count - 1], member) == 0)
		return 0;
	members = realloc(v->members, (v->member_count + 1) * sizeof(*members));
	if (!members)
		return -1;
	v->members = members;
	if (!(v->members[v->member_count] = strdup(member)))
		return -1;
	v->member_count++;
	v->count++;
	return 0;
}

static int by_count(const void *x, const void *y)
{
	const struct audit_value *a = x, *b = y;

	return a->count < b->count ? 1 : a->count > b->count ? -1 : 0;
}

static void index_text(int index, char *buf, size_t len)
{
	if (index < 0)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%d", index);
}

static bool is_roce(const struct audit_port *p)
{
	return strcmp(p->link_layer, "Ethernet") == 0;
}

/* Each port's contribution to each fact. Hosts and devices count once:
 * the ports of a host come together, so the last member added tells. */
static int gather(struct ports_audit *a, struct fact_builder *b, bool any_v6)
{
	char port_name[512], device_name[512], value[64];

	for (size_t i = 0; i < a->port_count; i++) {
		const struct audit_port *p = &a->ports[i];

		snprintf(port_name, sizeof(port_name), "%s %s/%u", p->host,
			 p->device, p->port_num);
		snprintf(device_name, sizeof(device_name), "%s %s", p->host,
			 p->device);
		if (is_roce(p)) {
			index_text(p->v2_ipv4_index, value, sizeof(value));
			if (fact_add(&b[AUDIT_FACT_GID_V2_IPV4], value,
				     p->host))
				return -1;
			index_text(p->v2_ipv6_index, value, sizeof(value));
			if (any_v6 && fact_add(&b[AUDIT_FACT_GID_V2_IPV6],
					       value, p->host))
				return -1;
		}
		if (p->active_mtu)
			snprintf(value, sizeof(value), "%u", p->active_mtu);
		else
			snprintf(value, sizeof(value), "unknown");
		if (fact_add(&b[AUDIT_FACT_MTU], value, port_name) ||
		    fact_add(&b[AUDIT_FACT_FIRMWARE],
			     p->fw_ver ? p->fw_ver : "none", device_name))
			return -1;
		if (p->rate_gbps >= 0)
			snprintf(value, sizeof(value), "%g", p->rate_gbps);
		else
			snprintf(value, sizeof(value), "unknown");
		if (fact_add(&b[AUDIT_FACT_RATE], value, port_name) ||
		    fact_add(&b[AUDIT_FACT_STATE], p->state, port_name))
			return -1;
	}
	return 0;
}

static int pin(struct audit_fact *f, long expected)
{
	char text[32];

	if (expected < 0)
		return 0;
	snprintf(text, sizeof(text), "%ld", expected);
	f->pinned = true;
	if (!(f->expected = strdup(text)))
		return -1;
	for (size_t v = 0; v < f->value_count; v++)
		if (strcmp(f->values[v].value, text) != 0)
			f->disagreeing += f->values[v].count;
	return 0;
}

static bool index_serves(const struct audit_port *p, long index)
{
	for (size_t g = 0; g < p->gid_count; g++)
		if (p->gids[g].index == (uint32_t)index)
			return p->gids[g].kind == GID_KIND_ROCE_V2 &&
			       gid_is_ipv4_mapped(&p->gids[g].gid) &&
			       audit_gid_routable(&p->gids[g]);
	return false;
}

size_t ports_audit_index_fails(const struct ports_audit *a, long index)
{
	const char *counted = NULL;
	size_t n = 0;

	/* A host's ports come together: count it once. */
	for (size_t i = 0; i < a->port_count; i++) {
		const struct audit_port *p = &a->ports[i];

		if (!is_roce(p) || index_serves(p, index) ||
		    (counted && strcmp(counted, p->host) == 0))
			continue;
		counted = p->host;
		n++;
	}
	return n;
}

/* The index a fleet-wide NCCL_IB_GID_INDEX would take and where it
 * fails. */
static void gid_target(struct ports_audit *a)
{
	struct audit_fact *f = &a->facts[AUDIT_FACT_GID_V2_IPV4];
	const struct audit_value *top = audit_fact_majority(f);

	f->target_index = -1;
	f->target_failing = 0;
	if (a->expect_gid_index >= 0)
		f->target_index = a->expect_gid_index;
	else if (top && strcmp(top->value, "none") != 0)
		f->target_index = strtol(top->value, NULL, 10);
	if (f->target_index >= 0)
		f->target_failing = ports_audit_index_fails(a, f->target_index);
	if (f->pinned)
		f->disagreeing = f->target_failing;
}

int ports_audit_build(struct ports_audit *a, char *err, size_t errlen)
{
	struct fact_builder b[AUDIT_FACT_COUNT];
	bool any_v6 = false;
	int rc;

	if (a->port_count == 0) {
		snprintf(err, errlen, "no port in the input: %zu device%s, "
			 "none readable", a->device_count,
			 a->device_count == 1 ? "" : "s");
		return -1;
	}
	for (size_t i = 0; i < a->port_count; i++)
		any_v6 |= a->ports[i].v2_ipv6_index >= 0;
	for (int k = 0; k < AUDIT_FACT_COUNT; k++) {
		fact_free(&a->facts[k]);
		a->facts[k].pinned = false;
		a->facts[k].disagreeing = 0;
		b[k].fact = &a->facts[k];
		memset(&b[k].index, 0, sizeof(b[k].index));
	}
	rc = gather(a, b, any_v6);
	for (int k = 0; k < AUDIT_FACT_COUNT; k++) {
		strmap_free(&b[k].index);
		/* Most common first, ties in the order first seen (an
		 * insertion sort: stable, and the values are few). */
		for (size_t i = 1; i < a->facts[k].value_count; i++)
			for (size_t j = i; j > 0 &&
			     by_count(&a->facts[k].values[j - 1],
				      &a->facts[k].values[j]) > 0; j--) {
				struct audit_value t = a->facts[k].values[j];

				a->facts[k].values[j] =
					a->facts[k].values[j - 1];
				a->facts[k].values[j - 1] = t;
			}
	}
	if (rc == 0)
		rc = pin(&a->facts[AUDIT_FACT_GID_V2_IPV4],
			 a->expect_gid_index);
	if (rc == 0)
		rc = pin(&a->facts[AUDIT_FACT_MTU], a->expect_mtu);
	if (rc == 0)
		gid_target(a);
	if (rc)
		snprintf(err, errlen, "out of memory auditing %zu ports",
			 a->port_count);
	return rc;
}

bool ports_audit_as_expected(const struct ports_audit *a)
{
	for (int k = 0; k < AUDIT_FACT_COUNT; k++)
		if (a->facts[k].pinned && a->facts[k].disagreeing)
			return false;
	return true;
}

const struct audit_value *audit_fact_majority(const struct audit_fact *f)
{
	return f->value_count ? &f->values[0] : NULL;
}
