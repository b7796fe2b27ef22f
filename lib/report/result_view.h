/* The members of a probe result that `report` reads, taken out of one
 * JSON value in either of two ways: from json-c's tree, which reads every
 * value (result_view_from_json), or by the scanner of lib/report/result_scan.h,
 * which reads the common shape without building a tree and declines the
 * rest. Both fill the same view, so what report makes of a result, and
 * every message about its content, is decided once (lib/report/report_input.c)
 * whichever of the two read it. */
#ifndef IBAHPROBE_RESULT_VIEW_H
#define IBAHPROBE_RESULT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

enum jv_kind {
	JV_ABSENT,	/* the key is not there (or a step of its path is no
			 * object) */
	JV_NULL,
	JV_BOOL,
	JV_INT,
	JV_DOUBLE,
	JV_STRING,
	JV_OBJECT,
	JV_ARRAY,
};

/* One member's value. */
struct jv {
	enum jv_kind kind;
	bool b;
	int64_t i;
	double d;
	/* A string: its bytes, without a NUL among them, NUL-terminated
	 * only when json-c read it. An array or an object read by the
	 * scanner: its JSON text. */
	const char *s;
	size_t len;
	/* An array or an object of json-c's tree; NULL when the scanner
	 * read it. */
	json_object *obj;
};

/* Parents come before their children. */
enum result_member {
	RM_SCHEMA,
	RM_RECORD,
	RM_RUN_ID,
	RM_START_TIME,
	RM_RUN_PARAMS,
	RM_INTERRUPTED,
	RM_DEST,
	RM_ERROR,
	RM_EXIT_STATUS,
	RM_STATUS,
	RM_SENT,
	RM_RECEIVED,
	RM_HOPS,
	RM_VERDICTS,
	RM_FINDINGS,
	RM_SOURCE,
	RM_SOURCE_HOST,
	RM_SOURCE_DEVICE,
	RM_SOURCE_PORT_NUM,
	RM_SOURCE_LID,
	RM_SOURCE_SGID,
	RM_SOURCE_PROVIDER,
	RM_PARAMS,
	RM_PARAMS_HOP_LIMIT,
	RM_PARAMS_TRAFFIC_CLASS,
	RM_PARAMS_SL,
	RM_PARAMS_FLOW_LABEL,
	RM_PARAMS_WIRE_UDP_SPORT,
	RM_RTT,
	RM_RTT_MEDIAN,
	RM_RTT_MAX,
	RM_AH_ATTR,
	RM_AH_GRH,
	RM_AH_GRH_DGID,
	RM_OBSERVED,
	RM_OBSERVED_TRAFFIC_CLASS,
	RM_LOSS_DIRECTION,
	RM_LOST_THERE,
	RM_LOST_BACK,
	RM_COUNT,
	RM_TOP = RM_COUNT,	/* the parent of the members at the top */
};

struct result_member_info {
	const char *path;	/* for messages: "rtt_us.median" */
	const char *key;	/* its last step: "median" */
	enum result_member parent;	/* RM_TOP at the top */
};

extern const struct result_member_info result_members[RM_COUNT];

struct result_view {
	struct jv m[RM_COUNT];
};

/* Fills v from o, a JSON object of json-c's tree (o keeps the strings and
 * nested values that v points to). A key given twice counts as json-c
 * keeps it: the last one. */
void result_view_from_json(struct result_view *v, json_object *o);

/* o's value as a jv (o keeps what it points to). */
void jv_from_json(struct jv *out, json_object *o);

/* The members named keys[0..n) of an object, each in out[k]: JV_ABSENT
 * when not there (all of them when obj is no object); a key given twice
 * counts as json-c keeps it, the last one. Whichever of json-c's tree or
 * the scanner's text holds obj. */
void jv_members(const struct jv *obj, const char *const *keys, size_t n,
		struct jv *out);

/* The number of an array's elements (0 for anything else). */
size_t jv_array_length(const struct jv *array);

/* json_type_to_name()'s word for a kind ("int", "string", ...). */
const char *jv_kind_name(enum jv_kind kind);

/* Whether v is the string lit. */
bool jv_is(const struct jv *v, const char *lit);

/* The elements of an array member, one at a time. */
struct jv_cursor {
	const struct jv *array;
	size_t index;		/* json-c's tree */
	const char *pos;	/* the scanner's text */
};

void jv_cursor_init(struct jv_cursor *c, const struct jv *array);
/* The next element in *item; false after the last one. */
bool jv_cursor_next(struct jv_cursor *c, struct jv *item);

#endif
