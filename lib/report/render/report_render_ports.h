/* The forms of the fleet port audit (report --ports): text, JSON and an
 * HTML page, and the sentences they share (report_render_ports_words.c). */
#ifndef IBAHPROBE_REPORT_RENDER_PORTS_H
#define IBAHPROBE_REPORT_RENDER_PORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/ports_audit.h"

/* "4,032": a count with thousands separators. */
const char *ports_count_text(size_t n, char *buf, size_t len);
/* The consensus of fact id in one sentence, without the member lists:
 * "RoCE v2 IPv4 GID at index 3 on 4,032 hosts; at index 5 on 64 hosts:
 * a fleet-wide NCCL_IB_GID_INDEX=3 fails there", "MTU 4096 on 4,090
 * ports, 1024 on 6", "firmware 28.39 on all but 2 devices (28.35 on 2)".
 * Empty when the fact has no value. */
const char *ports_fact_sentence(const struct ports_audit *a,
				enum audit_fact_id id, char *buf, size_t len);
/* A value as the sentences say it: "at index 3", "none", "4096". */
const char *ports_value_words(enum audit_fact_id id, const char *value,
			      char *buf, size_t len);

/* Text, lines under 100 columns, member lists abbreviated with counts. */
void report_render_ports_text(FILE *f, const struct ports_audit *a);
/* The JSON document (PORTS_AUDIT_SCHEMA). 0, or -1 when f failed. */
int report_render_ports_json(FILE *f, const struct ports_audit *a,
			     bool pretty);
/* A self-contained HTML page in the report's style. */
void report_render_ports_html(FILE *f, const struct ports_audit *a,
			      const char *title);

#endif
