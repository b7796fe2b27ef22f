/* libFuzzer target: an SA answer comes from the fabric (the SA, or anything
 * that answers in its place), one MAD or a whole RMPP message as the
 * kernel reassembles it. Every decoder the SA client and its callers run
 * on it: the MAD and SA headers, the status, the RMPP header, the table
 * layout for each record kind with every record decoded (PathRecord,
 * NodeRecord, ServiceRecord), the NodeRecord ports of a node: lookup, a
 * single PathRecord answer as sa_client keeps it (one zero-padded MAD),
 * and a ClassPortInfo redirect. Nothing is read past the answer, and every
 * decoded record encodes back to the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "sa/path_resolve.h"
#include "wire/pathrec.h"
#include "sa/sa_status.h"
#include "wire/servicerec.h"
#include "wire/wire_bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A port's P_Key table as umad reports it: unused entries are 0. */
static const uint16_t port_pkeys[] = { 0xffff, 0x8001, 0x7fff, 0, 0 };

static void check_pathrec(const uint8_t *d)
{
	struct path_record rec, again;
	uint8_t once[PATH_RECORD_BYTES], twice[PATH_RECORD_BYTES];

	pathrec_decode(d, &rec);
	if (rec.flow_label > 0xfffff || rec.sl > 15 || rec.qos_class > 0xfff ||
	    rec.numb_path > 0x7f || rec.mtu_selector > 3 || rec.mtu > 0x3f ||
	    rec.rate_selector > 3 || rec.rate > 0x3f ||
	    rec.packet_life_selector > 3 || rec.packet_life > 0x3f)
		__builtin_trap();
	pathrec_encode(&rec, once);
	pathrec_decode(once, &again);
	pathrec_encode(&again, twice);
	if (memcmp(once, twice, sizeof(once)) != 0)
		__builtin_trap();
	/* Every field at its IBA offset: the same bytes but the reserved
	 * ones (3 bits after RawTraffic, 58..63). */
	if (memcmp(once, d, 44) != 0 || once[44] != (d[44] & 0x8f) ||
	    memcmp(once + 45, d + 45, 58 - 45) != 0)
		__builtin_trap();
}

static void check_noderec(const uint8_t *d)
{
	struct node_record rec;

	noderec_decode(d, &rec);
	if (strlen(rec.description) > 64 ||
	    strncmp(rec.description, (const char *)d + 44, 64) != 0 ||
	    rec.lid != (d[0] << 8 | d[1]) || rec.local_port != d[4 + 36] ||
	    rec.node_type != d[4 + 2] || rec.num_ports != d[4 + 3] ||
	    rec.node_guid != wire_get64(d, 4 + 12) ||
	    rec.port_guid != wire_get64(d, 4 + 20))
		__builtin_trap();
}

static void check_servicerec(const uint8_t *d)
{
	struct service_record rec, again;
	struct responder_record r;
	uint8_t once[SERVICE_RECORD_BYTES], twice[SERVICE_RECORD_BYTES];
	char err[DIAG_MSG_MAX];

	servicerec_decode(d, &rec);
	if (strlen(rec.name) > SERVICE_NAME_BYTES)
		__builtin_trap();
	servicerec_encode(&rec, once);
	servicerec_decode(once, &again);
	servicerec_encode(&again, twice);
	if (memcmp(once, twice, sizeof(once)) != 0)
		__builtin_trap();
	/* Every field at its IBA offset: the same bytes but the reserved
	 * 26..27 and the name's padding after its first NUL. */
	if (memcmp(once, d, 26) != 0 || memcmp(once + 28, d + 28, 48 - 28) ||
	    strncmp((const char *)once + 48, (const char *)d + 48, 64) != 0 ||
	    memcmp(once + 112, d + 112, SERVICE_RECORD_BYTES - 112) != 0)
		__builtin_trap();
	err[0] = '\0';
	if (servicerec_to_responder(&rec, &r, err, sizeof(err)) == 0) {
		if (r.qpn == 0 || r.qpn > 0xffffff ||
		    strlen(r.host) > SERVICE_NAME_BYTES)
			__builtin_trap();
	} else if (!err[0]) {
		__builtin_trap();
	}
}

static void walk_table(const uint8_t *msg, size_t len, size_t record_bytes,
		       void (*check)(const uint8_t *))
{
	struct sa_table t;
	char err[DIAG_MSG_MAX];

	err[0] = '\0';
	if (sa_table_layout(msg, len, record_bytes, &t, err, sizeof(err))) {
		if (!err[0])
			__builtin_trap();
		return;
	}
	if (t.count && (t.stride < record_bytes ||
			SA_HEADER_BYTES + (t.count - 1) * t.stride +
					record_bytes > len))
		__builtin_trap();	/* records past the end of the answer */
	if (t.truncated && t.expected && t.expected <= t.count)
		__builtin_trap();
	if (!t.truncated && t.expected != t.count)
		__builtin_trap();
	for (size_t i = 0; i < t.count; i++)
		check(msg + SA_HEADER_BYTES + i * t.stride);
}

static void check_node_ports(const uint8_t *msg, size_t len)
{
	struct node_ports np;
	char err[DIAG_MSG_MAX];

	if (node_ports_from_table(msg, len, &np, err, sizeof(err)))
		return;
	for (size_t i = 0; i < np.count; i++) {
		if (i && np.ports[i - 1].port_num > np.ports[i].port_num)
			__builtin_trap();	/* sorted by port number */
		for (size_t k = 0; k < i; k++)
			if (np.ports[k].port_guid == np.ports[i].port_guid)
				__builtin_trap();	/* one per port GUID */
	}
	node_ports_free(&np);
}

static void check_redirect(const uint8_t *msg, size_t len)
{
	struct sa_redirect r;
	char why[DIAG_MSG_MAX];
	size_t n = sizeof(port_pkeys) / sizeof(port_pkeys[0]);

	why[0] = '\0';
	if (sa_redirect_decode(msg, len, port_pkeys, n, &r, why,
			       sizeof(why))) {
		if (!why[0])
			__builtin_trap();
		return;
	}
	if (len < SA_HEADER_BYTES + CLASS_PORT_INFO_BYTES || r.lid == 0 ||
	    r.qpn == 0 || r.qpn > 0xffffff || r.sl > 15 ||
	    r.pkey_index >= n ||
	    (r.pkey == 0 && r.pkey_index != 0) ||
	    (r.pkey && (port_pkeys[r.pkey_index] & 0x7fff) != (r.pkey & 0x7fff)))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sa_header h;
	uint8_t *msg, response[SA_MAD_BYTES];
	const char *status;

	/* Exactly size bytes on the heap: ASan sees any read past them. */
	msg = malloc(size ? size : 1);
	if (!msg)
		return 0;
	memcpy(msg, data, size);
	if (sa_decode_header(msg, size, &h) != 0) {
		if (size >= SA_HEADER_BYTES)
			__builtin_trap();
		free(msg);
		return 0;
	}
	if (size < SA_HEADER_BYTES)
		__builtin_trap();
	status = sa_status_str(h.status);
	if (!status || !*status ||
	    (h.status == 0) != (strcmp(status, "ok") == 0))
		__builtin_trap();
	if (sa_status_action(h.status) == SA_STATUS_REDIRECT)
		check_redirect(msg, size);

	walk_table(msg, size, PATH_RECORD_BYTES, check_pathrec);
	walk_table(msg, size, NODE_RECORD_BYTES, check_noderec);
	walk_table(msg, size, SERVICE_RECORD_BYTES, check_servicerec);
	check_node_ports(msg, size);

	/* A Get answer as sa_client keeps it: one MAD, zero-padded. */
	memset(response, 0, sizeof(response));
	memcpy(response, msg, size < sizeof(response) ? size : sizeof(response));
	check_pathrec(response + SA_HEADER_BYTES);
	check_servicerec(response + SA_HEADER_BYTES);
	free(msg);
	return 0;
}
