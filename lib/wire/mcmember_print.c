/* A group's record as text and JSON; see mcmember_print.h. */
#include <stdio.h>

#include "base/gid.h"
#include "base/ibrate.h"
#include "out/output.h"
#include "wire/mcmember_print.h"

void mcmember_print(const char *key, const char *text_lead,
		    const struct mcmember_record *g)
{
	char mgid[GID_TEXT_MAX], lead[64];

	snprintf(lead, sizeof(lead), "%sgroup %%s", text_lead);
	out_open_object(key);
	out_string("mgid", lead, gid_format(&g->mgid, mgid, sizeof(mgid)));
	out_uint("mlid", " mlid 0x%04llx", g->mlid);
	out_uint("qkey", " qkey 0x%08llx", g->qkey);
	out_uint("pkey", " pkey 0x%04llx", g->pkey);
	out_uint("mtu", " mtu %llu", ibrate_mtu_bytes(g->mtu));
	out_uint("rate", NULL, g->rate);
	out_double("rate_gbps", " rate %g Gb/s", ibrate_gbps(g->rate));
	out_uint("sl", " sl %llu", g->sl);
	out_uint("hop_limit", NULL, g->hop_limit);
	out_uint("traffic_class", NULL, g->traffic_class);
	out_uint("flow_label", NULL, g->flow_label);
	out_uint("scope", " scope %llu", g->scope);
	out_close_object();
}
