/* A PathRecord's fields through the output layer; see pathrec_print.h. */
#include "base/gid.h"
#include "base/ibrate.h"
#include "out/output.h"
#include "wire/pathrec_print.h"

static void print_field(const struct path_record *p, enum pathrec_field f,
			const char *fmt)
{
	char text[GID_TEXT_MAX];

	switch (f) {
	case PATHREC_SLID:
		out_uint("slid", fmt, p->slid);
		break;
	case PATHREC_DLID:
		out_uint("dlid", fmt, p->dlid);
		break;
	case PATHREC_SL:
		out_uint("sl", fmt, p->sl);
		break;
	case PATHREC_PKEY:
		out_uint("pkey", fmt, p->pkey);
		break;
	case PATHREC_MTU:
		out_uint("mtu", fmt, ibrate_mtu_bytes(p->mtu));
		break;
	case PATHREC_RATE_GBPS:
		out_double("rate_gbps", fmt, ibrate_gbps(p->rate));
		break;
	case PATHREC_RATE_TEXT:
		out_string(NULL, fmt,
			   ibrate_format_gbps(p->rate, text, sizeof(text)));
		break;
	case PATHREC_HOP_LIMIT:
		out_uint("hop_limit", fmt, p->hop_limit);
		break;
	case PATHREC_TRAFFIC_CLASS:
		out_uint("traffic_class", fmt, p->traffic_class);
		break;
	case PATHREC_FLOW_LABEL:
		out_uint("flow_label", fmt, p->flow_label);
		break;
	case PATHREC_PACKET_LIFE:
		out_uint("packet_life", fmt, p->packet_life);
		break;
	case PATHREC_REVERSIBLE:
		out_bool("reversible", fmt, p->reversible);
		break;
	case PATHREC_NUMB_PATH:
		out_uint("numb_path", fmt, p->numb_path);
		break;
	case PATHREC_QOS_CLASS:
		out_uint("qos_class", fmt, p->qos_class);
		break;
	case PATHREC_SGID:
		out_string("sgid", fmt, gid_format(&p->sgid, text, sizeof(text)));
		break;
	case PATHREC_DGID:
		out_string("dgid", fmt, gid_format(&p->dgid, text, sizeof(text)));
		break;
	}
}

void pathrec_print(const struct path_record *p,
		   const struct pathrec_column *cols, size_t count, bool text)
{
	for (size_t i = 0; i < count; i++)
		print_field(p, cols[i].field, text ? cols[i].text_fmt : NULL);
}
