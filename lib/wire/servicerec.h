/* SA ServiceRecord (attribute 0x0031, IBA 15.2.5.14): the codec at the
 * IBA's fixed offsets in network byte order, component masks, and how an
 * ibahprobe responder is written into one.
 *
 * ServiceRecord (176 bytes): 0 ServiceID (8), 8 ServiceGID (16),
 * 24 ServiceP_Key (2), 26 reserved (2), 28 ServiceLease (4, seconds;
 * 0xFFFFFFFF: infinite), 32 ServiceKey (16), 48 ServiceName (64, UTF-8,
 * NUL-padded), 112 ServiceData8[16], 128 ServiceData16[8],
 * 144 ServiceData32[4], 160 ServiceData64[2].
 *
 * Component mask bits: 0 ServiceID, 1 ServiceGID, 2 ServiceP_Key,
 * 3 reserved, 4 ServiceLease, 5 ServiceKey, 6 ServiceName,
 * 7..22 ServiceData8[0..15], 23..30 ServiceData16[0..7],
 * 31..34 ServiceData32[0..3], 35..36 ServiceData64[0..1]. */
#ifndef IBAHPROBE_SERVICEREC_H
#define IBAHPROBE_SERVICEREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "wire/pathrec.h"

#define SERVICE_RECORD_BYTES 176
#define SERVICE_NAME_BYTES 64
#define SERVICE_LEASE_INFINITE 0xffffffffu

enum service_comp {
	SR_COMP_ID = 1ull << 0,
	SR_COMP_GID = 1ull << 1,
	SR_COMP_PKEY = 1ull << 2,
	SR_COMP_LEASE = 1ull << 4,
	SR_COMP_KEY = 1ull << 5,
	SR_COMP_NAME = 1ull << 6,
};
#define SR_COMP_DATA8(i) (1ull << (7 + (i)))
#define SR_COMP_DATA16(i) (1ull << (23 + (i)))
#define SR_COMP_DATA32(i) (1ull << (31 + (i)))
#define SR_COMP_DATA64(i) (1ull << (35 + (i)))

struct service_record {
	uint64_t id;
	union ibv_gid gid;
	uint16_t pkey;
	uint32_t lease;
	uint8_t key[16];
	char name[SERVICE_NAME_BYTES + 1];	/* NUL-terminated */
	uint8_t data8[16];
	uint16_t data16[8];
	uint32_t data32[4];
	uint64_t data64[2];
};

void servicerec_encode(const struct service_record *rec, uint8_t *data);
void servicerec_decode(const uint8_t *data, struct service_record *rec);

/* A complete ServiceRecord request MAD (Set, Delete, Get or GetTable). */
void sa_encode_service_request(uint8_t *mad, enum sa_method method,
			       uint64_t tid, const struct service_record *rec,
			       uint64_t comp_mask);

/* ibahprobe's responders in the SA.
 *
 * ServiceID 0x020000001ab4e0be: IBA Annex A3 gives IDs whose top byte is
 * 0x02 to local administration, so this cannot collide with an
 * IBTA-assigned or OUI-based (vendor) ID such as rdma_cm's IP services
 * (0x0000000001...); the low 32 bits are ibahprobe's default Q_Key, as a
 * mnemonic. Every responder uses the same ServiceID with its own port GID,
 * so the record ID (ServiceID, GID, P_Key) is one per port, and one
 * GetTable on the ServiceID finds them all.
 *
 * ServiceName "ibahprobe:<host>" (the host name, cut to fit 64 bytes).
 * ServiceP_Key 0xffff: the default partition, set explicitly so the Set
 * and the Delete name the same record on every SA.
 * ServiceData32[0] QPN, [1] Q_Key; ServiceData16[0] the record format
 * (1), [1] the rendezvous TCP port (0: none), [2] the LID at
 * registration (informational: probers ask the SA for a path).
 * Everything ibahprobe uses sits in the first 160 bytes of the record. */
#define IBAHPROBE_SERVICE_ID 0x020000001ab4e0beull
#define IBAHPROBE_SERVICE_PREFIX "ibahprobe"
#define IBAHPROBE_SERVICE_FORMAT 1
#define IBAHPROBE_SERVICE_PKEY 0xffff
/* A finite lease, renewed by serve every third of it: a responder that
 * dies without deleting its record drops out within a minute. */
#define IBAHPROBE_SERVICE_LEASE_S 60

struct responder_record {
	union ibv_gid gid;
	uint32_t qpn;
	uint32_t qkey;
	uint16_t lid;
	uint16_t rendezvous_port;	/* 0: none */
	uint32_t lease;
	/* As registered: anything but a NUL. Shown only through
	 * text_escape(). */
	char host[SERVICE_NAME_BYTES + 1];
};

/* The record and exact component mask of a Set (or Delete) for r. */
uint64_t servicerec_from_responder(const struct responder_record *r,
				   struct service_record *rec);
/* The record and mask of the query for every ibahprobe responder. */
uint64_t servicerec_discovery_query(struct service_record *rec);
/* An ibahprobe responder's record to its fields; -1 with err set when the
 * record is not one (another service, another format, no QPN). */
int servicerec_to_responder(const struct service_record *rec,
			    struct responder_record *r, char *err,
			    size_t errlen);

#endif
