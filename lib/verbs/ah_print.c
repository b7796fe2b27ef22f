/* Text and JSON form of an AH and of the rules it breaks. */
#include <stdio.h>
#include <string.h>

#include "verbs/ah_print.h"
#include "base/gid.h"
#include "out/output.h"
#include "out/text_layout.h"

static void widen(int *width, int len)
{
	if (len > *width)
		*width = len;
}

void ah_widths_add(struct ah_widths *w, const struct ibv_ah_attr *attr)
{
	char gid[GID_TEXT_MAX];

	widen(&w->dlid, text_digits(attr->dlid));
	widen(&w->sl, text_digits(attr->sl));
	widen(&w->src_path_bits, text_digits(attr->src_path_bits));
	widen(&w->static_rate, text_digits(attr->static_rate));
	widen(&w->port_num, text_digits(attr->port_num));
	if (!attr->is_global)
		return;
	widen(&w->dgid, (int)strlen(gid_format(&attr->grh.dgid, gid,
					       sizeof(gid))));
	widen(&w->sgid_index, text_digits(attr->grh.sgid_index));
	widen(&w->hop_limit, text_digits(attr->grh.hop_limit));
}

/* " dlid %-5u": a field's text format padded to width (none: 0). The
 * last field of a line is never padded: no trailing blanks. */
static const char *field_fmt(char *buf, size_t len, const char *prefix,
			     int width, const char *conv)
{
	if (width > 1)
		snprintf(buf, len, "%s%%-%d%s", prefix, width, conv);
	else
		snprintf(buf, len, "%s%%%s", prefix, conv);
	return buf;
}

void ah_attr_print_aligned(const char *key, const struct ibv_ah_attr *attr,
			   const struct ah_widths *w)
{
	static const struct ah_widths none;
	char gid[GID_TEXT_MAX], f[8][40];

	if (!w)
		w = &none;
	out_open_object(key);
	out_uint("is_global", "is_global %u", attr->is_global);
	out_uint("dlid", field_fmt(f[0], sizeof(f[0]), " dlid ", w->dlid, "u"),
		 attr->dlid);
	out_uint("sl", field_fmt(f[1], sizeof(f[1]), " sl ", w->sl, "u"),
		 attr->sl);
	out_uint("src_path_bits", field_fmt(f[2], sizeof(f[2]),
					    " src_path_bits ",
					    w->src_path_bits, "u"),
		 attr->src_path_bits);
	out_uint("static_rate", field_fmt(f[3], sizeof(f[3]), " static_rate ",
					  w->static_rate, "u"),
		 attr->static_rate);
	out_uint("port_num", " port_num %u", attr->port_num);
	if (attr->is_global) {
		out_open_object("grh");
		out_string("dgid", field_fmt(f[4], sizeof(f[4]),
					     "\n    grh dgid ", w->dgid, "s"),
			   gid_format(&attr->grh.dgid, gid, sizeof(gid)));
		out_uint("flow_label", " flow_label 0x%05x",
			 attr->grh.flow_label);
		out_uint("sgid_index", field_fmt(f[5], sizeof(f[5]),
						 " sgid_index ", w->sgid_index,
						 "u"),
			 attr->grh.sgid_index);
		out_uint("hop_limit", field_fmt(f[6], sizeof(f[6]),
						" hop_limit ", w->hop_limit,
						"u"),
			 attr->grh.hop_limit);
		out_uint("traffic_class", " traffic_class 0x%02x",
			 attr->grh.traffic_class);
		out_close_object();
	} else {
		out_null("grh", "\n    grh %s");
	}
	out_close_object();
}

void ah_attr_print(const char *key, const struct ibv_ah_attr *attr)
{
	ah_attr_print_aligned(key, attr, NULL);
}

void ah_check_print(const char *key, const struct ah_check *check)
{
	out_open_array(key);
	for (size_t i = 0; i < check->count; i++) {
		const struct ah_violation *v = &check->items[i];

		out_open_object(NULL);
		out_string("rule", NULL, ah_rule_name(v->rule));
		out_string("severity", "\n    %s", ah_severity_name(v->severity));
		out_string("message", ": %s", v->message);
		out_close_object();
	}
	out_close_array();
}

static void string_or_null(const char *key, bool known, const char *value)
{
	if (known && value[0])
		out_string(key, NULL, value);
	else
		out_null(key, NULL);
}

void sgid_choice_print(const char *key, const struct sgid_choice *choice)
{
	char gid[GID_TEXT_MAX] = "";

	if (choice->has_gid)
		gid_format(&choice->gid, gid, sizeof(gid));
	out_open_object(key);
	if (choice->chosen)
		out_uint("index", NULL, choice->index);
	else
		out_null("index", NULL);
	string_or_null("gid", choice->has_gid, gid);
	string_or_null("gid_type", choice->has_gid,
		       gid_kind_name(choice->kind));
	string_or_null("netdev", choice->has_gid, choice->netdev);
	out_string("rule", NULL, sgid_rule_name(choice->rule));
	out_string("reason", NULL, choice->reason);
	string_or_null("route_oif", choice->route_known, choice->route_oif);
	string_or_null("route_source", choice->route_known,
		       choice->route_source);
	out_close_object();
}
