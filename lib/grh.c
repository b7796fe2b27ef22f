/* GRH codec for both forms of the UD receive area; see grh.h. */
#include <stdio.h>
#include <string.h>

#include "grh.h"
#include "wire_bytes.h"

#define IPV4_HEADER_BYTES 20
#define IPPROTO_UDP_NUMBER 17

/* IPv6-format header offsets. */
enum {
	V6_VTF = 0,		/* version 4, traffic class 8, flow label 20 */
	V6_PAYLOAD_LENGTH = 4,
	V6_NEXT_HEADER = 6,
	V6_HOP_LIMIT = 7,
	V6_SGID = 8,
	V6_DGID = 24,
};

/* IPv4 header offsets, relative to GRH_IPV4_OFFSET. */
enum {
	V4_VERSION_IHL = 0,
	V4_TOS = 1,
	V4_TOTAL_LENGTH = 2,
	V4_TTL = 8,
	V4_PROTOCOL = 9,
	V4_CHECKSUM = 10,
	V4_SADDR = 12,
	V4_DADDR = 16,
};

_Static_assert(GRH_IPV4_OFFSET + IPV4_HEADER_BYTES == GRH_BYTES,
	       "the IPv4 header ends where the GRH area does");

void grh_prefill_sentinel(uint8_t *area)
{
	area[0] = GRH_SENTINEL;
	area[GRH_IPV4_OFFSET] = GRH_SENTINEL;
}

uint16_t grh_ipv4_checksum(const uint8_t *header, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += wire_get16(header, i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void ipv4_mapped(const uint8_t *addr, union ibv_gid *gid)
{
	memset(gid->raw, 0, 10);
	gid->raw[10] = 0xff;
	gid->raw[11] = 0xff;
	memcpy(&gid->raw[12], addr, 4);
}

void grh_encode(const struct grh_fields *f, uint8_t *area)
{
	uint8_t *ip = area + GRH_IPV4_OFFSET;

	memset(area, 0, GRH_BYTES);
	if (f->form == GRH_FORM_IPV6) {
		wire_put32(area, V6_VTF,
			   (uint32_t)(f->ip_version & 0xf) << 28 |
				   (uint32_t)f->traffic_class << 20 |
				   (f->flow_label & 0xfffff));
		wire_put16(area, V6_PAYLOAD_LENGTH, f->payload_length);
		area[V6_NEXT_HEADER] = f->next_header;
		area[V6_HOP_LIMIT] = f->hop_limit;
		memcpy(area + V6_SGID, f->sgid.raw, 16);
		memcpy(area + V6_DGID, f->dgid.raw, 16);
		return;
	}
	ip[V4_VERSION_IHL] = 0x45;
	ip[V4_TOS] = f->traffic_class;
	wire_put16(ip, V4_TOTAL_LENGTH,
		   (uint16_t)(f->payload_length + IPV4_HEADER_BYTES));
	ip[V4_TTL] = f->hop_limit;
	ip[V4_PROTOCOL] = f->next_header;
	memcpy(ip + V4_SADDR, &f->sgid.raw[12], 4);
	memcpy(ip + V4_DADDR, &f->dgid.raw[12], 4);
	if (!f->ipv4_checksum_zero)
		wire_put16(ip, V4_CHECKSUM,
			   grh_ipv4_checksum(ip, IPV4_HEADER_BYTES));
}

/* An IPv4 header at offset 20 that a RoCE v2 HCA could have written:
 * version 4, no options, UDP, and a checksum that is valid or zero. */
static bool looks_ipv4(const uint8_t *area, bool *checksum_zero)
{
	const uint8_t *ip = area + GRH_IPV4_OFFSET;

	if (ip[V4_VERSION_IHL] != 0x45 || ip[V4_PROTOCOL] != IPPROTO_UDP_NUMBER)
		return false;
	*checksum_zero = wire_get16(ip, V4_CHECKSUM) == 0;
	return *checksum_zero ||
	       grh_ipv4_checksum(ip, IPV4_HEADER_BYTES) == 0;
}

static enum grh_form guess_form(const uint8_t *area, bool *checksum_zero)
{
	/* Byte 0 held the sentinel (version nibble 0xf) when the receive
	 * was posted: version 6 there means the HCA wrote an IPv6-format
	 * header. For IPv4, bytes 0..19 are left alone or zeroed. */
	if (area[0] >> 4 == 6)
		return GRH_FORM_IPV6;
	if (looks_ipv4(area, checksum_zero))
		return GRH_FORM_IPV4;
	return GRH_FORM_IPV6;
}

static int decode_ipv4(const uint8_t *area, struct grh_fields *out, char *err,
		       size_t errlen)
{
	const uint8_t *ip = area + GRH_IPV4_OFFSET;
	uint16_t total;

	if (ip[V4_VERSION_IHL] >> 4 != 4 || (ip[V4_VERSION_IHL] & 0xf) != 5) {
		snprintf(err, errlen, "GRH area: no IPv4 header at offset 20 "
			 "(version/IHL byte 0x%02x)", ip[V4_VERSION_IHL]);
		return -1;
	}
	out->ipv4_checksum_zero = wire_get16(ip, V4_CHECKSUM) == 0;
	if (!out->ipv4_checksum_zero &&
	    grh_ipv4_checksum(ip, IPV4_HEADER_BYTES) != 0) {
		snprintf(err, errlen, "GRH area: IPv4 header checksum 0x%04x "
			 "is wrong", wire_get16(ip, V4_CHECKSUM));
		return -1;
	}
	total = wire_get16(ip, V4_TOTAL_LENGTH);
	out->form = GRH_FORM_IPV4;
	out->ip_version = 4;
	out->traffic_class = ip[V4_TOS];
	out->flow_label = 0;
	out->payload_length = total >= IPV4_HEADER_BYTES
				      ? (uint16_t)(total - IPV4_HEADER_BYTES)
				      : 0;
	out->next_header = ip[V4_PROTOCOL];
	out->hop_limit = ip[V4_TTL];
	ipv4_mapped(ip + V4_SADDR, &out->sgid);
	ipv4_mapped(ip + V4_DADDR, &out->dgid);
	return 0;
}

static int decode_ipv6(const uint8_t *area, struct grh_fields *out, char *err,
		       size_t errlen)
{
	uint32_t vtf = wire_get32(area, V6_VTF);

	if (vtf >> 28 != 6) {
		snprintf(err, errlen, "GRH area: IP version %u, expected 6 "
			 "for an IPv6-format GRH", vtf >> 28);
		return -1;
	}
	out->form = GRH_FORM_IPV6;
	out->ip_version = 6;
	out->traffic_class = (uint8_t)(vtf >> 20);
	out->flow_label = vtf & 0xfffff;
	out->payload_length = wire_get16(area, V6_PAYLOAD_LENGTH);
	out->next_header = area[V6_NEXT_HEADER];
	out->hop_limit = area[V6_HOP_LIMIT];
	memcpy(out->sgid.raw, area + V6_SGID, 16);
	memcpy(out->dgid.raw, area + V6_DGID, 16);
	return 0;
}

int grh_decode(const uint8_t *area, bool wc_has_grh, enum grh_hint hint,
	       struct grh_fields *out, char *err, size_t errlen)
{
	bool checksum_zero = false;
	enum grh_form form;

	memset(out, 0, sizeof(*out));
	if (!wc_has_grh)
		return 0;
	switch (hint) {
	case GRH_HINT_IPV4:
		form = GRH_FORM_IPV4;
		break;
	case GRH_HINT_IPV6:
		form = GRH_FORM_IPV6;
		break;
	default:
		form = guess_form(area, &checksum_zero);
		break;
	}
	if ((form == GRH_FORM_IPV4 ? decode_ipv4 : decode_ipv6)(area, out, err,
								 errlen))
		return -1;
	out->present = true;
	return 0;
}
