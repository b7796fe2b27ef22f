/* libFuzzer target: the probe codec must refuse or decode any bytes,
 * never read past them, and a decoded reply must re-encode to the same
 * fields. */
#include <stdint.h>
#include <string.h>

#include "wire/probe_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_header h;
	struct probe_reply r, again;
	struct probe_stamps m, m_again;
	uint8_t out[PROBE_REPLY_SIZE];

	if (probe_decode_header(data, size, &h) == PROBE_OK &&
	    h.length > size)
		__builtin_trap();
	if (probe_decode_reply(data, size, &r) == PROBE_OK) {
		size_t n = probe_encode_reply(&r, out, r.header.length);

		if (probe_decode_reply(out, n, &again) != PROBE_OK ||
		    again.header.sequence != r.header.sequence ||
		    again.observed.hop_limit != r.observed.hop_limit ||
		    again.dwell_known != r.dwell_known ||
		    again.dwell_ns != r.dwell_ns)
			__builtin_trap();
	}
	if (probe_decode_stamps(data, size, &m) == PROBE_OK) {
		size_t n = probe_encode_stamps(&m, out);

		if (probe_decode_stamps(out, n, &m_again) != PROBE_OK ||
		    m_again.hw_dwell_known != m.hw_dwell_known ||
		    m_again.hw_dwell_ns != m.hw_dwell_ns)
			__builtin_trap();
	}
	return 0;
}
