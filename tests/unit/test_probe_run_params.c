/* probe's run_params (lib/probe/probe_print.c): flow_label_source says
 * where the run's flow labels came from, default, --flow-label or -f
 * FILE's flow-label line, in every record (the summary's here). */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "out/output.h"
#include "probe/probe_print.h"
#include "capture.h"
#include "tap.h"

/* What print_summary prints (capture_out takes no argument). */
static const struct probe_run *printed;

static void print_summary(void)
{
	struct probe_session s;

	memset(&s, 0, sizeof(s));
	s.settings.gid_index = -1;
	probe_summary_print(printed, &s, 0, 1, 0);
}

/* run_params.flow_label_source of the summary of run; "" when absent. */
static const char *source_of(const struct probe_run *run, char *buf,
			     size_t len)
{
	json_object *rec, *params, *source;

	printed = run;
	rec = json_tokener_parse(capture_out(OUT_JSON, print_summary));
	snprintf(buf, len, "%s",
		 rec && json_object_object_get_ex(rec, "run_params", &params) &&
			 json_object_object_get_ex(params, "flow_label_source",
						   &source)
			 ? json_object_get_string(source)
			 : "");
	json_object_put(rec);
	return buf;
}

int main(void)
{
	struct value_list labels = { .count = 1, .values = (uint32_t[]){ 3 } };
	struct probe_run run;
	char buf[64];

	memset(&run, 0, sizeof(run));
	run_info_start(&run.info);
	run.lists[2] = &labels;
	is_str(source_of(&run, buf, sizeof(buf)), "default",
	       "no --flow-label, no file line: default");
	run.flow_label_source = PROBE_FLOW_LABELS_COMMAND_LINE;
	is_str(source_of(&run, buf, sizeof(buf)), "command_line", "--flow-label");
	run.flow_label_source = PROBE_FLOW_LABELS_FILE;
	is_str(source_of(&run, buf, sizeof(buf)), "file",
	       "-f FILE's flow-label line");
	return tap_done();
}
