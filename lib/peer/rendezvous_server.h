/* serve's side of the rendezvous: connections accepted and held briefly
 * for a question line (rendezvous_count.h), answered from the poll loop,
 * never blocking it. A connection whose client closes its sending half,
 * sends a line or stays silent for RENDEZVOUS_QUESTION_WAIT_MS gets its
 * answer: the count for a count question, else the responder line. A
 * client that never sends and never half-closes (an older probe) waits
 * that long; one that sends junk only gets the responder line. Bounded:
 * with RENDEZVOUS_PENDING_MAX held, the oldest is answered at once. */
#ifndef IBAHPROBE_RENDEZVOUS_SERVER_H
#define IBAHPROBE_RENDEZVOUS_SERVER_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "peer/rendezvous.h"
#include "peer/rendezvous_count.h"

#define RENDEZVOUS_PENDING_MAX 16
#define RENDEZVOUS_QUESTION_WAIT_MS 100

struct rendezvous_pending {
	int fd;			/* -1: free */
	uint64_t deadline_ns;
	size_t got;
	char buf[RENDEZVOUS_QUESTION_MAX + 1];
};

/* Answers a count question into *a (the caller's table). */
typedef void (*rendezvous_count_fn)(void *ctx,
				    const struct rendezvous_count_question *q,
				    struct rendezvous_count_answer *a);

struct rendezvous_server {
	int listen_fd;
	struct rendezvous_pending pending[RENDEZVOUS_PENDING_MAX];
	rendezvous_count_fn count;
	void *ctx;
	uint64_t questions, answered_counts;
};

void rendezvous_server_init(struct rendezvous_server *srv, int listen_fd,
			    rendezvous_count_fn count, void *ctx);
/* Fills up to max pollfds (the listener first, then held connections);
 * returns how many. */
size_t rendezvous_server_pollfds(const struct rendezvous_server *srv,
				 struct pollfd *fds, size_t max);
/* Milliseconds until the next held connection's deadline (-1: none). */
int rendezvous_server_timeout_ms(const struct rendezvous_server *srv,
				 uint64_t now_ns);
/* Accepts what waits on the listener, reads what the held connections
 * sent, answers those that are complete or past their deadline. */
void rendezvous_server_service(struct rendezvous_server *srv,
			       const struct responder_info *info,
			       uint64_t now_ns);
/* Answers every held connection with the responder line and closes. */
void rendezvous_server_close(struct rendezvous_server *srv,
			     const struct responder_info *info);

#endif
