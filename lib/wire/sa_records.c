/* LinkRecord, LFTRecord and PortInfoRecord codecs; layouts in
 * sa_records.h. */
#include <string.h>

#include "wire/pathrec.h"
#include "wire/sa_records.h"
#include "wire/wire_bytes.h"

enum {
	LR_FROM_LID = 0, LR_FROM_PORT = 2, LR_TO_PORT = 3, LR_TO_LID = 4,
};
enum {
	LFTR_LID = 0, LFTR_BLOCK = 2, LFTR_PORTS = 8,
};
/* PortInfo starts at 4 in the record. */
enum {
	PIR_LID = 0, PIR_PORT_NUM = 2, PIR_OPTIONS = 3, PIR_INFO = 4,
	PI_LID = PIR_INFO + 16, PI_LOCAL_PORT = PIR_INFO + 28,
	PI_WIDTH_ACTIVE = PIR_INFO + 31, PI_SPEED_SUP_STATE = PIR_INFO + 32,
	PI_PHYS_STATE = PIR_INFO + 33, PI_LMC = PIR_INFO + 34,
	PI_SPEED_ACTIVE = PIR_INFO + 35, PI_SPEED_EXT = PIR_INFO + 62,
	PI_NEIGHBOR_MTU = PIR_INFO + 36, PI_MTU_CAP = PIR_INFO + 41,
};
/* NodeRecord: the LID is its first field (pathrec.h). */
#define NR_LID 0

_Static_assert(LFTR_PORTS + LFT_BLOCK_LIDS == LFT_RECORD_BYTES,
	       "an LFTRecord is 72 bytes");
_Static_assert(PI_SPEED_EXT < PORTINFO_RECORD_BYTES,
	       "PortInfo fits its record");

void linkrec_decode(const uint8_t *d, struct link_record *r)
{
	r->from_lid = wire_get16(d, LR_FROM_LID);
	r->from_port = d[LR_FROM_PORT];
	r->to_port = d[LR_TO_PORT];
	r->to_lid = wire_get16(d, LR_TO_LID);
}

void lftrec_decode(const uint8_t *d, struct lft_record *r)
{
	r->lid = wire_get16(d, LFTR_LID);
	r->block = wire_get16(d, LFTR_BLOCK);
	memcpy(r->ports, d + LFTR_PORTS, LFT_BLOCK_LIDS);
}

void portinforec_decode(const uint8_t *d, struct portinfo_record *r)
{
	memset(r, 0, sizeof(*r));
	r->lid = wire_get16(d, PIR_LID);
	r->port_num = d[PIR_PORT_NUM];
	r->options = d[PIR_OPTIONS];
	r->port_lid = wire_get16(d, PI_LID);
	r->local_port = d[PI_LOCAL_PORT];
	r->width_active = d[PI_WIDTH_ACTIVE];
	r->port_state = d[PI_SPEED_SUP_STATE] & 0xf;
	r->phys_state = d[PI_PHYS_STATE] >> 4;
	r->lmc = d[PI_LMC] & 0x7;
	r->speed_active = d[PI_SPEED_ACTIVE] >> 4;
	r->speed_ext_active = d[PI_SPEED_EXT] >> 4;
	r->neighbor_mtu = d[PI_NEIGHBOR_MTU] >> 4;
	r->mtu_cap = d[PI_MTU_CAP] & 0xf;
}

void sa_encode_link_get(uint8_t *mad, uint16_t from_lid, uint8_t from_port)
{
	uint8_t data[8] = { 0 };

	wire_put16(data, LR_FROM_LID, from_lid);
	data[LR_FROM_PORT] = from_port;
	sa_encode_request(mad, SA_METHOD_GET,
			  (enum sa_attribute)SA_ATTR_LINK_RECORD_ID, 0,
			  LR_COMP_FROM_LID | LR_COMP_FROM_PORT, data,
			  sizeof(data));
}

void sa_encode_link_port_table(uint8_t *mad, uint8_t from_port)
{
	uint8_t data[8] = { 0 };

	data[LR_FROM_PORT] = from_port;
	sa_encode_request(mad, SA_METHOD_GET_TABLE,
			  (enum sa_attribute)SA_ATTR_LINK_RECORD_ID, 0,
			  LR_COMP_FROM_PORT, data, sizeof(data));
}

void sa_encode_lft_get(uint8_t *mad, uint16_t lid, uint16_t block)
{
	uint8_t data[LFT_RECORD_BYTES] = { 0 };

	wire_put16(data, LFTR_LID, lid);
	wire_put16(data, LFTR_BLOCK, block);
	sa_encode_request(mad, SA_METHOD_GET,
			  (enum sa_attribute)SA_ATTR_LFT_RECORD_ID, 0,
			  LFTR_COMP_LID | LFTR_COMP_BLOCK, data, sizeof(data));
}

void sa_encode_lft_block_table(uint8_t *mad, uint16_t block)
{
	uint8_t data[LFT_RECORD_BYTES] = { 0 };

	wire_put16(data, LFTR_BLOCK, block);
	sa_encode_request(mad, SA_METHOD_GET_TABLE,
			  (enum sa_attribute)SA_ATTR_LFT_RECORD_ID, 0,
			  LFTR_COMP_BLOCK, data, sizeof(data));
}

void sa_encode_portinfo_get(uint8_t *mad, uint16_t lid, uint8_t port)
{
	uint8_t data[PORTINFO_RECORD_BYTES] = { 0 };

	wire_put16(data, PIR_LID, lid);
	data[PIR_PORT_NUM] = port;
	sa_encode_request(mad, SA_METHOD_GET,
			  (enum sa_attribute)SA_ATTR_PORTINFO_RECORD_ID, 0,
			  PIR_COMP_LID | PIR_COMP_PORT_NUM, data, sizeof(data));
}

void sa_encode_node_get(uint8_t *mad, uint16_t lid)
{
	uint8_t data[NODE_RECORD_BYTES] = { 0 };

	wire_put16(data, NR_LID, lid);
	sa_encode_request(mad, SA_METHOD_GET, SA_ATTR_NODE_RECORD, 0,
			  NR_COMP_LID, data, sizeof(data));
}

const char *portinfo_width_str(uint8_t w)
{
	switch (w) {
	case 1: return "1x";
	case 2: return "4x";
	case 4: return "8x";
	case 8: return "12x";
	case 16: return "2x";
	}
	return "?";
}

/* LinkSpeedExtActive, when set, overrides LinkSpeedActive (IBA
 * 14.2.5.6; libibmad's mad_dump_linkspeedext, ibv_query_port's
 * active_speed mapping in the kernel's ib_query_port()). */
const char *portinfo_speed_str(const struct portinfo_record *p)
{
	switch (p->speed_ext_active) {
	case 1: return "FDR";
	case 2: return "EDR";
	case 4: return "HDR";
	case 8: return "NDR";
	}
	switch (p->speed_active) {
	case 1: return "SDR";
	case 2: return "DDR";
	case 4: return "QDR";
	}
	return "?";
}

const char *portinfo_state_str(uint8_t s)
{
	static const char *const names[] = {
		[1] = "DOWN", [2] = "INIT", [3] = "ARMED", [4] = "ACTIVE",
		[5] = "ACTIVE_DEFER",
	};

	return s < sizeof(names) / sizeof(names[0]) && names[s] ? names[s]
								 : "?";
}

const char *portinfo_phys_state_str(uint8_t s)
{
	static const char *const names[] = {
		[1] = "Sleep", [2] = "Polling", [3] = "Disabled",
		[4] = "PortConfigurationTraining", [5] = "LinkUp",
		[6] = "LinkErrorRecovery", [7] = "PhyTest",
	};

	return s < sizeof(names) / sizeof(names[0]) && names[s] ? names[s]
								 : "?";
}
