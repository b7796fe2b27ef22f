#!/usr/bin/env bats
# report reads its input as a stream within documented bounds (report(8),
# LIMITS): a result of more than 1 MiB, a line of more than 1 MiB that
# holds no result, or more than 1000000 failed runs end the run with
# FILE:LINE and exit 2 at once, so /dev/zero or an endless pipe never
# make memory grow; a stream of any length is read (no 2 GiB limit).

load helpers

DATA=$BATS_TEST_DIRNAME/data

# bounded CMD...: runs CMD with a time limit; 124 means it never ended.
bounded() {
	run --separate-stderr timeout 60 bash -c "$@"
	[ "$status" -ne 124 ] || fail "did not end within 60 s"
	[ "$status" -eq 2 ] || fail "exit $status, expected 2: $stderr"
	[ -z "$output" ] || fail "stdout: ${output:0:200}"
}

@test "/dev/zero: a NUL byte at 1:1, exit 2 at once" {
	run -2 --separate-stderr timeout 60 "$IBAHPROBE" report /dev/zero
	[ "$stderr" = "ibahprobe: error: /dev/zero:1:1: not JSON: a NUL byte" ] || fail "$stderr"
	# In the middle of the second line, from a pipe.
	export IBAHPROBE DATA
	bounded '{ head -n 1 "$DATA/report-fine.jsonl"; printf "{\"dest\"\0"; cat /dev/zero; } | "$IBAHPROBE" report'
	[ "$stderr" = "ibahprobe: error: <stdin>:2:8: not JSON: a NUL byte" ] || fail "$stderr"
}

@test "a result longer than 1 MiB: FILE:LINE of its start, exit 2, also without end" {
	export IBAHPROBE DATA
	# One byte too many: a finding that makes the line 1048577 bytes.
	local line pad
	line=$(head -n 1 "$DATA/report-fine.jsonl")
	pad=$((1048577 - ${#line} - 2))
	{ echo; echo; jq -c --argjson n "$pad" '.findings = [("x" * $n)]' <<<"$line"; } >"$BATS_TEST_TMPDIR/big.jsonl"
	[ "$(sed -n 3p "$BATS_TEST_TMPDIR/big.jsonl" | wc -c)" -eq 1048578 ] || fail "test input of the wrong size"
	run -2 --separate-stderr "$IBAHPROBE" report "$BATS_TEST_TMPDIR/big.jsonl"
	[ -z "$output" ]
	[[ $stderr == "ibahprobe: error: $BATS_TEST_TMPDIR/big.jsonl:3: a JSON value longer than 1048576 bytes starts here"* ]] ||
		fail "$stderr"
	# The same one byte shorter is read.
	{ echo; echo; jq -c --argjson n "$((pad - 1))" '.findings = [("x" * $n)]' <<<"$line"; } >"$BATS_TEST_TMPDIR/max.jsonl"
	run -0 "$IBAHPROBE" report -j "$BATS_TEST_TMPDIR/max.jsonl"
	# A string that never ends, on stdin.
	bounded '{ printf "{\"dest\":\""; yes x | tr -d "\n"; } | "$IBAHPROBE" report'
	[[ $stderr == "ibahprobe: error: <stdin>:1: a JSON value longer than 1048576 bytes starts here"* ]] ||
		fail "$stderr"
	# As an element of an array (probe -j), on the element's line.
	bounded '{ printf "[\n"; head -n 1 "$DATA/report-fine.jsonl"; printf ",\n{\"dest\":\""; yes x | tr -d "\n"; } | "$IBAHPROBE" report'
	[[ $stderr == *"<stdin>:4: a JSON value longer than 1048576 bytes"* ]] || fail "$stderr"
}

@test "a line of blanks longer than 1 MiB and an endless line of blanks: exit 2" {
	export IBAHPROBE DATA
	bounded '{ head -n 1 "$DATA/report-fine.jsonl"; yes " " | tr -d "\n"; } | "$IBAHPROBE" report'
	[[ $stderr == "ibahprobe: error: <stdin>:2: a line longer than 1048576 bytes holds no result" ]] ||
		fail "$stderr"
	# Empty arrays are no result either.
	bounded 'yes "[]," | tr -d "\n," | "$IBAHPROBE" report'
	[[ $stderr == *"<stdin>:1: a line longer than 1048576 bytes holds no result" ]] || fail "$stderr"
}

@test "more than 1000000 failed runs: exit 2 naming the line of the one too many, also on an endless stdin" {
	export IBAHPROBE
	bounded 'yes "{\"error\":\"no RDMA device found\",\"exit_status\":3}" | "$IBAHPROBE" report'
	[[ $stderr == "ibahprobe: error: <stdin>:1000001: more than 1000000 failed runs"* ]] || fail "$stderr"
}

@test "a stream longer than 2 GiB is read to its end" {
	export IBAHPROBE DATA
	# A result, 2.2 GiB of blank lines, the other result: both are merged.
	run -0 --separate-stderr timeout 300 bash -c '
		{ head -n 1 "$DATA/report-fine.jsonl"
		  yes "$(printf "%4095s" "")" | head -c 2362232012
		  tail -n 1 "$DATA/report-fine.jsonl"; } | "$IBAHPROBE" report -j'
	echo "$output" | jq -e '.summary.pairs == 2 and .summary.reachable == 2' >/dev/null ||
		fail "$stderr $output"
}
