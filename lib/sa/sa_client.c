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
#include "sa/sa_window.h"
#include "wire/wire_bytes.h"

/* The MAD layer rewrites the upper 32 TID bits with the agent's id. */
#define TID_MASK 0xffffffffull
#define MAD_TID_OFFSET 8
#define MAD_METHOD_OFFSET 3
#define RECV_BATCH 64

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

/* What the window's sends and the receives share: the client and one umad
 * buffer, which grows for a multi-packet answer. */
struct sa_umad_io {
	struct sa_client *c;
	void *umad;
	size_t umad_len;
};

/* The window's sa_send_fn: one attempt of q to where the SA is now. */
static int send_query(void *ctx, struct sa_query *q, uint32_t timeout_ms,
		      uint64_t *sent_ns)
{
	struct sa_umad_io *io = ctx;
	struct sa_client *c = io->c;
	uint8_t *mad = umad_get_mad(io->umad);

	memset(io->umad, 0, c->umad_len);
	memcpy(mad, q->request, SA_MAD_BYTES);
	q->tid = c->next_tid++;
	wire_put64(mad, MAD_TID_OFFSET, q->tid);
	umad_set_addr(io->umad, c->sa_lid, (int)c->sa_qpn, c->sa_sl,
		      (int)c->sa_qkey);
	umad_set_pkey(io->umad, c->sa_pkey_index);
	/* The kernel also times the request out and hands it back with
	 * ETIMEDOUT; our own deadline covers stacks that do not. */
	if (umad_send(c->portid, c->agent, io->umad, SA_MAD_BYTES,
		      (int)timeout_ms, 0) < 0)
		return -1;
	*sent_ns = monotonic_ns();
	return 0;
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

/* Keeps the answer's bytes in q: the first SA_MAD_BYTES, and the whole
 * of a longer one. Returns 0, or -1 when memory ran out. */
static int store_answer(struct sa_query *q, const uint8_t *mad, int len)
{
	free(q->message);
	q->message = NULL;
	if ((size_t)len > SA_MAD_BYTES) {
		q->message = malloc((size_t)len);
		if (!q->message)
			return -1;
		memcpy(q->message, mad, (size_t)len);
	}
	q->response_len = (size_t)len;
	memcpy(q->response, mad, len < SA_MAD_BYTES ? (size_t)len : SA_MAD_BYTES);
	if ((size_t)len < SA_MAD_BYTES)
		memset(q->response + len, 0, SA_MAD_BYTES - (size_t)len);
	return 0;
}

/* Takes what umad carried: maybe an answer of the SA to one of our
 * queries. Returns 0, or -1 with err set when the SA redirects to where
 * this client cannot follow. */
static int take_response(struct sa_client *c, struct sa_window *w,
			 void *umad, int len, char *err, size_t errlen)
{
	uint8_t *mad = umad_get_mad(umad);
	struct sa_answer a;
	struct sa_query *q;
	uint64_t now;

	if (len < SA_HEADER_BYTES)
		return 0;
	a = (struct sa_answer){
		.tid = (uint32_t)(wire_get64(mad, MAD_TID_OFFSET) & TID_MASK),
		.umad_status = umad_status(umad),
		.method = mad[MAD_METHOD_OFFSET],
		.status = wire_get16(mad, 4),
	};
	now = monotonic_ns();
	switch (sa_window_take(w, &a, now, &q)) {
	case SA_ANSWER_NONE:
	case SA_ANSWER_BUSY:
		return 0;
	case SA_ANSWER_REDIRECT_LOOP:
		snprintf(err, errlen, "the SA redirected a query %u times "
			 "(now to LID %u QP %u): a redirect loop",
			 q->redirects, c->sa_lid, c->sa_qpn);
		return -1;
	case SA_ANSWER_REDIRECT:
		return follow_redirect(c, mad, (size_t)len, err, errlen);
	case SA_ANSWER_RESULT:
		break;
	}
	/* Out of memory: the attempt is retried at its deadline. */
	if (store_answer(q, mad, len) == 0)
		sa_window_settle(w, q, a.status, now);
	return 0;
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
		/* Silence is not only a dead SM: an SM that restricts SA
		 * access (NVIDIA opensm/UFM's enhanced trust model) may leave
		 * a request it does not trust unanswered. */
		snprintf(buf, len, "%s: no answer from the SA within %u ms "
			 "(%u tries; an SM that restricts SA access may leave "
			 "untrusted requests unanswered)", what, timeout_ms,
			 q->attempts);
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

/* Takes what arrived, up to RECV_BATCH MADs. Returns 0, or -1 with err
 * set. */
static int take_responses(struct sa_umad_io *io, struct sa_window *w,
			  char *err, size_t errlen)
{
	for (int k = 0; k < RECV_BATCH; k++) {
		int len = receive(io->c, &io->umad, &io->umad_len);

		if (len < 0)
			break;
		if (take_response(io->c, w, io->umad, len, err, errlen))
			return -1;
	}
	return 0;
}

int sa_client_run(struct sa_client *c, struct sa_query *queries, size_t n,
		  unsigned window, uint32_t timeout_ms, unsigned retries,
		  char *err, size_t errlen)
{
	struct sa_umad_io io = { .c = c, .umad_len = c->umad_len };
	struct sa_window w;
	int rc = 0;

	io.umad = calloc(1, io.umad_len);
	if (!io.umad) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	sa_window_start(&w, queries, n, window, timeout_ms, retries,
			send_query, &io);
	for (;;) {
		uint64_t now = monotonic_ns();
		struct pollfd pfd = { .fd = umad_get_fd(c->portid),
				      .events = POLLIN };
		int pr;

		if (!sa_window_turn(&w, now))
			break;
		pr = poll(&pfd, 1, sa_window_wait_ms(&w, now));
		if (pr < 0 && errno != EINTR) {
			snprintf(err, errlen, "waiting for SA answers failed: %s",
				 strerror(errno));
			rc = -1;
			break;
		}
		if (pr > 0 && take_responses(&io, &w, err, errlen)) {
			rc = -1;
			break;
		}
	}
	free(io.umad);
	return rc;
}
