/* An SA client on libibumad: many queries in flight (a window), matched by
 * transaction ID, each with a deadline and retries with backoff, so
 * nothing the SA does (or fails to do) can hang the caller. Single
 * threaded; one client per port. */
#ifndef IBAHPROBE_SA_CLIENT_H
#define IBAHPROBE_SA_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "wire/pathrec.h"

struct sa_client {
	int portid;
	int agent;
	char ca[64];
	uint8_t port_num;
	uint16_t lid;
	uint8_t lmc;
	uint16_t sm_lid;
	uint8_t sm_sl;
	union ibv_gid port_gid;
	size_t umad_len;
	uint32_t next_tid;
	/* Where queries go: the SM's LID, QP 1, the GSI Q_Key, unless the
	 * SA redirected its clients with a ClassPortInfo. */
	uint16_t sa_lid;
	uint8_t sa_sl;
	uint32_t sa_qpn, sa_qkey;
	uint16_t sa_pkey_index;
	bool redirected;
};

enum sa_client_error {
	SA_CLIENT_OK,
	SA_CLIENT_NO_DEVICE,	/* no CA/port, or not ACTIVE */
	SA_CLIENT_NO_SM,	/* the port knows no SM LID */
	SA_CLIENT_PERMISSION,
	SA_CLIENT_FAILED,
};

/* ca NULL and port 0: the first ACTIVE port. */
enum sa_client_error sa_client_open(struct sa_client *c, const char *ca,
				    uint8_t port, char *err, size_t errlen);
void sa_client_close(struct sa_client *c);
/* Reads the port's SM LID and SL (and LID) again: after an SM failover
 * the SA is elsewhere. Returns 0, or -1 when the port cannot be read. */
int sa_client_refresh_sm(struct sa_client *c);

enum sa_result {
	SA_RESULT_PENDING,
	SA_RESULT_OK,		/* response with status 0 */
	SA_RESULT_STATUS,	/* response with a non-zero MAD status (busy:
				 * it stayed busy until the deadline) */
	SA_RESULT_TIMEOUT,	/* no response after every retry */
	SA_RESULT_SEND_FAILED,
};

struct sa_query {
	uint8_t request[SA_MAD_BYTES];	/* filled by the caller, any TID */
	enum sa_result result;
	uint16_t status;
	/* The answer's first SA_MAD_BYTES; a multi-packet (RMPP) answer,
	 * reassembled by the kernel, is whole in message. Only an answer
	 * with the method that answers the request's counts (GetResp for
	 * Get and Set, GetTableResp, DeleteResp). */
	uint8_t response[SA_MAD_BYTES];
	size_t response_len;	/* bytes of the whole answer */
	uint8_t *message;	/* NULL unless response_len > SA_MAD_BYTES */
	unsigned attempts;	/* requests sent */
	unsigned timed_out;	/* attempts that got no answer */
	unsigned busy_answers;
	int umad_error;		/* last attempt's umad status (ETIMEDOUT...) */
	bool abandoned;		/* given up unsent or mid-way: the SA went silent */
	/* Engine state. */
	uint32_t tid;
	uint64_t deadline_ns;
	uint64_t first_sent_ns;
	uint64_t resend_at_ns;	/* busy: not before this */
	unsigned redirects;
	bool in_flight;
};

/* Runs every query to a result: at most window in flight, each attempt
 * given timeout_ms, retried up to retries times with the timeout doubled
 * each time. When a query used up every retry and the SA answered nothing
 * at all since that query was first sent, the SA is gone (SM killed, link
 * down): the queries not yet answered end as timeouts (abandoned) at once
 * instead of each waiting out its own retries.
 * A busy answer is no result: the query is asked again after a backoff
 * (sa_busy_retry) for as long as its deadline, the time all its tries
 * would take, allows. A redirect (ClassPortInfo) moves every later query
 * of the client to where it points, and the query is asked there. Returns
 * 0, or -1 with err set when the port failed or the SA redirects to where
 * this client cannot follow. */
int sa_client_run(struct sa_client *c, struct sa_query *queries, size_t n,
		  unsigned window, uint32_t timeout_ms, unsigned retries,
		  char *err, size_t errlen);

/* The whole answer of a query with a result of SA_RESULT_OK or _STATUS. */
const uint8_t *sa_query_answer(const struct sa_query *q, size_t *len);
/* Why a query got no usable answer, in words, prefixed with what. */
void sa_query_describe(const struct sa_query *q, const char *what,
		       uint32_t timeout_ms, char *buf, size_t len);
/* Frees what answers larger than one MAD took. */
void sa_queries_release(struct sa_query *queries, size_t n);

#endif
