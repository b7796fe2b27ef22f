/* AH creation trials on a verbs device. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "verbs/ah_create.h"
#include "base/monotonic.h"

int verbs_port_open(const char *device, struct verbs_port *vp, char *err,
		    size_t errlen)
{
	struct ibv_device **devs;
	int n;

	memset(vp, 0, sizeof(*vp));
	devs = ibv_get_device_list(&n);
	if (!devs) {
		snprintf(err, errlen, "cannot list RDMA devices: %s",
			 strerror(errno));
		return -1;
	}
	for (int i = 0; i < n && !vp->context; i++)
		if (strcmp(ibv_get_device_name(devs[i]), device) == 0)
			vp->context = ibv_open_device(devs[i]);
	ibv_free_device_list(devs);
	if (!vp->context) {
		snprintf(err, errlen, "cannot open RDMA device %s through "
			 "verbs: %s", device,
			 errno ? strerror(errno) : "no such device");
		return -1;
	}
	vp->pd = ibv_alloc_pd(vp->context);
	if (!vp->pd) {
		snprintf(err, errlen, "cannot allocate a protection domain on "
			 "%s: %s", device, strerror(errno));
		verbs_port_close(vp);
		return -1;
	}
	return 0;
}

void verbs_port_close(struct verbs_port *vp)
{
	if (vp->pd)
		ibv_dealloc_pd(vp->pd);
	if (vp->context)
		ibv_close_device(vp->context);
	memset(vp, 0, sizeof(*vp));
}

static uint64_t monotonic_usec(void)
{
	return monotonic_ns() / 1000u;
}

void ah_try_create(struct verbs_port *vp, struct ibv_ah_attr *attr,
		   struct ah_trial *trial)
{
	struct ibv_ah *ah;
	uint64_t start;

	memset(trial, 0, sizeof(*trial));
	start = monotonic_usec();
	errno = 0;
	ah = ibv_create_ah(vp->pd, attr);
	trial->create_usec = monotonic_usec() - start;
	if (!ah) {
		/* Some providers return NULL without setting errno: 0
		 * stays 0, explained as "no reason given". */
		trial->failed = true;
		trial->error = errno;
		return;
	}
	trial->destroy_error = ibv_destroy_ah(ah);
}
