/* probe --paths all and check's paths_ok: a destination of LMC n answers
 * 2^n DLIDs, each routed its own way by the SM, and a port of LMC m sends
 * from 2^m source LIDs (its path bits). Each cell becomes one per DLID and
 * source path bits, its AH from the SA's PathRecord to that DLID; after
 * the run, one line per destination names the paths that failed. */
#ifndef IBAHPROBE_PROBE_PATHS_H
#define IBAHPROBE_PROBE_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe_engine.h"

/* Why probe refuses --paths all on RoCE (exit 2). */
#define PROBE_PATHS_ROCE "--paths all probes the DLIDs of an InfiniBand " \
	"LMC; RoCE has no LIDs: probe its ECMP paths with --flow-label"

/* Replaces the cells that ask for it (settings.paths_all or
 * dlid_path.wanted) of every ready target with a PathRecord by one cell
 * per path, a target's cells together, path by path; each new cell's
 * dlid_path.origin is the index of the cell it came from. A target whose
 * paths the SA could not give is not ready (its error says why).
 * InfiniBand only; called by probe_session_resolve_targets. */
void probe_session_expand_paths(struct probe_session *s);

/* Whether the responder counts this cell's requests together with
 * another path's: the same sender LID and parameters to another of the
 * port's DLIDs. Its count then says nothing of this path alone. */
bool probe_dlid_path_shares_set(const struct probe_dlid_path *p);

/* One path's probes over all its parameter sets, for the closing line. */
struct probe_path_count {
	unsigned index, of;	/* 1-based */
	uint16_t dlid;
	bool show_src_path_bits;	/* our LMC > 0 */
	uint8_t src_path_bits;
	bool probed;		/* its AH was made (else: error) */
	uint32_t sent, received;
};

/* Whether a path's probes were all answered. */
bool probe_path_fine(const struct probe_path_count *p);

/* The closing line of one destination's n paths (n >= 1), failing ones
 * named: "DLID 0x13 (path 3 of 4) lost 10 of 10; paths 1, 2, 4 fine",
 * "all 4 paths fine". Pure. */
void probe_paths_summary(const struct probe_path_count *paths, size_t n,
			 char *buf, size_t len);

/* The counts of the paths of the target whose cells start at first
 * (of them, *n; paths holds room for s's cells); false when the target
 * was not expanded. */
bool probe_paths_count(const struct probe_session *s, size_t first,
		       struct probe_path_count *paths, size_t *n);

/* The same over the round just closed of a continuous run: rounds[k] is
 * cell k's (its probes resolved in the round, and answered). */
struct probe_round_cell;
bool probe_paths_count_round(const struct probe_session *s,
			     const struct probe_round_cell *rounds,
			     size_t first, struct probe_path_count *paths,
			     size_t *n);

/* Text: under the rows, "paths of DEST: ..." for every expanded
 * destination, each traced path's walk under it. */
void probe_paths_print_summaries(const struct probe_session *s);

/* Text, --continuous: under a round's rows, "paths of DEST this round:
 * ..." over the round's counts. */
void probe_paths_print_round_summaries(const struct probe_session *s,
				       const struct probe_round_cell *rounds);

/* A cell's path: JSON object dlid_path {index, of, dlid, src_path_bits};
 * nothing for a cell not expanded. lead: its words in text too, after
 * lead ("path 3 of 4: DLID 0x13 src_path_bits 0"); NULL: none. */
void probe_dlid_path_print(const struct probe_cell *c, const char *lead);

#endif
