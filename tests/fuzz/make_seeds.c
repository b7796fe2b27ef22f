/* Writes the binary and generated seeds of the fuzz targets into
 * tests/fuzz/corpus/NAME/ with the library's own encoders, so every seed
 * is a well-formed GRH, SA answer, probe message or rendezvous answer to
 * start mutating from (a fuzzer rarely finds a 24-bit QPN or a valid IPv4
 * checksum by itself). The text seeds (checklists, reports, numbers,
 * destinations) are plain files written by hand. Regenerate after a wire
 * format change, from the top directory, after `make`:
 *
 *   cc -D_GNU_SOURCE -Ilib -o build/make_seeds tests/fuzz/make_seeds.c \
 *      build/lib/libibahprobe.a -libverbs -libumad -libmad -ljson-c -lm \
 *      && build/make_seeds tests/fuzz/corpus
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/grh.h"
#include "wire/pathrec.h"
#include "wire/probe_wire.h"
#include "peer/rendezvous.h"
#include "sa/sa_status.h"
#include "wire/servicerec.h"
#include "wire/wire_bytes.h"

static const char *dir;

static void put(const char *target, const char *name, const void *data,
		size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, target, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static void gid_from(const char *text, union ibv_gid *gid)
{
	if (inet_pton(AF_INET6, text, gid->raw) != 1)
		abort();
}

/* fuzz_grh: flag byte, 40-byte area, local GIDs. */
static void grh_seeds(void)
{
	struct grh_fields f = { 0 };
	union ibv_gid other;
	uint8_t buf[1 + GRH_BYTES + 3 * 16];

	buf[0] = 1;
	f.form = GRH_FORM_IPV6;
	f.ip_version = 6;
	f.traffic_class = 0x28;
	f.flow_label = 0x12345;
	f.payload_length = 136;
	f.next_header = 0x1b;
	f.hop_limit = 62;
	gid_from("fe80::2", &f.sgid);
	gid_from("fe80::1", &f.dgid);
	grh_encode(&f, buf + 1);
	put("fuzz_grh", "ib-ipv6", buf, 1 + GRH_BYTES);
	memcpy(buf + 1 + GRH_BYTES, f.dgid.raw, 16);
	put("fuzz_grh", "ib-ipv6-local", buf, 1 + GRH_BYTES + 16);

	memset(&f, 0, sizeof(f));
	f.form = GRH_FORM_IPV4;
	f.ip_version = 4;
	f.traffic_class = 0x30;
	f.payload_length = 164;
	f.next_header = 17;
	f.hop_limit = 63;
	gid_from("::ffff:198.18.4.4", &f.sgid);
	gid_from("::ffff:198.18.1.1", &f.dgid);
	grh_encode(&f, buf + 1);
	put("fuzz_grh", "rocev2-ipv4", buf, 1 + GRH_BYTES);
	gid_from("fe80::1", &other);
	memcpy(buf + 1 + GRH_BYTES, other.raw, 16);
	memcpy(buf + 1 + GRH_BYTES + 16, f.dgid.raw, 16);
	put("fuzz_grh", "rocev2-ipv4-local", buf, 1 + GRH_BYTES + 32);
	f.ipv4_checksum_zero = true;
	grh_encode(&f, buf + 1);
	/* irdma-style zero checksum behind stale bytes that read as v6 */
	buf[1] = 0x60;
	put("fuzz_grh", "rocev2-ipv4-checksum-zero", buf,
	    1 + GRH_BYTES + 32);
	memset(buf + 1, GRH_SENTINEL, GRH_BYTES);
	put("fuzz_grh", "sentinel", buf, 1 + GRH_BYTES);
}

static void sa_answer(uint8_t *mad, uint8_t method, uint16_t attr,
		      uint16_t status, uint16_t attr_offset)
{
	memset(mad, 0, SA_MAD_BYTES);
	mad[0] = 1;
	mad[1] = SA_MGMT_CLASS;
	mad[2] = SA_CLASS_VERSION;
	mad[3] = method;
	wire_put16(mad, 4, status);
	wire_put64(mad, 8, 0x1234);
	wire_put16(mad, 16, attr);
	wire_put16(mad, 44, attr_offset);
}

/* fuzz_sa_answer and fuzz_servicerec: SA answers. */
static void sa_seeds(void)
{
	uint8_t mad[SA_MAD_BYTES], big[SA_HEADER_BYTES + 3 * 176];
	struct path_record pr = { 0 };
	struct service_record sr;
	struct responder_record rr = { 0 };

	sa_answer(mad, SA_METHOD_GET_RESP, SA_ATTR_PATH_RECORD, 0,
		  PATH_RECORD_BYTES / 8);
	gid_from("fe80::2:c903:a:1", &pr.dgid);
	gid_from("fe80::2:c903:a:2", &pr.sgid);
	pr.dlid = 12;
	pr.slid = 4;
	pr.hop_limit = 0;
	pr.reversible = true;
	pr.numb_path = 1;
	pr.pkey = 0xffff;
	pr.sl = 3;
	pr.mtu_selector = SA_SELECTOR_EXACTLY;
	pr.mtu = 4;
	pr.rate_selector = SA_SELECTOR_EXACTLY;
	pr.rate = 7;
	pr.packet_life_selector = SA_SELECTOR_EXACTLY;
	pr.packet_life = 18;
	pathrec_encode(&pr, mad + SA_HEADER_BYTES);
	put("fuzz_sa_answer", "path-record", mad, sizeof(mad));

	/* A NodeRecord table of a CA's two ports (records padded to 112
	 * bytes), reassembled from two RMPP segments. */
	memset(big, 0, sizeof(big));
	sa_answer(big, SA_METHOD_GET_TABLE_RESP, SA_ATTR_NODE_RECORD, 0,
		  NODE_RECORD_BYTES / 8 + 1);
	big[24] = 1;
	big[25] = 1;
	big[26] = SA_RMPP_FLAG_ACTIVE | SA_RMPP_FLAG_FIRST | SA_RMPP_FLAG_LAST;
	wire_put32(big, 28, 1);
	for (int i = 0; i < 2; i++) {
		uint8_t *rec = big + SA_HEADER_BYTES + i * (NODE_RECORD_BYTES + 4);

		wire_put16(rec, 0, (uint16_t)(5 + i));
		rec[4 + 2] = 1;		/* NodeType CA */
		rec[4 + 3] = 2;		/* NumPorts */
		wire_put64(rec, 4 + 12, 0x0002c90300001000ull);
		wire_put64(rec, 4 + 20, 0x0002c90300001001ull + (uint64_t)i);
		rec[4 + 36] = (uint8_t)(2 - i);
		memcpy(rec + 44, "node01 HCA-1", 12);
	}
	put("fuzz_sa_answer", "node-table",
	    big, SA_HEADER_BYTES + NODE_RECORD_BYTES + 4 + NODE_RECORD_BYTES);

	/* The same cut to its first packet, the payload length saying
	 * how much the whole message was (two segments of 220 bytes). */
	wire_put32(big, 32, 2 * 220);
	big[26] = SA_RMPP_FLAG_ACTIVE | SA_RMPP_FLAG_FIRST;
	put("fuzz_sa_answer", "node-table-truncated", big, SA_MAD_BYTES);

	/* Busy, and a redirect with a ClassPortInfo. */
	sa_answer(mad, SA_METHOD_GET_RESP, SA_ATTR_PATH_RECORD, 0x0001, 0);
	put("fuzz_sa_answer", "busy", mad, sizeof(mad));
	sa_answer(mad, SA_METHOD_GET_RESP, SA_ATTR_CLASS_PORT_INFO, 0x0002, 0);
	wire_put32(mad, SA_HEADER_BYTES + 24, 3u << 20);
	wire_put16(mad, SA_HEADER_BYTES + 28, 9);
	wire_put16(mad, SA_HEADER_BYTES + 30, 0x8001);
	wire_put32(mad, SA_HEADER_BYTES + 32, 5);
	wire_put32(mad, SA_HEADER_BYTES + 36, 0x80010000u);
	put("fuzz_sa_answer", "redirect", mad, sizeof(mad));
	sa_answer(mad, SA_METHOD_GET_TABLE_RESP, SA_ATTR_PATH_RECORD, 0x0300, 0);
	put("fuzz_sa_answer", "no-records", mad, sizeof(mad));

	/* ServiceRecord tables: ibahprobe responders and a foreign one. */
	rr.qpn = 0x11;
	rr.qkey = 0x1ab4e0be;
	rr.lid = 7;
	rr.rendezvous_port = 18517;
	rr.lease = 60;
	gid_from("fe80::2:c903:a:7", &rr.gid);
	snprintf(rr.host, sizeof(rr.host), "node07");
	memset(big, 0, sizeof(big));
	sa_answer(big, SA_METHOD_GET_TABLE_RESP, SA_ATTR_SERVICE_RECORD, 0,
		  SERVICE_RECORD_BYTES / 8);
	for (int i = 0; i < 3; i++) {
		servicerec_from_responder(&rr, &sr);
		if (i == 2) {
			sr.id = 0x0000000001000000ull;
			snprintf(sr.name, sizeof(sr.name), "rdma_cm");
		}
		servicerec_encode(&sr, big + SA_HEADER_BYTES + i * 176);
		rr.qpn++;
		rr.lid++;
	}
	put("fuzz_sa_answer", "service-table", big, sizeof(big));
	put("fuzz_servicerec", "service-table", big, sizeof(big));
	put("fuzz_servicerec", "service-table-one-mad", big, SA_MAD_BYTES);
}

/* fuzz_probe_wire: a request and a reply. */
static void probe_seeds(void)
{
	struct probe_reply r = { 0 };
	uint8_t buf[PROBE_MAX_SIZE];
	size_t n;

	r.header.kind = PROBE_REQUEST;
	r.header.probe_id = 0x5eed;
	r.header.sequence = 7;
	r.header.send_time_ns = 123456789;
	r.header.asked.hop_limit = 64;
	r.header.asked.traffic_class = 0x28;
	r.header.asked.flow_label = 0x1234;
	n = probe_encode_request(&r.header, buf, PROBE_REQUEST_MIN_SIZE);
	put("fuzz_probe_wire", "request", buf, n);
	r.header.kind = PROBE_REPLY;
	r.observed.grh_present = true;
	r.observed.grh_ipv4 = true;
	r.observed.ip_version = 4;
	r.observed.traffic_class = 0x30;
	r.observed.hop_limit = 62;
	r.observed.src_qp = 17;
	gid_from("::ffff:10.1.0.11", &r.observed.sgid);
	gid_from("::ffff:10.1.0.12", &r.observed.dgid);
	r.reverse_created = true;
	r.reverse_ah.is_global = 1;
	r.reverse_ah.port_num = 1;
	r.reverse_ah.grh.hop_limit = 255;
	n = probe_encode_reply(&r, buf, PROBE_REPLY_V1_SIZE);
	put("fuzz_probe_wire", "reply-v1", buf, n);
	r.dwell_known = true;
	r.dwell_ns = 12000;
	r.responder_wait = STAMP_SW_EVENT;
	n = probe_encode_reply(&r, buf, PROBE_REPLY_SIZE);
	put("fuzz_probe_wire", "reply", buf, n);
	{
		struct probe_stamps m = { .header = r.header };

		m.hw_dwell_known = true;
		m.hw_dwell_ns = 2100;
		n = probe_encode_stamps(&m, buf);
		put("fuzz_probe_wire", "stamps", buf, n);
	}
}

/* fuzz_rendezvous: serve's answer. */
static void rendezvous_seeds(void)
{
	struct responder_info info = { 0 };
	char *text;

	info.version = 1;
	snprintf(info.device, sizeof(info.device), "rxe0");
	info.port_num = 1;
	info.qpn = 17;
	info.qkey = 0x1ab4e0be;
	snprintf(info.link_layer, sizeof(info.link_layer), "Ethernet");
	info.gid_count = 2;
	info.gids[0].index = 0;
	gid_from("fe80::5054:ff:fe12:3456", &info.gids[0].gid);
	snprintf(info.gids[0].type, sizeof(info.gids[0].type), "RoCE v2");
	info.gids[1].index = 1;
	gid_from("::ffff:10.1.0.11", &info.gids[1].gid);
	snprintf(info.gids[1].type, sizeof(info.gids[1].type), "RoCE v2");
	text = rendezvous_encode(&info);
	if (!text)
		abort();
	put("fuzz_rendezvous", "roce", text, strlen(text));
	free(text);
	snprintf(info.device, sizeof(info.device), "mlx5_0");
	snprintf(info.link_layer, sizeof(info.link_layer), "InfiniBand");
	info.lid = 12;
	info.gid_count = 1;
	gid_from("fe80::2:c903:a:1", &info.gids[0].gid);
	snprintf(info.gids[0].type, sizeof(info.gids[0].type), "IB/RoCE v1");
	text = rendezvous_encode(&info);
	if (!text)
		abort();
	put("fuzz_rendezvous", "ib", text, strlen(text));
	free(text);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: make_seeds CORPUS_DIR\n");
		return 2;
	}
	dir = argv[1];
	grh_seeds();
	sa_seeds();
	probe_seeds();
	rendezvous_seeds();
	return 0;
}
