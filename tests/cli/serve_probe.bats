#!/usr/bin/env bats
# serve and probe without a device: every bad input is refused before any
# device is opened (exit 2, nothing on stdout), and without a device both
# exit 3. Real traffic is tested in tests/vm/ (rxe).

load helpers

serve_bad_values() {
	cat <<'TABLE'
--qkey|x|0x100000000|-1||q_key
--listen|1.2.3.4:99999|h:x|rendezvous port
--listen|[::1|[::1]x||listen
--count|0|x|-1||count
--duration|0|31536001|x||duration
--max-rate|0|10000001|x||max rate
--pkey|0x10000|x|0x8000|0||p_key
--rq-depth|0|65537|x|-1||rq depth
--ah-max-age|0|86401|x|-1||reply AH age
--mcast|bogus|10.0.0.1|fe80::1|::ffff:10.0.0.1|239.1.2.3,|ipoib:0x10000|ipoibx||--mcast '
TABLE
}

probe_bad_values() {
	cat <<'TABLE'
--qpn|0|0x1000000|x||qpn
--hop-limit|256|x|3-1||hop limit
--tclass|0x100|x|1,,2||traffic class
--flow-label|0x100000|x||flow label
--sl|16|x||sl
--count|1000001|x|-1||count
--interval|-1|3600001|x||interval
--size|10|135|4097|x||probe size
--window|0|1025|x||window
--interval-round|0|86401|x||round interval
--color|sometimes|1||colour
--pkey|0x10000|x|0x8000|0||p_key
--ah-max-age|0|86401|x||AH age
--paths|some|ALL||paths
--expect-members|0|4097|x|-1||expected members
--expect-member|b,,c|mcast:239.1.2.3|lid:5||expected member
--sa-key|0x10000000000000000|x|-1|1,2||SA key
TABLE
}

@test "every serve option refuses bad values: exit 2, message, empty stdout" {
	refuses_bad_values serve < <(serve_bad_values)
}

@test "every probe option refuses bad values: exit 2, message, empty stdout" {
	refuses_bad_values probe h1 < <(probe_bad_values)
}

@test "serve takes no operands; --listen and --no-listen contradict" {
	run -2 --separate-stderr "$IBAHPROBE" serve extra
	[[ $stderr == *"serve takes no arguments"* ]]
	run -2 --separate-stderr "$IBAHPROBE" serve -l 18516 --no-listen
	[[ $stderr == *"contradict"* ]]
}

@test "serve --mcast: a mixed InfiniBand/RoCE list, a group named twice, too many groups: exit 2 before any device" {
	run -2 --separate-stderr "$IBAHPROBE" serve --mcast ipoib,239.1.2.3
	[ -z "$output" ]
	[[ $stderr == *"'ipoib' is an InfiniBand (IPoIB) group and '239.1.2.3' an IPv4 (RoCE) group: one port is either InfiniBand or RoCE"* ]]
	run -2 --separate-stderr "$IBAHPROBE" serve --mcast 239.1.2.3 --mcast ipoib6:0x8001
	[[ $stderr == *"one port is either InfiniBand or RoCE"* ]]
	run -2 --separate-stderr "$IBAHPROBE" serve --mcast ipoib,ff12:401b:ffff::ffff:ffff
	[[ $stderr == *"group 'ff12:401b:ffff::ffff:ffff' is named twice (as 'ipoib' before)"* ]]
	run -2 --separate-stderr "$IBAHPROBE" serve --mcast 239.0.0.1,239.0.0.2,239.0.0.3,239.0.0.4,239.0.0.5,239.0.0.6,239.0.0.7,239.0.0.8,239.0.0.9,239.0.0.10,239.0.0.11,239.0.0.12,239.0.0.13,239.0.0.14,239.0.0.15,239.0.0.16,239.0.0.17
	[[ $stderr == *"more than 16 groups"* ]]
	run -2 --separate-stderr "$IBAHPROBE" serve -j --mcast 10.0.0.1
	assert_json_error 2
}

@test "probe --ah-max-age needs a continuous run" {
	run -2 --separate-stderr "$IBAHPROBE" probe --ah-max-age 5 h1
	[ -z "$output" ]
	[[ $stderr == *"--ah-max-age renews the AHs of a continuous run"* ]]
}

@test "probe: no destination, bad destinations, --qkey without --qpn" {
	run -2 --separate-stderr "$IBAHPROBE" probe
	[[ $stderr == *"probe needs at least one destination"* ]]
	# A destination that does not parse is its own error row, not a
	# usage error (tests/sim/probe_ib.bats); an option still is.
	run -2 --separate-stderr "$IBAHPROBE" probe --hop-limit 300 "bad host!"
	[[ $stderr == *"hop limit '300' is out of range"* ]]
	run -2 --separate-stderr "$IBAHPROBE" probe --qkey 0x11 h1
	[[ $stderr == *"--qkey needs --qpn"* ]]
	run -2 --separate-stderr "$IBAHPROBE" probe -f /nonexistent
	[[ $stderr == *"No such file or directory"* ]]
	run -2 --separate-stderr "$IBAHPROBE" probe --hop-limit 0-300 h1
	[[ $stderr == *"hop limit '300' is out of range: expected 0-255"* ]]
}

@test "probe mcast:: the group forms, and what does not apply to a group: exit 2 before any device" {
	run -2 --separate-stderr "$IBAHPROBE" probe --expect-members 2 h1
	[[ $stderr == *"--expect-members counts the members of a group: give mcast: destinations"* ]]
	run -2 --separate-stderr "$IBAHPROBE" probe --expect-member c h1
	[ -z "$output" ]
	[[ $stderr == *"--expect-member names members of a group: give mcast: destinations"* ]]
	run -2 --separate-stderr "$IBAHPROBE" probe --sa-key 1 h1
	[ -z "$output" ]
	[[ $stderr == *"--sa-key is the key of the SA's member listing of a group: give mcast: destinations"* ]]
	run -2 --separate-stderr "$IBAHPROBE" probe mcast:239.1.2.3 h1
	[[ $stderr == *"give mcast: destinations on their own"* ]]
	run -2 --separate-stderr "$IBAHPROBE" probe --hop-limit 1,2 mcast:239.1.2.3
	[[ $stderr == *"a group is probed with one parameter set"* ]]
	run -2 --separate-stderr "$IBAHPROBE" probe --continuous mcast:239.1.2.3
	[[ $stderr == *"--continuous does not apply to a group"* ]]
	run -2 --separate-stderr "$IBAHPROBE" probe --mtu mcast:ff0e::1234
	[[ $stderr == *"--mtu does not apply to a group"* ]]
	run -2 --separate-stderr "$IBAHPROBE" probe --qpn 0x11 mcast:ff0e::1234
	[[ $stderr == *"--qpn (a group's is 0xffffff) does not apply to a group"* ]]
	run -2 --separate-stderr "$IBAHPROBE" probe -j --hop-limit 1,2 mcast:239.1.2.3
	assert_json_error 2
}

@test "no RDMA device: serve and probe exit 3 with a JSON error under -j" {
	has_rdma_device && skip "this machine has an RDMA device"
	run -3 --separate-stderr "$IBAHPROBE" serve -j
	assert_json_error 3
	run -3 --separate-stderr "$IBAHPROBE" probe -j h1
	assert_json_error 3
	# A destination that does not parse is that destination's error
	# row, for which the port is needed as for any other.
	run -3 --separate-stderr "$IBAHPROBE" probe -j h1 "bad host!" c:185170
	assert_json_error 3
	# A group's Q_Key needs no --qpn; without a device: exit 3.
	run -3 --separate-stderr "$IBAHPROBE" probe -j --qkey 0x11 --expect-members 2 mcast:239.1.2.3
	assert_json_error 3
}

@test "probe --dry-run with --jsonl is refused: the dry run prints at once" {
	run -2 --separate-stderr "$IBAHPROBE" probe --dry-run --jsonl h1
	# --jsonl is in force: the error is one JSON line (issue 13).
	assert_json_error 2
	[ "${#lines[@]}" -eq 1 ] || fail "more than one line: $output"
	[[ $stderr == "ibahprobe: error: --dry-run prints what it resolved at once"* ]] || fail "$stderr"
}

@test "ah --dry-run on an assumed IB port: an IPv4 DGID breaks dgid_not_ipv4_mapped_on_ib" {
	run -1 "$IBAHPROBE" ah --dry-run --link-layer ib --dlid 3 --dgid 10.0.0.2 -j
	echo "$output" | jq -e '.[0].status == "invalid" and
		.[0].violations[0].rule == "dgid_not_ipv4_mapped_on_ib" and
		.[0].violations[0].severity == "error"'
	run -0 "$IBAHPROBE" ah --dry-run --link-layer ib --dlid 3 --dgid fe80::10:3 -j
	run -0 "$IBAHPROBE" ah --dry-run --link-layer eth --dgid 10.0.0.2 -j
}

@test "probe --continuous: -c N, --dry-run contradict it; --interval-round needs it" {
	run -2 --separate-stderr "$IBAHPROBE" probe --continuous -c 5 h1
	[[ $stderr == *"--continuous probes until interrupted: drop -c 5"* ]] || fail "$stderr"
	[ -z "$output" ]
	run -2 --separate-stderr "$IBAHPROBE" probe --interval-round 5 h1
	[[ $stderr == *"--interval-round needs --continuous"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" probe -c 0 --dry-run h1
	[[ $stderr == *"--dry-run probes nothing"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" -j probe --continuous --dry-run h1
	assert_json_error 2
}

@test "probe failing as a whole (exit 3) names its host, run and schema in the JSON error; bad input does not" {
	has_rdma_device && skip "this machine has an RDMA device: probe would run"
	run -3 --separate-stderr "$IBAHPROBE" -j probe h1
	echo "$output" | jq -e --arg h "$(hostname)" '
		.record == "error" and .schema == "ibahprobe.probe.v1" and
		(.run_id | test("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")) and
		(.start_time | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")) and
		.source.host == $h and .exit_status == 3 and (.error | length > 0)' || fail "$output"
	run -3 --separate-stderr "$IBAHPROBE" probe --jsonl h1
	[ "$(echo "$output" | wc -l)" -eq 1 ] && echo "$output" | jq -e '.record == "error"'
	run -2 --separate-stderr "$IBAHPROBE" -j probe --count x h1
	echo "$output" | jq -e 'keys == ["error", "exit_status"]' || fail "$output"
}

@test "probe mcast: mixed with other destinations: exit 2 before any device is opened; probed without a device: exit 3" {
	has_rdma_device && skip "this machine has an RDMA device"
	run -3 --separate-stderr "$IBAHPROBE" probe mcast:ipoib
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"no RDMA device found"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" probe --dry-run mcast:ipoib lid:3
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"give mcast: destinations on their own"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" probe -j --dry-run mcast:ipoib:0x8001 lid:3
	assert_json_error 2
	run -3 --separate-stderr "$IBAHPROBE" probe -j mcast:ipoib:0x8001
	assert_json_error 3
}

@test "probe --paths all: with --continuous (or -c 0) every round probes every path; with --mtu refused (exit 2)" {
	# Taken: the run gets past its options to the device (none here).
	run -3 --separate-stderr "$IBAHPROBE" probe --paths all --continuous h1
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: no RDMA device found"* ]] || fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" probe -j --paths all -c 0 --metrics "$BATS_TEST_TMPDIR/m.prom" h1
	assert_json_error 3
	run -2 --separate-stderr "$IBAHPROBE" probe --paths all --mtu h1
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: --mtu searches one path a destination (one search, one row): drop --paths all, or give each DLID to search as lid:N" ]] ||
		fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" probe -j --paths all --mtu h1
	assert_json_error 2
}
