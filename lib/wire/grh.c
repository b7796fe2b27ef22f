/* GRH codec for both forms of the UD receive area; see grh.h. */
#include <stdio.h>
#include <string.h>

#include "base/gid.h"
#include "wire/grh.h"
#include "wire/wire_bytes.h"

#define IPV4_HEADER_BYTES 20

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
	area[1] = area[2] = area[3] = 0;
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

/* The kernel's ib_get_rdma_header_version (core/verbs.c) and libibverbs'
 * get_grh_header_version agree: a first nibble other than 6 means the
 * first 20 bytes are not a header, so IPv4; with 6 there, an IPv4 header
 * with IHL 5 and a correct checksum at byte 20 still wins. The sentinel
 * (0xff at byte 0) makes the first case reliable for drivers that leave
 * bytes 0..19 alone. */
static enum grh_form byte_rule_form(const uint8_t *area)
{
	const uint8_t *ip = area + GRH_IPV4_OFFSET;

	if (area[0] >> 4 != 6)
		return ip[V4_VERSION_IHL] >> 4 == 4 ? GRH_FORM_IPV4
						    : GRH_FORM_IPV6;
	if (ip[V4_VERSION_IHL] == 0x45 &&
	    wire_get16(ip, V4_CHECKSUM) != 0 &&
	    grh_ipv4_checksum(ip, IPV4_HEADER_BYTES) == 0)
		return GRH_FORM_IPV4;
	return GRH_FORM_IPV6;
}

static bool local_has(const struct grh_local_gids *local, const uint8_t *gid)
{
	for (size_t i = 0; i < local->count; i++)
		if (memcmp(local->gids[i].raw, gid, 16) == 0)
			return true;
	return false;
}

enum grh_form grh_form_decide(const uint8_t *area,
			      const struct grh_local_gids *local)
{
	const uint8_t *ip = area + GRH_IPV4_OFFSET;
	bool any_mapped = false;
	bool v4_local = false, v6_local = false;
	union ibv_gid daddr;

	if (!local || local->count == 0)
		return byte_rule_form(area);
	for (size_t i = 0; i < local->count && !any_mapped; i++)
		any_mapped = gid_is_ipv4_mapped(&local->gids[i]);
	/* RoCE v2 over IPv4 needs an IPv4-mapped source GID on our side. */
	if (!any_mapped)
		return GRH_FORM_IPV6;
	if (ip[V4_VERSION_IHL] == 0x45) {
		ipv4_mapped(ip + V4_DADDR, &daddr);
		v4_local = local_has(local, daddr.raw);
	}
	if (area[0] >> 4 == 6)
		v6_local = local_has(local, area + V6_DGID);
	if (v4_local != v6_local)
		return v4_local ? GRH_FORM_IPV4 : GRH_FORM_IPV6;
	return byte_rule_form(area);
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

static int decode_form(const uint8_t *area, enum grh_form form,
		       struct grh_fields *out, char *err, size_t errlen)
{
	if ((form == GRH_FORM_IPV4 ? decode_ipv4 : decode_ipv6)(area, out, err,
								 errlen))
		return -1;
	out->present = true;
	return 0;
}

int grh_decode_local(const uint8_t *area, bool wc_has_grh,
		     const struct grh_local_gids *local,
		     struct grh_fields *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (!wc_has_grh)
		return 0;
	return decode_form(area, grh_form_decide(area, local), out, err,
			   errlen);
}

int grh_decode(const uint8_t *area, bool wc_has_grh, enum grh_hint hint,
	       struct grh_fields *out, char *err, size_t errlen)
{
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
		form = byte_rule_form(area);
		break;
	}
	return decode_form(area, form, out, err, errlen);
}
