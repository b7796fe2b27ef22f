/* probe mcast:GROUP: see probe_mcast.h. On InfiniBand the group's
 * record comes from the SA, the prober joins as SendOnlyNonMember for the
 * run (the SM forwards a port's packets to a group only once the port
 * joined it) and leaves after; the members the SA lists are the ones
 * expected. On RoCE the group is an IP multicast address: sending needs
 * no membership, and nothing lists the members (--expect-members says
 * how many must answer). */
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cli_port.h"
#include "probe_mcast.h"
#include "base/gid.h"
#include "out/output.h"
#include "probe/mcast_boundary.h"
#include "probe/mcast_print.h"
#include "probe/mcast_run.h"
#include "probe/mcast_unicast.h"
#include "sa/mcast_sender.h"
#include "sa/mcast_target.h"
#include "verbs/ah_mcast.h"
#include "verbs/pkey_table.h"
#include "verbs/sgid_select.h"
#include "verbs/ud_endpoint.h"

/* What the user gave of hop limit, traffic class, flow label and SL, as
 * AH fields (the first of each list: a group is probed with one set). */
static void fields_from_lists(const struct probe_mcast_args *a,
			      struct ah_fields *f)
{
	memset(f, 0, sizeof(*f));
	if (a->lists[0]) {
		f->has_hop_limit = true;
		f->hop_limit = (uint8_t)a->lists[0]->values[0];
	}
	if (a->lists[1]) {
		f->has_traffic_class = true;
		f->traffic_class = (uint8_t)a->lists[1]->values[0];
	}
	if (a->lists[2]) {
		f->has_flow_label = true;
		f->flow_label = a->lists[2]->values[0];
	}
	if (a->lists[3]) {
		f->has_sl = true;
		f->sl = (uint8_t)a->lists[3]->values[0];
	}
	if (a->common->gid_index >= 0) {
		f->has_sgid_index = true;
		f->sgid_index = (uint8_t)a->common->gid_index;
	}
}

static void run_config_base(const struct probe_mcast_args *a,
			    const struct cli_port *local,
			    struct mcast_run_config *c)
{
	c->device = local->dev->name;
	c->port_num = local->port->port_num;
	c->count = a->count;
	c->interval_ms = a->interval_ms;
	c->timeout_ms = a->common->timeout_ms;
	c->size = a->size;
	c->busy_poll = a->busy_poll;
}

static void asked_from_attr(struct mcast_run_config *c)
{
	c->asked = (struct probe_params){
		.hop_limit = c->attr.grh.hop_limit,
		.traffic_class = c->attr.grh.traffic_class,
		.sl = c->attr.sl,
		.flow_label = c->attr.grh.flow_label,
	};
	c->hop_limit_sent = c->attr.grh.hop_limit;
}

void probe_mcast_roce_target(const struct probe_mcast_args *a,
			     const struct ah_port_facts *facts,
			     const struct dest *d, struct mcast_roce_target *t)
{
	struct ah_fields f;

	memset(t, 0, sizeof(*t));
	if (d->pkey) {
		snprintf(t->error, sizeof(t->error), "%s is an IPoIB group, "
			 "which InfiniBand has and RoCE has not: on RoCE a "
			 "group is an IP multicast address", d->text);
		return;
	}
	fields_from_lists(a, &f);
	t->sgid_given = f.has_sgid_index;
	if (!f.has_sgid_index) {
		if (sgid_select(facts, &d->gid, NULL, &t->sgid_choice)) {
			snprintf(t->error, sizeof(t->error), "no source GID "
				 "for %s: %s", d->text, t->sgid_choice.reason);
			return;
		}
		f.has_sgid_index = true;
		f.sgid_index = t->sgid_choice.index;
	}
	ah_build_from_gid(&d->gid, &f, facts, &t->attr);
	t->qkey = a->has_qkey ? a->qkey : UD_DEFAULT_QKEY;
	t->built = true;
}

/* RoCE: the AH to the group's GID from a source GID the route to it
 * picks; the members' Q_Key is --qkey or serve's default. */
static int roce_prepare(const struct probe_mcast_args *a,
			const struct ah_port_facts *facts,
			const struct dest *d, struct probe_mcast_group *g)
{
	struct mcast_roce_target t;
	const struct gid_info *own;

	probe_mcast_roce_target(a, facts, d, &t);
	if (!t.built) {
		snprintf(g->error, sizeof(g->error), "%s", t.error);
		return -1;
	}
	g->cfg.attr = t.attr;
	own = ah_facts_gid(facts, g->cfg.attr.grh.sgid_index);
	if (own)
		g->cfg.sgid = own->gid;
	g->cfg.qkey = t.qkey;
	g->cfg.pkey_index = 0;
	snprintf(g->listing.why_not, sizeof(g->listing.why_not), "RoCE has "
		 "no SA to list the members");
	return 0;
}

/* IB: the group's record and AH (mcast_targets_resolve), the partition's
 * P_Key index, the join; the listing. */
static int ib_prepare(const struct probe_mcast_args *a,
		      const struct cli_port *local,
		      const struct ah_port_facts *facts,
		      struct path_session *session, size_t i,
		      struct probe_mcast_group *g, bool *joined)
{
	const struct dest *d = &a->dests->items[i];
	struct mcast_target target;
	struct pkey_table pt;
	struct ah_fields f;
	struct mcast_result r;
	char err[DIAG_MSG_MAX];
	int index;

	fields_from_lists(a, &f);
	/* targets[i] only is written: a one-element view of the list. */
	mcast_targets_resolve(session,
			      &(struct dest_list){ .count = 1,
						   .items = (struct dest *)d },
			      NULL, &f, facts, a->common->timeout_ms,
			      &target);
	if (!target.built) {
		snprintf(g->error, sizeof(g->error), "%s", target.error);
		return -1;
	}
	g->cfg.attr = target.attr;
	g->cfg.sgid = session->sa.port_gid;
	g->cfg.qkey = a->has_qkey ? a->qkey : target.group.qkey;
	if (pkey_table_read(local->dev, local->port->port_num, &pt, err,
			    sizeof(err))) {
		snprintf(g->error, sizeof(g->error), "%s", err);
		return -1;
	}
	index = pkey_table_find(&pt, target.group.pkey);
	if (index < 0) {
		snprintf(g->error, sizeof(g->error), "this port is not in "
			 "partition 0x%04x of the group", target.group.pkey);
		return -1;
	}
	g->cfg.pkey_index = (uint16_t)index;
	mcast_sender_join(session, &d->gid, a->common->timeout_ms, &r);
	if (r.status != MCAST_OK) {
		snprintf(g->error, sizeof(g->error), "%.*s",
			 (int)sizeof(g->error) - 1, r.error);
		return -1;
	}
	*joined = true;
	mcast_sender_listing(session, &d->gid, a->sa_key,
			     a->common->timeout_ms, &g->listing);
	return 0;
}

/* RoCE: a member's name from its address (getnameinfo, names only), for
 * the rows; InfiniBand GIDs are no addresses. */
static void name_members(struct mcast_tally *t)
{
	for (size_t i = 0; i < t->count; i++) {
		struct mcast_member *m = &t->members[i];
		struct sockaddr_storage ss = { 0 };
		struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
		struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
		socklen_t len;

		if (gid_is_zero(&m->who.gid) ||
		    gid_is_link_local(&m->who.gid))
			continue;
		if (gid_is_ipv4_mapped(&m->who.gid)) {
			v4->sin_family = AF_INET;
			memcpy(&v4->sin_addr, &m->who.gid.raw[12], 4);
			len = sizeof(*v4);
		} else {
			v6->sin6_family = AF_INET6;
			memcpy(&v6->sin6_addr, m->who.gid.raw, 16);
			len = sizeof(*v6);
		}
		if (getnameinfo((struct sockaddr *)&ss, len, m->host,
				sizeof(m->host), NULL, 0, NI_NAMEREQD))
			m->host[0] = '\0';
	}
}

/* The member that answered from gid, or NULL. */
static const struct mcast_member *answered_from(const struct mcast_tally *t,
						const union ibv_gid *gid)
{
	for (size_t i = 0; i < t->count; i++)
		if (t->members[i].received &&
		    memcmp(&t->members[i].who.gid, gid, sizeof(*gid)) == 0)
			return &t->members[i];
	return NULL;
}

/* A name for an address (getnameinfo, names only), or "". */
static void name_address(const char *address, char *host, size_t len)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST };
	struct addrinfo *ai;

	host[0] = '\0';
	if (getaddrinfo(address, NULL, &hints, &ai))
		return;
	if (getnameinfo(ai->ai_addr, ai->ai_addrlen, host, len, NULL, 0,
			NI_NAMEREQD))
		host[0] = '\0';
	freeaddrinfo(ai);
}

/* RoCE: the expected members (a->expect_hosts) that were silent to the
 * group, and those that answered from behind routers (whose paths say
 * how far the group goes), traced unicast once; for each silent one
 * where the group stops (probe/mcast_boundary.h). Quiet on failure: the
 * group's own result stands without it. */
static void find_boundaries(const struct probe_mcast_args *a,
			    const struct cli_port *local,
			    const char *group, struct probe_mcast_group *g)
{
	const struct dest_list *hosts = a->expect_hosts;
	size_t n = hosts ? hosts->count : 0, traced = 0, silent = 0, k;
	struct dest *copies = calloc(n ? n : 1, sizeof(*copies));
	bool *is_silent = calloc(n ? n : 1, sizeof(*is_silent));
	struct mcast_unicast_member *uni = NULL;
	struct mcast_answered_member *answered = NULL;
	char err[DIAG_MSG_MAX * 2];

	if (!copies || !is_silent)
		goto out;
	/* Shallow copies: resolving a name sets only their GID. */
	for (size_t i = 0; i < n; i++) {
		struct dest d = hosts->items[i];
		const struct mcast_member *m;

		if (dest_resolve_host(&d, err, sizeof(err)) || !d.has_gid) {
			diag_warn("expected member %s: %s", d.text, err);
			g->expected_silent++;
			continue;
		}
		m = answered_from(&g->tally, &d.gid);
		g->expected_silent += !m;
		if (m && m->hops <= 0)
			continue;
		is_silent[traced] = !m;
		silent += !m;
		copies[traced++] = d;
	}
	if (silent == 0)
		goto out;
	uni = calloc(traced, sizeof(*uni));
	answered = calloc(g->tally.count + 1, sizeof(*answered));
	g->boundaries = calloc(silent, sizeof(*g->boundaries));
	if (!uni || !answered || !g->boundaries ||
	    mcast_unicast_trace(local->dev, local->port, a->common->gid_index,
				a->common->timeout_ms,
				&(struct dest_list){ .count = traced,
						     .items = copies },
				uni, err, sizeof(err))) {
		free(g->boundaries);
		g->boundaries = NULL;
		goto out;
	}
	/* The members that answered: their hops, and where one of them
	 * was traced (it answered from behind routers), its path. */
	k = 0;
	for (size_t i = 0; i < g->tally.count; i++) {
		const struct mcast_member *m = &g->tally.members[i];

		if (!m->received)
			continue;
		answered[k].hops = m->hops;
		for (size_t j = 0; j < traced; j++)
			if (!is_silent[j] && uni[j].traced &&
			    memcmp(&copies[j].gid, &m->who.gid,
				   sizeof(m->who.gid)) == 0) {
				answered[k].path.routers = uni[j].router_view;
				answered[k].path.count = uni[j].router_count;
			}
		k++;
	}
	for (size_t j = 0; j < traced; j++) {
		struct mcast_print_boundary *b;
		char address[GID_TEXT_MAX], host[64];

		if (!is_silent[j])
			continue;
		b = &g->boundaries[g->boundary_count++];
		b->member = copies[j].text;
		b->gid = copies[j].gid;
		snprintf(b->unicast_error, sizeof(b->unicast_error), "%s",
			 uni[j].error);
		/* The router addresses stay in uni, kept with the group. */
		mcast_unicast_as_silent(&uni[j], &b->silent);
		mcast_boundary_infer(answered, k, &b->silent, &b->boundary);
		if (b->boundary.verdict == MCAST_BOUNDARY_ROUTER)
			name_address(b->silent.path.routers[b->boundary.router],
				     b->router_host, sizeof(b->router_host));
		gid_format_address(&b->gid, address, sizeof(address));
		name_address(address, host, sizeof(host));
		mcast_boundary_describe(&b->boundary, &b->silent, address,
					host, b->router_host, group, b->words,
					sizeof(b->words));
		if (b->unicast_error[0])
			snprintf(b->words + strlen(b->words),
				 sizeof(b->words) - strlen(b->words),
				 " (%s)", b->unicast_error);
	}
	g->unicast = uni;
	uni = NULL;
out:
	free(uni);
	free(answered);
	free(is_silent);
	free(copies);
}

void probe_mcast_group_run(const struct probe_mcast_args *a,
			   const struct cli_port *local,
			   const struct ah_port_facts *facts,
			   struct path_session *session, size_t i,
			   struct probe_mcast_group *g)
{
	const struct dest *d = &a->dests->items[i];
	bool ib = local->port->link_layer != LINK_LAYER_ETHERNET;
	struct mcast_result left;
	bool joined = false;
	int rc;

	memset(g, 0, sizeof(*g));
	run_config_base(a, local, &g->cfg);
	rc = ib ? ib_prepare(a, local, facts, session, i, g, &joined)
		: roce_prepare(a, facts, d, g);
	if (rc == 0) {
		asked_from_attr(&g->cfg);
		rc = mcast_run(&g->cfg, &g->tally, g->error,
			       sizeof(g->error));
	}
	if (joined) {
		mcast_sender_leave(session, &d->gid, a->common->timeout_ms,
				   &left);
		if (left.status != MCAST_OK)
			diag_warn("leaving %s: %s", d->text, left.error);
	}
	if (rc == 0 && g->listing.known &&
	    mcast_tally_merge_listed(&g->tally, g->listing.gids, NULL,
				     g->listing.count)) {
		snprintf(g->error, sizeof(g->error), "out of memory");
		rc = -1;
	}
	g->print = (struct mcast_print_group){
		.info = a->info, .dest = d->text, .mgid = d->gid,
		.qkey = g->cfg.qkey, .hop_limit = g->cfg.attr.grh.hop_limit,
		.ib = ib,
		.listing_why_not = g->listing.known ? NULL
						    : g->listing.why_not,
	};
	if (rc == 0) {
		if (!ib) {
			char group[GID_TEXT_MAX];

			name_members(&g->tally);
			find_boundaries(a, local,
					gid_format_address(&d->gid, group,
							   sizeof(group)),
					g);
			g->print.boundaries = g->boundaries;
			g->print.boundary_count = g->boundary_count;
		}
		g->probed = true;
		mcast_tally_summarize(&g->tally, a->expect_members,
				      &g->summary);
		/* --expect-member: each named one must answer too. */
		if (g->expected_silent)
			g->summary.ok = false;
	}
}

void probe_mcast_group_free(struct probe_mcast_group *g)
{
	mcast_tally_free(&g->tally);
	mcast_listing_free(&g->listing);
	free(g->boundaries);
	free(g->unicast);
}

/* One group: probed, printed. Returns whether fine. */
static bool probe_group(const struct probe_mcast_args *a,
			const struct cli_port *local,
			const struct ah_port_facts *facts,
			struct path_session *session, size_t i)
{
	struct probe_mcast_group *g = malloc(sizeof(*g));
	bool fine;

	if (!g) {
		diag_error("out of memory");
		return false;
	}
	probe_mcast_group_run(a, local, facts, session, i, g);
	fine = g->probed && g->summary.ok;
	mcast_group_print(&g->print, &g->tally, &g->summary,
			  g->probed ? NULL : g->error);
	probe_mcast_group_free(g);
	free(g);
	return fine;
}

int probe_mcast_exec(const struct probe_mcast_args *a)
{
	struct cli_port local = { 0 };
	struct ah_port_facts facts;
	struct path_session session;
	char err[DIAG_MSG_MAX];
	bool ib, all_fine = true;
	int rc;

	rc = cli_open_port(&local, a->common->device, a->common->port, 0);
	if (!rc)
		rc = cli_check_gid_index(&local, a->common->gid_index);
	if (rc) {
		cli_close_port(&local);
		return rc;
	}
	if (local.dev->source != DEVICE_FROM_VERBS) {
		cli_close_port(&local);
		return cli_fail(EXIT_ENVIRONMENT, "probing a group needs a "
				"verbs device; this one is visible through "
				"umad only (--dry-run shows the group's AH "
				"without one)");
	}
	if (local.port->active_mtu && a->size > local.port->active_mtu) {
		rc = cli_usage_error("probe size %u exceeds the MTU %u of %s "
				     "port %u", a->size,
				     local.port->active_mtu, local.dev->name,
				     local.port->port_num);
		cli_close_port(&local);
		return rc;
	}
	ah_port_facts_from_port(local.port, &facts);
	ib = local.port->link_layer != LINK_LAYER_ETHERNET;
	if (ib && a->expect_hosts) {
		cli_close_port(&local);
		return cli_usage_error("--expect-member is for RoCE groups: "
				       "on InfiniBand the SA lists the "
				       "members");
	}
	if (ib && path_session_open(&session, local.dev->name,
				    local.port->port_num, err,
				    sizeof(err)) != SA_CLIENT_OK) {
		cli_close_port(&local);
		return cli_fail(EXIT_ENVIRONMENT, "a group on InfiniBand is "
				"joined and looked up through the SA: %s",
				err);
	}
	/* One document under -j; JSON Lines are a record a line. */
	if (out_format() == OUT_JSON)
		out_open_array(NULL);
	for (size_t i = 0; i < a->dests->count; i++) {
		all_fine = probe_group(a, &local, &facts,
				       ib ? &session : NULL, i) &&
			   all_fine;
	}
	if (out_format() == OUT_JSON)
		out_close_array();
	if (ib)
		path_session_close(&session);
	cli_close_port(&local);
	return all_fine ? EXIT_FINE : EXIT_PROBLEM;
}
