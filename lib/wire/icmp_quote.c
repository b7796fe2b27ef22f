/* The header an ICMP error quotes: see icmp_quote.h. */
#include <string.h>

#include "wire/icmp_quote.h"
#include "wire/roce_packet.h"
#include "wire/wire_bytes.h"

#define ICMP_HEADER 8		/* type, code, checksum, 4 bytes unused/MTU */
#define PROTO_ICMP 1
#define PROTO_UDP 17

#define ICMP4_DEST_UNREACH 3
#define ICMP4_TIME_EXCEEDED 11
#define ICMP6_DEST_UNREACH 1
#define ICMP6_PACKET_TOO_BIG 2
#define ICMP6_TIME_EXCEEDED 3

/* The UDP header and BTH after the quoted IP header, as far as quoted. */
static void read_transport(const uint8_t *p, size_t len, struct icmp_quote *q)
{
	if (len < ROCE_UDP_HEADER_BYTES)
		return;
	q->has_udp = true;
	q->sport = wire_get16(p, 0);
	q->dport = wire_get16(p, 2);
	p += ROCE_UDP_HEADER_BYTES;
	len -= ROCE_UDP_HEADER_BYTES;
	if (len < ROCE_BTH_BYTES)
		return;
	q->has_bth = true;
	q->opcode = p[0];
	q->dest_qpn = wire_get32(p, 4) & ROCE_QPN_MASK;
	q->psn = wire_get32(p, 8) & ROCE_PSN_MASK;
}

int icmp_quote_decode_ipv4(const uint8_t *packet, size_t len,
			   struct icmp_quote *out)
{
	size_t outer, inner;
	const uint8_t *icmp, *quoted;

	memset(out, 0, sizeof(*out));
	if (len < ROCE_IPV4_HEADER_BYTES || packet[0] >> 4 != 4 ||
	    packet[9] != PROTO_ICMP)
		return -1;
	outer = (size_t)(packet[0] & 0x0f) * 4;
	if (outer < ROCE_IPV4_HEADER_BYTES || len < outer + ICMP_HEADER)
		return -1;
	memcpy(out->from, packet + 12, 4);
	out->reply_ttl = packet[8];
	icmp = packet + outer;
	out->type = icmp[0];
	out->code = icmp[1];
	if (out->type != ICMP4_DEST_UNREACH &&
	    out->type != ICMP4_TIME_EXCEEDED)
		return -1;
	quoted = icmp + ICMP_HEADER;
	len -= outer + ICMP_HEADER;
	if (len < ROCE_IPV4_HEADER_BYTES || quoted[0] >> 4 != 4 ||
	    quoted[9] != PROTO_UDP)
		return -1;
	inner = (size_t)(quoted[0] & 0x0f) * 4;
	if (inner < ROCE_IPV4_HEADER_BYTES || len < inner)
		return -1;
	out->tclass = quoted[1];
	out->hop_limit = quoted[8];
	memcpy(out->src, quoted + 12, 4);
	memcpy(out->dst, quoted + 16, 4);
	read_transport(quoted + inner, len - inner, out);
	return 0;
}

int icmp_quote_decode_ipv6(const uint8_t *message, size_t len,
			   struct icmp_quote *out)
{
	const uint8_t *quoted;

	memset(out, 0, sizeof(*out));
	out->ipv6 = true;
	if (len < ICMP_HEADER)
		return -1;
	out->type = message[0];
	out->code = message[1];
	if (out->type != ICMP6_DEST_UNREACH &&
	    out->type != ICMP6_PACKET_TOO_BIG &&
	    out->type != ICMP6_TIME_EXCEEDED)
		return -1;
	quoted = message + ICMP_HEADER;
	len -= ICMP_HEADER;
	/* Version 6, next header UDP (no extension header: see .h). */
	if (len < ROCE_IPV6_HEADER_BYTES || quoted[0] >> 4 != 6 ||
	    quoted[6] != PROTO_UDP)
		return -1;
	out->tclass = (uint8_t)((quoted[0] & 0x0f) << 4 | quoted[1] >> 4);
	out->hop_limit = quoted[7];
	memcpy(out->src, quoted + 8, 16);
	memcpy(out->dst, quoted + 24, 16);
	read_transport(quoted + ROCE_IPV6_HEADER_BYTES,
		       len - ROCE_IPV6_HEADER_BYTES, out);
	return 0;
}
