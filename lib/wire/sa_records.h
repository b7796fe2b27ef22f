/* The SA records a trace reads, besides PathRecord and NodeRecord (in
 * pathrec.h): LinkRecord (attribute 0x0020), LinearForwardingTableRecord
 * (0x0015) and PortInfoRecord (0x0012), decoded at the IBA's fixed offsets
 * in network byte order, and the SubnAdmGet requests that name exactly one
 * record of each. Layouts as opensm's SA answers them
 * (osm_sa_link_record.c lr_rcv_build_physp_link(), osm_sa_lft_record.c
 * lftr_rcv_new_lftr(), osm_sa_portinfo_record.c pir_rcv_new_pir()) and
 * infiniband-diags' saquery.c dumps them:
 *
 * LinkRecord (6 bytes, padded to 8): 0 FromLID, 2 FromPort, 3 ToPort,
 * 4 ToLID. LIDs are base LIDs; a switch's is its port 0 LID.
 *
 * LFTRecord (72 bytes): 0 LID, 2 BlockNum, 4 reserved (4), 8 the block:
 * 64 one-byte out ports, entry i for DLID BlockNum * 64 + i; 255 means no
 * route.
 *
 * PortInfoRecord (72 bytes): 0 EndportLID, 2 PortNum, 3 Options, 4
 * PortInfo (64), 68 padding. PortInfo offsets: 16 LID, 28 LocalPortNum,
 * 31 LinkWidthActive, 32 LinkSpeedSupported:4 PortState:4,
 * 33 PortPhysicalState:4 LinkDownDefaultState:4, 34 M_KeyProtectBits:2
 * reserved:3 LMC:3, 35 LinkSpeedActive:4 LinkSpeedEnabled:4,
 * 36 NeighborMTU:4 MasterSMSL:4, 41 InitTypeReply:4 MTUCap:4,
 * 62 LinkSpeedExtActive:4 LinkSpeedExtSupported:4 (libibmad's fields.c
 * numbers the same bits). */
#ifndef IBAHPROBE_SA_RECORDS_H
#define IBAHPROBE_SA_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SA_ATTR_PORTINFO_RECORD_ID 0x0012
#define SA_ATTR_LFT_RECORD_ID 0x0015
#define SA_ATTR_LINK_RECORD_ID 0x0020

#define LINK_RECORD_BYTES 6
#define LFT_RECORD_BYTES 72
#define PORTINFO_RECORD_BYTES 72
#define LFT_BLOCK_LIDS 64
#define LFT_NO_ROUTE 255

/* Component mask bits (IBA 15.2.5.x; opensm's ib_types.h names them
 * IB_LR_COMPMASK_*, IB_LFTR_COMPMASK_*, IB_PIR_COMPMASK_*). */
enum {
	LR_COMP_FROM_LID = 1ull << 0,
	LR_COMP_FROM_PORT = 1ull << 1,
	LR_COMP_TO_PORT = 1ull << 2,
	LR_COMP_TO_LID = 1ull << 3,
};
enum {
	LFTR_COMP_LID = 1ull << 0,
	LFTR_COMP_BLOCK = 1ull << 1,
};
enum {
	PIR_COMP_LID = 1ull << 0,
	PIR_COMP_PORT_NUM = 1ull << 1,
};

/* PortState (IBA 14.2.5.6, as ibv_port_state numbers it). */
enum {
	PORT_STATE_DOWN = 1,
	PORT_STATE_INIT = 2,
	PORT_STATE_ARMED = 3,
	PORT_STATE_ACTIVE = 4,
};

struct link_record {
	uint16_t from_lid;
	uint8_t from_port;
	uint8_t to_port;
	uint16_t to_lid;
};

struct lft_record {
	uint16_t lid;
	uint16_t block;
	uint8_t ports[LFT_BLOCK_LIDS];
};

struct portinfo_record {
	uint16_t lid;		/* EndportLID of the record */
	uint8_t port_num;
	uint8_t options;
	uint16_t port_lid;	/* PortInfo.LID (0 on a switch's external port) */
	uint8_t local_port;
	uint8_t width_active;	/* 1 1x, 2 4x, 4 8x, 8 12x, 16 2x */
	uint8_t speed_active;	/* 1 SDR, 2 DDR, 4 QDR */
	uint8_t speed_ext_active; /* 0: none; 1 FDR, 2 EDR, 4 HDR, 8 NDR */
	uint8_t port_state;	/* PORT_STATE_* */
	uint8_t phys_state;	/* 5 LinkUp, 2 Polling, 3 Disabled, ... */
	uint8_t lmc;
	uint8_t neighbor_mtu;	/* the active MTU, code 1..5 */
	uint8_t mtu_cap;	/* code 1..5: what opensm's SA compares with a
				 * multicast group's MTU (validate_port_caps) */
};

void linkrec_decode(const uint8_t *data, struct link_record *rec);
void lftrec_decode(const uint8_t *data, struct lft_record *rec);
void portinforec_decode(const uint8_t *data, struct portinfo_record *rec);

/* SubnAdmGet requests (SA_MAD_BYTES) naming one record each: the link
 * out of a port, a switch's LFT block, a port's PortInfo, a node by LID.
 * A Get that matches more than one record is answered "too many records"
 * by opensm (osm_sa_respond()), so each names the whole key. */
void sa_encode_link_get(uint8_t *mad, uint16_t from_lid, uint8_t from_port);
void sa_encode_lft_get(uint8_t *mad, uint16_t lid, uint16_t block);
void sa_encode_portinfo_get(uint8_t *mad, uint16_t lid, uint8_t port);
void sa_encode_node_get(uint8_t *mad, uint16_t lid);
/* A SubnAdmGetTable of the links out of port from_port of every node
 * (component mask FromPort alone). */
void sa_encode_link_port_table(uint8_t *mad, uint8_t from_port);
/* A SubnAdmGetTable of one LFT block of every switch (component mask
 * BlockNum alone: opensm's lftr_rcv_by_comp_mask() then answers that
 * block of each switch, one 72-byte record a switch). */
void sa_encode_lft_block_table(uint8_t *mad, uint16_t block);

/* Words for link width, speed and port states: "4x", "QDR", "ACTIVE",
 * "LinkUp"; "?" for codes the IBA does not define. */
const char *portinfo_width_str(uint8_t width_active);
const char *portinfo_speed_str(const struct portinfo_record *p);
const char *portinfo_state_str(uint8_t port_state);
const char *portinfo_phys_state_str(uint8_t phys_state);

#endif
