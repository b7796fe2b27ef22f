#!/usr/bin/env bats
# check without a device: options and checklist files are refused before
# anything is opened (exit 2, the file, line and column named, nothing on
# stdout); a good checklist without a device exits 3. Path expectations
# are tested on the simulated subnet (tests/sim/check.bats), probing ones
# on rxe (tests/vm/check.bats).

load helpers

check_bad_values() {
	cat <<'TABLE'
--count|0|1000001|x||count
--window|0|1025|x||window
TABLE
}

@test "every check option refuses bad values: exit 2, message, empty stdout" {
	echo "lid:3" >"$BATS_TEST_TMPDIR/ok.chk"
	refuses_bad_values check "$BATS_TEST_TMPDIR/ok.chk" < <(check_bad_values)
}

@test "check -h shows the usage and its options" {
	run -0 "$IBAHPROBE" check -h
	assert_line --index 0 "Usage: ibahprobe [OPTIONS] check [OPTIONS] FILE"
	assert_output --partial "--count N"
	assert_output --partial "--window N"
}

@test "a mistake in the checklist: exit 2, file:line:column and the reason, empty stdout, JSON error" {
	local f=$BATS_TEST_TMPDIR/rack.chk row
	while IFS='|' read -r -a row; do
		printf '# rack 12\n\nlid:4 path_sl=0\n%s\n' "${row[0]}" >"$f"
		run -2 --separate-stderr "$IBAHPROBE" check "$f"
		[ -z "$output" ] || fail "'${row[0]}' wrote to stdout: $output"
		assert_equal "$stderr" "ibahprobe: error: $f:4:${row[1]}"
		run -2 --separate-stderr "$IBAHPROBE" check -j "$f"
		assert_json_error 2
	done <<'TABLE'
host-c:18517 hops=one|19: hops 'one' is not a number: expected 0-255
host-c:18517 reachable=yes|14: reachable is written as a bare word
  lid:3 fast|9: unknown word 'fast': expected reachable, unreachable, isolated, hops, loss, rtt_median, rtt_p99, network_rtt_median, network_rtt_p99, tclass_preserved, tclass_seen, pcp_seen, flow_label_preserved, path_mtu, path_sl, grh_required, paths_ok, mcast_joinable, mcast_members, mcast_member, or what to send: hop_limit, tclass, flow_label, sl, count, qpn, qkey
lid:3 tclass=0x28 tclass=0x30|19: tclass is given twice
mcast:10.0.0.1 mcast_joinable|1: '10.0.0.1' is not a multicast address (IPv4 groups are in 224.0.0.0/4)
mcast:ipoib reachable|13: reachable is not for a group: a group expects mcast_joinable, mcast_members>=N or mcast_member=HOST
lid:3 mcast_members>=2|7: mcast_members is for a group: give an mcast: destination
mcast:239.1.2.3 mcast_member|17: mcast_member is written as mcast_member=HOST
lid:3 flow_label=0x123456|18: 20-bit flow label '0x123456' is out of range: expected 0-1048575 (0x0-0xfffff)
lid:3 loss<=101%|13: loss '101' is out of range: expected 0-100 (percent)
lid:3 qkey=0x11|7: qkey= needs qpn=: without them the rendezvous tells both
lid:3 rtt_median<=5s|19: rtt_median '5s' is not a duration: expected N (microseconds), N us or N ms, e.g. rtt_median<=200 or rtt_median<=1.5 ms
lid:3 rtt_median<50|7: rtt_median is written as rtt_median<=N
lid:3 reachable ms|17: 'ms' is a unit: it follows a number, as in rtt_median<=50 ms, loss<=20 %, path_mtu>=2048 bytes
bad!host hops=1|1: destination 'bad!host' is not a LID, GID, address or host name: expected lid:N, gid:ADDR, guid:0x..., node:NAME, an address or a host name
TABLE
}

@test "a checklist with several broken lines: each named, in order, up to 20 and a count of the rest; exit 2" {
	local f=$BATS_TEST_TMPDIR/rack.chk i
	printf 'lid:3 hops=one\nlid:4 reachable\nlid:5 bogus\n\nx!y reachable\n' >"$f"
	run -2 --separate-stderr "$IBAHPROBE" check "$f"
	[ -z "$output" ] || fail "stdout: $output"
	[ "$(grep -c '^ibahprobe: error: ' <<<"$stderr")" -eq 3 ] || fail "stderr: $stderr"
	[[ $(sed -n 1p <<<"$stderr") == "ibahprobe: error: $f:1:12: hops 'one' is not a number"* ]] || fail "$stderr"
	[[ $(sed -n 2p <<<"$stderr") == "ibahprobe: error: $f:3:7: unknown word 'bogus'"* ]] || fail "$stderr"
	[[ $(sed -n 3p <<<"$stderr") == "ibahprobe: error: $f:5:1: destination 'x!y'"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" check -j "$f"
	assert_json_error 2
	jq -e '.error | split("\n") | length == 3' <<<"$output" >/dev/null || fail "$output"
	for ((i = 1; i <= 25; i++)); do echo "lid:$i hops=x"; done >"$f"
	run -2 --separate-stderr "$IBAHPROBE" check "$f"
	[ "${#lines[@]}" -eq 0 ] || fail "stdout: $output"
	[ "$(grep -c '^ibahprobe: error: ' <<<"$stderr")" -eq 21 ] || fail "stderr: $stderr"
	[[ $(sed -n 20p <<<"$stderr") == "ibahprobe: error: $f:20:"* ]] || fail "$stderr"
	[ "$(sed -n 21p <<<"$stderr")" = "ibahprobe: error: $f: 5 more broken lines (the first 20 are shown)" ] || fail "$stderr"
}

@test "no file, two files, an unreadable file, an empty checklist: exit 2" {
	run -2 --separate-stderr "$IBAHPROBE" check
	[[ $stderr == *"check takes one checklist file ('-' for stdin), got 0 arguments"* ]]
	run -2 --separate-stderr "$IBAHPROBE" check a b
	[[ $stderr == *"got 2 arguments"* ]]
	run -2 --separate-stderr "$IBAHPROBE" check /nonexistent.chk
	assert_equal "$stderr" "ibahprobe: error: cannot open checklist '/nonexistent.chk': No such file or directory"
	printf '# nothing yet\n\n' >"$BATS_TEST_TMPDIR/empty.chk"
	run -2 --separate-stderr "$IBAHPROBE" check "$BATS_TEST_TMPDIR/empty.chk"
	[[ $stderr == *"has no entry"* ]]
	[ -z "$output" ]
	run -2 --separate-stderr bash -c "printf 'lid:3 hops=x\n' | '$IBAHPROBE' check -"
	[[ $stderr == *"<stdin>:1:12: hops 'x' is not a number"* ]] || fail "$stderr"
}

@test "a good checklist without any RDMA device: exit 3, a clear message, nothing on stdout" {
	has_rdma_device && skip "this machine has an RDMA device"
	printf 'lid:3 path_mtu>=2048\n' >"$BATS_TEST_TMPDIR/ok.chk"
	run -3 --separate-stderr "$IBAHPROBE" check "$BATS_TEST_TMPDIR/ok.chk"
	[ -z "$output" ]
	[[ $stderr == "ibahprobe: error: no RDMA device found"* ]] || fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" check -j "$BATS_TEST_TMPDIR/ok.chk"
	assert_json_error 3
}

@test "the spellings the hints suggest are accepted: '50 ms', '1.5ms', '20 %', '2048 bytes' get past the parser" {
	has_rdma_device && skip "this machine has an RDMA device"
	local spelling
	for spelling in 'rtt_median<=50 ms' 'rtt_p99<=900 us' 'rtt_median<=1.5ms' \
		'rtt_median<=40µs' 'loss<=20 %' 'path_mtu>=2048 bytes'; do
		printf 'lid:3 %s\n' "$spelling" >"$BATS_TEST_TMPDIR/units.chk"
		# Parsed: the run goes on to look for a device (exit 3), not a
		# checklist mistake (exit 2).
		run -3 --separate-stderr "$IBAHPROBE" check "$BATS_TEST_TMPDIR/units.chk"
		[[ $stderr == "ibahprobe: error: no RDMA device found"* ]] ||
			fail "'$spelling': $stderr"
	done
}
