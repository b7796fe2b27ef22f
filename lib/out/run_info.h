/* What ties the records of one run together when results of many hosts
 * and many runs are merged (ibahprobe report): a run id (a random UUID,
 * RFC 9562 version 4) and the start time (RFC 3339, UTC), in every
 * record, with the schema name of the record format. */
#ifndef IBAHPROBE_RUN_INFO_H
#define IBAHPROBE_RUN_INFO_H

#include <time.h>

#define RUN_ID_TEXT_MAX 37	/* 8-4-4-4-12 hex digits and NUL */
#define RUN_TIME_TEXT_MAX 21	/* 2026-11-23T18:12:27Z and NUL */

struct run_info {
	char id[RUN_ID_TEXT_MAX];
	char start_time[RUN_TIME_TEXT_MAX];
	time_t started;
};

/* A new run, starting now. The id comes from getrandom(2); when that
 * fails (no entropy yet), from the clocks and the pid: unique still,
 * not random. */
void run_info_start(struct run_info *run);

/* Formats a version 4 UUID from 16 bytes (RFC 9562, section 5.4: the
 * version and variant bits are set here). */
void run_id_format(const unsigned char bytes[16], char *out, size_t len);

/* RFC 3339 in UTC with a "Z": "2026-11-23T18:12:27Z". */
void run_time_format(time_t t, char *out, size_t len);

/* The JSON members "schema", "run_id" and "start_time" (JSON only). */
void run_info_print(const struct run_info *run, const char *schema);

#endif
