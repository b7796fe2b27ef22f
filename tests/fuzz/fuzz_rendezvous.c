/* libFuzzer target: a rendezvous answer comes from the network; any bytes
 * are decoded or refused without crashing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "peer/rendezvous.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct responder_info info;
	char err[DIAG_MSG_MAX], *text;

	if (size > RENDEZVOUS_MAX_BYTES)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (rendezvous_decode(text, &info, err, sizeof(err)) == 0 &&
	    (info.qpn == 0 || info.qpn > 0xffffff ||
	     info.gid_count > RENDEZVOUS_MAX_GIDS))
		__builtin_trap();
	free(text);
	return 0;
}
