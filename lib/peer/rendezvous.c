/* Rendezvous over TCP: serve's one-line JSON answer and the prober's
 * bounded client. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/gid.h"
#include "base/monotonic.h"
#include "base/parse.h"
#include "peer/rendezvous.h"
#include "base/text_escape.h"

#define RENDEZVOUS_VERSION 1
#define LISTEN_BACKLOG 8

static int split_listen_spec(const char *spec, char *host, size_t hostlen,
			     char *port, size_t portlen, char *err,
			     size_t errlen)
{
	const char *colon;
	uint32_t value;

	snprintf(host, hostlen, "%s", "");
	snprintf(port, portlen, "%u", RENDEZVOUS_DEFAULT_PORT);
	if (!spec || !*spec)
		return 0;
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close || (close[1] && close[1] != ':')) {
			snprintf(err, errlen, "listen address '%s' is not "
				 "[v6]:PORT", spec);
			return -1;
		}
		snprintf(host, hostlen, "%.*s", (int)(close - spec - 1),
			 spec + 1);
		colon = close[1] ? close + 1 : NULL;
	} else {
		colon = strrchr(spec, ':');
		if (colon && strchr(spec, ':') != colon) {
			/* Bare IPv6 literal without a port. */
			snprintf(host, hostlen, "%s", spec);
			return 0;
		}
		if (!colon && strspn(spec, "0123456789") == strlen(spec)) {
			colon = spec - 1;	/* just a port */
		} else {
			snprintf(host, hostlen, "%.*s",
				 colon ? (int)(colon - spec) : (int)strlen(spec),
				 spec);
		}
	}
	if (colon) {
		/* Port 0: the kernel picks one (tests), shown in bound. */
		if (parse_u32(colon + 1, "rendezvous port", 0, 65535, &value,
			      err, errlen))
			return -1;
		snprintf(port, portlen, "%u", value);
	}
	return 0;
}

/* "ADDR:PORT" of a bound socket, "[::]:PORT" style for IPv6. */
static void describe_bound(int fd, char *bound, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	char host[INET6_ADDRSTRLEN] = "?";
	uint16_t port = 0;

	if (getsockname(fd, (struct sockaddr *)&ss, &sslen) == 0) {
		if (ss.ss_family == AF_INET6) {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

			inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host));
			port = ntohs(s6->sin6_port);
			snprintf(bound, len, "[%s]:%u", host, port);
			return;
		}
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host));
		port = ntohs(s4->sin_port);
	}
	snprintf(bound, len, "%s:%u", host, port);
}

int rendezvous_listen_spec_check(const char *spec, char *err, size_t errlen)
{
	char host[256], port[8];

	return split_listen_spec(spec, host, sizeof(host), port, sizeof(port),
				 err, errlen);
}

int rendezvous_listen(const char *spec, char *bound, size_t boundlen,
		      char *err, size_t errlen)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE,
	};
	struct addrinfo *res;
	char host[256], port[8];
	int fd = -1, one = 1, rc;

	if (split_listen_spec(spec, host, sizeof(host), port, sizeof(port),
			      err, errlen))
		return -1;
	if (!host[0])
		hints.ai_family = AF_INET6;	/* dual-stack wildcard */
	rc = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
	if (rc) {
		snprintf(err, errlen, "cannot listen on '%s': %s", spec,
			 gai_strerror(rc));
		return -1;
	}
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, res->ai_addr, res->ai_addrlen) ||
		    listen(fd, LISTEN_BACKLOG)) {
			snprintf(err, errlen,
				 "cannot listen on %s port %s: %s%s",
				 host[0] ? host : "any address", port,
				 strerror(errno),
				 errno == EADDRINUSE
					 ? " (another serve? --listen picks "
					   "another port)"
					 : "");
			close(fd);
			fd = -1;
		}
	} else {
		snprintf(err, errlen, "cannot create a socket: %s",
			 strerror(errno));
	}
	freeaddrinfo(res);
	if (fd >= 0)
		describe_bound(fd, bound, boundlen);
	return fd;
}

char *rendezvous_encode(const struct responder_info *info)
{
	json_object *root = json_object_new_object(), *gids;
	char text[GID_TEXT_MAX];
	char *line = NULL;

	if (!root)
		return NULL;
	json_object_object_add(root, "version",
			       json_object_new_int(RENDEZVOUS_VERSION));
	json_object_object_add(root, "device",
			       json_object_new_string(info->device));
	json_object_object_add(root, "port_num",
			       json_object_new_int(info->port_num));
	json_object_object_add(root, "lid", json_object_new_int(info->lid));
	json_object_object_add(root, "qpn", json_object_new_int64(info->qpn));
	json_object_object_add(root, "qkey",
			       json_object_new_int64(info->qkey));
	json_object_object_add(root, "link_layer",
			       json_object_new_string(info->link_layer));
	if (info->active_mtu)
		json_object_object_add(root, "active_mtu",
				       json_object_new_int(info->active_mtu));
	gids = json_object_new_array();
	for (size_t i = 0; i < info->gid_count; i++) {
		json_object *g = json_object_new_object();

		json_object_object_add(g, "index",
				       json_object_new_int64(info->gids[i].index));
		json_object_object_add(
			g, "gid",
			json_object_new_string(gid_format(&info->gids[i].gid,
							  text, sizeof(text))));
		json_object_object_add(g, "type",
				       json_object_new_string(info->gids[i].type));
		json_object_array_add(gids, g);
	}
	json_object_object_add(root, "gids", gids);
	if (asprintf(&line, "%s\n",
		     json_object_to_json_string_ext(root,
						    JSON_C_TO_STRING_PLAIN |
						    JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		line = NULL;
	json_object_put(root);
	return line;
}

void rendezvous_answer(int listen_fd, const struct responder_info *info)
{
	char *line;
	int fd;

	fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return;
	line = rendezvous_encode(info);
	/* A fresh socket's buffer takes one short line without blocking;
	 * if it does not, the client gets less and says so. */
	if (line && send(fd, line, strlen(line), MSG_NOSIGNAL) < 0)
		(void)0;
	free(line);
	close(fd);
}

int64_t rendezvous_json_int(json_object *root, const char *key, int64_t min,
			    int64_t max, bool *ok)
{
	json_object *v;
	int64_t n;

	if (!json_object_object_get_ex(root, key, &v) ||
	    !json_object_is_type(v, json_type_int)) {
		*ok = false;
		return 0;
	}
	n = json_object_get_int64(v);
	if (n < min || n > max)
		*ok = false;
	return n;
}

/* Names from the network reach terminals and JSON: kept escaped
 * (text_escape), and one holding a NUL, which would cut it silently, makes
 * the answer invalid. */
static void get_string(json_object *root, const char *key, char *buf,
		       size_t len, bool *ok)
{
	json_object *v;
	const char *text;
	size_t n;

	if (len)
		buf[0] = '\0';
	if (!json_object_object_get_ex(root, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return;
	text = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	if (memchr(text, '\0', n)) {
		*ok = false;
		return;
	}
	text_escape(text, n, buf, len);
}

int rendezvous_decode(const char *text, struct responder_info *info,
		      char *err, size_t errlen)
{
	json_object *root, *gids;
	bool ok = true;
	int rc = -1;

	memset(info, 0, sizeof(*info));
	root = json_tokener_parse(text);
	if (!root || !json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "the responder's answer is not a JSON "
			 "object (is it an ibahprobe serve?)");
		goto out;
	}
	info->version = (uint32_t)rendezvous_json_int(root, "version", 1, 255, &ok);
	info->port_num = (uint8_t)rendezvous_json_int(root, "port_num", 1, 255, &ok);
	info->lid = (uint16_t)rendezvous_json_int(root, "lid", 0, 0xffff, &ok);
	info->qpn = (uint32_t)rendezvous_json_int(root, "qpn", 1, 0xffffff, &ok);
	info->qkey = (uint32_t)rendezvous_json_int(root, "qkey", 0, 0xffffffffLL, &ok);
	get_string(root, "device", info->device, sizeof(info->device), &ok);
	get_string(root, "link_layer", info->link_layer,
		   sizeof(info->link_layer), &ok);
	/* Optional (older serves leave it out); a value that is no IB MTU
	 * (256..4096) is treated as not told. */
	if (json_object_object_get_ex(root, "active_mtu", NULL)) {
		bool mtu_ok = true;
		int64_t mtu = rendezvous_json_int(root, "active_mtu", 256, 4096, &mtu_ok);

		info->active_mtu = mtu_ok ? (uint16_t)mtu : 0;
	}
	if (!ok) {
		snprintf(err, errlen, "the responder's answer lacks a valid "
			 "version, port_num, lid, qpn or qkey, or holds a NUL "
			 "in a name");
		goto out;
	}
	if (json_object_object_get_ex(root, "gids", &gids) &&
	    json_object_is_type(gids, json_type_array)) {
		size_t n = json_object_array_length(gids);

		for (size_t i = 0; i < n && info->gid_count < RENDEZVOUS_MAX_GIDS;
		     i++) {
			json_object *g = json_object_array_get_idx(gids, i);
			char gid_text[64], msg[128];
			bool gok = true;
			uint32_t index;

			if (!json_object_is_type(g, json_type_object))
				continue;
			index = (uint32_t)rendezvous_json_int(g, "index", 0, 0xffff, &gok);
			get_string(g, "gid", gid_text, sizeof(gid_text), &gok);
			if (!gok || parse_gid(gid_text,
					      &info->gids[info->gid_count].gid,
					      msg, sizeof(msg)))
				continue;
			info->gids[info->gid_count].index = index;
			get_string(g, "type", info->gids[info->gid_count].type,
				   sizeof(info->gids[0].type), &gok);
			if (!gok)
				continue;
			info->gid_count++;
		}
	}
	rc = 0;
out:
	json_object_put(root);
	return rc;
}

static int64_t now_ms(void)
{
	return (int64_t)(monotonic_ns() / 1000000u);
}

static int wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int left = (int)(deadline - now_ms());
	int n;

	if (left <= 0)
		return 0;
	do
		n = poll(&pfd, 1, left);
	while (n < 0 && errno == EINTR);
	return n;
}

static int connect_bounded(const struct addrinfo *ai, int64_t deadline)
{
	int fd, soerr = 0;
	socklen_t len = sizeof(soerr);

	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0)
		return -1;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return fd;
	if (errno != EINPROGRESS || wait_fd(fd, POLLOUT, deadline) <= 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) || soerr) {
		if (soerr)
			errno = soerr;
		else if (errno == EINPROGRESS)
			errno = ETIMEDOUT;
		close(fd);
		return -1;
	}
	return fd;
}

/* An IPv6 link-local address (fe80::/10) means nothing without the
 * interface it is reached through: the kernel's tcp_v6_connect fails
 * with EINVAL for a link-local peer without sin6_scope_id on a socket
 * bound to no device. Said before trying, in the user's terms. */
static bool link_local_without_scope(const struct addrinfo *ai)
{
	const struct sockaddr_in6 *sin6;

	if (ai->ai_family != AF_INET6)
		return false;
	sin6 = (const struct sockaddr_in6 *)ai->ai_addr;
	return IN6_IS_ADDR_LINKLOCAL(&sin6->sin6_addr) &&
	       sin6->sin6_scope_id == 0;
}

void rendezvous_connect_failure(int err, const char *host, uint16_t port,
				uint32_t timeout_ms, char *buf, size_t len)
{
	switch (err) {
	case ETIMEDOUT:
		/* Our deadline (-t), or the kernel's SYN retries: either way
		 * nothing came back, which says nothing about serve. */
		snprintf(buf, len, "no answer from %s port %u within %u ms "
			 "(-t): the host is down or slow to reach, or a "
			 "firewall drops the rendezvous; a longer -t waits "
			 "more", host, port, timeout_ms);
		break;
	case ECONNREFUSED:
		snprintf(buf, len, "nothing listens on %s port %u (connection "
			 "refused): is 'ibahprobe serve' running there, on "
			 "this rendezvous port?", host, port);
		break;
	case EHOSTUNREACH:
	case ENETUNREACH:
	case EADDRNOTAVAIL:
		snprintf(buf, len, "cannot reach %s port %u: %s (is the "
			 "address right, and is there a route to it?)", host,
			 port, strerror(err));
		break;
	default:
		snprintf(buf, len, "cannot connect to %s port %u: %s", host,
			 port, strerror(err));
		break;
	}
}

int rendezvous_exchange(const char *host, uint16_t port, uint32_t timeout_ms,
			const char *question, char *buf, size_t buflen,
			char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *ai;
	int64_t deadline = now_ms() + timeout_ms;
	char portstr[8];
	size_t got = 0;
	int fd = -1, rc, saved = 0;

	snprintf(portstr, sizeof(portstr), "%u", port);
	rc = getaddrinfo(host, portstr, &hints, &res);
	if (rc) {
		snprintf(err, errlen, "cannot resolve host '%s': %s", host,
			 gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		if (link_local_without_scope(ai)) {
			saved = EINVAL;
			continue;
		}
		fd = connect_bounded(ai, deadline);
		/* A refusal says more than a later address's timeout. */
		if (fd < 0 && saved != ECONNREFUSED)
			saved = errno;
	}
	freeaddrinfo(res);
	if (fd < 0 && saved == EINVAL && strchr(host, ':')) {
		snprintf(err, errlen, "%s is an IPv6 link-local address: a "
			 "link-local address needs %%IFACE, the interface it "
			 "is reached through (%s%%eth1; 'ip link' lists "
			 "them)", host, host);
		return -1;
	}
	if (fd < 0) {
		rendezvous_connect_failure(saved, host, port, timeout_ms, err,
					   errlen);
		return -1;
	}
	/* The question (one short line fits a fresh socket's buffer), then
	 * our half closed: serve answers as soon as it reads the end, and
	 * one that reads nothing (an older serve) answers as it always did;
	 * the end of our half is no data, so it cannot make that one reset
	 * the connection. */
	if (question && send(fd, question, strlen(question), MSG_NOSIGNAL) < 0)
		(void)0;
	shutdown(fd, SHUT_WR);
	for (;;) {
		ssize_t n;

		if (wait_fd(fd, POLLIN, deadline) <= 0) {
			snprintf(err, errlen, "%s port %u took the connection "
				 "but sent no answer within %u ms (-t): a "
				 "longer -t waits more (is it an ibahprobe "
				 "serve?)", host, port, timeout_ms);
			close(fd);
			return -1;
		}
		n = recv(fd, buf + got, buflen - 1 - got, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
		if (got == buflen - 1) {
			snprintf(err, errlen, "the answer from %s port %u is "
				 "larger than %zu bytes", host, port,
				 buflen - 1);
			close(fd);
			return -1;
		}
	}
	close(fd);
	buf[got] = '\0';
	return 0;
}

int rendezvous_query(const char *host, uint16_t port, uint32_t timeout_ms,
		     struct responder_info *info, char *err, size_t errlen)
{
	char buf[RENDEZVOUS_MAX_BYTES + 1];

	if (rendezvous_exchange(host, port, timeout_ms, NULL, buf, sizeof(buf),
				err, errlen))
		return -1;
	return rendezvous_decode(buf, info, err, errlen);
}
