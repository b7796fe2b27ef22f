/* Creating and destroying AHs on a real device, timed, with every failure
 * explained (RoCE resolves the next hop inside ibv_create_ah, which may
 * block for seconds). */
#ifndef IBAHPROBE_AH_CREATE_H
#define IBAHPROBE_AH_CREATE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

struct verbs_port {
	struct ibv_context *context;
	struct ibv_pd *pd;
};

/* Opens the named device and allocates a PD; -1 with err set. */
int verbs_port_open(const char *device, struct verbs_port *vp, char *err,
		    size_t errlen);
void verbs_port_close(struct verbs_port *vp);

struct ah_trial {
	bool failed;		/* ibv_create_ah returned NULL */
	int error;		/* its errno; 0 also when the driver gave none */
	uint64_t create_usec;	/* how long ibv_create_ah took */
	int destroy_error;	/* 0, or the errno of ibv_destroy_ah */
};

/* ibv_create_ah, then ibv_destroy_ah at once (nothing was sent on it). */
void ah_try_create(struct verbs_port *vp, struct ibv_ah_attr *attr,
		   struct ah_trial *trial);

#endif
