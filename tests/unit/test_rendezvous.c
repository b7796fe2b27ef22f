/* Unit tests of the rendezvous: the JSON answer round-trips, malformed
 * answers are refused, and a real listener on loopback answers a real
 * client within its deadline; each failure is told apart in words: a
 * dead port (refused), a deadline (-t), a link-local address without its
 * %IFACE, a name that does not resolve. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/parse.h"
#include "peer/rendezvous.h"
#include "tap.h"

static struct responder_info sample(void)
{
	struct responder_info info = {
		.version = 1, .port_num = 1, .lid = 0, .qpn = 0x11,
		.qkey = 0x1ab4e0be, .gid_count = 2,
	};
	char err[256];

	snprintf(info.device, sizeof(info.device), "rxe0");
	snprintf(info.link_layer, sizeof(info.link_layer), "Ethernet");
	parse_gid("::ffff:10.0.0.1", &info.gids[0].gid, err, sizeof(err));
	info.gids[0].index = 1;
	snprintf(info.gids[0].type, sizeof(info.gids[0].type), "RoCE v2");
	parse_gid("fd00::1", &info.gids[1].gid, err, sizeof(err));
	info.gids[1].index = 2;
	snprintf(info.gids[1].type, sizeof(info.gids[1].type), "RoCE v2");
	return info;
}

static void test_codec(void)
{
	struct responder_info info = sample(), back;
	char err[256], *line = rendezvous_encode(&info);

	ok(line && strchr(line, '\n') == line + strlen(line) - 1,
	   "one line with one newline");
	is_int(rendezvous_decode(line, &back, err, sizeof(err)), 0, "decodes");
	is_int(back.qpn, 0x11, "qpn");
	is_int(back.qkey, 0x1ab4e0be, "qkey");
	is_str(back.device, "rxe0", "device");
	is_int(back.gid_count, 2, "gid count");
	is_mem(back.gids[0].gid.raw, info.gids[0].gid.raw, 16, "gid 0");
	is_int(back.gids[1].index, 2, "gid 1 index");
	free(line);
	is_int(rendezvous_decode("hello", &back, err, sizeof(err)), -1,
	       "not JSON refused");
	ok(strstr(err, "not a JSON object") != NULL, "message says why");
	is_int(rendezvous_decode("{\"version\":1,\"port_num\":1,\"lid\":0,"
				 "\"qpn\":0,\"qkey\":1}", &back, err,
				 sizeof(err)), -1, "qpn 0 refused");
	is_int(rendezvous_decode("{\"version\":1,\"port_num\":1,\"lid\":0,"
				 "\"qpn\":16777216,\"qkey\":1}", &back, err,
				 sizeof(err)), -1, "qpn over 24 bits refused");
	/* Names from the network reach terminals: escaped, never raw; a
	 * NUL would cut one silently, so the answer is refused. */
	is_int(rendezvous_decode("{\"version\":1,\"port_num\":1,\"lid\":0,"
				 "\"qpn\":17,\"qkey\":1,\"device\":"
				 "\"rxe\\u001b[2J\\u202eb\"}", &back, err,
				 sizeof(err)), 0, "a device name with ESC and RLO");
	is_str(back.device, "rxe\\x1b[2J\\u{202e}b", "shown escaped");
	is_int(rendezvous_decode("{\"version\":1,\"port_num\":1,\"lid\":0,"
				 "\"qpn\":17,\"qkey\":1,\"device\":"
				 "\"rxe\\u0000b\"}", &back, err,
				 sizeof(err)), -1, "a NUL in a name refused");
	ok(strstr(err, "NUL") != NULL, "and named: %s", err);
}

/* The responder's active MTU bounds probe --mtu: optional, older serves
 * leave it out, and a value that is no IB MTU counts as not told. */
static void test_active_mtu(void)
{
	struct responder_info info = sample(), back;
	char err[256], *line;

	info.active_mtu = 1024;
	line = rendezvous_encode(&info);
	ok(line && strstr(line, "\"active_mtu\":1024") != NULL, "encoded");
	is_int(rendezvous_decode(line, &back, err, sizeof(err)), 0, "decodes");
	is_int(back.active_mtu, 1024, "active_mtu 1024 back");
	free(line);
	info.active_mtu = 0;
	line = rendezvous_encode(&info);
	ok(line && !strstr(line, "active_mtu"), "0 (unknown) left out");
	free(line);
	is_int(rendezvous_decode("{\"version\":1,\"port_num\":1,\"lid\":0,"
				 "\"qpn\":17,\"qkey\":1}", &back, err,
				 sizeof(err)), 0, "an older serve's answer");
	is_int(back.active_mtu, 0, "no MTU told");
	is_int(rendezvous_decode("{\"version\":1,\"port_num\":1,\"lid\":0,"
				 "\"qpn\":17,\"qkey\":1,\"active_mtu\":99999}",
				 &back, err, sizeof(err)), 0,
	       "an MTU out of range does not spoil the answer");
	is_int(back.active_mtu, 0, "and counts as not told");
}

static void test_loopback(void)
{
	struct responder_info info = sample(), back;
	char bound[128], err[256];
	const char *colon;
	uint16_t port;
	pid_t child;
	int fd, status;

	fd = rendezvous_listen("127.0.0.1:0", bound, sizeof(bound), err,
			       sizeof(err));
	ok(fd >= 0, "listens on 127.0.0.1 (%s)", fd >= 0 ? bound : err);
	if (fd < 0)
		return;
	colon = strrchr(bound, ':');
	port = (uint16_t)atoi(colon + 1);
	ok(port != 0, "kernel chose port %u", port);
	child = fork();
	if (child == 0) {
		/* The answering side: one connection, then exit. */
		sleep(0);
		for (int i = 0; i < 200; i++) {
			rendezvous_answer(fd, &info);
			usleep(10000);
		}
		_exit(0);
	}
	is_int(rendezvous_query("127.0.0.1", port, 2000, &back, err,
				sizeof(err)), 0, "query answered");
	is_int(back.qpn, info.qpn, "qpn over TCP");
	kill(child, SIGTERM);
	waitpid(child, &status, 0);
	close(fd);
	/* Nobody listens now: a refusal, quickly, with a hint. */
	is_int(rendezvous_query("127.0.0.1", port, 500, &back, err,
				sizeof(err)), -1, "closed port fails");
	ok(strstr(err, "ibahprobe serve") != NULL, "hint names serve: %s",
	   err);
	ok(strstr(err, "connection refused") != NULL &&
	   strstr(err, "-t") == NULL, "a refusal is no timeout: %s", err);
}

/* A listener whose accept queue is full (backlog 0, one connection
 * waiting) drops further SYNs: the client's connect never completes, so
 * only the deadline ends it. That is -t's doing, not serve's absence. */
static void test_timeout(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct responder_info back;
	socklen_t len = sizeof(sin);
	char err[512];
	int lfd, cfd, cfd2;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	cfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || cfd < 0 || bind(lfd, (struct sockaddr *)&sin,
				       sizeof(sin)) ||
	    listen(lfd, 0) ||
	    getsockname(lfd, (struct sockaddr *)&sin, &len) ||
	    connect(cfd, (struct sockaddr *)&sin, sizeof(sin))) {
		ok(0, "loopback listener with a full queue: %s",
		   strerror(errno));
		return;
	}
	/* The queue holds one: a second waiting client fills it. */
	cfd2 = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	connect(cfd2, (struct sockaddr *)&sin, sizeof(sin));
	is_int(rendezvous_query("127.0.0.1", ntohs(sin.sin_port), 200, &back,
				err, sizeof(err)), -1, "no answer: fails");
	ok(strstr(err, "within 200 ms (-t)") != NULL,
	   "the deadline is named as -t's: %s", err);
	ok(strstr(err, "is 'ibahprobe serve' running") == NULL,
	   "and not blamed on serve");
	close(cfd2);
	close(cfd);
	close(lfd);
}

/* A link-local address without its interface: said before any connect. */
static void test_link_local(void)
{
	struct responder_info back;
	char err[512];

	is_int(rendezvous_query("fe80::2", 18515, 1000, &back, err,
				sizeof(err)), -1, "fe80::2 without scope fails");
	ok(strstr(err, "a link-local address needs %IFACE") != NULL,
	   "says %%IFACE: %s", err);
	ok(strstr(err, "fe80::2%eth1") != NULL, "shows the form");
	is_int(rendezvous_query("no-such-host.invalid", 18515, 1000, &back,
				err, sizeof(err)), -1, "a name that does not "
	       "resolve fails");
	ok(strncmp(err, "cannot resolve host 'no-such-host.invalid'", 42) ==
	   0, "says so, not serve: %s", err);
}

static void test_failure_words(void)
{
	char buf[512];

	rendezvous_connect_failure(ETIMEDOUT, "b", 18515, 1, buf, sizeof(buf));
	ok(strstr(buf, "no answer from b port 18515 within 1 ms (-t)") != NULL,
	   "timeout: %s", buf);
	rendezvous_connect_failure(ECONNREFUSED, "b", 18515, 1, buf,
				   sizeof(buf));
	ok(strstr(buf, "nothing listens on b port 18515") != NULL &&
	   strstr(buf, "ibahprobe serve") != NULL, "refused: %s", buf);
	rendezvous_connect_failure(EHOSTUNREACH, "b", 18515, 1, buf,
				   sizeof(buf));
	ok(strstr(buf, "cannot reach b port 18515") != NULL &&
	   strstr(buf, "serve") == NULL, "no route: %s", buf);
}

int main(void)
{
	test_codec();
	test_active_mtu();
	test_loopback();
	test_timeout();
	test_link_local();
	test_failure_words();
	return tap_done();
}
