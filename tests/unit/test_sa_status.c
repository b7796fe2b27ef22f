/* Unit tests of what an SA client does with an answer's status: the busy
 * and redirect bits of the MAD status (IBA 13.4.7; the kernel's
 * IB_MGMT_MAD_STATUS_BUSY 0x0001 and _REDIRECT_REQD 0x0002), the busy
 * backoff within a query's deadline, and a ClassPortInfo redirect written
 * out byte by byte from the IBA layout (13.4.8.1). */
#include <string.h>

#include "wire/pathrec.h"
#include "sa/sa_status.h"
#include "tap.h"
#include "wire/wire_bytes.h"

#define MS 1000000ull

static void test_status_action(void)
{
	is_int(sa_status_action(0x0000), SA_STATUS_DONE, "0: done");
	is_int(sa_status_action(0x0001), SA_STATUS_BUSY, "bit 0: busy");
	is_int(sa_status_action(0x0002), SA_STATUS_REDIRECT,
	       "bit 1: redirect required");
	is_int(sa_status_action(0x0003), SA_STATUS_BUSY,
	       "busy and redirect: busy (the request was discarded)");
	is_int(sa_status_action(0x0301), SA_STATUS_BUSY,
	       "busy with an SA code: still busy");
	is_int(sa_status_action(0x0300), SA_STATUS_DONE,
	       "no records (0x0300) is a final answer");
	is_int(sa_status_action(0x0400), SA_STATUS_DONE,
	       "too many records (0x0400) is a final answer");
	is_int(sa_status_action(0x001c), SA_STATUS_DONE,
	       "invalid attribute (0x001c) is a final answer");
	is_int(sa_status_action(0x0100), SA_STATUS_DONE,
	       "SA out of resources (0x0100) is a final answer");
	is_str(sa_status_str(0x0002), "redirect required", "0x0002 in words");
}

static void test_budget(void)
{
	is_int(sa_query_budget_ns(100, 0), 100 * MS, "no retries: one timeout");
	is_int(sa_query_budget_ns(100, 2), 700 * MS,
	       "two retries: 100 + 200 + 400 ms");
	is_int(sa_query_budget_ns(1000, 2), 7000 * MS, "the default -t");
}

static void test_busy_backoff(void)
{
	uint64_t deadline = sa_query_budget_ns(100, 2), at = 0, now = 0;
	unsigned answers = 0;
	uint64_t waits[8];

	/* Busy answers arrive at once after every resend. */
	while (sa_busy_retry(now, deadline, ++answers, 100, &at)) {
		if (answers <= 8)
			waits[answers - 1] = at - now;
		now = at;
	}
	is_int(waits[0], 12500000, "first backoff: an eighth of the timeout");
	is_int(waits[1], 25 * MS, "then doubled");
	is_int(waits[2], 50 * MS, "and doubled again");
	is_int(waits[4], 200 * MS, "fifth: 200 ms");
	is_int(answers, 6, "the sixth busy answer ends it: 387.5 ms + 400 "
	       "ms passes the 700 ms deadline");
	ok(now < deadline, "every resend was before the deadline");

	ok(sa_busy_retry(0, 10 * MS, 1, 4, &at) && at == 1 * MS,
	   "a short timeout still waits at least 1 ms");
	ok(!sa_busy_retry(699 * MS, 700 * MS, 1, 100, &at),
	   "no retry that would go out at the deadline");
	ok(sa_busy_retry(0, 700 * MS, 40, 1, &at) == false,
	   "a huge count does not overflow into a short wait");
}

/* A GetResp to a PathRecord Get with status "redirect required" and the
 * ClassPortInfo of where to ask instead: LID 7, SL 3, QP 0x123456 (the
 * reserved top byte set, to be ignored), Q_Key 0x80010000. */
static void redirect_mad(uint8_t *mad, uint16_t lid, uint32_t qp_word,
			 uint16_t pkey)
{
	uint8_t *cpi = mad + 56;

	memset(mad, 0, SA_MAD_BYTES);
	mad[0] = 1;
	mad[1] = 0x03;
	mad[2] = 2;
	mad[3] = 0x81;
	mad[5] = 0x02;			/* status: redirect required */
	mad[16] = 0x00;
	mad[17] = 0x01;			/* attribute: ClassPortInfo */
	cpi[0] = 1;			/* BaseVersion */
	cpi[1] = 2;			/* ClassVersion */
	cpi[24] = 0x00;			/* RedirectTC 0 */
	cpi[25] = 0x30;			/* RedirectSL 3, FL 0 */
	cpi[28] = (uint8_t)(lid >> 8);
	cpi[29] = (uint8_t)lid;
	cpi[30] = (uint8_t)(pkey >> 8);
	cpi[31] = (uint8_t)pkey;
	cpi[32] = (uint8_t)(qp_word >> 24);
	cpi[33] = (uint8_t)(qp_word >> 16);
	cpi[34] = (uint8_t)(qp_word >> 8);
	cpi[35] = (uint8_t)qp_word;
	cpi[36] = 0x80;
	cpi[37] = 0x01;			/* RedirectQ_Key 0x80010000 */
}

static void test_redirect(void)
{
	static const uint16_t pkeys[] = { 0xffff, 0x8001, 0x0000 };
	uint8_t mad[SA_MAD_BYTES];
	struct sa_redirect r;
	char why[160] = "";

	redirect_mad(mad, 7, 0xff123456, 0xffff);
	is_int(sa_redirect_decode(mad, sizeof(mad), pkeys, 3, &r, why,
				  sizeof(why)), 0, "LID redirect: followed");
	is_int(r.lid, 7, "RedirectLID");
	is_int(r.sl, 3, "RedirectSL from bits 23..20 of the TC/SL/FL word");
	is_int(r.qpn, 0x123456, "RedirectQP: 24 bits, reserved byte ignored");
	is_int(r.qkey, 0x80010000u, "RedirectQ_Key");
	is_int(r.pkey_index, 0, "P_Key 0xffff is index 0");

	redirect_mad(mad, 7, 1, 0x8001);
	is_int(sa_redirect_decode(mad, sizeof(mad), pkeys, 3, &r, why,
				  sizeof(why)), 0, "P_Key 0x8001: found");
	is_int(r.pkey_index, 1, "at index 1");
	redirect_mad(mad, 7, 1, 0x0001);
	is_int(sa_redirect_decode(mad, sizeof(mad), pkeys, 3, &r, why,
				  sizeof(why)), 0,
	       "limited P_Key 0x0001: the partition's full key will do");
	is_int(r.pkey_index, 1, "index 1");
	redirect_mad(mad, 7, 1, 0);
	is_int(sa_redirect_decode(mad, sizeof(mad), pkeys, 3, &r, why,
				  sizeof(why)), 0, "P_Key 0: default");
	is_int(r.pkey_index, 0, "index 0");

	redirect_mad(mad, 7, 1, 0x1234);
	is_int(sa_redirect_decode(mad, sizeof(mad), pkeys, 3, &r, why,
				  sizeof(why)), -1, "foreign P_Key: refused");
	ok(strstr(why, "P_Key 0x1234") != NULL, "names the P_Key: %s", why);

	redirect_mad(mad, 0, 1, 0xffff);
	mad[56 + 8] = 0xfe;
	mad[56 + 9] = 0x80;
	mad[56 + 23] = 0x09;
	is_int(sa_redirect_decode(mad, sizeof(mad), pkeys, 3, &r, why,
				  sizeof(why)), -1, "GID only, no LID: refused");
	ok(strstr(why, "redirect by GID is not supported") != NULL,
	   "says why: %s", why);
	ok(r.gid.raw[0] == 0xfe && r.gid.raw[15] == 0x09, "GID decoded");

	redirect_mad(mad, 7, 0xff000000, 0xffff);
	is_int(sa_redirect_decode(mad, sizeof(mad), pkeys, 3, &r, why,
				  sizeof(why)), -1, "QP 0: refused");

	redirect_mad(mad, 7, 1, 0xffff);
	is_int(sa_redirect_decode(mad, 100, pkeys, 3, &r, why, sizeof(why)),
	       -1, "cut before the end of the ClassPortInfo: refused");
	mad[17] = 0x35;
	is_int(sa_redirect_decode(mad, sizeof(mad), pkeys, 3, &r, why,
				  sizeof(why)), 0,
	       "the request's attribute ID in the header: still read, as "
	       "libibmad's redirect_port() does");
}

int main(void)
{
	test_status_action();
	test_budget();
	test_busy_backoff();
	test_redirect();
	return tap_done();
}
