/* serve's --pidfile for launchers without systemd: a file holding the
 * responder's pid, locked (flock) for as long as it runs, so a second
 * responder given the same file is refused and a file left by one that
 * died (kill -9, a crash) is taken over. */
#ifndef IBAHPROBE_PIDFILE_H
#define IBAHPROBE_PIDFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pidfile {
	int fd;			/* -1: none held */
	const char *path;
};

enum pidfile_status {
	PIDFILE_TAKEN,		/* ours now, emptied until pidfile_write */
	PIDFILE_HELD,		/* a live process holds its lock */
	PIDFILE_ERROR,		/* cannot be opened or locked */
};

/* Opens and locks PATH, creating it; a file whose lock nobody holds is
 * stale whatever pid it names (a live responder always holds the lock;
 * the pid in it may since belong to another process) and is emptied.
 * PIDFILE_HELD: *holder is the pid the file names (0 if none). */
enum pidfile_status pidfile_take(struct pidfile *pf, const char *path,
				 pid_t *holder, char *err, size_t len);

/* Writes PID and a newline in place of the content. */
int pidfile_write(struct pidfile *pf, pid_t pid, char *err, size_t len);

/* Removes the file, then drops the lock; nothing if none is held. */
void pidfile_release(struct pidfile *pf);

#endif
