#!/usr/bin/env bats
# `ibahprobe check` with path expectations on the two-switch subnet under a
# QoS policy (H3 on SL 3, H4 on SL 5): the SA answers, TAP comes out, prove
# reads it, and the exit status says whether every expectation held. The
# simulator has no verbs device, so probing checklists end with exit 3.

load helpers

setup_file() {
	sim_setup_file two-switch.topo -Q -Y "$BATS_TEST_DIRNAME/topo/qos-policy.conf"
}
teardown_file() { sim_stop; }

checklist() {	# writes stdin to a checklist file, prints its name
	local f=$BATS_TEST_TMPDIR/checklist.$RANDOM
	cat >"$f"
	echo "$f"
}

@test "every path expectation holds: exit 0, a plan and one ok per expectation, prove agrees" {
	local f
	f=$(checklist <<-EOF
		# rack 1 bring-up: SLs from the QoS policy, 2048-byte MTU, no routers
		node:H2            path_sl=0 path_mtu>=2048 grh_required=no
		guid:$(sim_guid H3)  path_sl=3 path_mtu=2048
		lid:$(sim_lid H4)  path_sl=5   # management
	EOF
	)
	run -0 --separate-stderr iba_on H1 check "$f"
	assert_equal "${lines[0]}" "1..6"
	assert_equal "${lines[1]}" "ok 1 - node:H2 path_sl=0"
	assert_equal "${lines[2]}" "ok 2 - node:H2 path_mtu>=2048"
	assert_equal "${lines[3]}" "ok 3 - node:H2 grh_required=no"
	assert_equal "${lines[4]}" "ok 4 - guid:$(sim_guid H3) path_sl=3"
	assert_equal "${lines[6]}" "ok 6 - lid:$(sim_lid H4) path_sl=5"
	[ "${#lines[@]}" -eq 7 ] || fail "more than the plan and 6 tests: $output"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	echo "$output" >"$BATS_TEST_TMPDIR/out.tap"
	run -0 prove --exec cat "$BATS_TEST_TMPDIR/out.tap"
	assert_output --partial "Result: PASS"
}

@test "missed expectations: not ok with what was got and expected, exit 1, prove fails" {
	local f
	f=$(checklist <<-EOF
		node:H3  path_sl=0 path_mtu>=4096 path_mtu>=1024
		node:H4  grh_required=yes
	EOF
	)
	run -1 iba_on H1 check "$f"
	assert_line --index 0 "1..4"
	assert_line --index 1 "not ok 1 - node:H3 path_sl=0 # got 3, expected 0"
	assert_line --index 2 "not ok 2 - node:H3 path_mtu>=4096 # got 2048 bytes, expected at least 4096 bytes"
	assert_line --index 3 "ok 3 - node:H3 path_mtu>=1024"
	assert_line --index 4 "not ok 4 - node:H4 grh_required=yes # got no GRH, expected a GRH"
	assert_line --index 5 "# 3 of 4 expectations failed"
	echo "$output" >"$BATS_TEST_TMPDIR/out.tap"
	run -1 prove --exec cat "$BATS_TEST_TMPDIR/out.tap"
	assert_output --partial "Failed 3/4 subtests"
}

@test "an unknown destination fails its expectations with the SA's answer; the others still run" {
	local f
	f=$(checklist <<-EOF
		lid:99      path_mtu>=256
		node:nope   path_sl=0
		node:H2     path_sl=0
	EOF
	)
	run -1 iba_on H1 check "$f"
	# On one line they would pass 100 columns: TAP diagnostic lines
	# below the test say what was got and what was expected.
	assert_line --index 1 'not ok 1 - lid:99 path_mtu>=256'
	assert_line --index 2 --regexp '^# got .*no records'
	assert_line --index 3 '# expected at least 256 bytes'
	assert_line --index 4 'not ok 2 - node:nope path_sl=0'
	assert_line --index 5 --regexp "^# got .*no node named 'nope'"
	assert_line --index 6 '# expected 0'
	assert_line --index 7 "ok 3 - node:H2 path_sl=0"
	run -0 awk 'length($0) > 99' <<<"$output"
	assert_output ''
}

@test "-j: the same results as one JSON document" {
	local f
	f=$(checklist <<-EOF
		node:H3  path_sl=3 path_sl=5
	EOF
	)
	run -1 --separate-stderr iba_on H1 check -j "$f"
	echo "$output" | jq -e --arg f "$f" '
		.checklist == $f and .tests == 2 and .passed == 1 and .failed == 1 and
		(.results | length == 2) and
		.results[0] == {test: 1, line: 1, dest: "node:H3", expectation: "path_sl=3",
				ok: true, got: {value: 3, unit: null},
				expected: {min: 3, max: 3, unit: null},
				got_text: "3", expected_text: "3"} and
		.results[1].ok == false and .results[1].got.value == 3 and
		.results[1].expected == {min: 5, max: 5, unit: null}'
}

@test "-j: got and expected are numbers with a unit; a failed lookup gives its reason whole" {
	local f
	f=$(checklist <<-EOF
		node:H3  path_mtu>=4096 grh_required=no
		lid:99   path_mtu>=256
	EOF
	)
	run -1 --separate-stderr iba_on H1 check -j "$f"
	echo "$output" | jq -e '
		.results[0].got == {value: 2048, unit: "bytes"} and
		.results[0].expected == {min: 4096, max: null, unit: "bytes"} and
		.results[0].got_text == "2048 bytes" and
		.results[0].expected_text == "at least 4096 bytes" and
		.results[1].got == {value: false, unit: null} and
		.results[1].expected == {value: false, unit: null} and
		.results[2].got.value == null and .results[2].got.unit == "bytes" and
		(.results[2].got.reason | test("no records")) and
		.results[2].got.reason == .results[2].got_text'
}

@test "a checklist from stdin" {
	run -0 bash -c "echo 'node:H4 path_sl=5' | (cd '$SIM_DIR' && SIM_HOST=H1 \
		LD_PRELOAD='$SIM_PRELOAD' timeout 60 '$IBAHPROBE' check -)"
	assert_output "1..1
ok 1 - node:H4 path_sl=5"
}

@test "a checklist that probes needs a verbs device: exit 3 before anything runs" {
	local f
	f=$(checklist <<-EOF
		node:H2  path_sl=0
		lid:4    qpn=0x11 hops=0
	EOF
	)
	run -3 --separate-stderr iba_on H1 check "$f"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"probing needs a verbs device; ibsim0 is visible through umad only"* ]] ||
		fail "$stderr"
}

@test "the SM goes away: exit 3 within the retry budget, a clear message, no TAP" {
	local f
	f=$(checklist <<<"node:H2 path_sl=0")
	sim_kill_sm
	SECONDS=0
	run -3 --separate-stderr iba_on H1 -t 200 check "$f"
	[ "$SECONDS" -lt 20 ] || fail "took ${SECONDS}s"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: "* ]] || fail "$stderr"
}
