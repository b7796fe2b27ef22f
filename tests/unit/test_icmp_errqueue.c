/* Error queue messages (lib/wire/icmp_errqueue.c) built as the kernel lays
 * them out (ip_recv_error, ipv6_recv_error): an extended error with its
 * offender address, a hop limit cmsg, msg_name and the quoted BTH. IPv4
 * and IPv6 number their ICMP types differently; quotes of 0, 8, 11 and 12
 * bytes; errors for someone else's datagram are not ours. */
#include <arpa/inet.h>
#include <errno.h>
#include <time.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <string.h>

#include "wire/icmp_errqueue.h"
#include "wire/roce_packet.h"
#include "tap.h"

struct control {
	union {
		struct cmsghdr align;
		uint8_t buf[ICMP_ERRQUEUE_CONTROL_MAX];
	} u;
	size_t len;
};

/* Appends one cmsg of level/type with data (as the kernel's put_cmsg). */
static void put_cmsg(struct control *c, int level, int type, const void *data,
		     size_t len)
{
	struct cmsghdr *h = (struct cmsghdr *)(c->u.buf + c->len);

	h->cmsg_level = level;
	h->cmsg_type = type;
	h->cmsg_len = CMSG_LEN(len);
	memcpy(CMSG_DATA(h), data, len);
	c->len += CMSG_SPACE(len);
}

static struct sockaddr_storage v4(const char *addr, uint16_t port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };

	memset(&ss, 0, sizeof(ss));
	inet_pton(AF_INET, addr, &sin.sin_addr);
	memcpy(&ss, &sin, sizeof(sin));
	return ss;
}

static struct sockaddr_storage v6(const char *addr, uint16_t port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
				     .sin6_port = htons(port) };

	memset(&ss, 0, sizeof(ss));
	inet_pton(AF_INET6, addr, &sin6.sin6_addr);
	memcpy(&ss, &sin6, sizeof(sin6));
	return ss;
}

/* An IP_RECVERR (or IPV6_RECVERR) cmsg: the error, then the offender
 * (NULL: AF_UNSPEC, as for a local error), and a TTL cmsg when ttl >= 0. */
static struct control errmsg(bool ipv6, uint32_t err_no, uint8_t origin,
			     uint8_t type, uint8_t code, uint32_t info,
			     const struct sockaddr_storage *offender, int ttl)
{
	struct control c;
	uint8_t data[sizeof(struct sock_extended_err) +
		     sizeof(struct sockaddr_in6)];
	struct sock_extended_err ee = { .ee_errno = err_no, .ee_origin = origin,
					.ee_type = type, .ee_code = code,
					.ee_info = info };
	size_t olen = ipv6 ? sizeof(struct sockaddr_in6)
			   : sizeof(struct sockaddr_in);

	memset(&c, 0, sizeof(c));
	memset(data, 0, sizeof(data));
	memcpy(data, &ee, sizeof(ee));
	if (offender)
		memcpy(data + sizeof(ee), offender, olen);
	put_cmsg(&c, ipv6 ? SOL_IPV6 : SOL_IP, ipv6 ? IPV6_RECVERR : IP_RECVERR,
		 data, sizeof(ee) + olen);
	if (ttl >= 0)
		put_cmsg(&c, ipv6 ? SOL_IPV6 : SOL_IP,
			 ipv6 ? IPV6_HOPLIMIT : IP_TTL, &ttl, sizeof(ttl));
	return c;
}

/* Our datagram's first bytes as a router quotes them. */
static size_t quote_of(uint32_t qpn, uint32_t psn, uint8_t *out)
{
	struct roce_ud_fields f = { .dest_qpn = qpn, .qkey = 0x1ab4e0be,
				    .src_qpn = 0x12, .psn = psn, .pkey = 0xffff };
	uint8_t payload[136] = { 0 };
	size_t len = 0;

	roce_ud_encode(&f, payload, sizeof(payload), out, 200, &len);
	return len;
}

static struct icmp_err decode(const struct control *c,
			      const struct sockaddr_storage *name,
			      const uint8_t *quote, size_t quote_len, int *rc)
{
	struct icmp_err e;

	*rc = icmp_errqueue_decode(c->u.buf, c->len, name,
				   name ? (name->ss_family == AF_INET6
						   ? sizeof(struct sockaddr_in6)
						   : sizeof(struct sockaddr_in))
					: 0,
				   quote, quote_len, &e);
	return e;
}

static void test_ipv4(void)
{
	struct sockaddr_storage dest = v4("198.18.4.4", 4791),
				r1 = v4("198.18.1.254", 0), d = v4("198.18.4.4", 0);
	uint8_t quote[200];
	size_t qlen = quote_of(0x11, roce_probe_psn(7, 1, 0), quote);
	struct control c;
	struct icmp_err e;
	int rc;
	char text[INET_ADDRSTRLEN];
	struct sockaddr_in sin;

	c = errmsg(false, EHOSTUNREACH, SO_EE_ORIGIN_ICMP, 11, 0, 0, &r1, 254);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_int(rc, 0, "IPv4 11/0 decodes");
	is_str(icmp_err_kind_name(e.kind), "time_exceeded",
	       "IPv4 11/0 is time exceeded");
	memcpy(&sin, &e.offender, sizeof(sin));
	inet_ntop(AF_INET, &sin.sin_addr, text, sizeof(text));
	ok(e.has_offender, "the offender is known");
	is_str(text, "198.18.1.254", "the offender is the router");
	is_int(e.reply_ttl, 254, "the ICMP message's TTL from IP_TTL");
	ok(e.has_dest && icmp_sockaddr_equal(&e.dest, &dest, true),
	   "the original destination from msg_name, port 4791");
	ok(e.has_bth && e.quote_opcode == 0x64 && e.quote_dest_qpn == 0x11 &&
		   e.quote_psn == 0x070100,
	   "the quoted BTH: opcode 0x64, QPN 0x11, PSN 0x070100");
	is_int(e.err_no, EHOSTUNREACH, "errno EHOSTUNREACH");

	c = errmsg(false, ECONNREFUSED, SO_EE_ORIGIN_ICMP, 3, 3, 0, &d, 62);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_str(icmp_err_kind_name(e.kind), "port_unreachable",
	       "IPv4 3/3 from the destination: port unreachable (no RoCE)");
	c = errmsg(false, ECONNREFUSED, SO_EE_ORIGIN_ICMP, 3, 3, 0, &r1, 62);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_str(icmp_err_kind_name(e.kind), "unreachable",
	       "IPv4 3/3 from a router: another unreachable, not 'no RoCE'");

	c = errmsg(false, EMSGSIZE, SO_EE_ORIGIN_ICMP, 3, 4, 1000, &r1, 63);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_str(icmp_err_kind_name(e.kind), "too_big", "IPv4 3/4: too big");
	is_int(e.mtu, 1000, "with the next-hop MTU 1000 from ee_info");

	c = errmsg(false, EHOSTUNREACH, SO_EE_ORIGIN_ICMP, 3, 1, 0, &r1, -1);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_str(icmp_err_kind_name(e.kind), "unreachable",
	       "IPv4 3/1 (host unreachable): unreachable");
	is_int(e.type * 256 + e.code, 3 * 256 + 1, "its type and code kept");
	is_int(e.reply_ttl, -1, "no IP_TTL cmsg: reply TTL unknown");

	c = errmsg(false, EHOSTUNREACH, SO_EE_ORIGIN_ICMP, 11, 1, 0, &r1, -1);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_str(icmp_err_kind_name(e.kind), "other",
	       "IPv4 11/1 (reassembly time exceeded): other");
	c = errmsg(false, EHOSTUNREACH, SO_EE_ORIGIN_ICMP, 1, 0, 0, &r1, -1);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_str(icmp_err_kind_name(e.kind), "other",
	       "IPv4 type 1 is no IPv4 unreachable (that is IPv6's number)");

	c = errmsg(false, EMSGSIZE, SO_EE_ORIGIN_LOCAL, 0, 0, 1500, NULL, -1);
	e = decode(&c, &dest, NULL, 0, &rc);
	is_str(icmp_err_kind_name(e.kind), "local_emsgsize",
	       "local EMSGSIZE: the datagram never left");
	is_int(e.mtu, 1500, "with the device MTU");
	ok(!e.has_offender, "a local error has no offender");
	c = errmsg(false, ENOBUFS, SO_EE_ORIGIN_LOCAL, 0, 0, 0, NULL, -1);
	e = decode(&c, &dest, NULL, 0, &rc);
	is_str(icmp_err_kind_name(e.kind), "other", "local ENOBUFS: other");
}

static void test_ipv6(void)
{
	struct sockaddr_storage dest = v6("2001:db8:4::4", 4791),
				r1 = v6("2001:db8:1::fe", 0),
				d = v6("2001:db8:4::4", 0);
	uint8_t quote[200];
	size_t qlen = quote_of(0x11, 5, quote);
	struct control c;
	struct icmp_err e;
	int rc;

	c = errmsg(true, EHOSTUNREACH, SO_EE_ORIGIN_ICMP6, 3, 0, 0, &r1, 64);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_int(rc, 0, "IPv6 3/0 decodes");
	is_str(icmp_err_kind_name(e.kind), "time_exceeded",
	       "IPv6 3/0 is time exceeded (not IPv4's unreachable 3)");
	ok(e.has_offender && e.offender.ss_family == AF_INET6 &&
		   icmp_sockaddr_equal(&e.offender, &r1, false),
	   "the IPv6 offender");
	is_int(e.reply_ttl, 64, "hop limit from IPV6_HOPLIMIT");

	c = errmsg(true, ECONNREFUSED, SO_EE_ORIGIN_ICMP6, 1, 4, 0, &d, 62);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_str(icmp_err_kind_name(e.kind), "port_unreachable",
	       "IPv6 1/4 from the destination: port unreachable");
	c = errmsg(true, EACCES, SO_EE_ORIGIN_ICMP6, 1, 1, 0, &r1, 62);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_str(icmp_err_kind_name(e.kind), "unreachable",
	       "IPv6 1/1 (prohibited): unreachable");
	c = errmsg(true, EMSGSIZE, SO_EE_ORIGIN_ICMP6, 2, 0, 1280, &r1, 63);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_str(icmp_err_kind_name(e.kind), "too_big",
	       "IPv6 2/0: packet too big");
	is_int(e.mtu, 1280, "with MTU 1280");
	c = errmsg(true, EPROTO, SO_EE_ORIGIN_ICMP6, 11, 0, 0, &r1, 63);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_str(icmp_err_kind_name(e.kind), "other",
	       "IPv6 type 11 is not time exceeded (IPv4's number)");
	c = errmsg(true, EPROTO, SO_EE_ORIGIN_ICMP6, 4, 0, 0, &r1, 63);
	e = decode(&c, &dest, quote, qlen, &rc);
	is_str(icmp_err_kind_name(e.kind), "other",
	       "IPv6 4 (parameter problem): other");
}

static void test_malformed(void)
{
	struct sockaddr_storage dest = v4("198.18.4.4", 4791);
	struct control c;
	int ttl = 5, rc;

	memset(&c, 0, sizeof(c));
	put_cmsg(&c, SOL_IP, IP_TTL, &ttl, sizeof(ttl));
	decode(&c, &dest, NULL, 0, &rc);
	is_int(rc, -1, "a TTL alone is no error message");
	memset(&c, 0, sizeof(c));
	put_cmsg(&c, SOL_IP, IP_RECVERR, &ttl, sizeof(ttl));
	decode(&c, &dest, NULL, 0, &rc);
	is_int(rc, -1, "an extended error of 4 bytes is refused");
	c = errmsg(false, EHOSTUNREACH, SO_EE_ORIGIN_ICMP, 11, 0, 0, NULL, 3);
	((struct cmsghdr *)c.u.buf)->cmsg_len = 4096;
	decode(&c, &dest, NULL, 0, &rc);
	is_int(rc, -1, "a cmsg longer than the control data is refused");
	/* cmsg_len near SIZE_MAX: h + cmsg_len wraps below the buffer's end,
	 * which a pointer comparison let through (and CMSG_NXTHDR then
	 * stepped before the buffer). */
	for (size_t back = 0; back <= 64; back += 8) {
		c = errmsg(false, EHOSTUNREACH, SO_EE_ORIGIN_ICMP, 11, 0, 0,
			   NULL, 3);
		((struct cmsghdr *)c.u.buf)->cmsg_len = SIZE_MAX - back;
		decode(&c, &dest, NULL, 0, &rc);
		is_int(rc, -1, "cmsg_len SIZE_MAX - %zu is refused", back);
	}
	/* The second cmsg huge, after a good first one. */
	c = errmsg(false, EHOSTUNREACH, SO_EE_ORIGIN_ICMP, 11, 0, 0, NULL, 3);
	{
		struct cmsghdr *first = (struct cmsghdr *)c.u.buf;
		struct cmsghdr *second = (struct cmsghdr *)(c.u.buf +
				CMSG_ALIGN(first->cmsg_len));

		second->cmsg_len = SIZE_MAX - 7;
	}
	decode(&c, &dest, NULL, 0, &rc);
	is_int(rc, -1, "a huge cmsg_len after a good cmsg is refused");
	/* An unaligned control buffer decodes as well as an aligned one. */
	{
		uint8_t shifted[ICMP_ERRQUEUE_CONTROL_MAX + 1];
		struct icmp_err e;

		c = errmsg(false, EHOSTUNREACH, SO_EE_ORIGIN_ICMP, 11, 0, 0,
			   NULL, 3);
		memcpy(shifted + 1, c.u.buf, c.len);
		is_int(icmp_errqueue_decode(shifted + 1, c.len, &dest,
					    sizeof(struct sockaddr_in), NULL,
					    0, &e),
		       0, "unaligned control data decodes");
		is_int(e.reply_ttl, 3, "unaligned: the TTL cmsg read");
	}
	is_int(icmp_errqueue_decode(c.u.buf, ICMP_ERRQUEUE_CONTROL_MAX + 1, &dest,
				    sizeof(struct sockaddr_in), NULL, 0,
				    &(struct icmp_err){ 0 }),
	       -1, "more control data than decoded is refused");
}

static void test_match(void)
{
	struct sockaddr_storage target = v4("198.18.4.4", 4791),
				r1 = v4("198.18.1.254", 0);
	struct sockaddr_storage other = v4("198.18.4.5", 4791),
				other_port = v4("198.18.4.4", 4792);
	uint32_t psns[3] = { roce_probe_psn(7, 1, 0), roce_probe_psn(7, 1, 1),
			     roce_probe_psn(7, 2, 0) };
	uint8_t quote[200];
	size_t qlen = quote_of(0x11, psns[1], quote);
	struct control c = errmsg(false, EHOSTUNREACH, SO_EE_ORIGIN_ICMP, 11, 0,
				  0, &r1, 254);
	struct icmp_err e;
	int rc;

	e = decode(&c, &target, quote, qlen, &rc);
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 3), 1,
	       "a full quote picks the query by PSN among three");
	is_int(icmp_errqueue_match(&e, &target, 0x12, psns, 3), -1,
	       "another responder's QPN: not ours");
	e = decode(&c, &target, quote, 12, &rc);
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 3), 1,
	       "12 quoted bytes (the BTH) are enough");
	e = decode(&c, &target, quote, 11, &rc);
	ok(!e.has_bth, "11 quoted bytes: no PSN");
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 3), -1,
	       "11 bytes and three outstanding: cannot tell, ignored");
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 1), 0,
	       "11 bytes and one outstanding: that one");
	is_int(icmp_errqueue_match(&e, &target, 0x12, psns, 1), -1,
	       "11 bytes with another QPN (bytes 4-7): not ours");
	e = decode(&c, &target, quote, 8, &rc);
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 1), 0,
	       "8 bytes, one outstanding: that one");
	e = decode(&c, &target, NULL, 0, &rc);
	is_int(e.quote_len, 0, "an empty quote");
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 1), 0,
	       "empty quote, one outstanding: that one");
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 2), -1,
	       "empty quote, two outstanding: ignored");
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 0), -1,
	       "nothing outstanding: ignored");

	qlen = quote_of(0x11, roce_probe_psn(6, 1, 1), quote);
	e = decode(&c, &target, quote, qlen, &rc);
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 3), -1,
	       "a former run's PSN (another nonce): ignored");
	qlen = quote_of(0x11, psns[0], quote);
	quote[0] = 0x04;	/* RC SEND_ONLY: rxe's own traffic */
	e = decode(&c, &target, quote, qlen, &rc);
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 3), -1,
	       "another opcode (rxe's RC traffic on the same port): ignored");
	e = decode(&c, &target, quote, 1, &rc);
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 1), -1,
	       "even one quoted byte with another opcode: ignored");

	quote[0] = 0x64;
	e = decode(&c, &other, quote, qlen, &rc);
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 3), -1,
	       "msg_name is another address: ignored");
	e = decode(&c, &other_port, quote, qlen, &rc);
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 3), -1,
	       "msg_name is another port: ignored");
	e = decode(&c, NULL, quote, qlen, &rc);
	ok(!e.has_dest, "no msg_name: no destination");
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 3), -1,
	       "no msg_name: ignored");
	e = decode(&c, &target, quote, qlen, &rc);
	is_int(icmp_errqueue_match(&e, &target, 0x11, psns, 3), 0,
	       "the same message to the target: matched");
}

int main(void)
{
	test_ipv4();
	test_ipv6();
	test_malformed();
	test_match();
	return tap_done();
}
