/* The responder's reply AHs, keyed by what arrived (reverse_key), in one
 * of three states: ready (an AH), pending (being created off the receive
 * path, replies parked meanwhile) or failed (remembered until a deadline,
 * so a sender whose reverse path is broken costs one creation attempt per
 * TTL, not one per probe). Bounded: a flood of senders cannot grow it.
 * Plain data: the caller creates and destroys the AHs. */
#ifndef IBAHPROBE_REVERSE_CACHE_H
#define IBAHPROBE_REVERSE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "wire/probe_wire.h"
#include "peer/reverse_ah.h"
#include "verbs/neigh_watch.h"

/* Replies kept per pending entry; more are dropped. */
#define REVERSE_PARK_MAX 8
/* A failed reply AH is tried again after 250 ms, then after twice as
 * long each time it fails again, up to 5 s: a neighbour that answers just
 * after the kernel gave up (first contact) costs a quarter second, a
 * sender that cannot be reached costs one attempt every 5 s. */
#define REVERSE_RETRY_FIRST_NS (250ull * 1000000ull)
#define REVERSE_RETRY_MAX_NS (5ull * 1000000000ull)

enum reverse_state {
	REVERSE_EMPTY,
	REVERSE_PENDING,
	REVERSE_READY,
	REVERSE_FAILED,
};

/* A reply waiting for its AH, with what its stamps message needs: the
 * request's receive completion on the device clock. */
struct reverse_parked {
	struct probe_reply reply;
	uint32_t remote_qpn;
	bool request_hw_valid;
	uint64_t request_hw_stamp;
};

struct reverse_entry {
	struct reverse_key key;
	enum reverse_state state;
	uint32_t generation;	/* changes whenever the slot is reused */
	struct ibv_ah *ah;	/* READY */
	struct ibv_ah_attr attr;	/* READY, and FAILED when built */
	/* READY: the hop limit replies leave with (reverse_hop_limit_sent),
	 * when known. */
	bool hop_limit_sent_known;
	uint8_t hop_limit_sent;
	int error;		/* FAILED: errno (0: the driver gave none) */
	bool init_failed;	/* FAILED in ibv_init_ah_from_wc */
	uint64_t expires_ns;	/* FAILED: retried after this */
	unsigned failures;	/* in a row, for the back-off */
	uint64_t last_use;	/* cache clock, for LRU */
	uint64_t last_send;	/* sends posted after its last send */
	unsigned parked_count;
	struct reverse_parked parked[REVERSE_PARK_MAX];
	/* READY: a RoCE AH holds the next hop's MAC as it was when made
	 * (mlx5_create_ah copies resp.dmac) and nothing tells it of a
	 * change, so it is made again, off the receive path, once it is
	 * older than the bound or the neighbour watch says its next hop
	 * moved. made_ns: when; next_hop: the route's gateway toward the
	 * sender, or the sender on link (IPv4 mapped); next_hop_mac: that
	 * neighbour's MAC as the watch last told it. */
	uint64_t made_ns;
	bool next_hop_known;
	uint8_t next_hop[16];
	uint8_t next_hop_mac_len;
	uint8_t next_hop_mac[NEIGH_LLADDR_MAX];
	bool moved;		/* the watch says the MAC may be stale */
	bool refreshing;	/* a worker makes its successor */
};

struct reverse_cache {
	struct reverse_entry *entries;
	size_t capacity;
	uint64_t clock;
	uint64_t created, failed, evicted;
};

int reverse_cache_init(struct reverse_cache *cache, size_t capacity);
void reverse_cache_free(struct reverse_cache *cache);

/* The entry for key in any state but EMPTY (a FAILED one whether or not
 * it is due again: reverse_entry_due). */
struct reverse_entry *reverse_cache_find(struct reverse_cache *cache,
					 const struct reverse_key *key);

/* A slot for a new PENDING entry: an empty one, else the failed one that
 * expires first, else the least recently used READY one none of whose
 * sends is still outstanding (sends_completed is the endpoint's count).
 * A READY victim's AH goes to *evicted_ah for the caller to destroy.
 * NULL when every slot is pending or busy. */
struct reverse_entry *reverse_cache_claim(struct reverse_cache *cache,
					  const struct reverse_key *key,
					  uint64_t sends_completed,
					  struct ibv_ah **evicted_ah);

/* The slot index and generation that name a pending entry to a worker. */
size_t reverse_cache_index(const struct reverse_cache *cache,
			   const struct reverse_entry *e);
/* The pending entry named so, or NULL when it was reused meanwhile. */
struct reverse_entry *reverse_cache_pending(struct reverse_cache *cache,
					    size_t index, uint32_t generation);

/* The READY entry named so, or NULL when it was dropped or reused. */
struct reverse_entry *reverse_cache_ready(struct reverse_cache *cache,
					  size_t index, uint32_t generation);

/* Keeps a reply for when the AH exists; false when the entry is full. */
bool reverse_entry_park(struct reverse_entry *e,
			const struct reverse_parked *parked);
void reverse_entry_ready(struct reverse_entry *e, struct ibv_ah *ah,
			 const struct ibv_ah_attr *attr);
void reverse_entry_failed(struct reverse_entry *e, int error, bool init_failed,
			  uint64_t now_ns);
/* The wait after the n-th failure in a row. */
uint64_t reverse_backoff_ns(unsigned failures);
/* Frees the slot (parked replies are dropped with it). */
void reverse_entry_forget(struct reverse_entry *e);
/* A FAILED entry whose back-off is over. */
bool reverse_entry_due(const struct reverse_entry *e, uint64_t now_ns);
/* Makes a FAILED entry PENDING again, under a new generation, keeping
 * its key, failure count and parked replies. */
void reverse_entry_retry(struct reverse_entry *e);

/* A READY entry whose AH is due to be made again: older than
 * max_age_ns (0: no bound), or its next hop moved; not while a
 * successor is being made. */
bool reverse_entry_refresh_due(const struct reverse_entry *e, uint64_t now_ns,
			       uint64_t max_age_ns);
/* A neighbour change: every READY entry whose next hop it names and
 * whose MAC it may change (neigh_change_moves) is marked moved; the MAC
 * it tells is remembered. Returns how many were marked. */
size_t reverse_cache_neigh_changed(struct reverse_cache *cache,
				   const struct neigh_change *c);
/* Every READY entry marked moved (the watch lost events). */
size_t reverse_cache_all_moved(struct reverse_cache *cache);

/* An AH taken out of the cache, to be destroyed once the endpoint's
 * completed sends reach last_send. */
struct reverse_retired {
	struct ibv_ah *ah;
	uint64_t last_send;
};

/* Every READY entry's AH goes to out (at most max; call until 0), failed
 * entries are forgotten, pending ones are left alone. Used when the port
 * or GID table changed, and at exit. */
size_t reverse_cache_drop_ready(struct reverse_cache *cache,
				struct reverse_retired *out, size_t max);

#endif
