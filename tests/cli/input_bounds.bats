#!/usr/bin/env bats
# Text inputs are read within bounds: a NUL byte is named with its
# FILE:LINE:COL, an over-long line or /dev/zero ends with exit 2 and a
# message, never unbounded memory or a line cut at its NUL. Standard
# input is named <stdin> everywhere.

bats_require_minimum_version 1.5.0
load helpers

@test "probe -f and check: a NUL byte is FILE:LINE:COL, exit 2, nothing on stdout" {
	printf 'b\n\0x\n' >"$BATS_TEST_TMPDIR/nul.txt"
	run -2 --separate-stderr "$IBAHPROBE" probe -f "$BATS_TEST_TMPDIR/nul.txt"
	[ -z "$output" ]
	[[ $stderr == *"nul.txt:2:1: a NUL byte in a text line"* ]] || fail "$stderr"
	printf 'b reachable\nc reach\0able\n' >"$BATS_TEST_TMPDIR/nul.check"
	run -2 --separate-stderr "$IBAHPROBE" check "$BATS_TEST_TMPDIR/nul.check"
	[ -z "$output" ]
	[[ $stderr == *"nul.check:2:8: a NUL byte in a text line"* ]] || fail "$stderr"
}

@test "/dev/zero and an endless line end at once with exit 2" {
	run -2 --separate-stderr timeout 10 "$IBAHPROBE" check /dev/zero
	[[ $stderr == *"/dev/zero:1:1: a NUL byte"* ]] || fail "$stderr"
	run -2 --separate-stderr timeout 10 "$IBAHPROBE" probe -f /dev/zero
	[[ $stderr == *"/dev/zero:1:1: a NUL byte"* ]] || fail "$stderr"
	run -2 --separate-stderr timeout 10 bash -c \
		'yes x | tr -d "\n" | "$1" probe -f -' _ "$IBAHPROBE"
	[[ $stderr == *"<stdin>:1: line is longer than 256 characters"* ]] ||
		fail "$stderr"
	run -2 --separate-stderr timeout 10 bash -c \
		'yes x | tr -d "\n" | "$1" check -' _ "$IBAHPROBE"
	[[ $stderr == *"<stdin>:1: line is longer than 4095 characters"* ]] ||
		fail "$stderr"
}

@test "errors that quote input show controls escaped, never raw, in one line" {
	run -2 --separate-stderr "$IBAHPROBE" check - <<<$'b hops=\e[2J\u202e'
	[ -z "$output" ]
	[[ $stderr != *$'\e'* && $stderr != *$'\u202e'* ]] || fail "raw control: $stderr"
	[[ $stderr == *'\x1b[2J\u{202e}'* ]] || fail "$stderr"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "$stderr"
}
