/* Run id and start time: see run_info.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "base/monotonic.h"
#include "out/output.h"
#include "out/probe_schema.h"
#include "out/run_info.h"

void run_id_format(const unsigned char bytes[16], char *out, size_t len)
{
	unsigned char b[16];

	memcpy(b, bytes, sizeof(b));
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);	/* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);	/* variant 10 */
	snprintf(out, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4],
		 b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
		 b[14], b[15]);
}

void run_time_format(time_t t, char *out, size_t len)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(out, len, "1970-01-01T00:00:00Z");
}

void run_info_start(struct run_info *run)
{
	unsigned char bytes[16];

	run->started = time(NULL);
	run_time_format(run->started, run->start_time,
			sizeof(run->start_time));
	if (getrandom(bytes, sizeof(bytes), GRND_NONBLOCK) !=
	    (ssize_t)sizeof(bytes)) {
		uint64_t now = monotonic_ns(), t = (uint64_t)run->started;
		uint32_t pid = (uint32_t)getpid();

		memcpy(bytes, &now, 8);
		memcpy(bytes + 8, &t, 4);
		memcpy(bytes + 12, &pid, 4);
	}
	run_id_format(bytes, run->id, sizeof(run->id));
}

void run_info_print(const struct run_info *run, const char *schema)
{
	out_string(PROBE_KEY_SCHEMA, NULL, schema);
	out_string(PROBE_KEY_RUN_ID, NULL, run->id);
	out_string(PROBE_KEY_START_TIME, NULL, run->start_time);
}
