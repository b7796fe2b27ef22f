/* A PathRecord through the output layer: each field under one JSON key
 * (the names of `path -j`) and in the text form its caller lays out, so
 * `path` and `probe --dry-run` show the same record the same way in JSON
 * and each its own way for people. */
#ifndef IBAHPROBE_PATHREC_PRINT_H
#define IBAHPROBE_PATHREC_PRINT_H

#include <stdbool.h>
#include <stddef.h>

#include "wire/pathrec.h"

enum pathrec_field {
	PATHREC_SLID,		/* "slid" */
	PATHREC_DLID,		/* "dlid" */
	PATHREC_SL,		/* "sl" */
	PATHREC_PKEY,		/* "pkey" */
	PATHREC_MTU,		/* "mtu", in bytes */
	PATHREC_RATE_GBPS,	/* "rate_gbps", a number */
	PATHREC_RATE_TEXT,	/* text only: "2.5", "100" (%s) */
	PATHREC_HOP_LIMIT,	/* "hop_limit" */
	PATHREC_TRAFFIC_CLASS,	/* "traffic_class" */
	PATHREC_FLOW_LABEL,	/* "flow_label" */
	PATHREC_PACKET_LIFE,	/* "packet_life" */
	PATHREC_REVERSIBLE,	/* "reversible", a bool */
	PATHREC_NUMB_PATH,	/* "numb_path" */
	PATHREC_QOS_CLASS,	/* "qos_class" */
	PATHREC_SGID,		/* "sgid" (%s) */
	PATHREC_DGID,		/* "dgid" (%s) */
};

/* One field as a caller shows it: its text format (NULL: JSON only). */
struct pathrec_column {
	enum pathrec_field field;
	const char *text_fmt;
};

/* The fields of cols[0..count), in that order; text false: JSON only
 * (details shown with -v alone). */
void pathrec_print(const struct path_record *p,
		   const struct pathrec_column *cols, size_t count, bool text);

#endif
