/* serve --register: the responder's ServiceRecord kept in the SA for as
 * long as serve runs. The lease is renewed by a thread of its own (an SA
 * that does not answer must not delay replies), the record follows the
 * port's LID and GID, and it is deleted on exit. */
#ifndef IBAHPROBE_RESPONDER_REGISTRAR_H
#define IBAHPROBE_RESPONDER_REGISTRAR_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "peer/rendezvous.h"
#include "sa/responder_discovery.h"
#include "verbs/device.h"

struct responder_registrar {
	struct responder_registration reg;	/* the renewer's, once it runs */
	pthread_t renewer;
	bool renewer_running;
	atomic_bool renewer_stop, reregister;
	bool registered;	/* the main thread's copy, for the ready line */
	/* The port's LID and GID after an event, for the renewer to put in
	 * the record. */
	pthread_mutex_t lock;
	bool update;
	uint16_t new_lid;
	union ibv_gid new_gid;
};

#define RESPONDER_REGISTRAR_INIT { .lock = PTHREAD_MUTEX_INITIALIZER }

/* What a port change does to the record: a new GID is a new record (the
 * old one is deleted, or lapses), a new LID a new Set of the same one. */
enum registration_change {
	REGISTRATION_UNCHANGED,
	REGISTRATION_NEW_LID,
	REGISTRATION_NEW_GID,
};

enum registration_change registration_change_of(
	const struct responder_record *record, uint16_t lid,
	const union ibv_gid *gid);

/* Registers the responder info's QP, once it is up, and starts renewing
 * it; bound ("ADDR:PORT" or "") is the rendezvous, whose port goes along
 * so probers that find us in the SA can also use it. -1 with the whole
 * message in err. */
int responder_registrar_start(struct responder_registrar *g,
			      const struct responder_info *info,
			      const char *bound, uint32_t timeout_ms,
			      char *err, size_t len);
/* For responder.port_changed (ctx: the registrar): the port's LID and
 * GID 0 go to the renewer; reregister asks it to register again now. */
void responder_registrar_port_changed(void *ctx, const struct port_info *port,
				      bool reregister);
/* Stops renewing and deletes the record; a failure only leaves it to
 * its lease. */
void responder_registrar_remove(struct responder_registrar *g);
/* Stops renewing and closes the SA client. */
void responder_registrar_close(struct responder_registrar *g);

#endif
