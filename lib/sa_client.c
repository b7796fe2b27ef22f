/* SA queries over libibumad with a window, deadlines and retries. */
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/umad.h>

#include "monotonic.h"
#include "sa_client.h"
#include "wire_bytes.h"

/* The MAD layer rewrites the upper 32 TID bits with the agent's id. */
#define TID_MASK 0xffffffffull
#define MAD_TID_OFFSET 8
#define MAD_METHOD_OFFSET 3
#define RECV_BATCH 64

enum sa_client_error sa_client_open(struct sa_client *c, const char *ca,
				    uint8_t port, char *err, size_t errlen)
{
	umad_port_t up;
	uint64_t prefix, guid;

	memset(c, 0, sizeof(*c));
	c->portid = -1;
	c->agent = -1;
	/* umad_init() first: it fixes what umad_size() reports. */
	if (umad_init() < 0) {
		snprintf(err, errlen, "cannot initialise libibumad (is "
			 "ib_umad loaded?)");
		return SA_CLIENT_NO_DEVICE;
	}
	if (umad_get_port(ca, port, &up) < 0) {
		snprintf(err, errlen, "no InfiniBand port%s%s visible through "
			 "umad; 'ibahprobe ports' lists them",
			 ca ? " on " : "", ca ? ca : "");
		return SA_CLIENT_NO_DEVICE;
	}
	snprintf(c->ca, sizeof(c->ca), "%s", up.ca_name);
	c->port_num = (uint8_t)up.portnum;
	c->lid = (uint16_t)up.base_lid;
	c->lmc = (uint8_t)up.lmc;
	c->sm_lid = (uint16_t)up.sm_lid;
	c->sm_sl = (uint8_t)up.sm_sl;
	prefix = be64toh(up.gid_prefix);
	guid = be64toh(up.port_guid);
	wire_put64(c->port_gid.raw, 0, prefix);
	wire_put64(c->port_gid.raw, 8, guid);
	if (up.state != IBV_PORT_ACTIVE) {
		snprintf(err, errlen, "%s port %u is not ACTIVE (state %u): "
			 "is the link up and a subnet manager running?",
			 c->ca, c->port_num, up.state);
		umad_release_port(&up);
		return SA_CLIENT_NO_DEVICE;
	}
	umad_release_port(&up);
	if (c->sm_lid == 0) {
		snprintf(err, errlen, "%s port %u knows no subnet manager (SM "
			 "LID 0): start opensm", c->ca, c->port_num);
		return SA_CLIENT_NO_SM;
	}
	c->portid = umad_open_port(c->ca, c->port_num);
	if (c->portid < 0) {
		snprintf(err, errlen, "cannot open the umad device of %s port "
			 "%u: %s (root, or access to /dev/infiniband/umad*, is "
			 "needed)", c->ca, c->port_num, strerror(-c->portid));
		return c->portid == -EACCES || c->portid == -EPERM
			       ? SA_CLIENT_PERMISSION
			       : SA_CLIENT_FAILED;
	}
	/* RMPP version 1, as SA GetTable answers may be multi-packet. */
	c->agent = umad_register(c->portid, SA_MGMT_CLASS, SA_CLASS_VERSION,
				 1, NULL);
	if (c->agent < 0) {
		snprintf(err, errlen, "cannot register an SA agent on %s: %s",
			 c->ca, strerror(-c->agent));
		sa_client_close(c);
		return SA_CLIENT_FAILED;
	}
	c->umad_len = umad_size() + SA_MAD_BYTES;
	c->next_tid = (uint32_t)monotonic_ns();
	return SA_CLIENT_OK;
}

int sa_client_refresh_sm(struct sa_client *c)
{
	umad_port_t up;

	if (umad_get_port(c->ca, c->port_num, &up) < 0)
		return -1;
	c->lid = (uint16_t)up.base_lid;
	c->sm_lid = (uint16_t)up.sm_lid;
	c->sm_sl = (uint8_t)up.sm_sl;
	umad_release_port(&up);
	return 0;
}

void sa_client_close(struct sa_client *c)
{
	if (c->agent >= 0)
		umad_unregister(c->portid, c->agent);
	if (c->portid >= 0)
		umad_close_port(c->portid);
	c->agent = -1;
	c->portid = -1;
}

static int send_query(struct sa_client *c, struct sa_query *q, void *umad,
		      uint32_t timeout_ms)
{
	uint8_t *mad = umad_get_mad(umad);

	memset(umad, 0, c->umad_len);
	memcpy(mad, q->request, SA_MAD_BYTES);
	q->tid = c->next_tid++;
	wire_put64(mad, MAD_TID_OFFSET, q->tid);
	umad_set_addr(umad, c->sm_lid, SA_QPN, c->sm_sl, SA_QKEY);
	q->attempts++;
	q->umad_error = 0;
	/* The kernel also times the request out and hands it back with
	 * ETIMEDOUT; our own deadline covers stacks that do not. */
	if (umad_send(c->portid, c->agent, umad, SA_MAD_BYTES, (int)timeout_ms,
		      0) < 0)
		return -1;
	q->in_flight = true;
	q->deadline_ns = monotonic_ns() + (uint64_t)timeout_ms * 1000000u;
	if (!q->first_sent_ns)
		q->first_sent_ns = q->deadline_ns - (uint64_t)timeout_ms * 1000000u;
	return 0;
}

static struct sa_query *find_by_tid(struct sa_query *queries, size_t n,
				    uint32_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (queries[i].in_flight && queries[i].tid == tid)
			return &queries[i];
	return NULL;
}

/* One attempt ended without an answer: retry with a longer timeout, or
 * give up. */
static void attempt_failed(struct sa_query *q, unsigned retries)
{
	q->in_flight = false;
	if (q->attempts > retries)
		q->result = SA_RESULT_TIMEOUT;
}

static uint32_t attempt_timeout(const struct sa_query *q, uint32_t timeout_ms)
{
	unsigned shift = q->attempts < 8 ? q->attempts : 8;

	return timeout_ms << shift;
}

/* Returns whether umad carried an answer of the SA to one of our queries. */
static bool take_response(struct sa_query *queries, size_t n, void *umad,
			  int len)
{
	uint8_t *mad = umad_get_mad(umad);
	struct sa_query *q;
	uint32_t tid;

	if (len < SA_HEADER_BYTES)
		return false;
	tid = (uint32_t)(wire_get64(mad, MAD_TID_OFFSET) & TID_MASK);
	q = find_by_tid(queries, n, tid);
	if (!q)
		return false;	/* a late answer to an attempt we gave up on */
	if (umad_status(umad) != 0) {
		/* The kernel's timeout (ETIMEDOUT) or a send error. The
		 * attempt still ends at its own deadline: a stack that fails
		 * sends at once (no SM behind the SM LID) must not burn every
		 * retry within a millisecond, that is what the backoff is
		 * for. */
		q->umad_error = umad_status(umad);
		return false;
	}
	/* Our TID with another method is not the answer (a request of the
	 * SA's own, or a broken agent): keep waiting for the real one. */
	if (mad[MAD_METHOD_OFFSET] != sa_response_method(q->request[MAD_METHOD_OFFSET]))
		return false;
	free(q->message);
	q->message = NULL;
	if ((size_t)len > SA_MAD_BYTES) {
		q->message = malloc((size_t)len);
		if (!q->message)
			return false;	/* retried at the deadline */
		memcpy(q->message, mad, (size_t)len);
	}
	q->in_flight = false;
	q->response_len = (size_t)len;
	memcpy(q->response, mad, len < SA_MAD_BYTES ? (size_t)len : SA_MAD_BYTES);
	if ((size_t)len < SA_MAD_BYTES)
		memset(q->response + len, 0, SA_MAD_BYTES - (size_t)len);
	q->status = wire_get16(mad, 4);
	q->result = q->status == 0 ? SA_RESULT_OK : SA_RESULT_STATUS;
	return true;
}

const uint8_t *sa_query_answer(const struct sa_query *q, size_t *len)
{
	*len = q->response_len;
	return q->message ? q->message : q->response;
}

void sa_query_describe(const struct sa_query *q, const char *what,
		       uint32_t timeout_ms, char *buf, size_t len)
{
	if (q->result == SA_RESULT_STATUS)
		snprintf(buf, len, "%s: SA answered %s (status 0x%04x)", what,
			 sa_status_str(q->status), q->status);
	else if (q->abandoned)
		snprintf(buf, len, "%s: not answered: the SA went silent "
			 "(another query got no answer in all its tries, and "
			 "no query has been answered since)", what);
	else if (q->result == SA_RESULT_TIMEOUT &&
		 q->umad_error == ETIMEDOUT)
		snprintf(buf, len, "%s: no answer from the SA within %u ms "
			 "(%u tries)", what, timeout_ms, q->attempts);
	else if (q->result == SA_RESULT_TIMEOUT)
		snprintf(buf, len, "%s: the SA could not be reached (%s, %u "
			 "tries)", what, strerror(q->umad_error), q->attempts);
	else
		snprintf(buf, len, "%s: the query could not be sent", what);
}

void sa_queries_release(struct sa_query *queries, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(queries[i].message);
		queries[i].message = NULL;
	}
}

/* Reads one MAD; an answer longer than the buffer (a reassembled RMPP
 * message) stays queued in the kernel with ENOSPC and its length, so the
 * buffer grows and the read is repeated. Returns the data length or -1. */
static int receive(struct sa_client *c, void **umad, size_t *umad_len)
{
	int len = (int)(*umad_len - (size_t)umad_size());

	if (umad_recv(c->portid, *umad, &len, 0) >= 0)
		return len;
	/* No cap: the message is in kernel memory already, and one that is
	 * never read would stay first in the queue for good. */
	if (errno == ENOSPC && (size_t)len + (size_t)umad_size() > *umad_len) {
		size_t need = (size_t)umad_size() + (size_t)len;
		void *bigger = realloc(*umad, need);

		if (!bigger)
			return -1;
		*umad = bigger;
		*umad_len = need;
		if (umad_recv(c->portid, *umad, &len, 0) >= 0)
			return len;
	}
	return -1;
}

/* Ends every query still without an answer: the SA stopped answering. */
static void abandon_pending(struct sa_query *queries, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct sa_query *q = &queries[i];

		if (q->result != SA_RESULT_PENDING)
			continue;
		q->in_flight = false;
		q->abandoned = true;
		q->result = SA_RESULT_TIMEOUT;
		if (!q->umad_error)
			q->umad_error = ETIMEDOUT;
	}
}

/* The first query at or after from without a result. */
static size_t first_unfinished(const struct sa_query *queries, size_t from,
			       size_t end)
{
	while (from < end && queries[from].result != SA_RESULT_PENDING)
		from++;
	return from;
}

int sa_client_run(struct sa_client *c, struct sa_query *queries, size_t n,
		  unsigned window, uint32_t timeout_ms, unsigned retries,
		  char *err, size_t errlen)
{
	size_t umad_len = c->umad_len;
	void *umad = calloc(1, umad_len);
	uint64_t last_answer_ns = 0;
	/* Queries before oldest have a result, none from next on was sent:
	 * every loop below scans only [oldest, next), which the window keeps
	 * short, so 100,000 destinations cost no more per answer than ten. */
	size_t oldest = 0, next = 0;
	int rc = -1;

	if (!umad) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		queries[i].result = SA_RESULT_PENDING;
		queries[i].attempts = 0;
		queries[i].in_flight = false;
		queries[i].abandoned = false;
		queries[i].first_sent_ns = 0;
		queries[i].response_len = 0;
		free(queries[i].message);
		queries[i].message = NULL;
	}
	for (;;) {
		unsigned in_flight = 0;
		uint64_t now = monotonic_ns(), wake = now + 1000000000ull;
		struct pollfd pfd = { .fd = umad_get_fd(c->portid),
				      .events = POLLIN };

		/* Deadlines first, then fill the window: retries before new
		 * queries, so the oldest finish first. */
		for (size_t i = oldest; i < next; i++) {
			struct sa_query *q = &queries[i];

			if (q->in_flight && now >= q->deadline_ns) {
				if (!q->umad_error)
					q->umad_error = ETIMEDOUT;
				attempt_failed(q, retries);
				if (q->result == SA_RESULT_TIMEOUT &&
				    last_answer_ns < q->first_sent_ns) {
					abandon_pending(queries, n);
					next = n;
					in_flight = 0;
					break;
				}
			}
			in_flight += q->in_flight;
		}
		for (size_t i = oldest; i < next && in_flight < window; i++) {
			struct sa_query *q = &queries[i];

			if (q->result != SA_RESULT_PENDING || q->in_flight)
				continue;
			if (send_query(c, q, umad, attempt_timeout(q, timeout_ms)))
				q->result = SA_RESULT_SEND_FAILED;
			else
				in_flight++;
		}
		while (next < n && in_flight < window) {
			struct sa_query *q = &queries[next++];

			if (send_query(c, q, umad, timeout_ms))
				q->result = SA_RESULT_SEND_FAILED;
			else
				in_flight++;
		}
		oldest = first_unfinished(queries, oldest, next);
		if (oldest == n)
			break;
		for (size_t i = oldest; i < next; i++)
			if (queries[i].in_flight && queries[i].deadline_ns < wake)
				wake = queries[i].deadline_ns;
		int wait_ms = (int)((wake > now ? wake - now : 0) / 1000000) + 1;
		int pr = poll(&pfd, 1, wait_ms);

		if (pr < 0 && errno != EINTR) {
			snprintf(err, errlen, "waiting for SA answers failed: %s",
				 strerror(errno));
			goto out;
		}
		for (int k = 0; pr > 0 && k < RECV_BATCH; k++) {
			int len = receive(c, &umad, &umad_len);

			if (len < 0)
				break;
			if (take_response(queries + oldest, next - oldest, umad,
					  len))
				last_answer_ns = monotonic_ns();
		}
		oldest = first_unfinished(queries, oldest, next);
	}
	rc = 0;
out:
	free(umad);
	return rc;
}
