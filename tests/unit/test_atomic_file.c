/* Unit tests of the atomic file writer: a new file and a replaced one get
 * exactly the content and the permissions asked, a failure half-way (a
 * stream error, a rename that cannot happen) leaves the old file and no
 * temporary file, and names relative to a directory fd work. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "tap.h"

static char *get(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Files in dir besides the ones the test made. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static int write_file(const char *path, const char *text, mode_t mode)
{
	struct atomic_file af;

	if (atomic_file_open(&af, AT_FDCWD, path, mode))
		return -1;
	fputs(text, af.f);
	return atomic_file_commit(&af);
}

int main(void)
{
	char dir[] = "/tmp/test_atomic_file.XXXXXX", path[128], sub[160];
	char buf[64];
	struct atomic_file af;
	struct stat st;
	int dfd, ro;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/out.prom", dir);

	is_int(write_file(path, "first\n", 0640), 0, "a new file is written");
	is_str(get(path, buf, sizeof(buf)), "first\n", "with its content");
	ok(stat(path, &st) == 0 && (st.st_mode & 07777) == 0640,
	   "and exactly the mode asked, whatever the umask");
	is_int(entries(dir), 1, "no temporary file left");

	is_int(write_file(path, "second\n", 0604), 0, "an old file is replaced");
	is_str(get(path, buf, sizeof(buf)), "second\n", "whole");
	ok(stat(path, &st) == 0 && (st.st_mode & 07777) == 0604,
	   "with the new mode");

	/* A write that fails half-way, as on a full disk: the stream's fd
	 * is swapped for a read-only one under it, so the flush fails. */
	is_int(atomic_file_open(&af, AT_FDCWD, path, 0644), 0, "open again");
	ok(strstr(af.tmp, "/.out.prom.") != NULL,
	   "the temporary file is hidden, next to the file");
	fputs("half of a th", af.f);
	fflush(af.f);
	is_int(entries(dir), 2, "the temporary file exists meanwhile");
	is_str(get(path, buf, sizeof(buf)), "second\n",
	       "and readers still see the old file");
	ro = open("/dev/null", O_RDONLY);
	dup2(ro, fileno(af.f));
	close(ro);
	fputs("ousand lines\n", af.f);
	is_int(atomic_file_commit(&af), -1, "a failed write fails the commit");
	is_int(errno, EBADF, "with the write's errno");
	is_str(get(path, buf, sizeof(buf)), "second\n", "the old file stays");
	is_int(entries(dir), 1, "and no temporary file");

	/* A rename that cannot happen: the name is a non-empty directory. */
	snprintf(sub, sizeof(sub), "%s/taken", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/taken/x", dir);
	is_int(write_file(sub, "x\n", 0644), 0, "a file in a subdirectory");
	snprintf(sub, sizeof(sub), "%s/taken", dir);
	is_int(write_file(sub, "y\n", 0644), -1, "a rename over a "
	       "non-empty directory fails");
	is_int(entries(dir), 2, "and leaves no temporary file");

	is_int(atomic_file_open(&af, AT_FDCWD, "/nonexistent-dir/x", 0644), -1,
	       "a missing directory fails at open");
	is_int(errno, ENOENT, "as ENOENT");

	is_int(atomic_file_open(&af, AT_FDCWD, path, 0644), 0, "open to abort");
	fputs("never\n", af.f);
	atomic_file_abort(&af);
	is_str(get(path, buf, sizeof(buf)), "second\n", "abort keeps the old "
	       "file");
	is_int(entries(dir), 2, "and removes the temporary one");

	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	is_int(atomic_file_open(&af, dfd, "host-a", 0644), 0,
	       "a name relative to a directory fd");
	fputs("dest\n", af.f);
	is_int(atomic_file_commit(&af), 0, "committed");
	snprintf(sub, sizeof(sub), "%s/host-a", dir);
	is_str(get(sub, buf, sizeof(buf)), "dest\n", "lands in that directory");
	close(dfd);

	unlink(sub);
	unlink(path);
	snprintf(sub, sizeof(sub), "%s/taken/x", dir);
	unlink(sub);
	snprintf(sub, sizeof(sub), "%s/taken", dir);
	rmdir(sub);
	rmdir(dir);
	return tap_done();
}
