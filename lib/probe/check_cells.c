/* Checklist entries that share one probe cell; see check_cells.h. */
#include <string.h>

#include "probe/check_cells.h"
#include "verbs/ah_attr.h"

static bool same_responder(const struct dest *a, const struct dest *b)
{
	uint16_t port_a = a->has_port ? a->port : 0;
	uint16_t port_b = b->has_port ? b->port : 0;

	if (port_a != port_b)
		return false;
	if (strcmp(a->text, b->text) == 0)
		return true;
	return a->has_gid && b->has_gid &&
	       memcmp(a->gid.raw, b->gid.raw, sizeof(a->gid.raw)) == 0 &&
	       strcmp(a->scope, b->scope) == 0;
}

static uint8_t hop_limit_sent(const struct check_entry *e)
{
	return e->has_hop_limit ? e->send.hop_limit : AH_DEFAULT_HOP_LIMIT;
}

bool check_entries_probe_alike(const struct check_entry *a,
			       const struct check_entry *b)
{
	if (!same_responder(&a->dest, &b->dest) || a->has_qpn != b->has_qpn)
		return false;
	if (a->has_qpn && (a->qpn != b->qpn || a->qkey != b->qkey))
		return false;
	return hop_limit_sent(a) == hop_limit_sent(b) &&
	       a->send.traffic_class == b->send.traffic_class &&
	       a->send.flow_label == b->send.flow_label &&
	       a->has_sl == b->has_sl &&
	       (!a->has_sl || a->send.sl == b->send.sl);
}

uint32_t check_cell_count(const struct checklist *list, size_t first,
			  uint32_t default_count)
{
	uint32_t most = 0;

	for (size_t i = first; i < list->count; i++) {
		const struct check_entry *e = &list->entries[i];
		uint32_t n = e->has_count ? e->count : default_count;

		if (!entry_needs(e, NEED_PROBE) ||
		    (i != first &&
		     !check_entries_probe_alike(&list->entries[first], e)))
			continue;
		if (n > most)
			most = n;
	}
	return most;
}
