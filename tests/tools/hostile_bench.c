/* The two steps of report that were quadratic in a hostile input's size,
 * timed alone for tests/bench/report-hostile: the tomography's ordering of
 * a shared path of N elements (two failing flows along it), and the text
 * form's wrapping of a line of N items ("r000001, r000002, ..."). Built
 * with the library, or by the benchmark with an older tomography.c or
 * report_render_text_layout.c in front of it, for the figures before.
 *
 *   hostile_bench path N | wrap N     prints "SECONDS" (CPU time) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "out/output.h"
#include "report/render/report_render_text_layout.h"
#include "report/tomography.h"

static double cpu_seconds(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

static int long_path(size_t n)
{
	size_t *path = calloc(n, sizeof(*path));
	static size_t other[1];
	struct tomo_flow f[3];
	struct tomo_result r;
	double start;

	if (!path)
		return 1;
	for (size_t k = 0; k < n; k++)
		path[k] = k;
	other[0] = n;
	f[0] = (struct tomo_flow){ .failing = true, .traced = true,
				   .elements = path, .element_count = n };
	f[1] = f[0];
	f[2] = (struct tomo_flow){ .traced = true, .elements = other,
				   .element_count = 1 };
	start = cpu_seconds();
	if (tomo_find(&r, f, 3, n + 1, NULL, NULL) || r.count != 1 ||
	    r.items[0].element_count != n)
		return 1;
	printf("%.2f\n", cpu_seconds() - start);
	tomo_free(&r);
	free(path);
	return 0;
}

static int long_line(size_t n)
{
	char *text = malloc(n * 9 + 1);
	size_t len = 0;
	double start;

	if (!text || !freopen("/dev/null", "w", stdout))
		return 1;
	for (size_t k = 0; k < n; k++)
		len += (size_t)sprintf(text + len, "%sr%06zu", k ? ", " : "",
				       k % 1000000);
	start = cpu_seconds();
	out_init(OUT_TEXT, false);
	report_text_wrapped(2, text);
	out_finish();
	fprintf(stderr, "%.2f\n", cpu_seconds() - start);
	free(text);
	return 0;
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long long n;

	if (argc != 3 || (strcmp(argv[1], "path") && strcmp(argv[1], "wrap")))
		goto usage;
	n = strtoull(argv[2], &end, 10);
	if (*end || !n || n > 100000000)
		goto usage;
	return argv[1][0] == 'p' ? long_path(n) : long_line(n);
usage:
	fprintf(stderr, "usage: hostile_bench path|wrap N (1..100000000)\n");
	return 2;
}
