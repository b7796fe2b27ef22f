/* The receive-drop counter of a port's hw_counters; see hw_counters.h. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/small_file.h"
#include "verbs/hw_counters.h"

/*
 * In order of preference. Each counts, per port, UD and RC sends that
 * arrived while no receive WQE was posted, which the HCA dropped:
 *
 * - mlx5: "out_of_buffer", the port's default Q counter
 *   (kernel drivers/infiniband/hw/mlx5/counters.c basic_q_cnts,
 *   INIT_Q_COUNTER(out_of_buffer), read by mlx5_ib_query_q_counters from
 *   QUERY_Q_COUNTER.out_of_buffer). QPs bound to another counter set
 *   (`rdma statistic qp set ... auto on`) are counted there, not here.
 * - bnxt_re: "res_oob_drop_count" (kernel drivers/infiniband/hw/bnxt_re/
 *   hw_counters.c bnxt_re_stat_descs, BNXT_RE_RES_OOB_DROP_COUNT:
 *   responder "out of buffer" drops, from the firmware's extended
 *   error statistics).
 *
 * rxe has none: rxe_resp.c check_resource() answers RESPST_ERR_RNR when
 * the RQ is empty, and rxe_responder() counts RXE_CNT_SND_RNR only for
 * RC; a UD packet just gets qp->resp.drop_msg = 1 ("class D") and is
 * gone, uncounted (rxe_hw_counters.c lists sent_pkts, rcvd_pkts,
 * duplicate_request, ... but nothing for it; rcvd_pkts counts every QP's
 * packets before the responder looks for a WQE).
 */
const struct rq_drop_counter rq_drop_counters[] = {
	{ "out_of_buffer", "mlx5",
	  "drivers/infiniband/hw/mlx5/counters.c basic_q_cnts" },
	{ "res_oob_drop_count", "bnxt_re",
	  "drivers/infiniband/hw/bnxt_re/hw_counters.c bnxt_re_stat_descs" },
};
const size_t rq_drop_counter_count =
	sizeof(rq_drop_counters) / sizeof(rq_drop_counters[0]);

const struct rq_drop_counter *rq_drop_counter_pick(const char *const *names,
						   size_t count)
{
	for (size_t k = 0; k < rq_drop_counter_count; k++)
		for (size_t i = 0; i < count; i++)
			if (strcmp(names[i], rq_drop_counters[k].name) == 0)
				return &rq_drop_counters[k];
	return NULL;
}

#define HW_COUNTERS_MAX_NAMES 256

const struct rq_drop_counter *rq_drop_counter_find(const char *root,
						   const char *device,
						   unsigned port)
{
	const struct rq_drop_counter *found;
	char path[512];
	char *names[HW_COUNTERS_MAX_NAMES];
	size_t count = 0;
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/%s/ports/%u/hw_counters", root,
		 device, port);
	dir = opendir(path);
	if (!dir)
		return NULL;
	while ((d = readdir(dir)) && count < HW_COUNTERS_MAX_NAMES) {
		if (d->d_name[0] == '.')
			continue;
		names[count] = strdup(d->d_name);
		if (names[count])
			count++;
	}
	closedir(dir);
	found = rq_drop_counter_pick((const char *const *)names, count);
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	return found;
}

int hw_counter_read(const char *root, const char *device, unsigned port,
		    const char *name, uint64_t *value)
{
	char path[512], text[32], *end;
	unsigned long long v;

	snprintf(path, sizeof(path), "%s/%s/ports/%u/hw_counters/%s", root,
		 device, port, name);
	if (small_file_read(path, text, sizeof(text)) < 0)
		return -1;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text || (*end && *end != '\n'))
		return -1;
	*value = v;
	return 0;
}
