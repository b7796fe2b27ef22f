/* Preparing cells in the probing engine (probe_session_prepare, a dry
 * run: AHs built and checked, none created): with -g auto and -v the
 * source GID choice is said once per destination, not once per
 * parameter set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe_engine.h"
#include "port_fixture.h"
#include "tap.h"

/* Lines probe_session_prepare writes on stderr for dests (each with
 * sets cells, traffic classes 0, 4, 8, ...). */
static int prepare_lines(const char *const *dests, size_t n, size_t sets)
{
	struct probe_session s = { 0 };
	struct dest dest[4] = { 0 };
	struct probe_target target[4] = { 0 };
	struct probe_cell cells[16] = { 0 };
	FILE *err = tmpfile();
	char line[1024];
	int saved, lines = 0;

	roce_facts(&s.facts);
	s.settings.gid_index = -1;
	s.settings.dry_run = true;
	s.settings.count = 1;
	s.settings.size = 64;
	s.cells = cells;
	s.cell_count = n * sets;
	for (size_t t = 0; t < n; t++) {
		dest[t].text = (char *)dests[t];
		target[t].dest = &dest[t];
		target[t].ready = true;
		target[t].has_dgid = true;
		target[t].dgid = fixture_gid(dests[t]);
		for (size_t k = 0; k < sets; k++) {
			cells[t * sets + k].target = &target[t];
			cells[t * sets + k].asked.hop_limit = 64;
			cells[t * sets + k].asked.traffic_class =
				(uint8_t)(4 * k);
		}
	}
	if (!err)
		return -1;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fileno(err), STDERR_FILENO);
	diag_verbosity = 1;
	probe_session_prepare(&s);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	diag_verbosity = 0;
	rewind(err);
	while (fgets(line, sizeof(line), err)) {
		printf("# %s", line);
		lines += strstr(line, "sgid_index") != NULL;
	}
	fclose(err);
	return lines;
}

int main(void)
{
	const char *one[] = { "10.0.0.2" };
	const char *three[] = { "10.0.0.2", "10.0.0.3", "2001:db8:1::9" };

	is_int(prepare_lines(one, 1, 8), 1,
	       "one destination, 8 parameter sets: the choice said once");
	is_int(prepare_lines(three, 3, 2), 3,
	       "3 destinations x 2 sets: once per destination");
	is_int(prepare_lines(one, 1, 1), 1, "one cell: said");
	return tap_done();
}
