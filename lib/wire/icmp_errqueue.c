/* One error queue message of a trace's UDP socket: see icmp_errqueue.h. */
#include <errno.h>
#include <time.h>	/* before linux/errqueue.h, which uses timespec */
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <string.h>

#include "wire/icmp_errqueue.h"
#include "wire/roce_packet.h"
#include "wire/wire_bytes.h"

/* ICMP (RFC 792) and ICMPv6 (RFC 4443) numbers: the two families number
 * the same events differently, so each is named for its family. */
#define ICMP4_DEST_UNREACH 3
#define ICMP4_PORT_UNREACH 3
#define ICMP4_FRAG_NEEDED 4
#define ICMP4_TIME_EXCEEDED 11
#define ICMP4_EXC_TTL 0
#define ICMP6_DEST_UNREACH 1
#define ICMP6_PORT_UNREACH 4
#define ICMP6_PACKET_TOO_BIG 2
#define ICMP6_TIME_EXCEEDED 3
#define ICMP6_EXC_HOPLIMIT 0

static void classify(struct icmp_err *e)
{
	bool v4 = e->origin == SO_EE_ORIGIN_ICMP;

	e->kind = ICMP_ERR_OTHER;
	if (e->origin == SO_EE_ORIGIN_LOCAL) {
		/* ip_local_error / ipv6_local_error: the datagram exceeds
		 * the device MTU, ee_info says which (udp_sendmsg via
		 * ip_append_data). */
		if (e->err_no == EMSGSIZE) {
			e->kind = ICMP_ERR_LOCAL_EMSGSIZE;
			e->mtu = e->info;
		}
		return;
	}
	if (!v4 && e->origin != SO_EE_ORIGIN_ICMP6)
		return;
	if (v4 ? e->type == ICMP4_TIME_EXCEEDED && e->code == ICMP4_EXC_TTL
	       : e->type == ICMP6_TIME_EXCEEDED &&
			 e->code == ICMP6_EXC_HOPLIMIT) {
		e->kind = ICMP_ERR_TIME_EXCEEDED;
		return;
	}
	if (v4 ? e->type == ICMP4_DEST_UNREACH && e->code == ICMP4_FRAG_NEEDED
	       : e->type == ICMP6_PACKET_TOO_BIG) {
		/* __udp4_lib_err / __udp6_lib_err hand the next-hop MTU
		 * in ee_info. */
		e->kind = ICMP_ERR_TOO_BIG;
		e->mtu = e->info;
		return;
	}
	if (e->type != (v4 ? ICMP4_DEST_UNREACH : ICMP6_DEST_UNREACH))
		return;
	e->kind = ICMP_ERR_UNREACHABLE;
	/* A host answers port unreachable from the address the datagram
	 * was sent to (icmp_send takes a local destination as its source):
	 * from anyone else it is a router's doing, not "no RoCE there". */
	if (e->code == (v4 ? ICMP4_PORT_UNREACH : ICMP6_PORT_UNREACH) &&
	    (!e->has_offender || !e->has_dest ||
	     icmp_sockaddr_equal(&e->offender, &e->dest, false)))
		e->kind = ICMP_ERR_PORT_UNREACHABLE;
}

/* The offender address after the extended error, as long as the cmsg
 * holds it whole. */
static void read_offender(const uint8_t *p, size_t len, struct icmp_err *e)
{
	sa_family_t family;

	if (len < sizeof(family))
		return;
	memcpy(&family, p, sizeof(family));
	if (family == AF_INET && len >= sizeof(struct sockaddr_in))
		memcpy(&e->offender, p, sizeof(struct sockaddr_in));
	else if (family == AF_INET6 && len >= sizeof(struct sockaddr_in6))
		memcpy(&e->offender, p, sizeof(struct sockaddr_in6));
	else
		return;
	e->has_offender = true;
}

/* The ancillary data is walked by offsets and lengths, never by adding
 * cmsg_len to a pointer: a cmsg_len near SIZE_MAX would wrap such a sum
 * below the buffer's end and pass a pointer comparison (glibc's
 * CMSG_NXTHDR did so before 2.37). The kernel writes these bytes
 * (put_cmsg), so no router can choose them; a fuzzer could. */
int icmp_errqueue_decode(const uint8_t *control, size_t control_len,
			 const struct sockaddr_storage *name,
			 socklen_t name_len, const uint8_t *quote,
			 size_t quote_len, struct icmp_err *out)
{
	bool found = false;
	size_t off = 0;

	memset(out, 0, sizeof(*out));
	out->reply_ttl = -1;
	if (control_len > ICMP_ERRQUEUE_CONTROL_MAX)
		return -1;
	while (control_len - off >= sizeof(struct cmsghdr)) {
		struct cmsghdr h;
		const uint8_t *data;
		size_t dlen, step;
		int ttl;

		/* memcpy: control need not be aligned for a cmsghdr. */
		memcpy(&h, control + off, sizeof(h));
		if (h.cmsg_len < CMSG_LEN(0) || h.cmsg_len > control_len - off)
			return -1;
		data = control + off + CMSG_LEN(0);
		dlen = h.cmsg_len - CMSG_LEN(0);
		if ((h.cmsg_level == SOL_IP && h.cmsg_type == IP_RECVERR) ||
		    (h.cmsg_level == SOL_IPV6 &&
		     h.cmsg_type == IPV6_RECVERR)) {
			struct sock_extended_err ee;

			if (dlen < sizeof(ee))
				return -1;
			memcpy(&ee, data, sizeof(ee));
			out->err_no = ee.ee_errno;
			out->origin = ee.ee_origin;
			out->type = ee.ee_type;
			out->code = ee.ee_code;
			out->info = ee.ee_info;
			read_offender(data + sizeof(ee), dlen - sizeof(ee), out);
			found = true;
		} else if ((h.cmsg_level == SOL_IP && h.cmsg_type == IP_TTL) ||
			   (h.cmsg_level == SOL_IPV6 &&
			    h.cmsg_type == IPV6_HOPLIMIT)) {
			/* ip_cmsg_recv / ip6_datagram_recv_ctl: an int, the
			 * ICMP packet's own outer header. */
			if (dlen < sizeof(ttl))
				return -1;
			memcpy(&ttl, data, sizeof(ttl));
			out->reply_ttl = ttl;
		}
		/* cmsg_len <= control_len - off <= 512 here: no overflow. */
		step = CMSG_ALIGN(h.cmsg_len);
		if (step >= control_len - off)
			break;
		off += step;
	}
	if (!found)
		return -1;
	if (name && (name->ss_family == AF_INET || name->ss_family == AF_INET6) &&
	    name_len >= (name->ss_family == AF_INET
				 ? sizeof(struct sockaddr_in)
				 : sizeof(struct sockaddr_in6))) {
		memcpy(&out->dest, name, name_len < sizeof(out->dest)
						 ? name_len
						 : sizeof(out->dest));
		out->has_dest = true;
	}
	out->quote_len = quote_len;
	if (quote_len >= 1)
		out->quote_opcode = quote[0];
	if (quote_len >= 8)
		out->quote_dest_qpn = wire_get32(quote, 4) & ROCE_QPN_MASK;
	if (quote_len >= ROCE_BTH_BYTES) {
		out->has_bth = true;
		out->quote_psn = wire_get32(quote, 8) & ROCE_PSN_MASK;
	}
	classify(out);
	return 0;
}

const char *icmp_err_kind_name(enum icmp_err_kind kind)
{
	switch (kind) {
	case ICMP_ERR_TIME_EXCEEDED:
		return "time_exceeded";
	case ICMP_ERR_PORT_UNREACHABLE:
		return "port_unreachable";
	case ICMP_ERR_TOO_BIG:
		return "too_big";
	case ICMP_ERR_UNREACHABLE:
		return "unreachable";
	case ICMP_ERR_LOCAL_EMSGSIZE:
		return "local_emsgsize";
	case ICMP_ERR_OTHER:
		return "other";
	}
	return "other";
}

bool icmp_sockaddr_equal(const struct sockaddr_storage *a,
			 const struct sockaddr_storage *b, bool with_port)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET) {
		struct sockaddr_in x, y;

		memcpy(&x, a, sizeof(x));
		memcpy(&y, b, sizeof(y));
		return x.sin_addr.s_addr == y.sin_addr.s_addr &&
		       (!with_port || x.sin_port == y.sin_port);
	}
	if (a->ss_family == AF_INET6) {
		struct sockaddr_in6 x, y;

		memcpy(&x, a, sizeof(x));
		memcpy(&y, b, sizeof(y));
		return memcmp(&x.sin6_addr, &y.sin6_addr,
			      sizeof(x.sin6_addr)) == 0 &&
		       (!with_port || x.sin6_port == y.sin6_port);
	}
	return false;
}

int icmp_errqueue_match(const struct icmp_err *e,
			const struct sockaddr_storage *target,
			uint32_t dest_qpn, const uint32_t *psns, size_t n)
{
	if (!e->has_dest || !icmp_sockaddr_equal(&e->dest, target, true))
		return -1;
	/* As much of the BTH as was quoted must be ours. */
	if (e->quote_len >= 1 && e->quote_opcode != ROCE_OPCODE_UD_SEND_ONLY)
		return -1;
	if (e->quote_len >= 8 && e->quote_dest_qpn != dest_qpn)
		return -1;
	if (e->has_bth) {
		for (size_t i = 0; i < n; i++)
			if (psns[i] == e->quote_psn)
				return (int)i;
		return -1;
	}
	/* Nothing to tell queries apart: only when one is under way. */
	return n == 1 ? 0 : -1;
}
