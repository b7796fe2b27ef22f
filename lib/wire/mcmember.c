/* MCMemberRecord codec and request MADs; layout in mcmember.h. */
#include <stdio.h>
#include <string.h>

#include "wire/mcmember.h"
#include "wire/wire_bytes.h"

enum {
	MCR_MGID = 0, MCR_PORT_GID = 16, MCR_QKEY = 32, MCR_MLID = 36,
	MCR_MTU = 38, MCR_TCLASS = 39, MCR_PKEY = 40, MCR_RATE = 42,
	MCR_LIFE = 43, MCR_SL_FLOW_HOP = 44, MCR_SCOPE_STATE = 48,
	MCR_PROXY = 49, MCR_END = 52,
};
/* The SM_Key of an SA MAD: bytes 36..43 of the SA header. */
#define SA_SM_KEY_OFFSET 36
_Static_assert(MCR_END == MCMEMBER_RECORD_BYTES, "MCMemberRecord is 52 bytes");
_Static_assert(MCMEMBER_RECORD_BYTES <= SA_DATA_BYTES,
	       "one MCMemberRecord fits the data of one SA MAD");

static uint8_t selector_octet(uint8_t selector, uint8_t code)
{
	return (uint8_t)((selector & 0x3) << 6 | (code & 0x3f));
}

void mcmember_encode(const struct mcmember_record *r, uint8_t *d)
{
	memset(d, 0, MCMEMBER_RECORD_BYTES);
	memcpy(d + MCR_MGID, r->mgid.raw, 16);
	memcpy(d + MCR_PORT_GID, r->port_gid.raw, 16);
	wire_put32(d, MCR_QKEY, r->qkey);
	wire_put16(d, MCR_MLID, r->mlid);
	d[MCR_MTU] = selector_octet(r->mtu_selector, r->mtu);
	d[MCR_TCLASS] = r->traffic_class;
	wire_put16(d, MCR_PKEY, r->pkey);
	d[MCR_RATE] = selector_octet(r->rate_selector, r->rate);
	d[MCR_LIFE] = selector_octet(r->packet_life_selector, r->packet_life);
	wire_put32(d, MCR_SL_FLOW_HOP,
		   (uint32_t)(r->sl & 0xf) << 28 |
			   (r->flow_label & 0xfffff) << 8 | r->hop_limit);
	d[MCR_SCOPE_STATE] = (uint8_t)((r->scope & 0xf) << 4 |
				       (r->join_state & 0xf));
	d[MCR_PROXY] = r->proxy_join ? 0x80 : 0;
}

void mcmember_decode(const uint8_t *d, struct mcmember_record *r)
{
	uint32_t sfh = wire_get32(d, MCR_SL_FLOW_HOP);

	memset(r, 0, sizeof(*r));
	memcpy(r->mgid.raw, d + MCR_MGID, 16);
	memcpy(r->port_gid.raw, d + MCR_PORT_GID, 16);
	r->qkey = wire_get32(d, MCR_QKEY);
	r->mlid = wire_get16(d, MCR_MLID);
	r->mtu_selector = d[MCR_MTU] >> 6;
	r->mtu = d[MCR_MTU] & 0x3f;
	r->traffic_class = d[MCR_TCLASS];
	r->pkey = wire_get16(d, MCR_PKEY);
	r->rate_selector = d[MCR_RATE] >> 6;
	r->rate = d[MCR_RATE] & 0x3f;
	r->packet_life_selector = d[MCR_LIFE] >> 6;
	r->packet_life = d[MCR_LIFE] & 0x3f;
	r->sl = (uint8_t)(sfh >> 28);
	r->flow_label = (sfh >> 8) & 0xfffff;
	r->hop_limit = (uint8_t)sfh;
	r->scope = d[MCR_SCOPE_STATE] >> 4;
	r->join_state = d[MCR_SCOPE_STATE] & 0xf;
	r->proxy_join = d[MCR_PROXY] & 0x80;
}

void sa_encode_mcmember_request(uint8_t *mad, enum sa_method method,
				uint64_t tid, const struct mcmember_record *rec,
				uint64_t comp_mask, uint64_t sm_key)
{
	uint8_t data[MCMEMBER_RECORD_BYTES];

	mcmember_encode(rec, data);
	sa_encode_request(mad, method, SA_ATTR_MCMEMBER_RECORD, tid, comp_mask,
			  data, sizeof(data));
	wire_put64(mad, SA_SM_KEY_OFFSET, sm_key);
}

const char *mcmember_join_state_str(uint8_t join_state, char *buf,
				    size_t len)
{
	static const char *const names[] = {
		"FullMember", "NonMember", "SendOnlyNonMember",
		"SendOnlyFullMember",
	};
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	if ((join_state & 0xf) == 0) {
		snprintf(buf, len, "none");
		return buf;
	}
	for (unsigned i = 0; i < 4; i++) {
		int n;

		if (!(join_state & (1u << i)))
			continue;
		if (used >= len)
			break;
		n = snprintf(buf + used, len - used, "%s%s",
			     used ? "+" : "", names[i]);
		if (n > 0)
			used += (size_t)n;
	}
	return buf;
}
