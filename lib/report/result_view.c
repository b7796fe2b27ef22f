/* The members report reads, and the view of them from json-c's tree. */
#include <string.h>

#include "out/probe_schema.h"
#include "report/result_scan.h"
#include "report/result_view.h"

/* A member of the result itself, and one inside member parent (path:
 * parent's path, a dot, key). The keys are the writer's (probe_schema.h). */
#define TOP(key) { key, key, RM_TOP }
#define IN(parent_path, key, parent) { parent_path "." key, key, parent }

const struct result_member_info result_members[RM_COUNT] = {
	[RM_SCHEMA] = TOP(PROBE_KEY_SCHEMA),
	[RM_RECORD] = TOP(PROBE_KEY_RECORD),
	[RM_RUN_ID] = TOP(PROBE_KEY_RUN_ID),
	[RM_START_TIME] = TOP(PROBE_KEY_START_TIME),
	[RM_RUN_PARAMS] = TOP(PROBE_KEY_RUN_PARAMS),
	[RM_INTERRUPTED] = TOP(PROBE_KEY_INTERRUPTED),
	[RM_DEST] = TOP(PROBE_KEY_DEST),
	[RM_ERROR] = TOP(PROBE_KEY_ERROR),
	[RM_EXIT_STATUS] = TOP(PROBE_KEY_EXIT_STATUS),
	[RM_STATUS] = TOP(PROBE_KEY_STATUS),
	[RM_SENT] = TOP(PROBE_KEY_SENT),
	[RM_RECEIVED] = TOP(PROBE_KEY_RECEIVED),
	[RM_HOPS] = TOP(PROBE_KEY_HOPS),
	[RM_VERDICTS] = TOP(PROBE_KEY_VERDICTS),
	[RM_FINDINGS] = TOP(PROBE_KEY_FINDINGS),
	[RM_SOURCE] = TOP(PROBE_KEY_SOURCE),
	[RM_SOURCE_HOST] = IN(PROBE_KEY_SOURCE, PROBE_KEY_HOST, RM_SOURCE),
	[RM_SOURCE_DEVICE] = IN(PROBE_KEY_SOURCE, PROBE_KEY_DEVICE, RM_SOURCE),
	[RM_SOURCE_PORT_NUM] = IN(PROBE_KEY_SOURCE,
		PROBE_KEY_PORT_NUM, RM_SOURCE),
	[RM_SOURCE_LID] = IN(PROBE_KEY_SOURCE, PROBE_KEY_LID, RM_SOURCE),
	[RM_SOURCE_SGID] = IN(PROBE_KEY_SOURCE, PROBE_KEY_SGID, RM_SOURCE),
	[RM_SOURCE_PROVIDER] = IN(PROBE_KEY_SOURCE,
		PROBE_KEY_PROVIDER, RM_SOURCE),
	[RM_PARAMS] = TOP(PROBE_KEY_PARAMS),
	[RM_PARAMS_HOP_LIMIT] = IN(PROBE_KEY_PARAMS,
		PROBE_KEY_HOP_LIMIT, RM_PARAMS),
	[RM_PARAMS_TRAFFIC_CLASS] = IN(PROBE_KEY_PARAMS,
		PROBE_KEY_TRAFFIC_CLASS, RM_PARAMS),
	[RM_PARAMS_SL] = IN(PROBE_KEY_PARAMS, PROBE_KEY_SL, RM_PARAMS),
	[RM_PARAMS_FLOW_LABEL] = IN(PROBE_KEY_PARAMS,
		PROBE_KEY_FLOW_LABEL, RM_PARAMS),
	[RM_PARAMS_WIRE_UDP_SPORT] = IN(PROBE_KEY_PARAMS,
		PROBE_KEY_WIRE_UDP_SPORT, RM_PARAMS),
	[RM_RTT] = TOP(PROBE_KEY_RTT),
	[RM_RTT_MEDIAN] = IN(PROBE_KEY_RTT, PROBE_KEY_RTT_MEDIAN, RM_RTT),
	[RM_RTT_MAX] = IN(PROBE_KEY_RTT, PROBE_KEY_RTT_MAX, RM_RTT),
	[RM_AH_ATTR] = TOP(PROBE_KEY_AH_ATTR),
	[RM_AH_GRH] = IN(PROBE_KEY_AH_ATTR, PROBE_KEY_GRH, RM_AH_ATTR),
	[RM_AH_GRH_DGID] = IN(PROBE_KEY_AH_ATTR "." PROBE_KEY_GRH,
		PROBE_KEY_DGID, RM_AH_GRH),
	[RM_OBSERVED] = TOP(PROBE_KEY_OBSERVED),
	[RM_OBSERVED_TRAFFIC_CLASS] = IN(PROBE_KEY_OBSERVED,
		PROBE_KEY_TRAFFIC_CLASS, RM_OBSERVED),
	[RM_LOSS_DIRECTION] = TOP("loss_direction"),
	[RM_LOST_THERE] = TOP("lost_there"),
	[RM_LOST_BACK] = TOP("lost_back"),
};

#undef TOP
#undef IN

void jv_from_json(struct jv *out, json_object *o)
{
	memset(out, 0, sizeof(*out));
	switch (json_object_get_type(o)) {
	case json_type_null:
		out->kind = JV_NULL;
		break;
	case json_type_boolean:
		out->kind = JV_BOOL;
		out->b = json_object_get_boolean(o);
		break;
	case json_type_int:
		out->kind = JV_INT;
		out->i = json_object_get_int64(o);
		break;
	case json_type_double:
		out->kind = JV_DOUBLE;
		out->d = json_object_get_double(o);
		break;
	case json_type_string:
		out->kind = JV_STRING;
		out->s = json_object_get_string(o);
		out->len = (size_t)json_object_get_string_len(o);
		break;
	case json_type_object:
		out->kind = JV_OBJECT;
		out->obj = o;
		break;
	case json_type_array:
		out->kind = JV_ARRAY;
		out->obj = o;
		break;
	}
}

void result_view_from_json(struct result_view *v, json_object *o)
{
	memset(v, 0, sizeof(*v));
	for (int m = 0; m < RM_COUNT; m++) {
		const struct result_member_info *info = &result_members[m];
		json_object *parent = o, *value;

		if (info->parent != RM_TOP)
			parent = v->m[info->parent].kind == JV_OBJECT
					 ? v->m[info->parent].obj
					 : NULL;
		if (parent && json_object_object_get_ex(parent, info->key,
							&value))
			jv_from_json(&v->m[m], value);
	}
}

const char *jv_kind_name(enum jv_kind kind)
{
	static const enum json_type types[] = {
		[JV_NULL] = json_type_null, [JV_BOOL] = json_type_boolean,
		[JV_INT] = json_type_int, [JV_DOUBLE] = json_type_double,
		[JV_STRING] = json_type_string, [JV_OBJECT] = json_type_object,
		[JV_ARRAY] = json_type_array,
	};

	return kind == JV_ABSENT ? "nothing" : json_type_to_name(types[kind]);
}

bool jv_is(const struct jv *v, const char *lit)
{
	return v->kind == JV_STRING && v->len == strlen(lit) &&
	       memcmp(v->s, lit, v->len) == 0;
}

void jv_cursor_init(struct jv_cursor *c, const struct jv *array)
{
	c->array = array;
	c->index = 0;
	/* The scanner's text: past the '['. */
	c->pos = array->obj ? NULL : array->s + 1;
}

void jv_members(const struct jv *obj, const char *const *keys, size_t n,
		struct jv *out)
{
	json_object *value;

	if (obj->kind == JV_OBJECT && !obj->obj) {
		result_scan_members(obj->s, obj->len, keys, n, out);
		return;
	}
	for (size_t k = 0; k < n; k++) {
		memset(&out[k], 0, sizeof(out[k]));
		if (obj->kind == JV_OBJECT &&
		    json_object_object_get_ex(obj->obj, keys[k], &value))
			jv_from_json(&out[k], value);
	}
}

size_t jv_array_length(const struct jv *array)
{
	struct jv_cursor c;
	struct jv item;
	size_t n = 0;

	if (array->kind != JV_ARRAY)
		return 0;
	if (array->obj)
		return json_object_array_length(array->obj);
	jv_cursor_init(&c, array);
	while (jv_cursor_next(&c, &item))
		n++;
	return n;
}

bool jv_cursor_next(struct jv_cursor *c, struct jv *item)
{
	const struct jv *a = c->array;

	if (a->obj) {
		if (c->index >= json_object_array_length(a->obj))
			return false;
		jv_from_json(item, json_object_array_get_idx(a->obj,
							     c->index++));
		return true;
	}
	return result_scan_next_element(&c->pos, a->s + a->len, item);
}
