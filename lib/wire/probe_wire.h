/* The probe wire format: explicit encode/decode at fixed offsets in network
 * byte order. A request carries the prober's sequence, id, send time and
 * the GRH parameters it asked for; a reply adds what the responder saw
 * (decoded GRH, work completion) and the reverse AH it built. Requests are
 * padded to at least PROBE_REPLY_SIZE so a reply is never larger than its
 * request: the responder cannot be used as an amplifier.
 *
 *  off len  field (request and reply)
 *    0   4  magic 'IAHP'
 *    4   1  version (1)
 *    5   1  kind (1 request, 2 reply)
 *    6   2  length of this message in bytes
 *    8   4  probe_id (the prober's run)
 *   12   4  sequence
 *   16   8  send_time_ns (prober's CLOCK_MONOTONIC)
 *   24   1  hop_limit asked for       25 1 traffic_class asked for
 *   26   1  sl asked for
 *   27   1  request flags (bit 0: the prober reads the timing of a
 *           160-byte reply and stamps messages; an older prober leaves
 *           it clear and gets the 136-byte reply it knows)
 *   28   4  flow_label asked for
 *  reply only:
 *   32   1  observed flags (bit 0 GRH present, bit 1 GRH form IPv4,
 *           bit 2 reverse AH created, bit 3 wc.sl is an SL: the
 *           responder's port is InfiniBand; on RoCE drivers put other
 *           things there, so a responder that leaves it clear says the
 *           SL it saw is unknown; bit 4 byte 98 holds the hop limit
 *           the reply left with: a responder that cannot tell, or an
 *           older one, leaves it clear and the reverse hops are
 *           unknown; bit 5 the responder reports the VLAN tag where
 *           its receive CQ can (an older responder leaves bits 5..7
 *           clear: VLAN unknown); bit 6 its CQ reported the tag: the
 *           VID is in bytes 46..47; bit 7 the PCP is there too)
 *   33   1  ip_version                34 1 traffic_class
 *   35   1  hop_limit                 36 4 flow_label
 *   40   2  wc.slid                   42 1 wc.sl
 *   43   1  wc.dlid_path_bits         44 2 wc.pkey_index
 *   46   2  VLAN tag the request arrived with: PCP in bits 15..13,
 *           VID in 11..0 (VID 0: untagged or priority-tagged); 0
 *           unless bit 6 of byte 32
 *   48   4  wc.src_qp
 *   52   4  wc.wc_flags
 *   56  16  observed SGID             72 16 observed DGID
 *   88   1  reverse is_global         89 1 reverse sl
 *   90   1  reverse src_path_bits     91 1 reverse static_rate
 *   92   2  reverse dlid              94 1 reverse port_num
 *   95   1  reverse sgid_index        96 1 reverse hop_limit
 *   97   1  reverse traffic_class     98 1 reply hop limit sent
 *   99   1  reserved
 *  100   4  reverse flow_label       104 16 reverse dgid
 *  120   8  responder time (CLOCK_MONOTONIC ns)
 *  128   4  reverse AH errno (0: created)
 *  132   4  requests of this prober's set the responder has received,
 *           this one included (0: an older responder, count unknown)
 *
 *  reply of 160 bytes (to a request with flag bit 0) only:
 *  136   1  timing flags (bit 0 dwell known, bit 1 a stamps message with
 *           the hardware dwell follows)
 *  137   1  the responder's wait for completions (stamp_source: 1 it
 *           sleeps on completion events, 2 it busy-polls)
 *  138   6  reserved
 *  144   8  dwell ns: the request's receive completion taken to the
 *           reply posted, on the responder's CLOCK_MONOTONIC
 *  152   8  of the dwell, ns the reply waited for its reply AH (first
 *           contact: the neighbour's ARP/ND)
 *
 *  stamps message (kind 3, 48 bytes), sent after the reply's own send
 *  completion, to a request of at least PROBE_REQUEST_MIN_SIZE bytes:
 *    0  32  the request's header, echoed
 *   32   1  flags (bit 0 hardware dwell known)
 *   33   7  reserved
 *   40   8  hardware dwell ns: the reply's send completion minus the
 *           request's receive completion, the device's clock
 *
 * Bytes 46..47, 98 and 132..135 were reserved (zero) in earlier builds
 * of the same version: an older responder's reply decodes with them
 * unknown. A
 * reply of 136 bytes (an older responder, or an older prober's request)
 * decodes with the timing unknown. A request is never smaller than the
 * reply and stamps message it can draw together.
 */
#ifndef IBAHPROBE_PROBE_WIRE_H
#define IBAHPROBE_PROBE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "base/stamp_source.h"

#define PROBE_MAGIC 0x49414850u	/* "IAHP" */
#define PROBE_VERSION 1
#define PROBE_HEADER_SIZE 32
/* The reply an older prober reads (no timing). */
#define PROBE_REPLY_V1_SIZE 136
#define PROBE_REPLY_SIZE 160
#define PROBE_STAMPS_SIZE 48
/* What an older prober sends at least: still answered, 136 bytes. */
#define PROBE_REQUEST_V1_MIN_SIZE PROBE_REPLY_V1_SIZE
/* What we send at least: the reply and a stamps message together are
 * never more bytes than the request that drew them. */
#define PROBE_REQUEST_MIN_SIZE (PROBE_REPLY_SIZE + PROBE_STAMPS_SIZE)
/* Request flags (byte 27). */
#define PROBE_REQUEST_WANTS_TIMING 0x01u
/* The UD receive area is GRH (40 bytes) + payload: 4096 is the largest
 * IB MTU, so no probe is larger. */
#define PROBE_MAX_SIZE 4096

enum probe_kind {
	PROBE_REQUEST = 1,
	PROBE_REPLY = 2,
	PROBE_STAMPS = 3,	/* the hardware dwell of a reply sent before */
};

struct probe_params {
	uint8_t hop_limit;
	uint8_t traffic_class;
	uint8_t sl;
	uint32_t flow_label;
};

struct probe_header {
	enum probe_kind kind;
	uint16_t length;
	uint32_t probe_id;
	uint32_t sequence;
	uint64_t send_time_ns;
	struct probe_params asked;
	uint8_t flags;		/* PROBE_REQUEST_* of the request */
};

/* What the responder saw of one request. */
struct probe_observed {
	bool grh_present;
	bool grh_ipv4;
	uint8_t ip_version;
	uint8_t traffic_class;
	uint8_t hop_limit;
	uint32_t flow_label;
	union ibv_gid sgid, dgid;
	uint16_t slid;
	bool sl_valid;		/* sl is the packet's SL (InfiniBand) */
	uint8_t sl;
	uint8_t dlid_path_bits;
	uint16_t pkey_index;
	uint32_t src_qp;
	uint32_t wc_flags;
	/* The VLAN tag the request arrived with (ibv_wc_read_cvlan). */
	bool vlan_reporter;	/* the responder reads it where it can */
	bool vlan_known;	/* its CQ reported it */
	bool pcp_known;		/* with the PCP (not the VID alone) */
	uint16_t vlan_id;	/* 0: untagged or priority-tagged */
	uint8_t pcp;
};

struct probe_reply {
	struct probe_header header;	/* echoed from the request */
	struct probe_observed observed;
	bool reverse_created;
	int32_t reverse_errno;
	struct ibv_ah_attr reverse_ah;
	/* The hop limit this reply left the responder with: the AH's where
	 * the provider sends it, the route's where the kernel overwrites it
	 * (reverse_hop_limit_sent). Not known: reverse hops unknown. */
	bool hop_limit_sent_known;
	uint8_t hop_limit_sent;
	/* Requests of this set (probe id, sender, parameters) the responder
	 * received so far, this one included; 0: unknown (older responder). */
	uint32_t responder_received;
	uint64_t responder_time_ns;
	/* Timing (a 160-byte reply; a 136-byte one: dwell unknown). */
	bool dwell_known;
	uint64_t dwell_ns;	/* request taken -> reply posted */
	uint64_t reply_ah_wait_ns;	/* of which, waiting for its AH */
	enum stamp_source responder_wait;	/* STAMP_SW_EVENT or _BUSY */
	bool stamps_follow;	/* a stamps message with the hw dwell */
};

/* The hardware dwell of a reply, known after the reply was sent. */
struct probe_stamps {
	struct probe_header header;	/* echoed from the request */
	bool hw_dwell_known;
	uint64_t hw_dwell_ns;
};

enum probe_decode_error {
	PROBE_OK = 0,
	PROBE_ERR_SHORT,	/* shorter than the header or its own length */
	PROBE_ERR_MAGIC,
	PROBE_ERR_VERSION,
	PROBE_ERR_KIND,
	PROBE_ERR_LENGTH,	/* length field disagrees with the bytes */
	PROBE_ERR_COUNT,
};

const char *probe_decode_error_name(enum probe_decode_error err);

/* Writes a request of `size` bytes (PROBE_REQUEST_MIN_SIZE..
 * PROBE_MAX_SIZE, padding zeroed) into buf; returns size or 0 when size
 * is out of range. */
size_t probe_encode_request(const struct probe_header *h, uint8_t *buf,
			    size_t size);
/* The reply a request of these flags gets: PROBE_REPLY_SIZE to a prober
 * that reads the timing, PROBE_REPLY_V1_SIZE to an older one. */
size_t probe_reply_size_for(const struct probe_header *request);
/* Writes a reply of `size` bytes (PROBE_REPLY_SIZE, or
 * PROBE_REPLY_V1_SIZE without the timing) into buf; returns size, or 0
 * for another size. */
size_t probe_encode_reply(const struct probe_reply *r, uint8_t *buf,
			  size_t size);
/* A stamps message may follow a reply: the request asked for timing and
 * is large enough to cover both (no amplification). */
bool probe_stamps_allowed(const struct probe_header *request);
/* Writes a stamps message (PROBE_STAMPS_SIZE bytes); returns its size. */
size_t probe_encode_stamps(const struct probe_stamps *m, uint8_t *buf);

/* Decodes the common header of len bytes and checks it; kind tells which
 * message it is. */
enum probe_decode_error probe_decode_header(const uint8_t *buf, size_t len,
					    struct probe_header *h);
enum probe_decode_error probe_decode_reply(const uint8_t *buf, size_t len,
					   struct probe_reply *r);
enum probe_decode_error probe_decode_stamps(const uint8_t *buf, size_t len,
					    struct probe_stamps *m);

#endif
