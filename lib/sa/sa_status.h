/* What an SA client does with the status of an answer: done, wait and ask
 * again (the SA is busy), or ask elsewhere (the SA redirects its clients
 * with a ClassPortInfo). Pure functions of the MAD bytes and the clock, so
 * the rules are unit-tested without a fabric.
 *
 * MAD status (IBA 13.4.7, the kernel's IB_MGMT_MAD_STATUS_* in
 * include/rdma/ib_mad.h, opensm's IB_MAD_STATUS_* in ib_types.h): bit 0
 * busy ("temporarily busy, MAD discarded"), bit 1 redirect required, bits
 * 4..2 an invalid-field code; bits 15..8 are the class-specific code (SA:
 * 1 no resources ... 7 request denied).
 *
 * ClassPortInfo (IBA 13.4.8.1, 72 bytes; the kernel's struct
 * ib_class_port_info): 0 BaseVersion, 1 ClassVersion, 2 CapabilityMask,
 * 4 CapabilityMask2:27 RespTimeValue:5, 8 RedirectGID (16),
 * 24 RedirectTC:8 RedirectSL:4 RedirectFL:20, 28 RedirectLID,
 * 30 RedirectP_Key, 32 Reserved:8 RedirectQP:24, 36 RedirectQ_Key,
 * 40 TrapGID ... */
#ifndef IBAHPROBE_SA_STATUS_H
#define IBAHPROBE_SA_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#define MAD_STATUS_BUSY 0x0001
#define MAD_STATUS_REDIRECT 0x0002
#define SA_ATTR_CLASS_PORT_INFO 0x0001
#define CLASS_PORT_INFO_BYTES 72

enum sa_status_action {
	SA_STATUS_DONE,		/* status 0, or a final answer of the SA */
	SA_STATUS_BUSY,		/* ask again later */
	SA_STATUS_REDIRECT,	/* ask where the ClassPortInfo says */
};

/* The action for a MAD status word. Busy wins over everything: the SA
 * discarded the request, so nothing else in the answer means anything. */
enum sa_status_action sa_status_action(uint16_t status);

/* Busy answers are asked again after an exponential backoff that starts
 * at an eighth of the attempt timeout (at least 1 ms) and doubles with
 * every busy answer, as long as the retry still fits before the query's
 * deadline. busy_answers counts this one too (1 for the first). Returns
 * true with *resend_at_ns set, or false: give up, the SA stayed busy. */
bool sa_busy_retry(uint64_t now_ns, uint64_t deadline_ns,
		   unsigned busy_answers, uint32_t timeout_ms,
		   uint64_t *resend_at_ns);

/* The time a query may take in all: what every attempt's timeout adds up
 * to with the timeout doubled on each retry. */
uint64_t sa_query_budget_ns(uint32_t timeout_ms, unsigned retries);

/* Where a redirect sends a client. */
struct sa_redirect {
	uint16_t lid;
	uint8_t sl;
	uint32_t qpn;
	uint32_t qkey;
	uint16_t pkey;
	uint16_t pkey_index;	/* of pkey in the port's table */
	union ibv_gid gid;	/* RedirectGID (all zero: none) */
};

/* Decodes the ClassPortInfo of a redirect answer (SA MAD format: the
 * ClassPortInfo is the SA data at offset 56) and checks that the client
 * can follow it: a LID to send to (a redirect by GID alone needs a GRH
 * and a route that a umad client cannot get; libibmad's redirect_port()
 * refuses it too), a QP other than 0, and the P_Key in the port's table
 * (pkeys, pkey_count; a RedirectP_Key of 0 keeps the default partition,
 * index 0). Returns 0, or -1 with why set. */
int sa_redirect_decode(const uint8_t *mad, size_t len,
		       const uint16_t *pkeys, size_t pkey_count,
		       struct sa_redirect *r, char *why, size_t whylen);

#endif
