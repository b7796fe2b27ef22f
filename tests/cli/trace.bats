#!/usr/bin/env bats
# trace without a subnet: every bad input is refused before the SA is
# asked (exit 2), and a machine without an InfiniBand port gets exit 3.
# Traces over a real SA are tested in tests/sim/trace.bats, traces over
# RoCE routers in tests/vm/trace_roce.bats.

load helpers

bad_values() {
	cat <<'TABLE'
--window|0|257|x||window
--retries|21|x|-1||retries
--flow-label|0x100000|x|3-1||flow label
--tclass|256|x||traffic class
--max-hops|0|65|x||max-hops
--queries|0|11|x||queries
--udp-sport|0|65536|x|5-1||UDP source port
--paths|some|ALL||paths
--rate|0|10001|x|-1||rate
--max-in-flight|0|1025|x|-1||max-in-flight
TABLE
}

@test "--udp-sport with --flow-label: both choose the port, exit 2, nothing on stdout" {
	run -2 --separate-stderr "$IBAHPROBE" trace --udp-sport 50000 --flow-label 1 lid:1
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"--udp-sport and --flow-label"* ]] || fail "$stderr"
}

@test "--nic with --udp-sport: the provider picks a QP's port, exit 2, nothing on stdout" {
	run -2 --separate-stderr "$IBAHPROBE" trace --nic --udp-sport 50000 lid:1
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: --nic sends from our QP"*"--flow-label, not --udp-sport"* ]] ||
		fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" trace -j --nic --udp-sport 50000 lid:1
	assert_json_error 2
	run -2 --separate-stderr "$IBAHPROBE" trace --nic=1 lid:1
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: "*"--nic"* ]] || fail "a flag takes no value: $stderr"
}

@test "every trace option refuses bad values: exit 2, message, empty stdout" {
	refuses_bad_values trace lid:1 < <(bad_values)
}

@test "trace -h lists its options and what it reads" {
	run -0 "$IBAHPROBE" trace -h
	[[ $output == *"--window"* && $output == *"--retries"* && $output == *"--file"* ]] ||
		fail "$output"
	[[ $output == *"--flow-label"* && $output == *"--tclass"* && $output == *"--max-hops"* &&
		$output == *"--queries"* && $output == *"--gid-index"* && $output == *"--nic"* ]] ||
		fail "the RoCE options and the GID index: $output"
	[[ $output == *"--rate N"*"default 50"* && $output == *"--max-in-flight N"*"default 32"* ]] ||
		fail "the query rate and the queries in flight: $output"
}

@test "no destination: exit 2 with a hint" {
	run -2 --separate-stderr "$IBAHPROBE" trace
	[ -z "$output" ]
	assert_equal "$stderr" "ibahprobe: error: trace needs at least one destination; 'ibahprobe trace -h' shows the forms"
	run -2 --separate-stderr "$IBAHPROBE" trace -j
	assert_json_error 2
}

@test "bad destinations are refused before the SA is asked" {
	local dest
	for dest in lid:0 lid:0xc000 49152 guid:xyz "[::1"; do
		run -2 --separate-stderr "$IBAHPROBE" trace 5 "$dest"
		[ -z "$output" ] || fail "$dest wrote to stdout"
		[[ $stderr == "ibahprobe: error: "*"'"* ]] || fail "$dest: $stderr"
	done
	run -2 --separate-stderr "$IBAHPROBE" trace --bogus 5
	[ -z "$output" ]
	[[ $stderr == "ibahprobe: error: "* ]] || fail "$stderr"
}

@test "destination file: unreadable, bad line named by number" {
	run -2 --separate-stderr "$IBAHPROBE" trace -f /nonexistent
	assert_equal "$stderr" "ibahprobe: error: cannot open destination file '/nonexistent': No such file or directory"
	printf '1\n# comment\nlid:0\n' >"$BATS_TEST_TMPDIR/dests"
	run -2 --separate-stderr "$IBAHPROBE" trace -f "$BATS_TEST_TMPDIR/dests"
	[[ $stderr == *"$BATS_TEST_TMPDIR/dests:3: lid '0'"* ]] || fail "$stderr"
}

@test "no InfiniBand port: exit 3, clear message, JSON error with -j" {
	[ -d /sys/class/infiniband_mad ] && ls /sys/class/infiniband_mad | grep -q umad &&
		skip "this machine has umad ports"
	run -3 --separate-stderr "$IBAHPROBE" trace lid:1
	[ -z "$output" ]
	[[ $stderr == "ibahprobe: error: "*"umad"* ]] || fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" trace -j lid:1 lid:2
	assert_json_error 3
}
