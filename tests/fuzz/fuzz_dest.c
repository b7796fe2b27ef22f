/* libFuzzer target: destination specs, value lists and GIDs as typed by
 * a user, and the same text as a destination file with plan's
 * flow-label line read: any text is parsed or refused with a message,
 * never crashes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dest.h"
#include "base/diag.h"
#include "base/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as probe -f and trace -f read a file. */
static void read_as_file(const uint8_t *data, size_t size)
{
	struct dest_list list = { .keep_invalid = true,
				  .read_flow_label = true };
	char err[DIAG_MSG_MAX * 2] = "";
	FILE *in;

	if (!size)
		return;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		return;
	if (dest_list_read(&list, in, "fuzz", err, sizeof(err)) && !err[0])
		__builtin_trap();	/* a refusal always says why */
	fclose(in);
	dest_list_free(&list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[DIAG_MSG_MAX], *text;
	struct dest d;
	struct value_list list;
	union ibv_gid gid;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	if (dest_parse(text, &d, err, sizeof(err)) == 0)
		dest_clear(&d);
	else if (!err[0])
		__builtin_trap();	/* a refusal always says why */
	if (parse_value_list(text, "value", 0, 0xfffff, 4096, &list, err,
			     sizeof(err)) == 0)
		value_list_free(&list);
	parse_gid(text, &gid, err, sizeof(err));
	read_as_file(data, size);
	free(text);
	return 0;
}
