/* Rendezvous: how a prober learns a responder's QPN, Q_Key, LID and GIDs.
 * serve listens on TCP; on each connection it writes one JSON line and
 * closes. A client may first send one question line (rendezvous_count.h)
 * and close its half; serve then answers that instead. The prober
 * connects and reads, bounded by a deadline and a size cap. */
#ifndef IBAHPROBE_RENDEZVOUS_H
#define IBAHPROBE_RENDEZVOUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#define RENDEZVOUS_DEFAULT_PORT 18515
#define RENDEZVOUS_MAX_GIDS 16
/* The largest answer a client accepts. */
#define RENDEZVOUS_MAX_BYTES 8192

struct responder_info {
	uint32_t version;
	char device[64];
	uint8_t port_num;
	uint16_t lid;
	uint32_t qpn;
	uint32_t qkey;
	char link_layer[16];
	/* The responder port's active MTU in bytes, the largest UD payload
	 * it takes; 0: not told (an older serve). */
	uint16_t active_mtu;
	size_t gid_count;
	struct {
		uint32_t index;
		union ibv_gid gid;
		char type[16];
	} gids[RENDEZVOUS_MAX_GIDS];
};

/* "ADDR:PORT", "[v6]:PORT", "PORT" or "ADDR" (default port); returns a
 * listening socket or -1 with err set. */
int rendezvous_listen(const char *spec, char *bound, size_t boundlen,
		      char *err, size_t errlen);
/* Checks the form of a listen spec (before any device is opened), so bad
 * input is a usage error. Port 0: the kernel picks one. */
int rendezvous_listen_spec_check(const char *spec, char *err, size_t errlen);
/* Accepts one pending connection, writes the answer, closes. */
void rendezvous_answer(int listen_fd, const struct responder_info *info);

/* The integer member key of a rendezvous JSON object, in [min, max]; a
 * missing, non-integer or out-of-range member clears *ok. The answer and
 * the count exchange (rendezvous_count.c) read their numbers through it. */
struct json_object;
int64_t rendezvous_json_int(struct json_object *root, const char *key,
			    int64_t min, int64_t max, bool *ok);

/* The JSON line serve writes (also its startup line's rendezvous part). */
char *rendezvous_encode(const struct responder_info *info);
int rendezvous_decode(const char *text, struct responder_info *info,
		      char *err, size_t errlen);

/* Why connecting to a rendezvous failed, from the errno, in words that
 * point the right way: a timeout is -t's (not serve's), a refusal is
 * nothing listening, no route is the address's. */
void rendezvous_connect_failure(int err, const char *host, uint16_t port,
				uint32_t timeout_ms, char *buf, size_t len);

/* Connects to host:port, sends question (a line; NULL: none), closes
 * its sending half and reads the answer until the end or timeout_ms, into
 * buf (NUL-terminated; more than buflen - 1 bytes is an error). An IPv6
 * link-local host without its %IFACE scope is refused with a hint. */
int rendezvous_exchange(const char *host, uint16_t port, uint32_t timeout_ms,
			const char *question, char *buf, size_t buflen,
			char *err, size_t errlen);

/* Connects to host:port, reads the answer within timeout_ms. An IPv6
 * link-local host without its %IFACE scope is refused with a hint. */
int rendezvous_query(const char *host, uint16_t port, uint32_t timeout_ms,
		     struct responder_info *info, char *err, size_t errlen);

#endif
