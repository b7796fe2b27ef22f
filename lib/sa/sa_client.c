/* SA queries over libibumad with a window, deadlines and retries. */
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/umad.h>

#include "base/monotonic.h"
#include "sa/sa_client.h"
#include "sa/sa_status.h"
#include "wire/wire_bytes.h"

/* The MAD layer rewrites the upper 32 TID bits with the agent's id. */
#define TID_MASK 0xffffffffull
#define MAD_TID_OFFSET 8
#define MAD_METHOD_OFFSET 3
#define RECV_BATCH 64
/* Redirects one query follows: a redirect that points back (or around in
 * a circle) must not bounce it for good. */
#define MAX_REDIRECTS 4

/* Queries go to the SM's SA, QP 1, until a redirect says otherwise. */
static void target_the_sm(struct sa_client *c)
{
	c->sa_lid = c->sm_lid;
	c->sa_sl = c->sm_sl;
	c->sa_qpn = SA_QPN;
	c->sa_qkey = SA_QKEY;
	c->sa_pkey_index = 0;
	c->redirected = false;
}

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
	target_the_sm(c);
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
	/* A new SM may run its SA without the old one's redirect. */
	target_the_sm(c);
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
	umad_set_addr(umad, c->sa_lid, (int)c->sa_qpn, c->sa_sl,
		      (int)c->sa_qkey);
	umad_set_pkey(umad, c->sa_pkey_index);
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
	if (++q->timed_out > retries)
		q->result = SA_RESULT_TIMEOUT;
}

/* Each timeout doubles the next attempt's; a busy SA answered, so busy
 * answers do not. */
static uint32_t attempt_timeout(const struct sa_query *q, uint32_t timeout_ms)
{
	unsigned shift = q->timed_out < 8 ? q->timed_out : 8;

	return timeout_ms << shift;
}

/* Follows the ClassPortInfo redirect in mad: later queries go there.
 * Returns 0, or -1 with err set when it cannot be followed. */
static int follow_redirect(struct sa_client *c, const uint8_t *mad,
			   size_t len, char *err, size_t errlen)
{
	struct sa_redirect r;
	umad_port_t up;
	char why[160];
	int rc;

	if (umad_get_port(c->ca, c->port_num, &up) < 0) {
		snprintf(err, errlen, "the SA (LID %u) redirects its clients, "
			 "and %s port %u cannot be read again to follow it",
			 c->sa_lid, c->ca, c->port_num);
		return -1;
	}
	rc = sa_redirect_decode(mad, len, up.pkeys, up.pkeys_size, &r, why,
				sizeof(why));
	umad_release_port(&up);
	if (rc) {
		snprintf(err, errlen, "the SA (LID %u) redirects its clients "
			 "elsewhere (MAD status \"redirect required\"), and %s; "
			 "ibahprobe cannot follow this redirect",
			 c->sa_lid, why);
		return -1;
	}
	c->sa_lid = r.lid;
	c->sa_sl = r.sl;
	c->sa_qpn = r.qpn;
	c->sa_qkey = r.qkey;
	c->sa_pkey_index = r.pkey_index;
	c->redirected = true;
	return 0;
}

/* What every query of one run is allowed. */
struct sa_run_limits {
	uint32_t timeout_ms;	/* of a first attempt */
	uint64_t budget_ns;	/* of a query, from its first send */
};

enum take {
	TAKE_NOTHING,	/* not an answer to a query of ours */
	TAKE_ANSWER,	/* the SA answered (a result, busy or redirect) */
	TAKE_FAILED,	/* a redirect that cannot be followed: err is set */
};

/* Takes what umad carried: an answer of the SA to one of our queries. */
static enum take take_response(struct sa_client *c, struct sa_query *queries,
			       size_t n, void *umad, int len,
			       const struct sa_run_limits *lim, char *err,
			       size_t errlen)
{
	uint8_t *mad = umad_get_mad(umad);
	struct sa_query *q;
	uint16_t status;
	uint32_t tid;
	uint64_t now;

	if (len < SA_HEADER_BYTES)
		return TAKE_NOTHING;
	tid = (uint32_t)(wire_get64(mad, MAD_TID_OFFSET) & TID_MASK);
	q = find_by_tid(queries, n, tid);
	if (!q)
		return TAKE_NOTHING;	/* a late answer to an attempt we gave up on */
	if (umad_status(umad) != 0) {
		/* The kernel's timeout (ETIMEDOUT) or a send error. The
		 * attempt still ends at its own deadline: a stack that fails
		 * sends at once (no SM behind the SM LID) must not burn every
		 * retry within a millisecond, that is what the backoff is
		 * for. */
		q->umad_error = umad_status(umad);
		return TAKE_NOTHING;
	}
	/* Our TID with another method is not the answer (a request of the
	 * SA's own, or a broken agent): keep waiting for the real one. */
	if (mad[MAD_METHOD_OFFSET] != sa_response_method(q->request[MAD_METHOD_OFFSET]))
		return TAKE_NOTHING;
	status = wire_get16(mad, 4);
	now = monotonic_ns();
	switch (sa_status_action(status)) {
	case SA_STATUS_BUSY:
		/* IBA 13.4.7: busy means the SA discarded the request; ask
		 * again, later, while the deadline allows. */
		q->in_flight = false;
		q->busy_answers++;
		if (sa_busy_retry(now, q->first_sent_ns + lim->budget_ns,
				  q->busy_answers, lim->timeout_ms,
				  &q->resend_at_ns))
			return TAKE_ANSWER;
		break;	/* stayed busy: that is the result */
	case SA_STATUS_REDIRECT:
		q->in_flight = false;
		if (++q->redirects > MAX_REDIRECTS) {
			snprintf(err, errlen, "the SA redirected a query %u "
				 "times (now to LID %u QP %u): a redirect "
				 "loop", q->redirects, c->sa_lid, c->sa_qpn);
			return TAKE_FAILED;
		}
		if (follow_redirect(c, mad, (size_t)len, err, errlen))
			return TAKE_FAILED;
		q->resend_at_ns = 0;	/* at once, to the new place */
		return TAKE_ANSWER;
	case SA_STATUS_DONE:
		break;
	}
	free(q->message);
	q->message = NULL;
	if ((size_t)len > SA_MAD_BYTES) {
		q->message = malloc((size_t)len);
		if (!q->message)
			return TAKE_NOTHING;	/* retried at the deadline */
		memcpy(q->message, mad, (size_t)len);
	}
	q->in_flight = false;
	q->response_len = (size_t)len;
	memcpy(q->response, mad, len < SA_MAD_BYTES ? (size_t)len : SA_MAD_BYTES);
	if ((size_t)len < SA_MAD_BYTES)
		memset(q->response + len, 0, SA_MAD_BYTES - (size_t)len);
	q->status = status;
	q->result = q->status == 0 ? SA_RESULT_OK : SA_RESULT_STATUS;
	return TAKE_ANSWER;
}

const uint8_t *sa_query_answer(const struct sa_query *q, size_t *len)
{
	*len = q->response_len;
	return q->message ? q->message : q->response;
}

void sa_query_describe(const struct sa_query *q, const char *what,
		       uint32_t timeout_ms, char *buf, size_t len)
{
	if (q->result == SA_RESULT_STATUS &&
	    sa_status_action(q->status) == SA_STATUS_BUSY)
		snprintf(buf, len, "%s: the SA stayed busy (status 0x%04x, "
			 "%u busy answers to %u tries, backing off each time): "
			 "try again later, or with a longer -t", what,
			 q->status, q->busy_answers, q->attempts);
	else if (q->result == SA_RESULT_STATUS)
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
	const struct sa_run_limits lim = {
		.timeout_ms = timeout_ms,
		.budget_ns = sa_query_budget_ns(timeout_ms, retries),
	};
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
		queries[i].timed_out = 0;
		queries[i].busy_answers = 0;
		queries[i].redirects = 0;
		queries[i].resend_at_ns = 0;
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
			/* Busy: its backoff keeps its place in the window. */
			if (q->resend_at_ns > now) {
				in_flight++;
				continue;
			}
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
		for (size_t i = oldest; i < next; i++) {
			const struct sa_query *q = &queries[i];

			if (q->in_flight && q->deadline_ns < wake)
				wake = q->deadline_ns;
			if (!q->in_flight && q->result == SA_RESULT_PENDING &&
			    q->resend_at_ns > now && q->resend_at_ns < wake)
				wake = q->resend_at_ns;
		}
		int wait_ms = (int)((wake > now ? wake - now : 0) / 1000000) + 1;
		int pr = poll(&pfd, 1, wait_ms);

		if (pr < 0 && errno != EINTR) {
			snprintf(err, errlen, "waiting for SA answers failed: %s",
				 strerror(errno));
			goto out;
		}
		for (int k = 0; pr > 0 && k < RECV_BATCH; k++) {
			int len = receive(c, &umad, &umad_len);
			enum take took;

			if (len < 0)
				break;
			took = take_response(c, queries + oldest, next - oldest,
					     umad, len, &lim, err, errlen);
			if (took == TAKE_FAILED)
				goto out;
			if (took == TAKE_ANSWER)
				last_answer_ns = monotonic_ns();
		}
		oldest = first_unfinished(queries, oldest, next);
	}
	rc = 0;
out:
	free(umad);
	return rc;
}
