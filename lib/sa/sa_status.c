/* SA answer status: busy backoff and ClassPortInfo redirects; the rules
 * and layouts are in sa_status.h. */
#include <stdio.h>
#include <string.h>

#include "wire/pathrec.h"
#include "sa/sa_status.h"
#include "wire/wire_bytes.h"

/* ClassPortInfo offsets. */
enum {
	CPI_REDIRECT_GID = 8, CPI_REDIRECT_TC_SL_FL = 24,
	CPI_REDIRECT_LID = 28, CPI_REDIRECT_PKEY = 30, CPI_REDIRECT_QP = 32,
	CPI_REDIRECT_QKEY = 36,
};
_Static_assert(SA_HEADER_BYTES + CLASS_PORT_INFO_BYTES <= SA_MAD_BYTES,
	       "a ClassPortInfo fits the data of one SA MAD");

enum sa_status_action sa_status_action(uint16_t status)
{
	if (status & MAD_STATUS_BUSY)
		return SA_STATUS_BUSY;
	if (status & MAD_STATUS_REDIRECT)
		return SA_STATUS_REDIRECT;
	return SA_STATUS_DONE;
}

uint64_t sa_query_budget_ns(uint32_t timeout_ms, unsigned retries)
{
	uint64_t total = 0;

	for (unsigned i = 0; i <= retries; i++)
		total += (uint64_t)timeout_ms << (i < 8 ? i : 8);
	return total * 1000000u;
}

bool sa_busy_retry(uint64_t now_ns, uint64_t deadline_ns,
		   unsigned busy_answers, uint32_t timeout_ms,
		   uint64_t *resend_at_ns)
{
	uint64_t base_ns = (uint64_t)timeout_ms * 1000000u / 8, wait_ns;
	unsigned shift = busy_answers ? busy_answers - 1 : 0;

	if (base_ns < 1000000u)
		base_ns = 1000000u;
	wait_ns = base_ns << (shift < 16 ? shift : 16);
	/* The resent request needs time to be answered too: a retry that
	 * would be sent at the very deadline is no retry. */
	if (now_ns + wait_ns >= deadline_ns)
		return false;
	*resend_at_ns = now_ns + wait_ns;
	return true;
}

/* The index of pkey in the table: an exact match, else the same partition
 * with the other membership bit (bit 15: full member). */
static int pkey_index(const uint16_t *pkeys, size_t n, uint16_t pkey)
{
	for (size_t i = 0; i < n; i++)
		if (pkeys[i] == pkey)
			return (int)i;
	for (size_t i = 0; i < n; i++)
		if ((pkeys[i] & 0x7fff) == (pkey & 0x7fff) &&
		    (pkeys[i] & 0x7fff) != 0)
			return (int)i;
	return -1;
}

int sa_redirect_decode(const uint8_t *mad, size_t len,
		       const uint16_t *pkeys, size_t pkey_count,
		       struct sa_redirect *r, char *why, size_t whylen)
{
	const uint8_t *cpi = mad + SA_HEADER_BYTES;
	static const uint8_t no_gid[16];
	int index;

	memset(r, 0, sizeof(*r));
	if (len < SA_HEADER_BYTES + CLASS_PORT_INFO_BYTES) {
		snprintf(why, whylen, "the redirect answer is %zu bytes, too "
			 "short for a ClassPortInfo", len);
		return -1;
	}
	/* The attribute ID is not checked: the answer may carry the
	 * request's, and libibmad's redirect_port() reads the ClassPortInfo
	 * whatever it says. */
	memcpy(r->gid.raw, cpi + CPI_REDIRECT_GID, 16);
	r->sl = (uint8_t)(wire_get32(cpi, CPI_REDIRECT_TC_SL_FL) >> 20 & 0xf);
	r->lid = wire_get16(cpi, CPI_REDIRECT_LID);
	r->pkey = wire_get16(cpi, CPI_REDIRECT_PKEY);
	r->qpn = wire_get32(cpi, CPI_REDIRECT_QP) & 0xffffff;
	r->qkey = wire_get32(cpi, CPI_REDIRECT_QKEY);
	if (r->lid == 0) {
		snprintf(why, whylen, "the redirect names %s and no LID: a "
			 "redirect by GID is not supported",
			 memcmp(r->gid.raw, no_gid, 16) ? "a GID" : "neither "
			 "a GID");
		return -1;
	}
	if (r->qpn == 0) {
		snprintf(why, whylen, "the redirect names QP 0, where no SA "
			 "can answer");
		return -1;
	}
	if (r->pkey == 0)
		return 0;	/* the default partition: index 0 */
	index = pkey_index(pkeys, pkey_count, r->pkey);
	if (index < 0) {
		snprintf(why, whylen, "the redirect names P_Key 0x%04x, which "
			 "is not in this port's P_Key table", r->pkey);
		return -1;
	}
	r->pkey_index = (uint16_t)index;
	return 0;
}
