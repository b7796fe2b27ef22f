/* SA MAD, PathRecord and NodeRecord codecs; layouts in pathrec.h. */
#include <stdio.h>
#include <string.h>

#include "base/ibrate.h"
#include "wire/pathrec.h"
#include "wire/wire_bytes.h"

_Static_assert(SA_HEADER_BYTES + SA_DATA_BYTES == SA_MAD_BYTES,
	       "an SA MAD is 256 bytes");

/* Common MAD header and SA header offsets. */
enum {
	MAD_BASE_VERSION = 0, MAD_MGMT_CLASS = 1, MAD_CLASS_VERSION = 2,
	MAD_METHOD = 3, MAD_STATUS = 4, MAD_TID = 8, MAD_ATTR_ID = 16,
	MAD_ATTR_MOD = 20, SA_ATTR_OFFSET = 44,
	SA_COMP_MASK = 48,
};

/* RMPP header offsets; the SA header after it (SM_Key, attribute offset,
 * component mask) counts as RMPP payload. */
enum {
	RMPP_VERSION = 24, RMPP_TYPE = 25, RMPP_RESP_FLAGS = 26,
	RMPP_STATUS = 27, RMPP_SEGMENT = 28, RMPP_PAYLOAD_LENGTH = 32,
	RMPP_HEADER_END = 36,
	RMPP_SEGMENT_DATA = SA_MAD_BYTES - RMPP_HEADER_END,
};

/* PathRecord offsets. */
enum {
	PR_SERVICE_ID = 0, PR_DGID = 8, PR_SGID = 24, PR_DLID = 40,
	PR_SLID = 42, PR_RAW_FL_HOP = 44, PR_TCLASS = 48,
	PR_REV_NUMB_PATH = 49, PR_PKEY = 50, PR_QOS_SL = 52, PR_MTU = 54,
	PR_RATE = 55, PR_PACKET_LIFE = 56, PR_PREFERENCE = 57,
};

/* NodeRecord offsets (NodeInfo starts at 4). */
enum {
	NR_LID = 0, NR_NODE_TYPE = 4 + 2, NR_NUM_PORTS = 4 + 3,
	NR_NODE_GUID = 4 + 12, NR_PORT_GUID = 4 + 20, NR_LOCAL_PORT = 4 + 36,
	NR_DESCRIPTION = 44,
};

static uint8_t selector_octet(uint8_t selector, uint8_t code)
{
	return (uint8_t)((selector & 0x3) << 6 | (code & 0x3f));
}

void pathrec_encode(const struct path_record *r, uint8_t *d)
{
	memset(d, 0, PATH_RECORD_BYTES);
	wire_put64(d, PR_SERVICE_ID, r->service_id);
	memcpy(d + PR_DGID, r->dgid.raw, 16);
	memcpy(d + PR_SGID, r->sgid.raw, 16);
	wire_put16(d, PR_DLID, r->dlid);
	wire_put16(d, PR_SLID, r->slid);
	wire_put32(d, PR_RAW_FL_HOP,
		   (uint32_t)r->raw_traffic << 31 |
			   (r->flow_label & 0xfffff) << 8 | r->hop_limit);
	d[PR_TCLASS] = r->traffic_class;
	d[PR_REV_NUMB_PATH] =
		(uint8_t)((r->reversible ? 0x80 : 0) | (r->numb_path & 0x7f));
	wire_put16(d, PR_PKEY, r->pkey);
	wire_put16(d, PR_QOS_SL,
		   (uint16_t)((r->qos_class & 0xfff) << 4 | (r->sl & 0xf)));
	d[PR_MTU] = selector_octet(r->mtu_selector, r->mtu);
	d[PR_RATE] = selector_octet(r->rate_selector, r->rate);
	d[PR_PACKET_LIFE] =
		selector_octet(r->packet_life_selector, r->packet_life);
	d[PR_PREFERENCE] = r->preference;
}

void pathrec_decode(const uint8_t *d, struct path_record *r)
{
	uint32_t word = wire_get32(d, PR_RAW_FL_HOP);
	uint16_t qos_sl = wire_get16(d, PR_QOS_SL);

	memset(r, 0, sizeof(*r));
	r->service_id = wire_get64(d, PR_SERVICE_ID);
	memcpy(r->dgid.raw, d + PR_DGID, 16);
	memcpy(r->sgid.raw, d + PR_SGID, 16);
	r->dlid = wire_get16(d, PR_DLID);
	r->slid = wire_get16(d, PR_SLID);
	r->raw_traffic = word >> 31;
	r->flow_label = (word >> 8) & 0xfffff;
	r->hop_limit = (uint8_t)word;
	r->traffic_class = d[PR_TCLASS];
	r->reversible = d[PR_REV_NUMB_PATH] >> 7;
	r->numb_path = d[PR_REV_NUMB_PATH] & 0x7f;
	r->pkey = wire_get16(d, PR_PKEY);
	r->qos_class = qos_sl >> 4;
	r->sl = qos_sl & 0xf;
	/* opensm answers mtu 0x84 for exactly 2048: keep code and selector
	 * apart. */
	r->mtu_selector = ibrate_selector(d[PR_MTU]);
	r->mtu = ibrate_code(d[PR_MTU]);
	r->rate_selector = ibrate_selector(d[PR_RATE]);
	r->rate = ibrate_code(d[PR_RATE]);
	r->packet_life_selector = ibrate_selector(d[PR_PACKET_LIFE]);
	r->packet_life = ibrate_code(d[PR_PACKET_LIFE]);
	r->preference = d[PR_PREFERENCE];
}

uint64_t pathrec_query(const struct path_constraints *w,
		       struct path_record *r)
{
	uint64_t mask = 0;

	memset(r, 0, sizeof(*r));
	if (w->has_dgid) {
		r->dgid = w->dgid;
		mask |= PR_COMP_DGID;
	}
	if (w->has_sgid) {
		r->sgid = w->sgid;
		mask |= PR_COMP_SGID;
	}
	if (w->has_dlid) {
		r->dlid = w->dlid;
		mask |= PR_COMP_DLID;
	}
	if (w->has_slid) {
		r->slid = w->slid;
		mask |= PR_COMP_SLID;
	}
	if (w->has_sl) {
		r->sl = w->sl;
		mask |= PR_COMP_SL;
	}
	if (w->has_pkey) {
		r->pkey = w->pkey;
		mask |= PR_COMP_PKEY;
	}
	if (w->has_traffic_class) {
		r->traffic_class = w->traffic_class;
		mask |= PR_COMP_TCLASS;
	}
	if (w->has_flow_label) {
		r->flow_label = w->flow_label;	/* all 20 bits */
		mask |= PR_COMP_FLOW_LABEL;
	}
	if (w->has_hop_limit) {
		r->hop_limit = w->hop_limit;
		mask |= PR_COMP_HOP_LIMIT;
	}
	if (w->has_qos_class) {
		r->qos_class = w->qos_class;
		mask |= PR_COMP_QOS_CLASS;
	}
	if (w->has_reversible) {
		r->reversible = w->reversible;
		mask |= PR_COMP_REVERSIBLE;
	}
	if (w->has_numb_path) {
		r->numb_path = w->numb_path;
		mask |= PR_COMP_NUMB_PATH;
	}
	if (w->has_mtu) {
		r->mtu_selector = SA_SELECTOR_EXACTLY;
		r->mtu = ibrate_mtu_code(w->mtu_bytes);
		mask |= PR_COMP_MTU_SELECTOR | PR_COMP_MTU;
	}
	if (w->has_rate) {
		r->rate_selector = SA_SELECTOR_EXACTLY;
		r->rate = w->rate;
		mask |= PR_COMP_RATE_SELECTOR | PR_COMP_RATE;
	}
	return mask;
}

void noderec_decode(const uint8_t *d, struct node_record *r)
{
	memset(r, 0, sizeof(*r));
	r->lid = wire_get16(d, NR_LID);
	r->node_type = d[NR_NODE_TYPE];
	r->num_ports = d[NR_NUM_PORTS];
	r->local_port = d[NR_LOCAL_PORT];
	r->node_guid = wire_get64(d, NR_NODE_GUID);
	r->port_guid = wire_get64(d, NR_PORT_GUID);
	memcpy(r->description, d + NR_DESCRIPTION, 64);
	r->description[64] = '\0';
}

void sa_encode_request(uint8_t *mad, enum sa_method method,
		       enum sa_attribute attr, uint64_t tid,
		       uint64_t comp_mask, const uint8_t *data,
		       size_t data_len)
{
	memset(mad, 0, SA_MAD_BYTES);
	mad[MAD_BASE_VERSION] = 1;
	mad[MAD_MGMT_CLASS] = SA_MGMT_CLASS;
	mad[MAD_CLASS_VERSION] = SA_CLASS_VERSION;
	mad[MAD_METHOD] = (uint8_t)method;
	wire_put64(mad, MAD_TID, tid);
	wire_put16(mad, MAD_ATTR_ID, (uint16_t)attr);
	wire_put64(mad, SA_COMP_MASK, comp_mask);
	if (data_len > SA_DATA_BYTES)
		data_len = SA_DATA_BYTES;
	memcpy(mad + SA_HEADER_BYTES, data, data_len);
}

void sa_encode_path_query(uint8_t *mad, uint64_t tid,
			  const struct path_constraints *want)
{
	uint8_t data[PATH_RECORD_BYTES];
	struct path_record rec;
	uint64_t mask = pathrec_query(want, &rec);

	pathrec_encode(&rec, data);
	sa_encode_request(mad, SA_METHOD_GET, SA_ATTR_PATH_RECORD, tid, mask,
			  data, sizeof(data));
}

void sa_encode_node_query(uint8_t *mad, uint64_t tid, uint16_t lid,
			  uint64_t port_guid, const char *description)
{
	uint8_t data[NODE_RECORD_BYTES] = { 0 };
	uint64_t mask = 0;

	if (lid) {
		wire_put16(data, NR_LID, lid);
		mask |= NR_COMP_LID;
	}
	if (port_guid) {
		wire_put64(data, NR_PORT_GUID, port_guid);
		mask |= NR_COMP_PORT_GUID;
	}
	if (description) {
		/* Zero-padded, not NUL-terminated when 64 long. */
		size_t n = strlen(description);

		memcpy(data + NR_DESCRIPTION, description, n < 64 ? n : 64);
		mask |= NR_COMP_NODE_DESCRIPTION;
	}
	sa_encode_request(mad, SA_METHOD_GET_TABLE, SA_ATTR_NODE_RECORD, tid,
			  mask, data, sizeof(data));
}

int sa_decode_header(const uint8_t *mad, size_t len, struct sa_header *h)
{
	if (len < SA_HEADER_BYTES)
		return -1;
	h->base_version = mad[MAD_BASE_VERSION];
	h->mgmt_class = mad[MAD_MGMT_CLASS];
	h->class_version = mad[MAD_CLASS_VERSION];
	h->method = mad[MAD_METHOD];
	h->status = wire_get16(mad, MAD_STATUS);
	h->tid = wire_get64(mad, MAD_TID);
	h->attr_id = wire_get16(mad, MAD_ATTR_ID);
	h->attr_mod = wire_get32(mad, MAD_ATTR_MOD);
	h->attr_offset = wire_get16(mad, SA_ATTR_OFFSET);
	h->comp_mask = wire_get64(mad, SA_COMP_MASK);
	return 0;
}

uint8_t sa_response_method(uint8_t request_method)
{
	if (request_method == SA_METHOD_SET)
		return SA_METHOD_GET_RESP;
	return request_method | 0x80;
}

void sa_decode_rmpp(const uint8_t *mad, struct sa_rmpp *r)
{
	r->version = mad[RMPP_VERSION];
	r->type = mad[RMPP_TYPE];
	r->flags = mad[RMPP_RESP_FLAGS] & 0x7;	/* RRespTime is bits 7..3 */
	r->status = mad[RMPP_STATUS];
	r->segment = wire_get32(mad, RMPP_SEGMENT);
	r->payload_length = wire_get32(mad, RMPP_PAYLOAD_LENGTH);
}

/* Whole records in bytes of data: the last needs no padding. */
static size_t records_in(size_t bytes, size_t stride, size_t record_bytes)
{
	return bytes < record_bytes ? 0 : (bytes - record_bytes) / stride + 1;
}

int sa_table_layout(const uint8_t *msg, size_t len, size_t record_bytes,
		    struct sa_table *t, char *err, size_t errlen)
{
	struct sa_header h;
	struct sa_rmpp rmpp;
	size_t have, total, used;

	memset(t, 0, sizeof(*t));
	if (sa_decode_header(msg, len, &h)) {
		snprintf(err, errlen, "the answer is %zu bytes, shorter than "
			 "an SA header", len);
		return -1;
	}
	/* No records: opensm sends attribute offset 0. */
	if (h.attr_offset == 0)
		return 0;
	t->stride = (size_t)h.attr_offset * 8;
	if (t->stride < record_bytes) {
		snprintf(err, errlen, "attribute offset %u (%zu bytes) is "
			 "shorter than a record (%zu bytes)", h.attr_offset,
			 t->stride, record_bytes);
		return -1;
	}
	have = len - SA_HEADER_BYTES;
	total = have;
	sa_decode_rmpp(msg, &rmpp);
	/* The first segment's payload length covers every segment, each
	 * with its 20 bytes of SA header after the RMPP header (as the
	 * kernel's MAD layer sends and reassembles: 220 bytes of RMPP data a
	 * segment). A reassembled message has its exact length anyway; the
	 * payload length tells how much is missing from a message cut to its
	 * first packet. Without it (not RMPP, or a stack that leaves it 0),
	 * all that arrived is all there is. */
	if ((rmpp.flags & SA_RMPP_FLAG_ACTIVE) &&
	    (rmpp.flags & SA_RMPP_FLAG_FIRST || rmpp.segment <= 1) &&
	    rmpp.payload_length > RMPP_SEGMENT_DATA - SA_DATA_BYTES) {
		size_t segments = (rmpp.payload_length + RMPP_SEGMENT_DATA - 1) /
				  RMPP_SEGMENT_DATA;

		total = rmpp.payload_length -
			segments * (RMPP_SEGMENT_DATA - SA_DATA_BYTES);
	}
	t->expected = records_in(total, t->stride, record_bytes);
	t->count = records_in(total < have ? total : have, t->stride,
			      record_bytes);
	t->truncated = t->count < t->expected;
	/* Without a payload length, an RMPP message of exactly one MAD whose
	 * data ends in part of a record was cut to its first packet (a
	 * reassembled message has its exact length): how many records the
	 * whole held is unknown, at least one more. */
	used = t->count ? (t->count - 1) * t->stride + record_bytes : 0;
	if (!t->truncated && (rmpp.flags & SA_RMPP_FLAG_ACTIVE) &&
	    len == SA_MAD_BYTES && total == have &&
	    have - used > t->stride - record_bytes) {
		t->truncated = true;
		t->expected = 0;
	}
	return 0;
}

const char *sa_status_str(uint16_t status)
{
	static const char *const sa_codes[] = {
		[1] = "SA out of resources",
		[2] = "request invalid",
		[3] = "no records",
		[4] = "too many records",
		[5] = "invalid GID",
		[6] = "insufficient components",
		[7] = "request denied",
	};
	uint8_t sa = (uint8_t)(status >> 8);

	if (status == 0)
		return "ok";
	if (sa && sa < sizeof(sa_codes) / sizeof(sa_codes[0]))
		return sa_codes[sa];
	if (status & 0x1)
		return "SA busy";
	if (status & 0x2)
		return "redirect required";
	switch ((status >> 2) & 0x7) {
	case 1: return "bad class version";
	case 2: return "method not supported";
	case 3: return "method and attribute not supported";
	case 7: return "invalid attribute or modifier";
	}
	return "unknown MAD status";
}
