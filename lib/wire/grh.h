/* The 40-byte GRH area at the start of every UD receive buffer.
 *
 * InfiniBand, RoCE v1 and RoCE v2 over IPv6 put an IPv6-format header
 * there (version 4 bits, traffic class 8, flow label 20, payload length 16,
 * next header 8, hop limit 8, SGID 16 bytes, DGID 16 bytes). RoCE v2 over
 * IPv4 leaves bytes 0..19 undefined and puts the IPv4 header at offset 20
 * (TOS = traffic class, TTL = hop limit, addresses as IPv4-mapped GIDs).
 * Some drivers zero the IPv4 header checksum, so the form is decided by the
 * local GID's type where known, else by a sentinel written before the
 * receive was posted. */
#ifndef IBAHPROBE_GRH_H
#define IBAHPROBE_GRH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#define GRH_BYTES 40
#define GRH_IPV4_OFFSET 20
/* Written at bytes 0 and 20 before posting: an IPv6-format header never
 * starts with it (version nibble 0xf), an IPv4 header never has it at 20.
 * Bytes 1..3 are cleared with it: libibverbs' ibv_init_ah_from_wc
 * (set_ah_attr_generic_fields) takes the reply's flow label from bytes
 * 0..3 whatever the form, and mlx5 turns that into the UDP source port. */
#define GRH_SENTINEL 0xff
/* On RoCE the traffic class is the IP TOS / Traffic Class byte: DSCP in
 * bits 7..2, ECN in bits 1..0 (RFC 3168), which routers rewrite (CE). */
#define GRH_TCLASS_ECN_MASK 0x03

enum grh_form {
	GRH_FORM_IPV6,	/* IB, RoCE v1, RoCE v2 over IPv6 */
	GRH_FORM_IPV4,	/* RoCE v2 over IPv4 */
};

/* What the receiver knows about the form before looking. */
enum grh_hint {
	GRH_HINT_AUTO,	/* decide from the bytes and the sentinel */
	GRH_HINT_IPV6,	/* the local GID is IB, RoCE v1 or IPv6 RoCE v2 */
	GRH_HINT_IPV4,	/* the local GID is an IPv4-mapped RoCE v2 GID */
};

struct grh_fields {
	bool present;
	enum grh_form form;
	uint8_t ip_version;
	uint8_t traffic_class;	/* IPv4: the TOS byte */
	uint32_t flow_label;	/* 20 bits; 0 for IPv4 */
	uint16_t payload_length;	/* IPv4: total length minus 20 */
	uint8_t next_header;	/* IPv4: protocol */
	uint8_t hop_limit;	/* IPv4: TTL */
	union ibv_gid sgid, dgid;	/* IPv4: IPv4-mapped */
	bool ipv4_checksum_zero;	/* IPv4: the driver left it 0 */
};

/* Writes the sentinel into a receive buffer's GRH area before posting. */
void grh_prefill_sentinel(uint8_t *area);

/* The receiving port's GID table, all entries of every type: the DGID of
 * a packet that reached us is one of them, which tells the two forms apart
 * where the bytes alone cannot (an IPv4 header with a zeroed checksum,
 * irdma, behind stale bytes whose first nibble happens to be 6). */
struct grh_local_gids {
	const union ibv_gid *gids;
	size_t count;
};

/* The form of a received GRH area. In order: the form whose destination
 * address is a local GID (IPv4: the IPv4-mapped daddr; IPv6: the DGID at
 * byte 24); when that decides nothing, the rule of the kernel's
 * ib_get_rdma_header_version and libibverbs' get_grh_header_version:
 * version 6 at byte 0 is IPv6 unless a valid IPv4 header (IHL 5, correct
 * checksum) sits at byte 20; anything else with version 4 at byte 20 is
 * IPv4. A port without IPv4-mapped GIDs (InfiniBand) only gets IPv6. */
enum grh_form grh_form_decide(const uint8_t *area,
			      const struct grh_local_gids *local);

/* Encodes fields into 40 bytes (for tests and tools: the HCA writes the
 * real ones). IPv4 form: bytes 0..19 zero, a valid header checksum unless
 * fields->ipv4_checksum_zero. */
void grh_encode(const struct grh_fields *fields, uint8_t *area);

/* Decodes the GRH area of a completion. wc_has_grh is wc_flags &
 * IBV_WC_GRH: without it present=false and nothing else is read. Returns 0,
 * or -1 with err set when the bytes are no header of the expected form. */
int grh_decode(const uint8_t *area, bool wc_has_grh, enum grh_hint hint,
	       struct grh_fields *out, char *err, size_t errlen);

/* grh_decode with the form chosen by grh_form_decide for the local port. */
int grh_decode_local(const uint8_t *area, bool wc_has_grh,
		     const struct grh_local_gids *local,
		     struct grh_fields *out, char *err, size_t errlen);

/* The DSCP (bits 7..2) and ECN (bits 1..0) parts of a traffic class. */
static inline uint8_t grh_dscp(uint8_t traffic_class)
{
	return traffic_class >> 2;
}

static inline uint8_t grh_ecn(uint8_t traffic_class)
{
	return traffic_class & 0x3;
}

/* RFC 1071 checksum of an IPv4 header of len bytes. */
uint16_t grh_ipv4_checksum(const uint8_t *header, size_t len);

#endif
