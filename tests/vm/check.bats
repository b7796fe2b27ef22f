#!/usr/bin/env bats
# `ibahprobe check` on the real rxe driver across the routed fabric: every
# kind of expectation held and missed, hop-limit expiry as unreachable, a
# missing responder, JSON, and prove reading the TAP. Responders: b, c, d.
# Runs in the guest (tests/vm/run).

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
PB=18531 PC=18532 PD=18533

setup_file() {
	require_vm_fabric || return 1
	start_serve b "$BATS_FILE_TMPDIR/serve.b" $PB
	start_serve c "$BATS_FILE_TMPDIR/serve.c" $PC
	start_serve d "$BATS_FILE_TMPDIR/serve.d" $PD
}

teardown_file() { stop_serves "$BATS_FILE_TMPDIR"; }

# check from endpoint a, bounded; the checklist comes on stdin.
check_a() {
	cat >"$BATS_TEST_TMPDIR/list.chk"
	timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 3000 check -c 3 "$@" \
		"$BATS_TEST_TMPDIR/list.chk"
}

@test "a checklist whose every expectation holds: exit 0, all ok, prove passes" {
	run -0 check_a <<-EOF
		# same segment, one router, two routers (R2 remarks DSCP 10 to 12)
		b:$PB  reachable hops=0 loss<=0 rtt_median<=100ms rtt_p99<=500ms grh_required=yes
		c:$PC  tclass=0x28 hops=1 tclass_preserved tclass_seen=0x28
		d:$PD  tclass=0x28 count=5 hops=1-2 tclass_seen=0x30 loss<=0
	EOF
	echo "$output"
	assert_tap_lines 1..12
	[ "$(grep -c '^ok ' <<<"$output")" -eq 12 ] || fail "not 12 ok lines"
	echo "$output" >"$BATS_TEST_TMPDIR/out.tap"
	run -0 prove -e cat "$BATS_TEST_TMPDIR/out.tap"
	[[ $output == *"Result: PASS"* ]] || fail "$output"
}

# The first line of the output is the plan.
assert_tap_lines() {
	[ "${lines[0]}" = "$1" ] || fail "plan: ${lines[0]}, expected $1"
}

@test "missed expectations say what was got and what was expected: exit 1" {
	run -1 check_a <<-EOF
		d:$PD   tclass=0x28 tclass_preserved hops=0
		b6:$PB  flow_label=0x12345 flow_label_preserved
		b:$PB   unreachable rtt_median<=1us path_mtu>=4096 grh_required=no path_sl=0
	EOF
	echo "$output"
	assert_tap_lines 1..8
	local want
	for want in \
		"not ok 1 - d:$PD tclass_preserved # got 0x30, expected 0x28" \
		"not ok 2 - d:$PD hops=0 # got 2, expected 0" \
		"not ok 3 - b6:$PB flow_label_preserved # got 0x00000, expected 0x12345" \
		"not ok 4 - b:$PB unreachable # got 3 of 3 answered, expected unreachable" \
		"not ok 6 - b:$PB path_mtu>=4096" \
		"not ok 7 - b:$PB grh_required=no # got a GRH, expected no GRH" \
		"not ok 8 - b:$PB path_sl=0 # got no SL: RoCE has no SA path record, expected 0" \
		"# 8 of 8 expectations failed"; do
		grep -qxF -- "$want" <<<"$output" || fail "no line: $want"
	done
	# RoCE: the port's MTU is no path's; not passed, and not judged
	# from it either (issue 26).
	echo "$output" | sed 's/^# *//' | tr -s ' \n' ' ' | grep -qF \
		"path_mtu>=4096 got not measured: RoCE has no path record and the port's MTU (1024 bytes) is not the path's; \`ibahprobe probe --mtu b:$PB\` measures it expected at least 4096 bytes" ||
		fail "no path_mtu reason"
	grep -qE "^not ok 5 - b:$PB rtt_median<=1us # got [0-9.]+ us, expected at most 1 us$" <<<"$output" ||
		fail "no rtt line"
}

@test "hop limit 1 across a router: unreachable holds, reachable fails with 0 answered" {
	tests/vm/set-hoplimit a "$FABRIC_C_IP4" 1
	run -1 check_a <<-EOF
		c:$PC  unreachable
		c:$PC  reachable loss<=0
		b:$PB  reachable
	EOF
	tests/vm/set-hoplimit a "$FABRIC_C_IP4" reset
	echo "$output"
	assert_tap_lines 1..4
	[ "${lines[1]}" = "ok 1 - c:$PC unreachable" ] || fail "${lines[1]}"
	[ "${lines[2]}" = "not ok 2 - c:$PC reachable # got 0 of 3 answered, expected reachable" ] ||
		fail "${lines[2]}"
	# R1 drops them (hop limit 1): the responder saw none.
	[ "${lines[3]}" = "not ok 3 - c:$PC loss<=0 # got 100% (3 of 3 lost on the way there), expected 0%" ] ||
		fail "${lines[3]}"
	[ "${lines[4]}" = "ok 4 - b:$PB reachable" ] || fail "${lines[4]}"
}

@test "no responder at a destination: its expectations fail with the reason, the rest run" {
	run -1 check_a <<-EOF
		b:18599  reachable
		c:$PC    hops=1
	EOF
	echo "$output"
	# The reason is too long for one line: TAP diagnostic lines under
	# the test (issue 26 item 9), read here as one line.
	[ "${lines[1]}" = "not ok 1 - b:18599 reachable" ] || fail "${lines[1]}"
	[[ $(echo "$output" | sed -n '/^not ok 1 /,/^ok 2 /p' | sed 's/^# *//' | tr -s ' \n' ' ') == \
		"not ok 1 - b:18599 reachable got "*"refused"*" expected reachable ok 2 - c:$PC hops=1 " ]] ||
		fail "no reason, or not before ok 2"
}

@test "-j: one JSON document with every result; -v adds each entry's probe result to the TAP" {
	run -1 --separate-stderr check_a -j <<-EOF
		c:$PC  hops=1 tclass_preserved
		d:$PD  tclass=0x28 tclass_preserved
	EOF
	echo "$output" | jq -e '.tests == 3 and .passed == 2 and .failed == 1 and
		(.results | map(.ok)) == [true, true, false] and
		(.results[2] | del(.sgid_choice)) == {test: 3, line: 2, dest: "d:18533",
				expectation: "tclass_preserved", ok: false,
				got: {value: 48, unit: null}, expected: {min: 40, max: 40, unit: null},
				got_text: "0x30", expected_text: "0x28"} and
		(.results | all(.sgid_choice.gid_type == "RoCE v2" and
				(.sgid_choice.reason | length > 0)))'
	run -0 --separate-stderr check_a -v <<-EOF
		c:$PC  hops=1
	EOF
	[[ ${lines[2]} == "# line 1 c:$PC: sent 3 received 3 hops 1 rtt median "*" seen hop_limit 63 traffic_class 0x00 flow_label 0x00000" ]] ||
		fail "$output"
}
