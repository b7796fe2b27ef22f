/* Reading a small text file whole: see small_file.h. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/small_file.h"

long small_file_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t used = 0;

	if (fd < 0 || !len) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (used + 1 < len) {
		ssize_t n = read(fd, buf + used, len - 1 - used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	if (used && buf[used - 1] == '\n')
		used--;
	buf[used] = '\0';
	return (long)used;
}
