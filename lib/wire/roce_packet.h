/* The RoCE v2 datagram a trace sends from a kernel UDP socket: a UD
 * SEND_ONLY (BTH + DETH + payload + pad + ICRC) as the payload of a UDP
 * datagram to port 4791, and the IPv4 or IPv6 header the kernel will put
 * in front of it, which the ICRC covers (the destination's RDMA device
 * drops a datagram whose ICRC does not match, silently). Also the UDP
 * source port a flow label stands for on RoCE v2.
 *
 * Pure byte work through wire_bytes.h: no socket here, so every rule is
 * tested with byte vectors (tests/unit/test_roce_packet.c), among them a
 * ConnectX-4 Lx capture. */
#ifndef IBAHPROBE_ROCE_PACKET_H
#define IBAHPROBE_ROCE_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ROCE_BTH_BYTES 12
#define ROCE_DETH_BYTES 8
/* rxe_opcode[IB_OPCODE_UD_SEND_ONLY].length (rxe_opcode.c) */
#define ROCE_UD_HEADER_BYTES (ROCE_BTH_BYTES + ROCE_DETH_BYTES)
#define ROCE_ICRC_BYTES 4
#define ROCE_UDP_HEADER_BYTES 8
#define ROCE_IPV4_HEADER_BYTES 20	/* no options: IHL 5 */
#define ROCE_IPV6_HEADER_BYTES 40
/* IB_OPCODE_UD (0x60) + SEND_ONLY (0x04), include/rdma/ib_pack.h. Not
 * SEND_ONLY_WITH_IMMEDIATE: 4 more header bytes, no use here. */
#define ROCE_OPCODE_UD_SEND_ONLY 0x64
/* The largest IB MTU: no UD message is bigger. */
#define ROCE_UD_PAYLOAD_MAX 4096
#define ROCE_UD_DATAGRAM_MAX                                                   \
	(ROCE_UD_HEADER_BYTES + ROCE_UD_PAYLOAD_MAX + ROCE_ICRC_BYTES)
#define ROCE_QPN_MASK 0xffffffu
#define ROCE_PSN_MASK 0xffffffu
#define ROCE_FLOW_LABEL_MASK 0xfffffu	/* IB_GRH_FLOWLABEL_MASK */

/* The UDP source port that RoCE v2 puts on the wire for a flow label:
 * libibverbs' ibv_flow_label_to_udp_sport (libibverbs/verbs.h) and the
 * kernel's rdma_flow_label_to_udp_sport (include/rdma/ib_verbs.h) fold
 * the 20-bit label into 14 bits and set the top two (0xC000-0xFFFF, the
 * range IB_ROCE_UDP_ENCAP_VALID_PORT_MIN..MAX). Bits above 20 are not
 * part of a flow label and are ignored. */
uint16_t roce_flow_label_to_udp_sport(uint32_t flow_label);

/* What a UD SEND_ONLY carries besides the payload. */
struct roce_ud_fields {
	uint32_t dest_qpn;	/* the responder's QP, from its rendezvous */
	uint32_t qkey;		/* the responder's Q_Key */
	uint32_t src_qpn;	/* our own UD QP: where serve replies */
	uint32_t psn;		/* free for UD: tags the query (roce_probe_psn) */
	uint16_t pkey;		/* 0xffff unless the rendezvous said otherwise */
	bool solicited;		/* BTH SE */
};

/* Why a datagram is not built (or a received one not taken as ours). */
enum roce_ud_refusal {
	ROCE_UD_OK,
	/* QP 0 (SMI) and 1 (GSI): the tool must not become a MAD
	 * injector; rxe's hdr_check drops QPN 0 and maps 1 to the GSI QP. */
	ROCE_UD_DEST_QPN_RESERVED,
	ROCE_UD_DEST_QPN_RANGE,		/* > 24 bits, or 0xffffff (multicast) */
	ROCE_UD_SRC_QPN_INVALID,	/* 0, 1 or > 24 bits: replies go there */
	/* Bit 31 set: a controlled Q_Key (GSI_QKEY 0x80010000 among them).
	 * Verbs replace such a Q_Key with the QP's own unless the sender is
	 * privileged (IBTA); a crafted datagram would bypass that. */
	ROCE_UD_QKEY_CONTROLLED,
	ROCE_UD_PSN_RANGE,		/* > 24 bits */
	ROCE_UD_PKEY_INVALID,		/* low 15 bits 0: pkey_match fails */
	ROCE_UD_PAYLOAD_SIZE,		/* > ROCE_UD_PAYLOAD_MAX */
	ROCE_UD_BUFFER_SMALL,
	/* Decoding only: */
	ROCE_UD_TRUNCATED,
	ROCE_UD_NOT_UD_SEND_ONLY,	/* another opcode */
	ROCE_UD_TVER,			/* BTH TVer not 0: rxe drops it */
};

const char *roce_ud_refusal_text(enum roce_ud_refusal why);

/* The checks of roce_ud_encode alone. */
enum roce_ud_refusal roce_ud_check(const struct roce_ud_fields *f,
				   size_t payload_len);

/* Bytes from the BTH to the end of the ICRC for a payload of n bytes:
 * the UDP payload length (the pad makes the payload a multiple of 4). */
size_t roce_ud_datagram_len(size_t payload_len);

/* Writes BTH + DETH + payload + pad (zeros) + a zero ICRC slot into out
 * (roce_ud_datagram_len(n) bytes, *out_len) as rxe's init_req_packet /
 * bth_init / deth_set_* lay them out: MigReq 0, AckReq 0, TVer 0, FECN
 * and BECN 0. The ICRC is filled in by roce_icrc_seal once the IP header
 * is known. Nothing is written when refused. */
enum roce_ud_refusal roce_ud_encode(const struct roce_ud_fields *f,
				    const uint8_t *payload, size_t n,
				    uint8_t *out, size_t cap, size_t *out_len);

/* Reads a UD SEND_ONLY UDP payload (as far as len goes, ICRC included):
 * its fields and where its payload lies (pad excluded). */
enum roce_ud_refusal roce_ud_decode(const uint8_t *udp_payload, size_t len,
				    struct roce_ud_fields *f,
				    size_t *payload_off, size_t *payload_len);

/* The PSN of one query: run nonce (8 bits, tells this run's answers from
 * a former run's), hop limit and attempt (8 bits each). Any PSN is taken
 * by a UD responder (rxe check_psn skips UD). */
uint32_t roce_probe_psn(uint8_t nonce, uint8_t hop, uint8_t attempt);
/* The parts roce_probe_psn put in a PSN (a router's quote of our BTH). */
void roce_probe_psn_split(uint32_t psn, uint8_t *nonce, uint8_t *hop,
			  uint8_t *attempt);

/* The IPv4 Identification and DF the kernel writes for an unconnected or
 * connected UDP socket with this IP_MTU_DISCOVER mode (IP_PMTUDISC_*):
 * true with *id 0 and *df true only when it is predictable, i.e. not
 * connected and DO or PROBE (ip_select_ident_segs, include/net/ip.h: an
 * unconnected socket's datagram with DF and !ignore_df gets ID 0;
 * __ip_make_skb, net/ipv4/ip_output.c: DF for DO and PROBE, ignore_df =
 * ip_sk_ignore_df = mode < DO or OMIT). A connected socket counts from a
 * random start (inet_id); WANT, DONT, INTERFACE and OMIT get a hashed ID
 * (__ip_select_ident). false: the ID cannot be known in advance, so no
 * ICRC can be; trace refuses such a socket. */
bool roce_ipv4_ident_predict(int pmtudisc, bool connected, uint16_t *id,
			     bool *df);

/* The IP header the kernel puts in front of the UDP datagram, without
 * options. Addresses are 4 bytes (IPv4) or 16 (IPv6) in network order. */
struct roce_ip_fields {
	bool ipv6;
	uint8_t src[16], dst[16];
	uint8_t traffic_class;	/* IPv4 TOS / IPv6 traffic class, ECN too */
	uint8_t hop_limit;	/* IPv4 TTL */
	uint32_t flow_label;	/* IPv6 only */
	uint16_t ipv4_id;	/* roce_ipv4_ident_predict */
	bool ipv4_df;
};

/* Writes the header (20 or 40 bytes; the IPv4 header checksum computed,
 * though the ICRC masks it, so a capture compares byte for byte) for a
 * UDP payload of udp_payload_len bytes; returns its length, 0 when the
 * datagram does not fit the length field. */
size_t roce_ip_header_predict(const struct roce_ip_fields *f,
			      size_t udp_payload_len, uint8_t *out,
			      size_t cap);

/* The UDP header (checksum 0: the kernel computes it, the ICRC masks it). */
void roce_udp_header_build(uint16_t sport, size_t udp_payload_len,
			   uint8_t out[ROCE_UDP_HEADER_BYTES]);

/* Linux crc32_le: the reflected CRC-32 (0xEDB88320) register update,
 * with neither initial nor final inversion. */
uint32_t roce_crc32_le(uint32_t crc, const uint8_t *p, size_t n);

/* The ICRC's starting register: crc32_le from all ones over the 8 bytes
 * of a masked LRH (0xff), which RoCE v2 has none of (rxe_icrc_hdr's
 * 0xdebb20e3 comes from this). */
uint32_t roce_icrc_seed(void);

/* The ICRC value (rxe_icrc_hdr + rxe_icrc_generate, drivers/infiniband/
 * sw/rxe/rxe_icrc.c) over the IP header (20 or 40 bytes), the UDP header
 * and the UDP payload up to its ICRC (covered bytes: BTH to end of pad),
 * on a copy with the variant fields set to ones: IPv4 TOS, TTL, header
 * checksum; IPv6 traffic class, flow label, hop limit; UDP checksum; BTH
 * byte 4 (FECN, BECN, reserved). Routers may change those on the way.
 * ip_len other than 20 or 40: 0 (callers pass a predicted header). */
uint32_t roce_icrc(const uint8_t *ip_hdr, size_t ip_len,
		   const uint8_t udp_hdr[ROCE_UDP_HEADER_BYTES],
		   const uint8_t *udp_payload, size_t covered);

/* The ICRC goes on the wire least significant byte first (rxe stores the
 * CRC register as a host u32; a ConnectX-4 Lx capture shows the same). */
void roce_icrc_store(uint8_t out[ROCE_ICRC_BYTES], uint32_t icrc);
uint32_t roce_icrc_load(const uint8_t in[ROCE_ICRC_BYTES]);

/* Fills the last 4 bytes of udp_payload (len bytes, ICRC included) with
 * the ICRC for this IP and UDP header. */
void roce_icrc_seal(const uint8_t *ip_hdr, size_t ip_len,
		    const uint8_t udp_hdr[ROCE_UDP_HEADER_BYTES],
		    uint8_t *udp_payload, size_t len);

/* A whole IP packet as captured (IPv4 without options or IPv6 without
 * extension headers, UDP inside; trailing bytes past the UDP length, such
 * as Ethernet padding, ignored): whether its ICRC is right, and the value
 * it should have. -1 when it is no such packet. */
int roce_packet_icrc_check(const uint8_t *ip_packet, size_t len,
			   uint32_t *expected);

#endif
