/* probe --mtu over the probe engine: see mtu_probe.h.
 *
 * The search never asks above our port's active MTU, because a larger UD
 * send is not lost on the way but never leaves: rxe's requester
 * (drivers/infiniband/sw/rxe/rxe_req.c, rxe_requester) completes a UD
 * send whose payload exceeds the port MTU successfully without emitting
 * a packet, as IBA C10-93.1.1 asks (no packet, no error); rdma-core's
 * mlx5 provider (providers/mlx5/qp.c, _mlx5_post_send) checks no MTU
 * when it builds a UD work request, so there too the HCA decides, under
 * the same rule. Such a size would look like a blackhole on the path
 * while it is this host's limit. On RoCE the netdev MTU bounds it too
 * where the driver's active MTU does not (irdma: mtu_verdict.c). */
#include "probe/mtu_probe.h"

#include <stdio.h>
#include <string.h>

#include "base/gid.h"
#include "base/ibrate.h"
#include "wire/probe_wire.h"

uint32_t mtu_probe_port_bound(uint32_t port_mtu)
{
	return port_mtu && port_mtu < PROBE_MAX_SIZE ? port_mtu
						     : PROBE_MAX_SIZE;
}

static enum mtu_encap cell_encap(const struct probe_session *s,
				 const struct probe_cell *c)
{
	const struct gid_info *sgid;

	if (s->facts.link_layer == LINK_LAYER_IB)
		return MTU_ENCAP_IB;
	sgid = ah_facts_gid(&s->facts, c->attr.grh.sgid_index);
	if (sgid && sgid->kind == GID_KIND_ROCE_V1)
		return MTU_ENCAP_ROCE_V1;
	return gid_is_ipv4_mapped(&c->attr.grh.dgid) ? MTU_ENCAP_ROCE_V2_IPV4
						     : MTU_ENCAP_ROCE_V2_IPV6;
}

/* The netdev MTU of the cell's source GID (RoCE); 0 when unknown. */
static uint32_t cell_netdev_mtu(const struct probe_session *s,
				const struct probe_cell *c)
{
	const struct gid_info *sgid;

	if (s->facts.link_layer == LINK_LAYER_IB)
		return 0;
	sgid = ah_facts_gid(&s->facts, c->attr.grh.sgid_index);
	return sgid ? sgid->netdev_mtu : 0;
}

/* The smallest bound known (mtu_bound_choose). */
static void choose_bound(struct mtu_dest *d)
{
	const struct mtu_bounds b = {
		.port_mtu = d->port_mtu,
		.netdev_mtu = d->netdev_mtu,
		.path_mtu = d->path_mtu,
		.responder_mtu = d->responder_mtu,
	};

	d->bound = mtu_bound_choose(&b, d->encap,
				    mtu_probe_port_bound(d->port_mtu),
				    &d->source);
}

void mtu_probe_setup(const struct probe_session *s, struct mtu_dest *d)
{
	for (size_t i = 0; i < s->cell_count; i++) {
		const struct probe_cell *c = &s->cells[i];
		const struct probe_target *t = c->target;
		struct mtu_dest *m = &d[i];

		memset(m, 0, sizeof(*m));
		m->port_mtu = s->port_mtu;
		m->netdev_mtu = cell_netdev_mtu(s, c);
		m->encap = cell_encap(s, c);
		if (t->has_path)
			m->path_mtu = ibrate_mtu_bytes(t->path.mtu);
		if (t->from_rendezvous)
			m->responder_mtu = t->info.active_mtu;
		choose_bound(m);
		if (t->local_port) {
			m->state = MTU_DEST_SKIPPED;
		} else if (!t->ready) {
			m->state = MTU_DEST_UNREACHABLE;
			snprintf(m->error, sizeof(m->error), "%s", t->error);
		} else if (!c->ah) {
			m->state = MTU_DEST_ERROR;
			snprintf(m->error, sizeof(m->error), "%s", c->error);
		} else {
			m->state = MTU_DEST_SEARCHING;
			mtu_search_init(&m->search, PROBE_REQUEST_MIN_SIZE,
					m->bound);
		}
	}
}

/* Gives every searching cell its next size; returns how many search. */
static size_t arm_step(struct probe_session *s, struct mtu_dest *d)
{
	size_t searching = 0;

	for (size_t i = 0; i < s->cell_count; i++) {
		struct probe_cell *c = &s->cells[i];

		c->paused = d[i].state != MTU_DEST_SEARCHING;
		if (c->paused)
			continue;
		probe_cell_restart(c);
		c->size = mtu_search_next(&d[i].search);
		searching++;
	}
	return searching;
}

static void take_step(struct probe_session *s, struct mtu_dest *d)
{
	for (size_t i = 0; i < s->cell_count; i++) {
		struct probe_cell *c = &s->cells[i];
		struct mtu_dest *m = &d[i];
		uint32_t sent = c->sent - c->send_errors;

		if (c->paused)
			continue;
		/* Not one probe left this host: no outcome to learn from. */
		if (!sent) {
			m->state = MTU_DEST_ERROR;
			snprintf(m->error, sizeof(m->error),
				 "every %u-byte probe failed to post on this "
				 "host (%u send errors)", c->size,
				 c->send_errors);
			continue;
		}
		if (mtu_search_record(&m->search, c->size, sent,
				      c->received)) {
			m->state = MTU_DEST_ERROR;
			snprintf(m->error, sizeof(m->error),
				 "the search took more than %d steps",
				 MTU_SEARCH_MAX_STEPS);
			continue;
		}
		if (m->search.result != MTU_SEARCHING) {
			m->state = MTU_DEST_DONE;
			mtu_verdict_judge(&m->search, m->source, m->encap,
					  &m->verdict);
		}
	}
}

int mtu_probe_run(struct probe_session *s, struct mtu_dest *d,
		  const volatile sig_atomic_t *stop)
{
	while (!*stop && arm_step(s, d)) {
		int rc = probe_session_run(s, stop);

		if (rc)
			return rc;
		/* A step cut short by the signal says nothing: not all its
		 * probes were sent. */
		if (*stop)
			break;
		take_step(s, d);
	}
	for (size_t i = 0; i < s->cell_count; i++)
		if (d[i].state == MTU_DEST_SEARCHING)
			d[i].state = MTU_DEST_INTERRUPTED;
	return 0;
}

const char *mtu_dest_key(const struct mtu_dest *d)
{
	switch (d->state) {
	case MTU_DEST_DONE:
		return d->verdict.key;
	case MTU_DEST_UNREACHABLE:
		return "unreachable";
	case MTU_DEST_ERROR:
		return "error";
	case MTU_DEST_SEARCHING:
	case MTU_DEST_INTERRUPTED:
		return "interrupted";
	case MTU_DEST_SKIPPED:
		break;
	}
	return "";
}

bool mtu_dest_fine(const struct mtu_dest *d)
{
	return d->state == MTU_DEST_SKIPPED ||
	       (d->state == MTU_DEST_DONE && d->verdict.fine);
}
