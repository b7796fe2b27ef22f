/* serve --pidfile: the lock is the proof of life, the content is for
 * the launcher (kill $(cat FILE)). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/pidfile.h"

/* The pid a file names, 0 when it names none. */
static pid_t pidfile_read_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *end;
	long v;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || v <= 0 || v > INT32_MAX ||
	    (*end != '\n' && *end != '\0'))
		return 0;
	return (pid_t)v;
}

/* A file unlinked by its previous holder between our open and our lock
 * is no longer the path's: locking it would prove nothing. */
static bool still_the_path(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

enum pidfile_status pidfile_take(struct pidfile *pf, const char *path,
				 pid_t *holder, char *err, size_t len)
{
	pf->fd = -1;
	pf->path = path;
	*holder = 0;
	for (int attempt = 0; attempt < 3; attempt++) {
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
			      0644);

		if (fd < 0) {
			snprintf(err, len, "--pidfile %s: cannot create or "
				 "open it: %s", path, strerror(errno));
			return PIDFILE_ERROR;
		}
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			int e = errno;

			if (e == EWOULDBLOCK)
				*holder = pidfile_read_pid(fd);
			close(fd);
			if (e == EWOULDBLOCK)
				return PIDFILE_HELD;
			snprintf(err, len, "--pidfile %s: cannot lock it: %s",
				 path, strerror(e));
			return PIDFILE_ERROR;
		}
		if (!still_the_path(fd, path)) {
			close(fd);
			continue;
		}
		if (ftruncate(fd, 0)) {
			snprintf(err, len, "--pidfile %s: cannot empty it: %s",
				 path, strerror(errno));
			close(fd);
			return PIDFILE_ERROR;
		}
		pf->fd = fd;
		return PIDFILE_TAKEN;
	}
	snprintf(err, len, "--pidfile %s: replaced while it was being locked, "
		 "three times: is another responder starting and stopping?",
		 path);
	return PIDFILE_ERROR;
}

int pidfile_write(struct pidfile *pf, pid_t pid, char *err, size_t len)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%ld\n", (long)pid);

	errno = 0;
	if (ftruncate(pf->fd, 0) || pwrite(pf->fd, buf, (size_t)n, 0) != n) {
		snprintf(err, len, "--pidfile %s: cannot write it: %s",
			 pf->path, errno ? strerror(errno) : "short write");
		return -1;
	}
	return 0;
}

void pidfile_release(struct pidfile *pf)
{
	if (pf->fd < 0)
		return;
	/* Unlinked while still locked: a responder starting now either
	 * finds the lock held or creates a new file. A file someone put in
	 * its place is not ours to remove. */
	if (still_the_path(pf->fd, pf->path))
		unlink(pf->path);
	close(pf->fd);
	pf->fd = -1;
}
