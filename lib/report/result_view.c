/* The members report reads, and the view of them from json-c's tree. */
#include <string.h>

#include "report/result_scan.h"
#include "report/result_view.h"

const struct result_member_info result_members[RM_COUNT] = {
	[RM_SCHEMA] = { "schema", "schema", RM_TOP },
	[RM_RECORD] = { "record", "record", RM_TOP },
	[RM_RUN_ID] = { "run_id", "run_id", RM_TOP },
	[RM_START_TIME] = { "start_time", "start_time", RM_TOP },
	[RM_RUN_PARAMS] = { "run_params", "run_params", RM_TOP },
	[RM_INTERRUPTED] = { "interrupted", "interrupted", RM_TOP },
	[RM_DEST] = { "dest", "dest", RM_TOP },
	[RM_ERROR] = { "error", "error", RM_TOP },
	[RM_EXIT_STATUS] = { "exit_status", "exit_status", RM_TOP },
	[RM_STATUS] = { "status", "status", RM_TOP },
	[RM_SENT] = { "sent", "sent", RM_TOP },
	[RM_RECEIVED] = { "received", "received", RM_TOP },
	[RM_HOPS] = { "hops", "hops", RM_TOP },
	[RM_VERDICTS] = { "verdicts", "verdicts", RM_TOP },
	[RM_FINDINGS] = { "findings", "findings", RM_TOP },
	[RM_SOURCE] = { "source", "source", RM_TOP },
	[RM_SOURCE_HOST] = { "source.host", "host", RM_SOURCE },
	[RM_SOURCE_DEVICE] = { "source.device", "device", RM_SOURCE },
	[RM_SOURCE_PORT_NUM] = { "source.port_num", "port_num", RM_SOURCE },
	[RM_SOURCE_LID] = { "source.lid", "lid", RM_SOURCE },
	[RM_SOURCE_SGID] = { "source.sgid", "sgid", RM_SOURCE },
	[RM_SOURCE_PROVIDER] = { "source.provider", "provider", RM_SOURCE },
	[RM_PARAMS] = { "params", "params", RM_TOP },
	[RM_PARAMS_HOP_LIMIT] = { "params.hop_limit", "hop_limit", RM_PARAMS },
	[RM_PARAMS_TRAFFIC_CLASS] = { "params.traffic_class", "traffic_class",
				      RM_PARAMS },
	[RM_PARAMS_SL] = { "params.sl", "sl", RM_PARAMS },
	[RM_PARAMS_FLOW_LABEL] = { "params.flow_label", "flow_label",
				   RM_PARAMS },
	[RM_PARAMS_WIRE_UDP_SPORT] = { "params.wire_udp_sport",
				       "wire_udp_sport", RM_PARAMS },
	[RM_RTT] = { "rtt_us", "rtt_us", RM_TOP },
	[RM_RTT_MEDIAN] = { "rtt_us.median", "median", RM_RTT },
	[RM_RTT_MAX] = { "rtt_us.max", "max", RM_RTT },
	[RM_AH_ATTR] = { "ah_attr", "ah_attr", RM_TOP },
	[RM_AH_GRH] = { "ah_attr.grh", "grh", RM_AH_ATTR },
	[RM_AH_GRH_DGID] = { "ah_attr.grh.dgid", "dgid", RM_AH_GRH },
	[RM_OBSERVED] = { "observed", "observed", RM_TOP },
	[RM_OBSERVED_TRAFFIC_CLASS] = { "observed.traffic_class",
					"traffic_class", RM_OBSERVED },
};

static void from_object(struct jv *out, json_object *o)
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
			from_object(&v->m[m], value);
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
	c->pos = array->obj ? NULL : array->s;
}

bool jv_cursor_next(struct jv_cursor *c, struct jv *item)
{
	const struct jv *a = c->array;

	if (a->obj) {
		if (c->index >= json_object_array_length(a->obj))
			return false;
		from_object(item, json_object_array_get_idx(a->obj,
							     c->index++));
		return true;
	}
	return result_scan_next_element(&c->pos, a->s + a->len, item);
}
