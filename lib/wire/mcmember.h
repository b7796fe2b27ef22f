/* SA MCMemberRecord (attribute 0x0038, IBA 15.2.5.17): the codec at the
 * IBA's fixed offsets in network byte order, its component mask bits and
 * JoinState bits, and the request MADs of a join (SubnAdmSet), a leave
 * (SubnAdmDelete) and a query (SubnAdmGet / SubnAdmGetTable).
 *
 * MCMemberRecord (52 bytes; opensm's ib_member_rec_t pads it to 56 and
 * answers GetTable with an attribute offset of 7 words):
 *   0 MGID (16)            16 PortGID (16)      32 Q_Key (4)
 *  36 MLID (2)             38 MTUSelector:2 MTU:6
 *  39 TClass               40 P_Key (2)         42 RateSelector:2 Rate:6
 *  43 PacketLifeTimeSelector:2 PacketLifeTime:6
 *  44 SL:4 FlowLabel:20 HopLimit:8 (one 32-bit word)
 *  48 Scope:4 JoinState:4  49 ProxyJoin:1 Reserved:7   50 Reserved (2)
 *
 * Component mask bits (opensm's IB_MCR_COMPMASK_*): 0 MGID, 1 PortGID,
 * 2 Q_Key, 3 MLID, 4 MTUSelector, 5 MTU, 6 TClass, 7 P_Key,
 * 8 RateSelector, 9 Rate, 10 PacketLifeTimeSelector, 11 PacketLifeTime,
 * 12 SL, 13 FlowLabel, 14 HopLimit, 15 Scope, 16 JoinState, 17 ProxyJoin.
 *
 * JoinState bits (IBA 15.2.5.17 table 208): 0 FullMember, 1 NonMember,
 * 2 SendOnlyNonMember, 3 SendOnlyFullMember (IBA 1.3). */
#ifndef IBAHPROBE_MCMEMBER_H
#define IBAHPROBE_MCMEMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "wire/pathrec.h"

#define SA_ATTR_MCMEMBER_RECORD 0x0038
#define MCMEMBER_RECORD_BYTES 52

enum mcmember_comp {
	MCR_COMP_MGID = 1ull << 0,
	MCR_COMP_PORT_GID = 1ull << 1,
	MCR_COMP_QKEY = 1ull << 2,
	MCR_COMP_MLID = 1ull << 3,
	MCR_COMP_MTU_SELECTOR = 1ull << 4,
	MCR_COMP_MTU = 1ull << 5,
	MCR_COMP_TCLASS = 1ull << 6,
	MCR_COMP_PKEY = 1ull << 7,
	MCR_COMP_RATE_SELECTOR = 1ull << 8,
	MCR_COMP_RATE = 1ull << 9,
	MCR_COMP_PACKET_LIFE_SELECTOR = 1ull << 10,
	MCR_COMP_PACKET_LIFE = 1ull << 11,
	MCR_COMP_SL = 1ull << 12,
	MCR_COMP_FLOW_LABEL = 1ull << 13,
	MCR_COMP_HOP_LIMIT = 1ull << 14,
	MCR_COMP_SCOPE = 1ull << 15,
	MCR_COMP_JOIN_STATE = 1ull << 16,
	MCR_COMP_PROXY_JOIN = 1ull << 17,
};

enum mcmember_join_state {
	MC_JOIN_FULL_MEMBER = 1 << 0,
	MC_JOIN_NON_MEMBER = 1 << 1,
	MC_JOIN_SEND_ONLY_NON_MEMBER = 1 << 2,
	MC_JOIN_SEND_ONLY_FULL_MEMBER = 1 << 3,
};

struct mcmember_record {
	union ibv_gid mgid, port_gid;
	uint32_t qkey;
	uint16_t mlid;
	uint8_t mtu_selector, mtu;	/* 2 bits, code 6 bits */
	uint8_t traffic_class;
	uint16_t pkey;
	uint8_t rate_selector, rate;
	uint8_t packet_life_selector, packet_life;
	uint8_t sl;			/* 4 bits */
	uint32_t flow_label;		/* 20 bits */
	uint8_t hop_limit;
	uint8_t scope;			/* 4 bits */
	uint8_t join_state;		/* 4 bits, MC_JOIN_* */
	bool proxy_join;
};

void mcmember_encode(const struct mcmember_record *rec, uint8_t *data);
void mcmember_decode(const uint8_t *data, struct mcmember_record *rec);

/* A complete MCMemberRecord request MAD (SA_MAD_BYTES) with exactly
 * comp_mask; sm_key 0 is an untrusted request (what opensm answers one is
 * in sa/mcast_group.h). */
void sa_encode_mcmember_request(uint8_t *mad, enum sa_method method,
				uint64_t tid, const struct mcmember_record *rec,
				uint64_t comp_mask, uint64_t sm_key);

/* "FullMember", "SendOnlyNonMember+FullMember", "none" (0), in bit
 * order, into buf. */
const char *mcmember_join_state_str(uint8_t join_state, char *buf,
				    size_t len);

#endif
