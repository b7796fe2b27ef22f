/* Replacing a file whole: written to a temporary file in the same
 * directory, then renamed over the name, so a reader (node_exporter's
 * textfile collector, a probe -f reading its plan, a web server serving a
 * report) sees the old content or the new, never a part of either.
 *
 * One fsync policy for every writer: the temporary file is fsynced before
 * the rename, the directory is not. Without the first, a crash soon after
 * the rename can leave the name pointing at a file whose blocks were never
 * written (delayed allocation): an empty or short file, the very thing the
 * rename is there to prevent. The directory fsync would only decide which
 * whole file a crash leaves behind, the old or the new, and every writer
 * here makes its file again soon (a metrics round, the next plan, a report
 * run), while it costs a second journal commit per file: per round for
 * --metrics, per host for plan -o. */
#ifndef IBAHPROBE_ATOMIC_FILE_H
#define IBAHPROBE_ATOMIC_FILE_H

#include <stdio.h>
#include <sys/types.h>

struct atomic_file {
	FILE *f;		/* write the new content here */
	int dir_fd;		/* the names are relative to it (AT_FDCWD) */
	const char *name;	/* the file replaced, as given */
	char *tmp;		/* ".NAME.PID.N" next to it */
	mode_t mode;		/* the new file's permissions */
};

/* The permissions a file created with mode gets under the umask. */
mode_t atomic_file_umasked(mode_t mode);

/* Creates the temporary file next to name (relative to dir_fd, AT_FDCWD
 * for the working directory); the file replaced later has exactly mode.
 * Returns 0, or -1 with errno (nothing is left behind). */
int atomic_file_open(struct atomic_file *af, int dir_fd, const char *name,
		     mode_t mode);

/* Flushes, checks the stream, fsyncs, closes and renames the temporary
 * file over name. Returns 0, or -1 with errno: the temporary file is then
 * removed and name is unchanged. af is finished either way. */
int atomic_file_commit(struct atomic_file *af);

/* Gives up: the temporary file is removed, name is unchanged. Keeps
 * errno. */
void atomic_file_abort(struct atomic_file *af);

#endif
