/* Test peer of the rendezvous protocol (lib/peer/rendezvous): answers like
 * `serve` with a given port GID table, LID, QPN and Q_Key, without a
 * verbs device, so a prober on the simulated subnet can go name ->
 * rendezvous answer -> PathRecord -> AH. Answers until SIGINT/SIGTERM.
 * Each GID is GID[,TYPE[,INDEX]] (TYPE IB, "RoCE v2", ...; default IB
 * and the GID's place in the list). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/parse.h"
#include "peer/rendezvous.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: rendezvous_peer -l ADDR:PORT [-d device] "
		"[-L lid] [-q qpn] [-k qkey] [-t link_layer] [-p pidfile] "
		"GID[,TYPE[,INDEX]]...\n");
	exit(2);
}

static uint32_t number(const char *s, uint32_t max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (!*s || *end || errno || v > max)
		usage();
	return (uint32_t)v;
}

static void add_gid(struct responder_info *info, char *spec)
{
	char *type = strchr(spec, ','), *index = NULL, err[256];
	size_t n = info->gid_count;

	if (n >= RENDEZVOUS_MAX_GIDS)
		usage();
	if (type) {
		*type++ = '\0';
		index = strchr(type, ',');
		if (index)
			*index++ = '\0';
	}
	if (parse_gid(spec, &info->gids[n].gid, err, sizeof(err))) {
		fprintf(stderr, "rendezvous_peer: %s\n", err);
		exit(2);
	}
	snprintf(info->gids[n].type, sizeof(info->gids[n].type), "%s",
		 type ? type : "IB");
	info->gids[n].index = index ? number(index, 0xffff) : (uint32_t)n;
	info->gid_count++;
}

int main(int argc, char **argv)
{
	struct responder_info info = {
		.version = 1, .port_num = 1, .lid = 0, .qpn = 0x11,
		.qkey = 0x1ab4e0be, .device = "ibsim0",
		.link_layer = "InfiniBand",
	};
	struct sigaction sa = { .sa_handler = on_signal };
	const char *listen_spec = NULL, *pidfile = NULL;
	char bound[128], err[256];
	int opt, fd;

	while ((opt = getopt(argc, argv, "l:d:L:q:k:t:p:")) != -1) {
		switch (opt) {
		case 'l': listen_spec = optarg; break;
		case 'd': snprintf(info.device, sizeof(info.device), "%s",
				   optarg); break;
		case 'L': info.lid = (uint16_t)number(optarg, 0xffff); break;
		case 'q': info.qpn = number(optarg, 0xffffff); break;
		case 'k': info.qkey = number(optarg, 0xffffffffu); break;
		case 't': snprintf(info.link_layer, sizeof(info.link_layer),
				   "%s", optarg); break;
		case 'p': pidfile = optarg; break;
		default: usage();
		}
	}
	if (!listen_spec)
		usage();
	for (int i = optind; i < argc; i++)
		add_gid(&info, argv[i]);
	fd = rendezvous_listen(listen_spec, bound, sizeof(bound), err,
			       sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "rendezvous_peer: %s\n", err);
		return 3;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (pidfile) {
		FILE *f = fopen(pidfile, "w");

		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
	}
	printf("listening %s\n", bound);
	fflush(stdout);
	while (!stop) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (poll(&pfd, 1, 200) > 0)
			rendezvous_answer(fd, &info);
	}
	close(fd);
	return 0;
}
