/* libFuzzer target: trace --failed's reader of probe results
 * (lib/trace/failed_flows.h): any input is read or refused with a
 * message, never crashes or leaks. */
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "trace/failed_flows.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct failed_flows flows = { 0 };
	char err[DIAG_MSG_MAX * 2] = "";
	FILE *in;

	if (!size)
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	if (failed_flows_read(&flows, in, "fuzz", err, sizeof(err)) && !err[0])
		__builtin_trap();	/* a refusal always says why */
	fclose(in);
	failed_flows_free(&flows);
	return 0;
}
