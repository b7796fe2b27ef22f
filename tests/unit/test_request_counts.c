/* Unit tests of the responder's per-set request counts: sets told apart
 * by every part of the key, counts kept, the least recently used set
 * forgotten when the table is full, and the key built alike from a
 * request's reply on InfiniBand and RoCE. */
#include <string.h>

#include "peer/request_counts.h"
#include "tap.h"

static struct request_set_key key(uint32_t probe_id, uint8_t hop_limit)
{
	struct request_set_key k;

	memset(&k, 0, sizeof(k));
	k.probe_id = probe_id;
	k.src_qp = 0x11;
	k.sgid.raw[10] = 0xff;
	k.sgid.raw[11] = 0xff;
	k.sgid.raw[15] = 1;
	k.asked.hop_limit = hop_limit;
	return k;
}

static void test_counts_per_set(void)
{
	struct request_counts t;
	struct request_set_key a = key(7, 64), b = key(7, 1), other;
	struct request_set_key other_set = key(9, 64);
	const struct request_set_count *found;

	is_int(request_counts_init(&t, 8, 1), 0, "init");
	ok(request_counts_find(&t, &a) == NULL, "unknown set: NULL");
	for (int i = 0; i < 3; i++)
		request_counts_note(&t, &a, 1);
	request_counts_note(&t, &b, 2);
	request_counts_note_answer(&t, &b, false);
	request_counts_note_answer(&t, &other_set, false);
	found = request_counts_find(&t, &a);
	ok(found && found->received == 3 && found->answered == 0,
	   "three requests of set a");
	found = request_counts_find(&t, &b);
	ok(found && found->received == 1 && found->answered == 1,
	   "another hop limit is another set");
	other = a;
	other.src_qp = 0x12;
	ok(!request_counts_find(&t, &other), "another QPN: another set");
	other = a;
	other.sgid.raw[15] = 2;
	ok(!request_counts_find(&t, &other), "another source GID: another set");
	other = a;
	other.slid = 5;
	ok(!request_counts_find(&t, &other), "another LID: another set");
	other = a;
	other.probe_id = 8;
	ok(!request_counts_find(&t, &other), "another run: another set");
	ok(!request_counts_find(&t, &other_set),
	   "an answer to a set never seen creates none");
	other = a;
	other.asked.flow_label = 1;
	ok(!request_counts_find(&t, &other), "another flow label: another set");
	request_counts_free(&t);
}

static void test_eviction(void)
{
	struct request_counts t;
	struct request_set_key k;

	request_counts_init(&t, 4, 99);
	for (uint32_t id = 1; id <= 4; id++) {
		k = key(id, 64);
		request_counts_note(&t, &k, 100 + id);
	}
	ok(request_counts_absent_means_unseen(&t, 0),
	   "nothing evicted: an absent set was never seen");
	k = key(1, 64);
	request_counts_note(&t, &k, 105);	/* used again: 2 is oldest */
	k = key(5, 64);
	request_counts_note(&t, &k, 106);
	is_int(t.evicted, 1, "a fifth set evicts one");
	ok(!request_counts_absent_means_unseen(&t, 102),
	   "a run begun at 102 may have lost its set (2, used at 102)");
	ok(request_counts_absent_means_unseen(&t, 103),
	   "a run begun after the evicted set's last use: absent is unseen");
	k = key(2, 64);
	ok(!request_counts_find(&t, &k), "the least recently used went");
	k = key(1, 64);
	ok(request_counts_find(&t, &k) &&
		   request_counts_find(&t, &k)->received == 2,
	   "a set in use stays, its count kept");
	k = key(2, 64);
	is_int(request_counts_note(&t, &k, 107)->received, 1,
	       "a forgotten set starts again from 1");
	/* Now 4, 1, 5, 2 by use (2 evicted 3): a new set evicts 4, the
	 * next 1 (used again at 105, older than 5 still). */
	for (uint32_t id = 6; id <= 7; id++) {
		k = key(id, 64);
		request_counts_note(&t, &k, 100 + id + 2);
	}
	k = key(1, 64);
	ok(!request_counts_find(&t, &k), "a set used again is evicted in turn");
	k = key(5, 64);
	ok(request_counts_find(&t, &k) != NULL, "a newer one stays");
	for (uint32_t id = 10; id < 1000; id++) {
		k = key(id, (uint8_t)id);
		request_counts_note(&t, &k, 200 + id);
	}
	is_int(t.used, 4, "never more than the capacity");
	k = key(999, (uint8_t)999);
	ok(request_counts_find(&t, &k) != NULL, "the newest is there");
	k = key(995, (uint8_t)995);
	ok(request_counts_find(&t, &k) == NULL, "the fifth newest is not");
	request_counts_free(&t);
}

static void test_key_of_reply(void)
{
	struct probe_reply r;
	struct request_set_key ib, roce;

	memset(&r, 0, sizeof(r));
	r.header.probe_id = 42;
	r.header.asked.hop_limit = 9;
	r.header.asked.traffic_class = 0xb8;
	r.observed.src_qp = 0x99;
	r.observed.slid = 17;
	r.observed.sgid.raw[0] = 0xfe;
	request_set_key_of(&r, true, &ib);
	is_int(ib.slid, 17, "InfiniBand: the sender's LID");
	is_int(ib.sgid.raw[0], 0, "no GRH: no source GID");
	r.observed.grh_present = true;
	request_set_key_of(&r, false, &roce);
	is_int(roce.slid, 0, "RoCE: wc.slid is left out");
	is_int(roce.sgid.raw[0], 0xfe, "with a GRH: its source GID");
	ok(roce.probe_id == 42 && roce.src_qp == 0x99 &&
		   roce.asked.hop_limit == 9 && roce.asked.traffic_class == 0xb8,
	   "run, QPN and parameters from the request");
}

int main(void)
{
	test_counts_per_set();
	test_eviction();
	test_key_of_reply();
	return tap_done();
}
