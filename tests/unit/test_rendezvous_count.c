/* Unit tests of the rendezvous' count question: the question and answer
 * round-trip; serve's connection handling answers a count question, a
 * half-closed silent client (today's info query) at once, and a client
 * that never sends after its deadline, over real loopback sockets; an
 * older serve's usual line reads as "not understood", never as zero. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/monotonic.h"
#include "base/parse.h"
#include "peer/rendezvous.h"
#include "peer/rendezvous_count.h"
#include "peer/rendezvous_server.h"
#include "tap.h"

static struct responder_info sample(void)
{
	struct responder_info info = {
		.version = 1, .port_num = 1, .qpn = 0x11, .qkey = 0x1ab4e0be,
	};

	snprintf(info.device, sizeof(info.device), "rxe0");
	snprintf(info.link_layer, sizeof(info.link_layer), "Ethernet");
	return info;
}

static struct rendezvous_count_question question(void)
{
	struct rendezvous_count_question q = {
		.probe_id = 0xdeadbeef, .qpn = 0x12, .lid = 0,
		.asked = { .hop_limit = 64, .traffic_class = 0xb8, .sl = 3,
			   .flow_label = 0xfffff },
		.age_ms = 1500,
	};
	char err[128];

	parse_gid("::ffff:10.0.0.1", &q.gid, err, sizeof(err));
	return q;
}

static void test_codec(void)
{
	struct rendezvous_count_question q = question(), back;
	struct rendezvous_count_answer a = { .state = RENDEZVOUS_COUNT_KNOWN,
					     .received = 7, .answered = 6 }, ab;
	struct responder_info info = sample();
	char *line = rendezvous_count_question_encode(&q), err[256];

	ok(line && strlen(line) < RENDEZVOUS_QUESTION_MAX &&
		   strchr(line, '\n') == line + strlen(line) - 1,
	   "the question is one short line");
	is_int(rendezvous_count_question_decode(line, &back), 0, "decodes");
	ok(back.probe_id == 0xdeadbeef && back.qpn == 0x12 &&
		   back.asked.hop_limit == 64 &&
		   back.asked.traffic_class == 0xb8 && back.asked.sl == 3 &&
		   back.asked.flow_label == 0xfffff && back.age_ms == 1500,
	   "every field round-trips");
	is_mem(back.gid.raw, q.gid.raw, 16, "gid");
	free(line);
	is_int(rendezvous_count_question_decode("{\"question\":\"other\"}",
						&back), -1,
	       "another question is none of ours");
	is_int(rendezvous_count_question_decode("{\"question\":\"count\","
						"\"probe_id\":1}", &back), -1,
	       "a question without its fields is refused");
	is_int(rendezvous_count_question_decode("junk", &back), -1, "junk");

	line = rendezvous_count_answer_encode(&a);
	is_int(rendezvous_count_answer_decode(line, &ab, err, sizeof(err)), 0,
	       "answer decodes");
	ok(ab.state == RENDEZVOUS_COUNT_KNOWN && ab.received == 7 &&
		   ab.answered == 6, "received and answered");
	free(line);
	a.state = RENDEZVOUS_COUNT_FORGOTTEN;
	line = rendezvous_count_answer_encode(&a);
	rendezvous_count_answer_decode(line, &ab, err, sizeof(err));
	is_int(ab.state, RENDEZVOUS_COUNT_FORGOTTEN, "forgotten");
	free(line);
	line = rendezvous_encode(&info);
	is_int(rendezvous_count_answer_decode(line, &ab, err, sizeof(err)), 0,
	       "an older serve's usual line decodes");
	is_int(ab.state, RENDEZVOUS_COUNT_NOT_UNDERSTOOD,
	       "as not understood, not as a count of 0");
	free(line);
	is_int(rendezvous_count_answer_decode("{\"count\":{}}", &ab, err,
					      sizeof(err)), -1,
	       "a count without known refused");
	is_int(rendezvous_count_answer_decode("hello", &ab, err, sizeof(err)),
	       -1, "not JSON refused");
}

/* Why the responder did not answer: carried when it knows, absent from
 * an older serve's answer (then not known, never 0 of each). */
static void test_reasons(void)
{
	struct rendezvous_count_answer a = {
		.state = RENDEZVOUS_COUNT_KNOWN, .received = 5,
		.reasons_known = true,
		.unanswered = { [UNANSWERED_RESOLVING] = 5 },
	}, ab;
	char *line = rendezvous_count_answer_encode(&a), err[256];

	ok(line && strstr(line, "\"unanswered\":{\"resolving\":5"),
	   "the reasons are in the answer");
	is_int(rendezvous_count_answer_decode(line, &ab, err, sizeof(err)), 0,
	       "decodes");
	ok(ab.reasons_known && ab.unanswered[UNANSWERED_RESOLVING] == 5 &&
		   ab.unanswered[UNANSWERED_RATE_LIMIT] == 0,
	   "5 not answered for want of a reply AH");
	free(line);
	is_int(rendezvous_count_answer_decode(
		       "{\"version\":1,\"count\":{\"known\":true,"
		       "\"received\":5,\"answered\":0}}", &ab, err,
		       sizeof(err)), 0, "an older serve's count decodes");
	ok(!ab.reasons_known, "without reasons: not known");
	is_int(rendezvous_count_answer_decode(
		       "{\"version\":1,\"count\":{\"known\":true,"
		       "\"received\":5,\"answered\":0,\"unanswered\":"
		       "{\"resolving\":-1}}}", &ab, err, sizeof(err)), -1,
	       "a negative reason count is refused");
	is_int(rendezvous_count_answer_decode(
		       "{\"version\":1,\"count\":{\"known\":true,"
		       "\"received\":5,\"answered\":0,\"unanswered\":"
		       "{\"resolving\":2,\"new_reason\":3}}}", &ab, err,
		       sizeof(err)), 0, "a reason of a newer serve is ignored");
	is_int(ab.unanswered[UNANSWERED_RESOLVING], 2, "the known one read");
}

/* How many were answered only after waiting for their reply AH: carried
 * by a newer serve, not known from an older one, refused when bad. */
static void test_answered_after_park(void)
{
	struct rendezvous_count_answer a = {
		.state = RENDEZVOUS_COUNT_KNOWN, .received = 5, .answered = 5,
		.reasons_known = true, .after_park_known = true,
		.answered_after_park = 4,
	}, ab;
	char *line = rendezvous_count_answer_encode(&a), err[256];

	ok(line && strstr(line, "\"answered_after_park\":4"), "in the answer");
	is_int(rendezvous_count_answer_decode(line, &ab, err, sizeof(err)), 0,
	       "decodes");
	ok(ab.after_park_known && ab.answered_after_park == 4, "4 read back");
	free(line);
	is_int(rendezvous_count_answer_decode(
		       "{\"version\":1,\"count\":{\"known\":true,"
		       "\"received\":5,\"answered\":5}}", &ab, err,
		       sizeof(err)), 0, "an older serve's count decodes");
	ok(!ab.after_park_known, "without it: not known");
	is_int(rendezvous_count_answer_decode(
		       "{\"version\":1,\"count\":{\"known\":true,"
		       "\"received\":5,\"answered\":5,"
		       "\"answered_after_park\":\"x\"}}", &ab, err,
		       sizeof(err)), -1, "a bad one refused");
}

/* The receive-drop evidence of a newer serve: with a counter, without
 * one (rxe), absent (an older serve), malformed. */
static void test_rq_drops(void)
{
	struct rendezvous_count_answer a = {
		.state = RENDEZVOUS_COUNT_KNOWN, .received = 7, .answered = 7,
		.rq_drops = { .present = true, .counter_known = true,
			      .counter = "out_of_buffer", .counter_delta = 3,
			      .rq_empty = 1, .covers_run = true },
	}, ab;
	char *line = rendezvous_count_answer_encode(&a), err[256];

	ok(line && strstr(line, "\"rq_drops\":{\"counter\":\"out_of_buffer\","
				"\"counter_delta\":3,\"rq_empty\":1,"
				"\"covers_run\":true}"),
	   "rq_drops in the answer");
	is_int(rendezvous_count_answer_decode(line, &ab, err, sizeof(err)), 0,
	       "decodes");
	ok(ab.rq_drops.present && ab.rq_drops.counter_known &&
		   ab.rq_drops.counter_delta == 3 && ab.rq_drops.rq_empty == 1 &&
		   ab.rq_drops.covers_run &&
		   strcmp(ab.rq_drops.counter, "out_of_buffer") == 0,
	   "every field back");
	free(line);

	a.rq_drops = (struct rendezvous_rq_drops){ .present = true,
						   .rq_empty = 4 };
	line = rendezvous_count_answer_encode(&a);
	ok(line && strstr(line, "\"counter\":null"), "no counter: null");
	is_int(rendezvous_count_answer_decode(line, &ab, err, sizeof(err)), 0,
	       "decodes");
	ok(ab.rq_drops.present && !ab.rq_drops.counter_known &&
		   ab.rq_drops.rq_empty == 4 && !ab.rq_drops.covers_run,
	   "no counter, 4 times empty");
	free(line);

	is_int(rendezvous_count_answer_decode(
		       "{\"version\":1,\"count\":{\"known\":true,"
		       "\"received\":5,\"answered\":5}}", &ab, err,
		       sizeof(err)), 0, "an older serve's answer decodes");
	ok(!ab.rq_drops.present, "without rq_drops: not told");
	is_int(rendezvous_count_answer_decode(
		       "{\"version\":1,\"count\":{\"known\":true,"
		       "\"received\":5,\"answered\":5,\"rq_drops\":"
		       "{\"counter\":7,\"rq_empty\":0,\"covers_run\":true}}}",
		       &ab, err, sizeof(err)), -1, "a counter not a name: refused");
	is_int(rendezvous_count_answer_decode(
		       "{\"version\":1,\"count\":{\"known\":true,"
		       "\"received\":5,\"answered\":5,\"rq_drops\":"
		       "{\"counter\":\"out_of_buffer\",\"counter_delta\":-2,"
		       "\"rq_empty\":0,\"covers_run\":true}}}",
		       &ab, err, sizeof(err)), -1, "a negative rise: refused");

	a.rq_drops.present = false;
	line = rendezvous_count_answer_encode(&a);
	ok(line && !strstr(line, "rq_drops"), "not present: not written");
	free(line);
}

static void count_fn(void *ctx, const struct rendezvous_count_question *q,
		     struct rendezvous_count_answer *a)
{
	(void)ctx;
	a->state = RENDEZVOUS_COUNT_KNOWN;
	a->received = q->asked.hop_limit;	/* echoes prove the parsing */
	a->answered = q->age_ms;
}

static int listen_any(uint16_t *port)
{
	char bound[128], err[256];
	int fd = rendezvous_listen("127.0.0.1:0", bound, sizeof(bound), err,
				   sizeof(err));

	*port = fd >= 0 ? (uint16_t)atoi(strrchr(bound, ':') + 1) : 0;
	return fd;
}

/* The new server in a child, its loop as serve runs it. */
static pid_t run_server(int fd, bool new_server)
{
	pid_t child = fork();

	if (child)
		return child;
	struct responder_info info = sample();
	struct rendezvous_server srv;

	rendezvous_server_init(&srv, fd, count_fn, NULL);
	for (int i = 0; i < 2000; i++) {
		struct pollfd fds[1 + RENDEZVOUS_PENDING_MAX];
		size_t n = rendezvous_server_pollfds(&srv, fds, 1 +
						     RENDEZVOUS_PENDING_MAX);
		int timeout = rendezvous_server_timeout_ms(&srv,
							   monotonic_ns());

		if (!new_server) {
			rendezvous_answer(fd, &info);
			usleep(5000);
			continue;
		}
		poll(fds, n, timeout < 0 || timeout > 10 ? 10 : timeout);
		rendezvous_server_service(&srv, &info, monotonic_ns());
	}
	_exit(0);
}

static void test_loopback(void)
{
	struct rendezvous_count_question q = question();
	struct rendezvous_count_answer a;
	struct responder_info info;
	char err[256];
	uint64_t start;
	uint16_t port;
	pid_t child;
	int fd = listen_any(&port), status;

	ok(fd >= 0, "listens");
	child = run_server(fd, true);
	is_int(rendezvous_ask_count("127.0.0.1", port, 2000, &q, &a, err,
				    sizeof(err)), 0, "count asked: %s", err);
	ok(a.state == RENDEZVOUS_COUNT_KNOWN && a.received == 64 &&
		   a.answered == 1500, "the server's answer to our question");
	start = monotonic_ns();
	is_int(rendezvous_query("127.0.0.1", port, 2000, &info, err,
				sizeof(err)), 0, "the info query still works");
	is_int(info.qpn, 0x11, "qpn");
	ok(monotonic_ns() - start < RENDEZVOUS_QUESTION_WAIT_MS * 1000000ull,
	   "a half-closed client is answered without the question wait");
	kill(child, SIGTERM);
	waitpid(child, &status, 0);
	close(fd);

	/* An older serve writes its line and closes, reading nothing. */
	fd = listen_any(&port);
	child = run_server(fd, false);
	is_int(rendezvous_ask_count("127.0.0.1", port, 2000, &q, &a, err,
				    sizeof(err)) == 0
		       ? (int)a.state
		       : -1,
	       RENDEZVOUS_COUNT_NOT_UNDERSTOOD,
	       "an older serve: not understood (%s)", err);
	kill(child, SIGTERM);
	waitpid(child, &status, 0);
	close(fd);
}

/* A client that neither sends nor closes its half (an older probe) gets
 * the responder line once the question wait is over. */
static void test_silent_client(void)
{
	struct responder_info info = sample();
	struct rendezvous_server srv;
	char buf[RENDEZVOUS_MAX_BYTES];
	uint16_t port;
	int fd = listen_any(&port), cfd;
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };
	uint64_t start = monotonic_ns(), now;
	ssize_t n;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cfd = socket(AF_INET, SOCK_STREAM, 0);
	is_int(connect(cfd, (struct sockaddr *)&sin, sizeof(sin)), 0,
	       "connects");
	rendezvous_server_init(&srv, fd, count_fn, NULL);
	usleep(20000);
	rendezvous_server_service(&srv, &info, start);
	ok(rendezvous_server_timeout_ms(&srv, start) > 0,
	   "held, waiting for a question");
	now = start + RENDEZVOUS_QUESTION_WAIT_MS * 1000000ull;
	rendezvous_server_service(&srv, &info, now);
	is_int(rendezvous_server_timeout_ms(&srv, now), -1, "answered");
	n = recv(cfd, buf, sizeof(buf) - 1, 0);
	ok(n > 0, "the client got a line");
	buf[n > 0 ? n : 0] = '\0';
	ok(strstr(buf, "\"qpn\":17") != NULL, "the responder line: %s", buf);
	close(cfd);
	close(fd);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_codec();
	test_reasons();
	test_answered_after_park();
	test_rq_drops();
	test_loopback();
	test_silent_client();
	return tap_done();
}
