/* serve's ServiceRecord, registered and renewed; see
 * responder_registrar.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/monotonic.h"
#include "base/parallel.h"
#include "sa/responder_registrar.h"

enum registration_change registration_change_of(
	const struct responder_record *record, uint16_t lid,
	const union ibv_gid *gid)
{
	if (memcmp(gid->raw, record->gid.raw, 16) != 0)
		return REGISTRATION_NEW_GID;
	if (lid != record->lid)
		return REGISTRATION_NEW_LID;
	return REGISTRATION_UNCHANGED;
}

/* A LID or GID change reaches the record. */
static void take_port_change(struct responder_registrar *g)
{
	char err[DIAG_MSG_MAX * 3];
	enum registration_change change;
	union ibv_gid gid;
	uint16_t lid;
	bool update;

	pthread_mutex_lock(&g->lock);
	update = g->update;
	g->update = false;
	gid = g->new_gid;
	lid = g->new_lid;
	pthread_mutex_unlock(&g->lock);
	if (!update)
		return;
	change = registration_change_of(&g->reg.responder, lid, &gid);
	if (change == REGISTRATION_UNCHANGED)
		return;
	if (change == REGISTRATION_NEW_GID &&
	    registration_delete(&g->reg, err, sizeof(err)) < 0)
		diag_warn("%s", err);
	g->reg.responder.gid = gid;
	g->reg.responder.lid = lid;
	g->reg.renew_at_ns = 1;
	diag_warn("the port's LID or GID changed: registering the record "
		  "again (LID %u)", lid);
}

/* The SA record lives as long as its lease: renew it in time; say once
 * when renewing starts failing, and when it works again. */
static void renew_registration(struct responder_registrar *g)
{
	char err[DIAG_MSG_MAX * 3];
	int rc;

	take_port_change(g);
	/* A client reregister event: the SM lost its records (restart,
	 * failover) and asks us to register again now. */
	if (atomic_exchange(&g->reregister, false))
		g->reg.renew_at_ns = 1;
	rc = registration_renew_if_due(&g->reg, monotonic_ns(), err,
				       sizeof(err));
	if (rc < 0 && g->reg.renew_failures == 1)
		diag_warn("%s; retrying every second (the record lapses %u s "
			  "after the last renewal)", err,
			  g->reg.responder.lease);
	else if (rc > 0 && g->reg.recovered_after)
		diag_warn("registered with the SA again, after %u failed "
			  "renewals", g->reg.recovered_after);
}

static void *renewer_main(void *arg)
{
	struct responder_registrar *g = arg;

	while (!atomic_load(&g->renewer_stop)) {
		renew_registration(g);
		/* Short naps: stopping must not wait for a whole second. */
		for (int i = 0; i < 10 && !atomic_load(&g->renewer_stop) &&
				!atomic_load(&g->reregister);
		     i++)
			usleep(100000);
	}
	return NULL;
}

static void stop_renewer(struct responder_registrar *g)
{
	if (!g->renewer_running)
		return;
	atomic_store(&g->renewer_stop, true);
	pthread_join(g->renewer, NULL);
	g->renewer_running = false;
}

int responder_registrar_start(struct responder_registrar *g,
			      const struct responder_info *info,
			      const char *bound, uint32_t timeout_ms,
			      char *err, size_t len)
{
	struct responder_record *r = &g->reg.responder;
	const char *colon = strrchr(bound, ':');
	char why[DIAG_MSG_MAX * 3];
	int rc;

	if (registration_open(&g->reg, info->device, info->port_num,
			      timeout_ms, why, sizeof(why)) != SA_CLIENT_OK) {
		snprintf(err, len, "--register: %s", why);
		return -1;
	}
	r->qpn = info->qpn;
	r->qkey = info->qkey;
	if (colon)
		r->rendezvous_port = (uint16_t)strtoul(colon + 1, NULL, 10);
	if (gethostname(r->host, sizeof(r->host) - 1))
		r->host[0] = '\0';
	if (registration_set(&g->reg, why, sizeof(why))) {
		snprintf(err, len, "%s", why);
		return -1;
	}
	g->registered = true;
	rc = thread_start_signal_free(&g->renewer, renewer_main, g);
	if (rc) {
		snprintf(err, len, "cannot start the lease renewal thread: %s",
			 strerror(rc));
		return -1;
	}
	g->renewer_running = true;
	return 0;
}

/* The record carries the port's GID 0 and LID (registration_open). */
void responder_registrar_port_changed(void *ctx, const struct port_info *port,
				      bool reregister)
{
	struct responder_registrar *g = ctx;

	if (g->renewer_running) {
		pthread_mutex_lock(&g->lock);
		for (size_t i = 0; i < port->gid_count; i++)
			if (port->gids[i].index == 0)
				g->new_gid = port->gids[i].gid;
		g->new_lid = port->lid;
		g->update = true;
		pthread_mutex_unlock(&g->lock);
	}
	if (reregister)
		atomic_store(&g->reregister, true);
}

void responder_registrar_remove(struct responder_registrar *g)
{
	char err[DIAG_MSG_MAX * 3];
	int rc;

	stop_renewer(g);
	if (!g->reg.registered)
		return;
	rc = registration_delete(&g->reg, err, sizeof(err));
	if (rc < 0)
		diag_warn("%s", err);
	else if (rc > 0)
		diag_verbose(1, "the SA had no record to delete: its lease "
			     "ran out");
}

void responder_registrar_close(struct responder_registrar *g)
{
	stop_renewer(g);
	registration_close(&g->reg);
}
