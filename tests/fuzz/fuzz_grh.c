/* libFuzzer target: the 40-byte GRH area of a receive buffer is written by
 * whatever sent the datagram. Any bytes decode or are refused under every
 * hint and against any local GID table, never read outside the area or the
 * table, and a decoded header encodes back to the same fields.
 *
 * Input: byte 0 chooses wc_has_grh (bit 0); bytes 1..40 are the area; the
 * rest, 16 bytes per GID, is the receiving port's GID table. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/gid.h"
#include "wire/grh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool same_fields(const struct grh_fields *a, const struct grh_fields *b)
{
	return a->present == b->present && a->form == b->form &&
	       a->ip_version == b->ip_version &&
	       a->traffic_class == b->traffic_class &&
	       a->flow_label == b->flow_label &&
	       a->payload_length == b->payload_length &&
	       a->next_header == b->next_header &&
	       a->hop_limit == b->hop_limit &&
	       memcmp(a->sgid.raw, b->sgid.raw, 16) == 0 &&
	       memcmp(a->dgid.raw, b->dgid.raw, 16) == 0 &&
	       a->ipv4_checksum_zero == b->ipv4_checksum_zero;
}

/* What every successful decode must satisfy, and that encoding it and
 * decoding again in the same form gives the same fields. */
static void check_decoded(const struct grh_fields *f)
{
	uint8_t *again = malloc(GRH_BYTES);
	struct grh_fields back;
	char err[DIAG_MSG_MAX];

	if (!again)
		return;
	if (!f->present || f->flow_label > 0xfffff)
		__builtin_trap();
	if (f->form == GRH_FORM_IPV4 &&
	    (f->ip_version != 4 || f->flow_label != 0 ||
	     !gid_is_ipv4_mapped(&f->sgid) || !gid_is_ipv4_mapped(&f->dgid)))
		__builtin_trap();
	if (f->form == GRH_FORM_IPV6 && f->ip_version != 6)
		__builtin_trap();
	grh_encode(f, again);
	if (grh_decode(again, true,
		       f->form == GRH_FORM_IPV4 ? GRH_HINT_IPV4 : GRH_HINT_IPV6,
		       &back, err, sizeof(err)) != 0 ||
	    !same_fields(f, &back))
		__builtin_trap();
	free(again);
}

/* The decoded fields against the bytes they came from, read here
 * independently at the fixed offsets: an IPv6-format header is all
 * fields, so it encodes back to the same 40 bytes; of an IPv4 header the
 * fields ibahprobe reports (TOS, total length, TTL, protocol, addresses,
 * a zero checksum) sit where RFC 791 puts them. */
static void check_against_bytes(const uint8_t *area,
				const struct grh_fields *f)
{
	const uint8_t *ip = area + GRH_IPV4_OFFSET;
	uint8_t again[GRH_BYTES];
	uint16_t total = (uint16_t)(ip[2] << 8 | ip[3]);

	if (f->form == GRH_FORM_IPV6) {
		grh_encode(f, again);
		if (memcmp(again, area, GRH_BYTES) != 0)
			__builtin_trap();
		return;
	}
	if (ip[0] != 0x45 || f->traffic_class != ip[1] ||
	    f->payload_length != (total >= 20 ? total - 20 : 0) ||
	    f->hop_limit != ip[8] || f->next_header != ip[9] ||
	    f->ipv4_checksum_zero != (ip[10] == 0 && ip[11] == 0) ||
	    memcmp(&f->sgid.raw[12], ip + 12, 4) != 0 ||
	    memcmp(&f->dgid.raw[12], ip + 16, 4) != 0)
		__builtin_trap();
}

static void decode_with(const uint8_t *area, bool has_grh, int hint)
{
	struct grh_fields f;
	char err[DIAG_MSG_MAX];

	err[0] = '\0';
	if (grh_decode(area, has_grh, (enum grh_hint)hint, &f, err,
		       sizeof(err)) == 0) {
		if (has_grh) {
			check_decoded(&f);
			check_against_bytes(area, &f);
		} else if (f.present)
			__builtin_trap();	/* no GRH flag, no header */
	} else if (!has_grh || !err[0]) {
		__builtin_trap();	/* a refusal says why */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct grh_local_gids local = { 0 };
	struct grh_fields f, by_bytes;
	char err[DIAG_MSG_MAX];
	union ibv_gid *gids = NULL;
	uint8_t *area;
	bool has_grh, any_mapped = false;
	int rc, rc_bytes;

	if (size < 1 + GRH_BYTES)
		return 0;
	has_grh = data[0] & 1;
	/* Exactly 40 bytes on the heap: ASan sees any read past them. */
	area = malloc(GRH_BYTES);
	if (!area)
		return 0;
	memcpy(area, data + 1, GRH_BYTES);
	local.count = (size - 1 - GRH_BYTES) / sizeof(union ibv_gid);
	if (local.count) {
		gids = malloc(local.count * sizeof(*gids));
		if (!gids) {
			free(area);
			return 0;
		}
		memcpy(gids, data + 1 + GRH_BYTES, local.count * sizeof(*gids));
		local.gids = gids;
	}
	for (size_t i = 0; i < local.count; i++)
		any_mapped |= gid_is_ipv4_mapped(&gids[i]);

	decode_with(area, has_grh, GRH_HINT_AUTO);
	decode_with(area, has_grh, GRH_HINT_IPV4);
	decode_with(area, has_grh, GRH_HINT_IPV6);

	err[0] = '\0';
	rc = grh_decode_local(area, has_grh, &local, &f, err, sizeof(err));
	if (rc == 0 && has_grh) {
		check_decoded(&f);
		check_against_bytes(area, &f);
	}
	if (rc != 0 && (!has_grh || !err[0]))
		__builtin_trap();
	/* A port without IPv4-mapped GIDs (InfiniBand) only gets IPv6. */
	if (local.count && !any_mapped &&
	    grh_form_decide(area, &local) != GRH_FORM_IPV6)
		__builtin_trap();
	/* No table at all: the byte rule, as grh_decode without a hint. */
	rc = grh_decode_local(area, has_grh, NULL, &f, err, sizeof(err));
	rc_bytes = grh_decode(area, has_grh, GRH_HINT_AUTO, &by_bytes, err,
			      sizeof(err));
	if (rc != rc_bytes || (rc == 0 && !same_fields(&f, &by_bytes)))
		__builtin_trap();
	free(gids);
	free(area);
	return 0;
}
