/* Unit tests of serve's --pidfile: taken and emptied, refused while
 * another holder's lock lives (flock is per open file, so a second take
 * in this process stands for a second responder), the holder's pid
 * named, a stale file taken over whatever pid it names, removed on
 * release, and a file put in its place left alone. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/pidfile.h"
#include "tap.h"

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

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

int main(void)
{
	char dir[] = "/tmp/test_pidfile.XXXXXX", path[64], err[512], buf[64];
	struct pidfile first, second;
	pid_t holder = -1;
	struct stat st;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/serve.pid", dir);

	is_int(pidfile_take(&first, path, &holder, err, sizeof(err)),
	       PIDFILE_TAKEN, "a new file is taken");
	ok(stat(path, &st) == 0 && st.st_size == 0, "created empty: no pid "
	   "before the ready line");
	is_int(pidfile_take(&second, path, &holder, err, sizeof(err)),
	       PIDFILE_HELD, "held while the first holds it, pid not yet "
	       "written");
	is_int(holder, 0, "no pid named yet");
	is_int(pidfile_write(&first, 4242, err, sizeof(err)), 0, "pid written");
	is_str(get(path, buf, sizeof(buf)), "4242\n", "the pid and a newline");
	is_int(pidfile_take(&second, path, &holder, err, sizeof(err)),
	       PIDFILE_HELD, "still held");
	is_int(holder, 4242, "the holder's pid named");
	is_str(get(path, buf, sizeof(buf)), "4242\n", "a refused take "
	       "leaves the file as it was");
	pidfile_release(&first);
	ok(stat(path, &st) != 0 && errno == ENOENT, "removed on release");
	is_int(first.fd, -1, "the lock dropped with it");

	/* Left by a responder killed with SIGKILL: a pid, no lock. */
	put(path, "1\n");
	is_int(pidfile_take(&first, path, &holder, err, sizeof(err)),
	       PIDFILE_TAKEN, "a stale file is taken over, though pid 1 lives");
	is_str(get(path, buf, sizeof(buf)), "", "and emptied");
	is_int(pidfile_write(&first, 77, err, sizeof(err)), 0, "pid written");
	is_str(get(path, buf, sizeof(buf)), "77\n", "no trace of the old pid");
	/* Someone removed it and another responder made a new one: ours
	 * no longer, not ours to remove. */
	unlink(path);
	put(path, "99\n");
	pidfile_release(&first);
	is_str(get(path, buf, sizeof(buf)), "99\n", "a file put in its place "
	       "is left alone");
	unlink(path);

	snprintf(path, sizeof(path), "%s/no/such/dir", dir);
	is_int(pidfile_take(&first, path, &holder, err, sizeof(err)),
	       PIDFILE_ERROR, "a missing directory is an error");
	ok(strstr(err, path) && strstr(err, "No such file"), "naming the file "
	   "and the cause: %s", err);
	is_int(first.fd, -1, "nothing held");

	rmdir(dir);
	return tap_done();
}
