/* SA MADs: the common and SA headers, PathRecord (attribute 0x0035) and
 * NodeRecord (0x0011), encoded and decoded at the IBA's fixed offsets in
 * network byte order, with component masks that name exactly the fields a
 * query constrains.
 *
 * SA MAD: 0 common MAD header (24 bytes), 24 RMPP header (12), 36 SM_Key
 * (8), 44 attribute offset (2, in 8-byte words), 46 reserved, 48 component
 * mask (8), 56 attribute data (200).
 *
 * PathRecord (64 bytes): 0 ServiceID, 8 DGID, 24 SGID, 40 DLID, 42 SLID,
 * 44 RawTraffic:1 Reserved:3 FlowLabel:20 HopLimit:8, 48 TClass,
 * 49 Reversible:1 NumbPath:7, 50 P_Key, 52 QoSClass:12 SL:4,
 * 54 MTUSelector:2 MTU:6, 55 RateSelector:2 Rate:6,
 * 56 PacketLifeTimeSelector:2 PacketLifeTime:6, 57 Preference.
 *
 * NodeRecord (108 bytes): 0 LID, 4 NodeInfo (40: NodeGUID at 12, PortGUID
 * at 20, LocalPortNum at 36), 44 NodeDescription (64). A CA has one
 * NodeRecord per port in the subnet, each with that port's LID, GUID and
 * number. */
#ifndef IBAHPROBE_PATHREC_H
#define IBAHPROBE_PATHREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#define SA_MAD_BYTES 256
#define SA_HEADER_BYTES 56
#define SA_DATA_BYTES 200
#define PATH_RECORD_BYTES 64
#define NODE_RECORD_BYTES 108

#define SA_MGMT_CLASS 0x03
#define SA_CLASS_VERSION 2
#define SA_QKEY 0x80010000u
#define SA_QPN 1

enum sa_method {
	SA_METHOD_GET = 0x01,
	SA_METHOD_SET = 0x02,
	SA_METHOD_GET_RESP = 0x81,	/* also the answer to a Set */
	SA_METHOD_GET_TABLE = 0x12,
	SA_METHOD_GET_TABLE_RESP = 0x92,
	SA_METHOD_DELETE = 0x15,
	SA_METHOD_DELETE_RESP = 0x95,
};

enum sa_attribute {
	SA_ATTR_NODE_RECORD = 0x0011,
	SA_ATTR_SERVICE_RECORD = 0x0031,
	SA_ATTR_PATH_RECORD = 0x0035,
};

/* PathRecord component mask bits (IBA 15.2.5.16). */
enum path_comp {
	PR_COMP_SERVICE_ID_MSB = 1ull << 0,
	PR_COMP_SERVICE_ID_LSB = 1ull << 1,
	PR_COMP_DGID = 1ull << 2,
	PR_COMP_SGID = 1ull << 3,
	PR_COMP_DLID = 1ull << 4,
	PR_COMP_SLID = 1ull << 5,
	PR_COMP_RAW_TRAFFIC = 1ull << 6,
	PR_COMP_FLOW_LABEL = 1ull << 8,
	PR_COMP_HOP_LIMIT = 1ull << 9,
	PR_COMP_TCLASS = 1ull << 10,
	PR_COMP_REVERSIBLE = 1ull << 11,
	PR_COMP_NUMB_PATH = 1ull << 12,
	PR_COMP_PKEY = 1ull << 13,
	PR_COMP_QOS_CLASS = 1ull << 14,
	PR_COMP_SL = 1ull << 15,
	PR_COMP_MTU_SELECTOR = 1ull << 16,
	PR_COMP_MTU = 1ull << 17,
	PR_COMP_RATE_SELECTOR = 1ull << 18,
	PR_COMP_RATE = 1ull << 19,
	PR_COMP_PACKET_LIFE_SELECTOR = 1ull << 20,
	PR_COMP_PACKET_LIFE = 1ull << 21,
	PR_COMP_PREFERENCE = 1ull << 22,
};

/* NodeRecord component mask bits. */
enum node_comp {
	NR_COMP_LID = 1ull << 0,
	NR_COMP_NODE_GUID = 1ull << 7,
	NR_COMP_PORT_GUID = 1ull << 8,
	NR_COMP_NODE_DESCRIPTION = 1ull << 14,
};

/* Selector value meaning "exactly this". */
#define SA_SELECTOR_EXACTLY 2

struct path_record {
	uint64_t service_id;
	union ibv_gid dgid, sgid;
	uint16_t dlid, slid;
	bool raw_traffic;
	uint32_t flow_label;	/* 20 bits */
	uint8_t hop_limit;
	uint8_t traffic_class;
	bool reversible;
	uint8_t numb_path;	/* 7 bits */
	uint16_t pkey;
	uint16_t qos_class;	/* 12 bits */
	uint8_t sl;		/* 4 bits */
	uint8_t mtu_selector, mtu;		/* selector 2 bits, code 6 */
	uint8_t rate_selector, rate;
	uint8_t packet_life_selector, packet_life;
	uint8_t preference;
};

struct node_record {
	uint16_t lid;
	uint8_t node_type;
	uint8_t num_ports;
	uint8_t local_port;	/* the port this record is for (CA) */
	uint64_t node_guid, port_guid;
	char description[65];	/* NUL-terminated */
};

/* What a PathRecord query constrains; each has_ sets one mask bit. */
struct path_constraints {
	bool has_dgid, has_sgid, has_dlid, has_slid;
	bool has_sl, has_pkey, has_traffic_class, has_flow_label;
	bool has_hop_limit, has_mtu, has_rate, has_reversible, has_qos_class;
	bool has_numb_path;
	union ibv_gid dgid, sgid;
	uint16_t dlid, slid;
	uint8_t sl, traffic_class, hop_limit;
	uint16_t pkey, qos_class;
	uint32_t flow_label;
	uint16_t mtu_bytes;	/* exactly this MTU */
	uint8_t rate;		/* exactly this rate code */
	bool reversible;
	uint8_t numb_path;
};

/* The common and SA headers of a MAD. */
struct sa_header {
	uint8_t base_version, mgmt_class, class_version, method;
	uint16_t status;
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
	uint16_t attr_offset;	/* in 8-byte words */
	uint64_t comp_mask;
};

void pathrec_encode(const struct path_record *rec, uint8_t *data);
void pathrec_decode(const uint8_t *data, struct path_record *rec);

/* Builds the record and exact component mask of a query. */
uint64_t pathrec_query(const struct path_constraints *want,
		       struct path_record *rec);

void noderec_decode(const uint8_t *data, struct node_record *rec);

/* Encodes a complete SA request MAD (SA_MAD_BYTES, zero-padded). */
void sa_encode_request(uint8_t *mad, enum sa_method method,
		       enum sa_attribute attr, uint64_t tid,
		       uint64_t comp_mask, const uint8_t *data,
		       size_t data_len);
/* PathRecord Get with the constraints' exact mask. */
void sa_encode_path_query(uint8_t *mad, uint64_t tid,
			  const struct path_constraints *want);
/* NodeRecord GetTable by LID, port GUID or node description (one of
 * them): a description or a node's LID matches one record per CA port. */
void sa_encode_node_query(uint8_t *mad, uint64_t tid, uint16_t lid,
			  uint64_t port_guid, const char *description);

/* Decodes the headers; -1 when len is too short for them. */
int sa_decode_header(const uint8_t *mad, size_t len, struct sa_header *h);

/* The method an SA answers a request method with: Set is answered by
 * GetResp, every other method by itself with the response bit. */
uint8_t sa_response_method(uint8_t request_method);

/* The RMPP header of a MAD (offset 24): a GetTable answer travels as an
 * RMPP DATA message. On a real port the kernel's MAD layer reassembles
 * the segments (and ACKs them) for an agent registered with RMPP version
 * 1, so the message handed to user space is the whole table; what is
 * left to check here is whether the message is whole. */
struct sa_rmpp {
	uint8_t version, type, flags, status;
	uint32_t segment;
	uint32_t payload_length;	/* first segment: the whole message */
};
#define SA_RMPP_FLAG_ACTIVE 0x1
#define SA_RMPP_FLAG_FIRST 0x2
#define SA_RMPP_FLAG_LAST 0x4
void sa_decode_rmpp(const uint8_t *mad, struct sa_rmpp *r);

/* Where the records of a GetTableResp message of len bytes are: the
 * attribute offset gives the stride (records may be padded), and a
 * stride shorter than record_bytes is refused. */
struct sa_table {
	size_t stride;		/* bytes from one record to the next */
	size_t count;		/* whole records the message holds */
	/* The message says it is longer than what arrived: an RMPP
	 * message cut to its first segment (a stack without RMPP). */
	bool truncated;
	size_t expected;	/* records the whole message would hold */
};
int sa_table_layout(const uint8_t *msg, size_t len, size_t record_bytes,
		    struct sa_table *t, char *err, size_t errlen);

/* The MAD status in words: "ok", "no records", "invalid GID", ... */
const char *sa_status_str(uint16_t status);

#endif
