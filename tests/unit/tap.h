/* A minimal TAP producer for the unit tests: each check prints one
 * "ok N - ..." or "not ok N - ..." line; tap_done() prints the plan and
 * returns the exit status, so `prove` and tools/run-suites both read it. */
#ifndef IBAHPROBE_TAP_H
#define IBAHPROBE_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_count;
static int tap_failed;

static inline bool tap_ok(bool cond, const char *file, int line,
			  const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline bool tap_ok(bool cond, const char *file, int line,
			  const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return cond;
}

#define ok(cond, ...) tap_ok((cond), __FILE__, __LINE__, __VA_ARGS__)

#define is_int(got, want, ...)                                                 \
	do {                                                                   \
		long long got_ = (long long)(got), want_ = (long long)(want); \
		if (!ok(got_ == want_, __VA_ARGS__))                           \
			printf("#   got %lld, expected %lld\n", got_, want_);  \
	} while (0)

#define is_str(got, want, ...)                                                 \
	do {                                                                   \
		const char *got_ = (got), *want_ = (want);                     \
		if (!ok(got_ && want_ && strcmp(got_, want_) == 0,             \
			__VA_ARGS__))                                          \
			printf("#   got \"%s\", expected \"%s\"\n",            \
			       got_ ? got_ : "(null)",                         \
			       want_ ? want_ : "(null)");                      \
	} while (0)

#define is_mem(got, want, len, ...)                                            \
	do {                                                                   \
		if (!ok(memcmp((got), (want), (len)) == 0, __VA_ARGS__))       \
			tap_hexdiff((const void *)(got), (const void *)(want), \
				    (len));                                    \
	} while (0)

static inline void tap_hexdiff(const unsigned char *got,
			       const unsigned char *want, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (got[i] != want[i])
			printf("#   byte %zu: got 0x%02x, expected 0x%02x\n", i,
			       got[i], want[i]);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
