/* libFuzzer target: a ServiceRecord table comes from the fabric (the SA,
 * or anything answering in its place); any bytes are laid out, decoded
 * or refused without reading past the answer, and every record taken for
 * a responder's is a valid one. */
#include <stdint.h>
#include <string.h>

#include "base/diag.h"
#include "wire/servicerec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sa_table t;
	char err[DIAG_MSG_MAX];

	if (sa_table_layout(data, size, SERVICE_RECORD_BYTES, &t, err,
			    sizeof(err)))
		return 0;
	if (t.count && (t.stride < SERVICE_RECORD_BYTES ||
			SA_HEADER_BYTES + (t.count - 1) * t.stride +
					SERVICE_RECORD_BYTES > size))
		__builtin_trap();	/* records past the end of the answer */
	if (t.truncated && t.expected && t.expected <= t.count)
		__builtin_trap();
	for (size_t i = 0; i < t.count; i++) {
		struct service_record rec;
		struct responder_record r;

		servicerec_decode(data + SA_HEADER_BYTES + i * t.stride, &rec);
		if (strlen(rec.name) > SERVICE_NAME_BYTES)
			__builtin_trap();
		if (servicerec_to_responder(&rec, &r, err, sizeof(err)) == 0 &&
		    (r.qpn == 0 || r.qpn > 0xffffff ||
		     strlen(r.host) > SERVICE_NAME_BYTES))
			__builtin_trap();
	}
	return 0;
}
