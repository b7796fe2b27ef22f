/* serve's rendezvous connections; see rendezvous_server.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "peer/rendezvous_server.h"

void rendezvous_server_init(struct rendezvous_server *srv, int listen_fd,
			    rendezvous_count_fn count, void *ctx)
{
	memset(srv, 0, sizeof(*srv));
	srv->listen_fd = listen_fd;
	srv->count = count;
	srv->ctx = ctx;
	for (size_t i = 0; i < RENDEZVOUS_PENDING_MAX; i++)
		srv->pending[i].fd = -1;
}

size_t rendezvous_server_pollfds(const struct rendezvous_server *srv,
				 struct pollfd *fds, size_t max)
{
	size_t n = 0;

	if (srv->listen_fd < 0 || max == 0)
		return 0;
	fds[n++] = (struct pollfd){ .fd = srv->listen_fd, .events = POLLIN };
	for (size_t i = 0; i < RENDEZVOUS_PENDING_MAX && n < max; i++)
		if (srv->pending[i].fd >= 0)
			fds[n++] = (struct pollfd){ .fd = srv->pending[i].fd,
						    .events = POLLIN };
	return n;
}

int rendezvous_server_timeout_ms(const struct rendezvous_server *srv,
				 uint64_t now_ns)
{
	int64_t best = -1;

	for (size_t i = 0; i < RENDEZVOUS_PENDING_MAX; i++) {
		const struct rendezvous_pending *p = &srv->pending[i];
		int64_t left;

		if (p->fd < 0)
			continue;
		left = p->deadline_ns > now_ns
			       ? (int64_t)((p->deadline_ns - now_ns + 999999) /
					   1000000)
			       : 0;
		if (best < 0 || left < best)
			best = left;
	}
	return (int)best;
}

/* A fresh socket's buffer takes one short line without blocking; if it
 * does not, the client gets less and says so. */
static void send_line(int fd, char *line)
{
	if (line && send(fd, line, strlen(line), MSG_NOSIGNAL) < 0)
		(void)0;
	free(line);
}

static void finish(struct rendezvous_server *srv, struct rendezvous_pending *p,
		   const struct responder_info *info)
{
	struct rendezvous_count_question q;
	struct rendezvous_count_answer a = { .state =
						     RENDEZVOUS_COUNT_FORGOTTEN };
	char *nl = memchr(p->buf, '\n', p->got);

	p->buf[nl ? (size_t)(nl - p->buf) : p->got] = '\0';
	if (p->got && srv->count &&
	    rendezvous_count_question_decode(p->buf, &q) == 0) {
		srv->questions++;
		srv->count(srv->ctx, &q, &a);
		srv->answered_counts += a.state == RENDEZVOUS_COUNT_KNOWN;
		send_line(p->fd, rendezvous_count_answer_encode(&a));
	} else {
		send_line(p->fd, rendezvous_encode(info));
	}
	close(p->fd);
	p->fd = -1;
}

/* Reads what arrived; true when the question is complete: a newline,
 * the client's end, an error, or a buffer full (no question of ours). */
static bool read_more(struct rendezvous_pending *p)
{
	for (;;) {
		ssize_t n = recv(p->fd, p->buf + p->got,
				 RENDEZVOUS_QUESTION_MAX - p->got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno != EAGAIN && errno != EWOULDBLOCK;
		if (n == 0)
			return true;
		p->got += (size_t)n;
		if (memchr(p->buf, '\n', p->got) ||
		    p->got == RENDEZVOUS_QUESTION_MAX)
			return true;
	}
}

static struct rendezvous_pending *free_slot(struct rendezvous_server *srv,
					    const struct responder_info *info)
{
	struct rendezvous_pending *oldest = NULL;

	for (size_t i = 0; i < RENDEZVOUS_PENDING_MAX; i++) {
		struct rendezvous_pending *p = &srv->pending[i];

		if (p->fd < 0)
			return p;
		if (!oldest || p->deadline_ns < oldest->deadline_ns)
			oldest = p;
	}
	finish(srv, oldest, info);
	return oldest;
}

void rendezvous_server_service(struct rendezvous_server *srv,
			       const struct responder_info *info,
			       uint64_t now_ns)
{
	if (srv->listen_fd < 0)
		return;
	/* A few per call: a flood of connections cannot hold the loop. */
	for (int i = 0; i < RENDEZVOUS_PENDING_MAX; i++) {
		int fd = accept4(srv->listen_fd, NULL, NULL,
				 SOCK_CLOEXEC | SOCK_NONBLOCK);
		struct rendezvous_pending *p;

		if (fd < 0)
			break;
		p = free_slot(srv, info);
		p->fd = fd;
		p->got = 0;
		p->deadline_ns = now_ns + RENDEZVOUS_QUESTION_WAIT_MS * 1000000ull;
	}
	for (size_t i = 0; i < RENDEZVOUS_PENDING_MAX; i++) {
		struct rendezvous_pending *p = &srv->pending[i];

		if (p->fd >= 0 && (read_more(p) || now_ns >= p->deadline_ns))
			finish(srv, p, info);
	}
}

void rendezvous_server_close(struct rendezvous_server *srv,
			     const struct responder_info *info)
{
	for (size_t i = 0; i < RENDEZVOUS_PENDING_MAX; i++)
		if (srv->pending[i].fd >= 0)
			finish(srv, &srv->pending[i], info);
}
