/* A responder's GID list through the output layer: serve's ready line
 * and probe --dry-run show the same keys ("gids": index, gid, type); and
 * serve's summary line. */
#ifndef IBAHPROBE_RESPONDER_PRINT_H
#define IBAHPROBE_RESPONDER_PRINT_H

#include <stdbool.h>

#include "peer/rendezvous.h"

/* nested: the list stands under another line (probe --dry-run), so its
 * text lines are indented deeper. */
void responder_gids_print(const struct responder_info *info, bool nested);

struct responder;
/* The counts of a stopped responder; why: what stopped it. */
void responder_summary_print(const struct responder *r, const char *why);

#endif
