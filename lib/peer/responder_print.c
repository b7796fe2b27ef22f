/* A responder's GID list; see responder_print.h. */
#include "base/gid.h"
#include "out/output.h"
#include "peer/responder_print.h"

void responder_gids_print(const struct responder_info *info, bool nested)
{
	char gid[GID_TEXT_MAX];

	out_open_array("gids");
	for (size_t i = 0; i < info->gid_count; i++) {
		out_open_object(NULL);
		out_uint("index", nested ? "\n      gid %u" : "\n  gid %u",
			 info->gids[i].index);
		out_string("gid", " %s",
			   gid_format(&info->gids[i].gid, gid, sizeof(gid)));
		out_string("type", " %s", info->gids[i].type);
		out_close_object();
	}
	out_close_array();
}
