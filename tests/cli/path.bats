#!/usr/bin/env bats
# path without a subnet: every bad input is refused before the SA is asked
# (exit 2), and a machine without an InfiniBand port gets exit 3. The
# answers of a real SA are tested in tests/sim/.

load helpers

bad_values() {
	cat <<'TABLE'
--sl|16|x|-1||4-bit sl
--pkey|0x10000|x||p_key
--tclass|256|x||traffic class
--flow-label|0x100000|x||20-bit flow label
--hop-limit|256|x||hop limit
--mtu|1500|0|6|x||mtu
--rate|3|x|0||rate
--qos-class|4096|x||qos class
--sgid|zz::1|1.2.3||gid
--window|0|257|x||window
--retries|21|x||retries
TABLE
}

@test "every path option refuses bad values: exit 2, message, empty stdout" {
	refuses_bad_values path lid:1 < <(bad_values)
}

@test "no destination: exit 2 with a hint" {
	run -2 --separate-stderr "$IBAHPROBE" path
	[ -z "$output" ]
	assert_equal "$stderr" "ibahprobe: error: path needs at least one destination; 'ibahprobe path -h' shows the forms"
}

@test "bad destinations are refused before the SA is asked" {
	local dest
	for dest in lid:0 lid:0xc000 49152 guid:xyz "[::1"; do
		run -2 --separate-stderr "$IBAHPROBE" path "$dest"
		[ -z "$output" ] || fail "$dest wrote to stdout"
		[[ $stderr == "ibahprobe: error: "*"'"* ]] || fail "$dest: $stderr"
	done
	for dest in guid: node:; do
		run -2 --separate-stderr "$IBAHPROBE" path "$dest"
		[ -z "$output" ] || fail "$dest wrote to stdout"
		[[ $stderr == "ibahprobe: error: "*@(is empty|1-64 characters)* ]] || fail "$dest: $stderr"
	done
}

@test "destination file: unreadable, bad line named by number, stdin" {
	run -2 --separate-stderr "$IBAHPROBE" path -f /nonexistent
	assert_equal "$stderr" "ibahprobe: error: cannot open destination file '/nonexistent': No such file or directory"
	printf '1\n# comment\nlid:0\n' >"$BATS_TEST_TMPDIR/dests"
	run -2 --separate-stderr "$IBAHPROBE" path -f "$BATS_TEST_TMPDIR/dests"
	[[ $stderr == *"$BATS_TEST_TMPDIR/dests:3: lid '0'"* ]] || fail "$stderr"
	run -2 --separate-stderr bash -c "printf 'lid:1\n\nlid:0\n' | '$IBAHPROBE' path -f -"
	[[ $stderr == *"<stdin>:3: lid '0'"* ]] || fail "$stderr"
}

@test "no InfiniBand port: exit 3, clear message, JSON error with -j" {
	[ -d /sys/class/infiniband_mad ] && ls /sys/class/infiniband_mad | grep -q umad &&
		skip "this machine has umad ports"
	run -3 --separate-stderr "$IBAHPROBE" path lid:1
	[ -z "$output" ]
	[[ $stderr == "ibahprobe: error: "*"umad"* ]] || fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" path -j lid:1 lid:2
	assert_json_error 3
}
