/* Replacing a file whole through a temporary file and a rename; the fsync
 * policy is explained in atomic_file.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic_file.h"

/* Enough tries that another writer's leftovers never stop us. */
#define TMP_ATTEMPTS 100

mode_t atomic_file_umasked(mode_t mode)
{
	mode_t mask = umask(0);

	umask(mask);
	return mode & ~mask;
}

/* "dir/.base.PID.N" for "dir/base": hidden, so a reader listing the
 * directory (plan's one file per host) or globbing *.prom skips it. */
static char *tmp_name(const char *name, unsigned attempt)
{
	const char *slash = strrchr(name, '/');
	int dir_len = slash ? (int)(slash - name + 1) : 0;
	const char *base = name + dir_len;
	size_t len = strlen(name) + 48;
	char *tmp = malloc(len);

	if (tmp)
		snprintf(tmp, len, "%.*s.%s.%ld.%u", dir_len, name, base,
			 (long)getpid(), attempt);
	return tmp;
}

int atomic_file_open(struct atomic_file *af, int dir_fd, const char *name,
		     mode_t mode)
{
	int fd = -1, saved;

	memset(af, 0, sizeof(*af));
	af->dir_fd = dir_fd;
	af->name = name;
	af->mode = mode;
	for (unsigned attempt = 0; fd < 0 && attempt < TMP_ATTEMPTS;
	     attempt++) {
		free(af->tmp);
		af->tmp = tmp_name(name, attempt);
		if (!af->tmp) {
			errno = ENOMEM;
			return -1;
		}
		fd = openat(dir_fd, af->tmp, O_WRONLY | O_CREAT | O_EXCL |
				   O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0)
		goto fail;
	af->f = fdopen(fd, "w");
	if (!af->f) {
		saved = errno;
		close(fd);
		unlinkat(dir_fd, af->tmp, 0);
		errno = saved;
		goto fail;
	}
	return 0;
fail:
	saved = errno;
	free(af->tmp);
	af->tmp = NULL;
	errno = saved;
	return -1;
}

void atomic_file_abort(struct atomic_file *af)
{
	int saved = errno;

	if (af->f)
		fclose(af->f);
	if (af->tmp)
		unlinkat(af->dir_fd, af->tmp, 0);
	free(af->tmp);
	af->f = NULL;
	af->tmp = NULL;
	errno = saved;
}

int atomic_file_commit(struct atomic_file *af)
{
	FILE *f = af->f;

	errno = 0;
	if (fflush(f) || ferror(f) || fchmod(fileno(f), af->mode) ||
	    fsync(fileno(f))) {
		if (!errno)
			errno = EIO;
		goto fail;
	}
	af->f = NULL;
	if (fclose(f) || renameat(af->dir_fd, af->tmp, af->dir_fd, af->name))
		goto fail;
	free(af->tmp);
	af->tmp = NULL;
	return 0;
fail:
	atomic_file_abort(af);
	return -1;
}
