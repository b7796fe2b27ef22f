/* Unit tests of trace's flow line on RoCE (lib/trace/roce_trace_print.h):
 * a destination that failed before its address or its responder's QPN
 * was learnt says they are unknown, in text and as null in JSON, never
 * "::" and QPN 0. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "out/output.h"
#include "trace/roce_trace_print.h"
#include "capture.h"
#include "tap.h"

static struct roce_flow flow;

static void print_one(void)
{
	struct roce_trace_printer p;

	if (roce_trace_printer_init(&p, "a", "rxe_a", 3, false, 1))
		abort();
	out_open_array(NULL);
	roce_trace_print_destination(&p, &flow, 1);
	out_close_array();
	roce_trace_printer_free(&p);
}

int main(void)
{
	json_object *o, *f, *v;
	const char *text;

	flow.dest = "c:18599";
	flow.udp_sport = 49152;
	snprintf(flow.error, sizeof(flow.error), "rendezvous with c port "
		 "18599: connection refused");
	text = capture_out(OUT_TEXT, print_one);
	ok(strncmp(text, "c:18599 (address unknown, QPN unknown): ",
		   strlen("c:18599 (address unknown, QPN unknown): ")) == 0,
	   "a name never resolved: address and QPN unknown");
	ok(!strstr(text, "(::") && !strstr(text, "QPN 0"), "no :: and no 0");

	/* An address is known without any rendezvous. */
	flow.dgid.raw[10] = flow.dgid.raw[11] = 0xff;
	flow.dgid.raw[12] = 10;
	flow.dgid.raw[15] = 3;
	flow.dgid_known = true;
	text = capture_out(OUT_TEXT, print_one);
	ok(strncmp(text, "c:18599 (10.0.0.3, QPN unknown): ",
		   strlen("c:18599 (10.0.0.3, QPN unknown): ")) == 0,
	   "the responder down: the address, the QPN unknown");
	o = json_tokener_parse(capture_out(OUT_JSON, print_one));
	f = o ? json_object_array_get_idx(o, 0) : NULL;
	ok(f && json_object_object_get_ex(f, "qpn", &v) && v == NULL &&
	   json_object_object_get_ex(f, "dest_address", &v) &&
	   strcmp(json_object_get_string(v), "10.0.0.3") == 0,
	   "JSON: qpn null, the address as text");
	json_object_put(o);

	flow.qpn_known = true;
	flow.dest_qpn = 17;
	text = capture_out(OUT_TEXT, print_one);
	ok(strncmp(text, "c:18599 (10.0.0.3, QPN 17): ",
		   strlen("c:18599 (10.0.0.3, QPN 17): ")) == 0,
	   "both known: as before");
	return tap_done();
}
