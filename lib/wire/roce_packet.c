/* The RoCE v2 UD datagram of a trace: see roce_packet.h. */
#include <string.h>

#include "wire/roce_packet.h"
#include "wire/wire_bytes.h"

/* BTH offsets and bits (drivers/infiniband/sw/rxe/rxe_hdr.h). */
#define BTH_OPCODE 0
#define BTH_FLAGS 1		/* SE, MigReq, PadCnt, TVer */
#define BTH_PKEY 2
#define BTH_QPN 4		/* byte 4: FECN, BECN, reserved; then QPN */
#define BTH_PSN 8		/* byte 8: AckReq, reserved; then PSN */
#define BTH_SE 0x80
#define BTH_PAD_SHIFT 4
#define BTH_PAD_MASK 0x30
#define BTH_TVER_MASK 0x0f
#define DETH_QKEY ROCE_BTH_BYTES
#define DETH_SQP (ROCE_BTH_BYTES + 4)	/* byte 0 reserved; then QPN */

/* UDP port range of RoCE v2 source ports (IB_ROCE_UDP_ENCAP_VALID_PORT_MIN) */
#define ROCE_UDP_SPORT_MIN 0xc000
#define ROCE_V2_DPORT 4791
#define IPPROTO_UDP_NUMBER 17
#define IPV4_DF 0x4000

/* IP_PMTUDISC_* of <linux/in.h>, kept here so the rule stays a function
 * of plain numbers. */
enum {
	PMTUDISC_DONT,
	PMTUDISC_WANT,
	PMTUDISC_DO,
	PMTUDISC_PROBE,
	PMTUDISC_INTERFACE,
	PMTUDISC_OMIT,
};

uint16_t roce_flow_label_to_udp_sport(uint32_t flow_label)
{
	uint32_t fl = flow_label & ROCE_FLOW_LABEL_MASK;
	uint32_t low = fl & 0x3fff, high = fl >> 14;

	/* The six high bits fold onto the low ones, so labels that differ
	 * only above bit 13 still land on different ports. */
	return (uint16_t)((low ^ high) | ROCE_UDP_SPORT_MIN);
}

const char *roce_ud_refusal_text(enum roce_ud_refusal why)
{
	switch (why) {
	case ROCE_UD_OK:
		return "ok";
	case ROCE_UD_DEST_QPN_RESERVED:
		return "destination QPN 0 or 1 is the subnet management or "
		       "general services QP (MADs), never a probe's target";
	case ROCE_UD_DEST_QPN_RANGE:
		return "destination QPN is not a unicast 24-bit QPN";
	case ROCE_UD_SRC_QPN_INVALID:
		return "source QPN must be a 24-bit QPN other than 0 and 1";
	case ROCE_UD_QKEY_CONTROLLED:
		return "Q_Key has bit 31 set (a controlled Q_Key such as the "
		       "GSI's 0x80010000), which only privileged senders use";
	case ROCE_UD_PSN_RANGE:
		return "PSN wider than 24 bits";
	case ROCE_UD_PKEY_INVALID:
		return "P_Key 0x0000/0x8000 matches no partition";
	case ROCE_UD_PAYLOAD_SIZE:
		return "payload larger than 4096 bytes (the largest IB MTU)";
	case ROCE_UD_BUFFER_SMALL:
		return "buffer too small for the datagram";
	case ROCE_UD_TRUNCATED:
		return "shorter than BTH + DETH + ICRC";
	case ROCE_UD_NOT_UD_SEND_ONLY:
		return "BTH opcode is not UD SEND_ONLY (0x64)";
	case ROCE_UD_TVER:
		return "BTH transport header version is not 0";
	}
	return "unknown";
}

enum roce_ud_refusal roce_ud_check(const struct roce_ud_fields *f,
				   size_t payload_len)
{
	if (f->dest_qpn == 0 || f->dest_qpn == 1)
		return ROCE_UD_DEST_QPN_RESERVED;
	if (f->dest_qpn >= ROCE_QPN_MASK)
		return ROCE_UD_DEST_QPN_RANGE;
	/* serve answers wc.src_qp: a source QPN of 1 would aim its reply at
	 * our own GSI QP. */
	if (f->src_qpn <= 1 || f->src_qpn >= ROCE_QPN_MASK)
		return ROCE_UD_SRC_QPN_INVALID;
	if (f->qkey & 0x80000000u)
		return ROCE_UD_QKEY_CONTROLLED;
	if (f->psn > ROCE_PSN_MASK)
		return ROCE_UD_PSN_RANGE;
	/* pkey_match (rxe_verbs.h): the low 15 bits must be non-zero. */
	if ((f->pkey & 0x7fff) == 0)
		return ROCE_UD_PKEY_INVALID;
	if (payload_len > ROCE_UD_PAYLOAD_MAX)
		return ROCE_UD_PAYLOAD_SIZE;
	return ROCE_UD_OK;
}

static size_t pad_of(size_t payload_len)
{
	return (4 - (payload_len & 3)) & 3;
}

size_t roce_ud_datagram_len(size_t payload_len)
{
	return ROCE_UD_HEADER_BYTES + payload_len + pad_of(payload_len) +
	       ROCE_ICRC_BYTES;
}

enum roce_ud_refusal roce_ud_encode(const struct roce_ud_fields *f,
				    const uint8_t *payload, size_t n,
				    uint8_t *out, size_t cap, size_t *out_len)
{
	enum roce_ud_refusal why = roce_ud_check(f, n);
	size_t pad = pad_of(n), len = roce_ud_datagram_len(n);

	if (why != ROCE_UD_OK)
		return why;
	if (cap < len)
		return ROCE_UD_BUFFER_SMALL;
	/* bth_init as rxe's init_req_packet calls it for UD: MigReq 0,
	 * AckReq 0 (acks are RC's), TVer 0, FECN/BECN 0. */
	wire_put8(out, BTH_OPCODE, ROCE_OPCODE_UD_SEND_ONLY);
	wire_put8(out, BTH_FLAGS,
		  (uint8_t)((f->solicited ? BTH_SE : 0) |
			    (pad << BTH_PAD_SHIFT)));
	wire_put16(out, BTH_PKEY, f->pkey);
	wire_put32(out, BTH_QPN, f->dest_qpn & ROCE_QPN_MASK);
	wire_put32(out, BTH_PSN, f->psn & ROCE_PSN_MASK);
	wire_put32(out, DETH_QKEY, f->qkey);
	wire_put32(out, DETH_SQP, f->src_qpn & ROCE_QPN_MASK);
	if (n)
		memcpy(out + ROCE_UD_HEADER_BYTES, payload, n);
	/* Pad bytes are zero and inside the ICRC (finish_packet). */
	memset(out + ROCE_UD_HEADER_BYTES + n, 0, pad + ROCE_ICRC_BYTES);
	*out_len = len;
	return ROCE_UD_OK;
}

enum roce_ud_refusal roce_ud_decode(const uint8_t *udp_payload, size_t len,
				    struct roce_ud_fields *f,
				    size_t *payload_off, size_t *payload_len)
{
	size_t pad;

	if (len < ROCE_UD_HEADER_BYTES + ROCE_ICRC_BYTES)
		return ROCE_UD_TRUNCATED;
	if (udp_payload[BTH_OPCODE] != ROCE_OPCODE_UD_SEND_ONLY)
		return ROCE_UD_NOT_UD_SEND_ONLY;
	if (udp_payload[BTH_FLAGS] & BTH_TVER_MASK)
		return ROCE_UD_TVER;
	pad = (udp_payload[BTH_FLAGS] & BTH_PAD_MASK) >> BTH_PAD_SHIFT;
	if (len < ROCE_UD_HEADER_BYTES + pad + ROCE_ICRC_BYTES)
		return ROCE_UD_TRUNCATED;
	memset(f, 0, sizeof(*f));
	f->solicited = (udp_payload[BTH_FLAGS] & BTH_SE) != 0;
	f->pkey = wire_get16(udp_payload, BTH_PKEY);
	f->dest_qpn = wire_get32(udp_payload, BTH_QPN) & ROCE_QPN_MASK;
	f->psn = wire_get32(udp_payload, BTH_PSN) & ROCE_PSN_MASK;
	f->qkey = wire_get32(udp_payload, DETH_QKEY);
	f->src_qpn = wire_get32(udp_payload, DETH_SQP) & ROCE_QPN_MASK;
	*payload_off = ROCE_UD_HEADER_BYTES;
	*payload_len = len - ROCE_UD_HEADER_BYTES - pad - ROCE_ICRC_BYTES;
	return ROCE_UD_OK;
}

uint32_t roce_probe_psn(uint8_t nonce, uint8_t hop, uint8_t attempt)
{
	return (uint32_t)nonce << 16 | (uint32_t)hop << 8 | attempt;
}

void roce_probe_psn_split(uint32_t psn, uint8_t *nonce, uint8_t *hop,
			  uint8_t *attempt)
{
	*nonce = (uint8_t)(psn >> 16);
	*hop = (uint8_t)(psn >> 8);
	*attempt = (uint8_t)psn;
}

bool roce_ipv4_ident_predict(int pmtudisc, bool connected, uint16_t *id,
			     bool *df)
{
	/* ip_select_ident_segs: a connected socket (inet_daddr set) takes
	 * its own counter first, whatever DF says. */
	if (connected)
		return false;
	/* __ip_make_skb sets DF for DO and PROBE (and for WANT when the
	 * datagram fits, but WANT also sets ignore_df, ip_sk_ignore_df,
	 * and then the ID is hashed). */
	if (pmtudisc != PMTUDISC_DO && pmtudisc != PMTUDISC_PROBE)
		return false;
	*id = 0;
	*df = true;
	return true;
}

/* The Internet checksum of an IPv4 header (RFC 1071). */
static uint16_t ipv4_header_checksum(const uint8_t *h, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += wire_get16(h, i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

size_t roce_ip_header_predict(const struct roce_ip_fields *f,
			      size_t udp_payload_len, uint8_t *out,
			      size_t cap)
{
	size_t udp_len = ROCE_UDP_HEADER_BYTES + udp_payload_len;

	if (f->ipv6) {
		if (cap < ROCE_IPV6_HEADER_BYTES || udp_len > 0xffff)
			return 0;
		wire_put32(out, 0,
			   6u << 28 | (uint32_t)f->traffic_class << 20 |
				   (f->flow_label & ROCE_FLOW_LABEL_MASK));
		wire_put16(out, 4, (uint16_t)udp_len);
		wire_put8(out, 6, IPPROTO_UDP_NUMBER);
		wire_put8(out, 7, f->hop_limit);
		memcpy(out + 8, f->src, 16);
		memcpy(out + 24, f->dst, 16);
		return ROCE_IPV6_HEADER_BYTES;
	}
	if (cap < ROCE_IPV4_HEADER_BYTES ||
	    udp_len + ROCE_IPV4_HEADER_BYTES > 0xffff)
		return 0;
	wire_put8(out, 0, 0x45);	/* version 4, IHL 5: no options */
	wire_put8(out, 1, f->traffic_class);
	wire_put16(out, 2, (uint16_t)(udp_len + ROCE_IPV4_HEADER_BYTES));
	wire_put16(out, 4, f->ipv4_id);
	wire_put16(out, 6, f->ipv4_df ? IPV4_DF : 0);
	wire_put8(out, 8, f->hop_limit);
	wire_put8(out, 9, IPPROTO_UDP_NUMBER);
	wire_put16(out, 10, 0);
	memcpy(out + 12, f->src, 4);
	memcpy(out + 16, f->dst, 4);
	wire_put16(out, 10, ipv4_header_checksum(out, ROCE_IPV4_HEADER_BYTES));
	return ROCE_IPV4_HEADER_BYTES;
}

void roce_udp_header_build(uint16_t sport, size_t udp_payload_len,
			   uint8_t out[ROCE_UDP_HEADER_BYTES])
{
	wire_put16(out, 0, sport);
	wire_put16(out, 2, ROCE_V2_DPORT);
	wire_put16(out, 4, (uint16_t)(ROCE_UDP_HEADER_BYTES + udp_payload_len));
	wire_put16(out, 6, 0);
}

uint32_t roce_crc32_le(uint32_t crc, const uint8_t *p, size_t n)
{
	/* Bitwise: a trace sends a few datagrams a second, and no table
	 * means nothing to get wrong or keep in sync. */
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return crc;
}

uint32_t roce_icrc_seed(void)
{
	static const uint8_t masked_lrh[8] = { 0xff, 0xff, 0xff, 0xff,
					       0xff, 0xff, 0xff, 0xff };

	return roce_crc32_le(0xffffffffu, masked_lrh, sizeof(masked_lrh));
}

uint32_t roce_icrc(const uint8_t *ip_hdr, size_t ip_len,
		   const uint8_t udp_hdr[ROCE_UDP_HEADER_BYTES],
		   const uint8_t *udp_payload, size_t covered)
{
	/* The pseudo header of rxe_icrc_hdr: IP + UDP + BTH, masked. */
	uint8_t ps[ROCE_IPV6_HEADER_BYTES + ROCE_UDP_HEADER_BYTES +
		   ROCE_BTH_BYTES];
	uint8_t *udp, *bth;
	size_t bth_len = covered < ROCE_BTH_BYTES ? covered : ROCE_BTH_BYTES;
	uint32_t crc;

	if (ip_len != ROCE_IPV4_HEADER_BYTES && ip_len != ROCE_IPV6_HEADER_BYTES)
		return 0;
	udp = ps + ip_len;
	bth = udp + ROCE_UDP_HEADER_BYTES;
	memcpy(ps, ip_hdr, ip_len);
	memcpy(udp, udp_hdr, ROCE_UDP_HEADER_BYTES);
	memcpy(bth, udp_payload, bth_len);
	if (ip_len == ROCE_IPV4_HEADER_BYTES) {
		ps[1] = 0xff;			/* tos */
		ps[8] = 0xff;			/* ttl */
		ps[10] = ps[11] = 0xff;		/* check = CSUM_MANGLED_0 */
	} else {
		/* priority (the traffic class's high nibble, in byte 0)
		 * = 0xf, flow_lbl (the rest of the class and the label)
		 * all ones: bytes 0-3 become 6f ff ff ff. */
		ps[0] = (uint8_t)(ps[0] | 0x0f);
		ps[1] = ps[2] = ps[3] = 0xff;
		ps[7] = 0xff;			/* hop_limit */
	}
	udp[6] = udp[7] = 0xff;			/* UDP check */
	if (bth_len > BTH_QPN)
		bth[BTH_QPN] = 0xff;		/* qpn |= ~BTH_QPN_MASK */
	crc = roce_crc32_le(roce_icrc_seed(), ps,
			    ip_len + ROCE_UDP_HEADER_BYTES + bth_len);
	/* DETH, payload and pad as they are (rxe_icrc_hdr's remainder of
	 * the headers, then rxe_icrc_generate's payload + bth_pad). */
	if (covered > bth_len)
		crc = roce_crc32_le(crc, udp_payload + bth_len,
				    covered - bth_len);
	return ~crc;
}

void roce_icrc_store(uint8_t out[ROCE_ICRC_BYTES], uint32_t icrc)
{
	out[0] = (uint8_t)icrc;
	out[1] = (uint8_t)(icrc >> 8);
	out[2] = (uint8_t)(icrc >> 16);
	out[3] = (uint8_t)(icrc >> 24);
}

uint32_t roce_icrc_load(const uint8_t in[ROCE_ICRC_BYTES])
{
	return (uint32_t)in[0] | (uint32_t)in[1] << 8 |
	       (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24;
}

void roce_icrc_seal(const uint8_t *ip_hdr, size_t ip_len,
		    const uint8_t udp_hdr[ROCE_UDP_HEADER_BYTES],
		    uint8_t *udp_payload, size_t len)
{
	if (len < ROCE_ICRC_BYTES)
		return;
	roce_icrc_store(udp_payload + len - ROCE_ICRC_BYTES,
			roce_icrc(ip_hdr, ip_len, udp_hdr, udp_payload,
				  len - ROCE_ICRC_BYTES));
}

int roce_packet_icrc_check(const uint8_t *ip_packet, size_t len,
			   uint32_t *expected)
{
	size_t ip_len, udp_len;
	const uint8_t *udp;

	if (len < 1)
		return -1;
	switch (ip_packet[0] >> 4) {
	case 4:
		/* rxe copies a 20-byte header: options would be misread. */
		if (ip_packet[0] != 0x45 || len < ROCE_IPV4_HEADER_BYTES ||
		    ip_packet[9] != IPPROTO_UDP_NUMBER)
			return -1;
		ip_len = ROCE_IPV4_HEADER_BYTES;
		break;
	case 6:
		if (len < ROCE_IPV6_HEADER_BYTES ||
		    ip_packet[6] != IPPROTO_UDP_NUMBER)
			return -1;
		ip_len = ROCE_IPV6_HEADER_BYTES;
		break;
	default:
		return -1;
	}
	if (len < ip_len + ROCE_UDP_HEADER_BYTES)
		return -1;
	udp = ip_packet + ip_len;
	udp_len = wire_get16(udp, 4);
	if (udp_len < ROCE_UDP_HEADER_BYTES + ROCE_BTH_BYTES + ROCE_ICRC_BYTES ||
	    ip_len + udp_len > len)
		return -1;
	udp_len -= ROCE_UDP_HEADER_BYTES;
	*expected = roce_icrc(ip_packet, ip_len, udp,
			      udp + ROCE_UDP_HEADER_BYTES,
			      udp_len - ROCE_ICRC_BYTES);
	return roce_icrc_load(udp + ROCE_UDP_HEADER_BYTES + udp_len -
			      ROCE_ICRC_BYTES) == *expected;
}
