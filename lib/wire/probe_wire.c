/* Probe request/reply codec; the layout is documented in probe_wire.h. */
#include <string.h>

#include "wire/probe_wire.h"
#include "wire/wire_bytes.h"

_Static_assert(PROBE_REPLY_V1_SIZE == 136, "reply layout changed");
_Static_assert(PROBE_REPLY_SIZE == 160, "reply layout changed");
_Static_assert(PROBE_REQUEST_MIN_SIZE >= PROBE_REPLY_SIZE + PROBE_STAMPS_SIZE,
	       "a reply and its stamps must never outweigh their request");

enum {
	OFF_MAGIC = 0, OFF_VERSION = 4, OFF_KIND = 5, OFF_LENGTH = 6,
	OFF_PROBE_ID = 8, OFF_SEQUENCE = 12, OFF_SEND_TIME = 16,
	OFF_ASK_HOP_LIMIT = 24, OFF_ASK_TCLASS = 25, OFF_ASK_SL = 26,
	OFF_REQUEST_FLAGS = 27, OFF_ASK_FLOW_LABEL = 28,
	OFF_OBS_FLAGS = 32, OFF_OBS_IP_VERSION = 33, OFF_OBS_TCLASS = 34,
	OFF_OBS_HOP_LIMIT = 35, OFF_OBS_FLOW_LABEL = 36, OFF_WC_SLID = 40,
	OFF_WC_SL = 42, OFF_WC_DLID_PATH_BITS = 43, OFF_WC_PKEY_INDEX = 44,
	OFF_OBS_VLAN_TAG = 46,
	OFF_WC_SRC_QP = 48, OFF_WC_FLAGS = 52, OFF_OBS_SGID = 56,
	OFF_OBS_DGID = 72,
	OFF_REV_IS_GLOBAL = 88, OFF_REV_SL = 89, OFF_REV_SRC_PATH_BITS = 90,
	OFF_REV_STATIC_RATE = 91, OFF_REV_DLID = 92, OFF_REV_PORT_NUM = 94,
	OFF_REV_SGID_INDEX = 95, OFF_REV_HOP_LIMIT = 96, OFF_REV_TCLASS = 97,
	OFF_REPLY_HOP_LIMIT_SENT = 98,
	OFF_REV_FLOW_LABEL = 100, OFF_REV_DGID = 104, OFF_RESP_TIME = 120,
	OFF_REV_ERRNO = 128, OFF_RESP_RECEIVED = 132,
	OFF_TIMING_FLAGS = 136, OFF_RESP_WAIT = 137, OFF_DWELL = 144,
	OFF_REPLY_AH_WAIT = 152,
	OFF_STAMPS_FLAGS = 32, OFF_HW_DWELL = 40,
};

enum {
	TIMING_DWELL_KNOWN = 1u << 0,
	TIMING_STAMPS_FOLLOW = 1u << 1,
	STAMPS_HW_DWELL_KNOWN = 1u << 0,
};

enum {
	OBS_GRH_PRESENT = 1u << 0,
	OBS_GRH_IPV4 = 1u << 1,
	OBS_REVERSE_CREATED = 1u << 2,
	OBS_SL_VALID = 1u << 3,	/* wc.sl is the SL: an InfiniBand port */
	OBS_HOP_LIMIT_SENT = 1u << 4,	/* byte 98 is the reply's hop limit */
	OBS_VLAN_REPORTER = 1u << 5,	/* the responder reports VLAN tags */
	OBS_VLAN_KNOWN = 1u << 6,	/* bytes 46..47: the VID */
	OBS_PCP_KNOWN = 1u << 7,	/* and the PCP */
};

static uint8_t vlan_flags(const struct probe_observed *o)
{
	uint8_t flags = 0;

	if (o->vlan_reporter)
		flags |= OBS_VLAN_REPORTER;
	if (o->vlan_reporter && o->vlan_known) {
		flags |= OBS_VLAN_KNOWN;
		if (o->pcp_known)
			flags |= OBS_PCP_KNOWN;
	}
	return flags;
}

static uint16_t vlan_tag(const struct probe_observed *o)
{
	uint16_t tag;

	if (!(vlan_flags(o) & OBS_VLAN_KNOWN))
		return 0;
	tag = o->vlan_id & 0x0fff;
	if (o->pcp_known)
		tag |= (uint16_t)((o->pcp & 7) << 13);
	return tag;
}

/* Bits the flags do not vouch for are not believed. */
static void decode_vlan(uint8_t flags, uint16_t tag, struct probe_observed *o)
{
	o->vlan_reporter = flags & OBS_VLAN_REPORTER;
	o->vlan_known = o->vlan_reporter && (flags & OBS_VLAN_KNOWN);
	o->pcp_known = o->vlan_known && (flags & OBS_PCP_KNOWN);
	o->vlan_id = o->vlan_known ? tag & 0x0fff : 0;
	o->pcp = o->pcp_known ? (uint8_t)(tag >> 13) : 0;
}

const char *probe_decode_error_name(enum probe_decode_error err)
{
	static const char *const names[PROBE_ERR_COUNT] = {
		[PROBE_OK] = "ok",
		[PROBE_ERR_SHORT] = "truncated",
		[PROBE_ERR_MAGIC] = "bad_magic",
		[PROBE_ERR_VERSION] = "bad_version",
		[PROBE_ERR_KIND] = "bad_kind",
		[PROBE_ERR_LENGTH] = "bad_length",
	};

	return err < PROBE_ERR_COUNT ? names[err] : "?";
}

static void encode_header(const struct probe_header *h, uint8_t *b,
			  enum probe_kind kind, uint16_t length)
{
	wire_put32(b, OFF_MAGIC, PROBE_MAGIC);
	wire_put8(b, OFF_VERSION, PROBE_VERSION);
	wire_put8(b, OFF_KIND, (uint8_t)kind);
	wire_put16(b, OFF_LENGTH, length);
	wire_put32(b, OFF_PROBE_ID, h->probe_id);
	wire_put32(b, OFF_SEQUENCE, h->sequence);
	wire_put64(b, OFF_SEND_TIME, h->send_time_ns);
	wire_put8(b, OFF_ASK_HOP_LIMIT, h->asked.hop_limit);
	wire_put8(b, OFF_ASK_TCLASS, h->asked.traffic_class);
	wire_put8(b, OFF_ASK_SL, h->asked.sl);
	wire_put8(b, OFF_REQUEST_FLAGS, h->flags);
	wire_put32(b, OFF_ASK_FLOW_LABEL, h->asked.flow_label);
}

size_t probe_encode_request(const struct probe_header *h, uint8_t *buf,
			    size_t size)
{
	if (size < PROBE_REQUEST_MIN_SIZE || size > PROBE_MAX_SIZE)
		return 0;
	memset(buf, 0, size);
	encode_header(h, buf, PROBE_REQUEST, (uint16_t)size);
	return size;
}

size_t probe_reply_size_for(const struct probe_header *request)
{
	return request->flags & PROBE_REQUEST_WANTS_TIMING
		       ? PROBE_REPLY_SIZE : PROBE_REPLY_V1_SIZE;
}

bool probe_stamps_allowed(const struct probe_header *request)
{
	return (request->flags & PROBE_REQUEST_WANTS_TIMING) &&
	       request->length >= PROBE_REQUEST_MIN_SIZE;
}

static void encode_timing(const struct probe_reply *r, uint8_t *b)
{
	uint8_t flags = 0;

	if (r->dwell_known)
		flags |= TIMING_DWELL_KNOWN;
	if (r->stamps_follow)
		flags |= TIMING_STAMPS_FOLLOW;
	wire_put8(b, OFF_TIMING_FLAGS, flags);
	wire_put8(b, OFF_RESP_WAIT, (uint8_t)r->responder_wait);
	wire_put64(b, OFF_DWELL, r->dwell_known ? r->dwell_ns : 0);
	wire_put64(b, OFF_REPLY_AH_WAIT,
		   r->dwell_known ? r->reply_ah_wait_ns : 0);
}

size_t probe_encode_reply(const struct probe_reply *r, uint8_t *b,
			  size_t size)
{
	const struct probe_observed *o = &r->observed;
	const struct ibv_ah_attr *ah = &r->reverse_ah;
	uint8_t flags = 0;

	if (size != PROBE_REPLY_SIZE && size != PROBE_REPLY_V1_SIZE)
		return 0;
	memset(b, 0, size);
	encode_header(&r->header, b, PROBE_REPLY, (uint16_t)size);
	if (o->grh_present)
		flags |= OBS_GRH_PRESENT;
	if (o->grh_ipv4)
		flags |= OBS_GRH_IPV4;
	if (r->reverse_created)
		flags |= OBS_REVERSE_CREATED;
	if (o->sl_valid)
		flags |= OBS_SL_VALID;
	if (r->hop_limit_sent_known)
		flags |= OBS_HOP_LIMIT_SENT;
	flags |= vlan_flags(o);
	wire_put8(b, OFF_OBS_FLAGS, flags);
	wire_put8(b, OFF_OBS_IP_VERSION, o->ip_version);
	wire_put8(b, OFF_OBS_TCLASS, o->traffic_class);
	wire_put8(b, OFF_OBS_HOP_LIMIT, o->hop_limit);
	wire_put32(b, OFF_OBS_FLOW_LABEL, o->flow_label);
	wire_put16(b, OFF_WC_SLID, o->slid);
	wire_put8(b, OFF_WC_SL, o->sl);
	wire_put8(b, OFF_WC_DLID_PATH_BITS, o->dlid_path_bits);
	wire_put16(b, OFF_WC_PKEY_INDEX, o->pkey_index);
	wire_put16(b, OFF_OBS_VLAN_TAG, vlan_tag(o));
	wire_put32(b, OFF_WC_SRC_QP, o->src_qp);
	wire_put32(b, OFF_WC_FLAGS, o->wc_flags);
	memcpy(b + OFF_OBS_SGID, o->sgid.raw, 16);
	memcpy(b + OFF_OBS_DGID, o->dgid.raw, 16);
	wire_put8(b, OFF_REV_IS_GLOBAL, ah->is_global);
	wire_put8(b, OFF_REV_SL, ah->sl);
	wire_put8(b, OFF_REV_SRC_PATH_BITS, ah->src_path_bits);
	wire_put8(b, OFF_REV_STATIC_RATE, ah->static_rate);
	wire_put16(b, OFF_REV_DLID, ah->dlid);
	wire_put8(b, OFF_REV_PORT_NUM, ah->port_num);
	wire_put8(b, OFF_REV_SGID_INDEX, ah->grh.sgid_index);
	wire_put8(b, OFF_REV_HOP_LIMIT, ah->grh.hop_limit);
	wire_put8(b, OFF_REV_TCLASS, ah->grh.traffic_class);
	wire_put8(b, OFF_REPLY_HOP_LIMIT_SENT,
		  r->hop_limit_sent_known ? r->hop_limit_sent : 0);
	wire_put32(b, OFF_REV_FLOW_LABEL, ah->grh.flow_label);
	memcpy(b + OFF_REV_DGID, ah->grh.dgid.raw, 16);
	wire_put64(b, OFF_RESP_TIME, r->responder_time_ns);
	wire_put32(b, OFF_REV_ERRNO, (uint32_t)r->reverse_errno);
	wire_put32(b, OFF_RESP_RECEIVED, r->responder_received);
	if (size == PROBE_REPLY_SIZE)
		encode_timing(r, b);
	return size;
}

size_t probe_encode_stamps(const struct probe_stamps *m, uint8_t *b)
{
	memset(b, 0, PROBE_STAMPS_SIZE);
	encode_header(&m->header, b, PROBE_STAMPS, PROBE_STAMPS_SIZE);
	wire_put8(b, OFF_STAMPS_FLAGS,
		  m->hw_dwell_known ? STAMPS_HW_DWELL_KNOWN : 0);
	wire_put64(b, OFF_HW_DWELL, m->hw_dwell_known ? m->hw_dwell_ns : 0);
	return PROBE_STAMPS_SIZE;
}

/* Each kind has its own sizes: requests from an older prober's minimum
 * up, replies of either layout, stamps of one. */
static bool length_fits_kind(uint8_t kind, uint16_t length)
{
	switch (kind) {
	case PROBE_REQUEST:
		return length >= PROBE_REQUEST_V1_MIN_SIZE &&
		       length <= PROBE_MAX_SIZE;
	case PROBE_REPLY:
		return length == PROBE_REPLY_SIZE ||
		       length == PROBE_REPLY_V1_SIZE;
	case PROBE_STAMPS:
		return length == PROBE_STAMPS_SIZE;
	}
	return false;
}

enum probe_decode_error probe_decode_header(const uint8_t *b, size_t len,
					    struct probe_header *h)
{
	uint8_t kind;
	uint16_t length;

	if (len < PROBE_HEADER_SIZE)
		return PROBE_ERR_SHORT;
	if (wire_get32(b, OFF_MAGIC) != PROBE_MAGIC)
		return PROBE_ERR_MAGIC;
	if (b[OFF_VERSION] != PROBE_VERSION)
		return PROBE_ERR_VERSION;
	kind = b[OFF_KIND];
	if (kind != PROBE_REQUEST && kind != PROBE_REPLY &&
	    kind != PROBE_STAMPS)
		return PROBE_ERR_KIND;
	length = wire_get16(b, OFF_LENGTH);
	/* The bytes must cover the length, too. */
	if (!length_fits_kind(kind, length))
		return PROBE_ERR_LENGTH;
	if (len < length)
		return PROBE_ERR_SHORT;
	h->kind = (enum probe_kind)kind;
	h->length = length;
	h->probe_id = wire_get32(b, OFF_PROBE_ID);
	h->sequence = wire_get32(b, OFF_SEQUENCE);
	h->send_time_ns = wire_get64(b, OFF_SEND_TIME);
	h->asked.hop_limit = b[OFF_ASK_HOP_LIMIT];
	h->asked.traffic_class = b[OFF_ASK_TCLASS];
	h->asked.sl = b[OFF_ASK_SL];
	h->flags = b[OFF_REQUEST_FLAGS];
	h->asked.flow_label = wire_get32(b, OFF_ASK_FLOW_LABEL);
	return PROBE_OK;
}

/* A wait mode we do not know is as good as none said. */
static void decode_timing(const uint8_t *b, struct probe_reply *r)
{
	uint8_t flags = b[OFF_TIMING_FLAGS], wait = b[OFF_RESP_WAIT];

	r->dwell_known = flags & TIMING_DWELL_KNOWN;
	r->stamps_follow = flags & TIMING_STAMPS_FOLLOW;
	r->responder_wait = wait == STAMP_SW_EVENT || wait == STAMP_SW_BUSY
				    ? (enum stamp_source)wait
				    : STAMP_UNKNOWN;
	if (!r->dwell_known)
		return;
	r->dwell_ns = wire_get64(b, OFF_DWELL);
	r->reply_ah_wait_ns = wire_get64(b, OFF_REPLY_AH_WAIT);
}

enum probe_decode_error probe_decode_reply(const uint8_t *b, size_t len,
					   struct probe_reply *r)
{
	struct probe_observed *o = &r->observed;
	struct ibv_ah_attr *ah = &r->reverse_ah;
	enum probe_decode_error err;
	uint8_t flags;

	memset(r, 0, sizeof(*r));
	err = probe_decode_header(b, len, &r->header);
	if (err)
		return err;
	if (r->header.kind != PROBE_REPLY)
		return PROBE_ERR_KIND;
	flags = b[OFF_OBS_FLAGS];
	o->grh_present = flags & OBS_GRH_PRESENT;
	o->grh_ipv4 = flags & OBS_GRH_IPV4;
	r->reverse_created = flags & OBS_REVERSE_CREATED;
	o->sl_valid = flags & OBS_SL_VALID;
	r->hop_limit_sent_known = flags & OBS_HOP_LIMIT_SENT;
	r->hop_limit_sent = r->hop_limit_sent_known
				    ? b[OFF_REPLY_HOP_LIMIT_SENT] : 0;
	o->ip_version = b[OFF_OBS_IP_VERSION];
	o->traffic_class = b[OFF_OBS_TCLASS];
	o->hop_limit = b[OFF_OBS_HOP_LIMIT];
	o->flow_label = wire_get32(b, OFF_OBS_FLOW_LABEL);
	o->slid = wire_get16(b, OFF_WC_SLID);
	o->sl = b[OFF_WC_SL];
	o->dlid_path_bits = b[OFF_WC_DLID_PATH_BITS];
	o->pkey_index = wire_get16(b, OFF_WC_PKEY_INDEX);
	decode_vlan(flags, wire_get16(b, OFF_OBS_VLAN_TAG), o);
	o->src_qp = wire_get32(b, OFF_WC_SRC_QP);
	o->wc_flags = wire_get32(b, OFF_WC_FLAGS);
	memcpy(o->sgid.raw, b + OFF_OBS_SGID, 16);
	memcpy(o->dgid.raw, b + OFF_OBS_DGID, 16);
	ah->is_global = b[OFF_REV_IS_GLOBAL];
	ah->sl = b[OFF_REV_SL];
	ah->src_path_bits = b[OFF_REV_SRC_PATH_BITS];
	ah->static_rate = b[OFF_REV_STATIC_RATE];
	ah->dlid = wire_get16(b, OFF_REV_DLID);
	ah->port_num = b[OFF_REV_PORT_NUM];
	ah->grh.sgid_index = b[OFF_REV_SGID_INDEX];
	ah->grh.hop_limit = b[OFF_REV_HOP_LIMIT];
	ah->grh.traffic_class = b[OFF_REV_TCLASS];
	ah->grh.flow_label = wire_get32(b, OFF_REV_FLOW_LABEL);
	memcpy(ah->grh.dgid.raw, b + OFF_REV_DGID, 16);
	r->responder_time_ns = wire_get64(b, OFF_RESP_TIME);
	r->reverse_errno = (int32_t)wire_get32(b, OFF_REV_ERRNO);
	r->responder_received = wire_get32(b, OFF_RESP_RECEIVED);
	if (r->header.length == PROBE_REPLY_SIZE)
		decode_timing(b, r);
	return PROBE_OK;
}

enum probe_decode_error probe_decode_stamps(const uint8_t *b, size_t len,
					    struct probe_stamps *m)
{
	enum probe_decode_error err;

	memset(m, 0, sizeof(*m));
	err = probe_decode_header(b, len, &m->header);
	if (err)
		return err;
	if (m->header.kind != PROBE_STAMPS)
		return PROBE_ERR_KIND;
	m->hw_dwell_known = b[OFF_STAMPS_FLAGS] & STAMPS_HW_DWELL_KNOWN;
	m->hw_dwell_ns = m->hw_dwell_known ? wire_get64(b, OFF_HW_DWELL) : 0;
	return PROBE_OK;
}
