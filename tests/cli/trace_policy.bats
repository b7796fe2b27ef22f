#!/usr/bin/env bats
# plan's trace policy used as written: the "# flow-label LIST" line of a
# host's file is probe -f's and trace -f's --flow-label (unless one is
# given), and trace --failed traces the failing flows of probe's results.
# Without a device: what is read, and every bad input (exit 2). Traces
# over a real SA are in tests/sim/trace.bats.

load helpers

# A host file as plan --traces writes it.
policy_file() {
	cat >"$BATS_TEST_TMPDIR/policy" <<'EOF_POLICY'
# ibahprobe plan: traces of round 3 of 4 (seed 0) for node001
# flow-label 1-3 (4 ECMP branches, each crossed with probability >= 99%)
# failing: trace each failing flow at once: trace -j --failed RESULTS
# passing: trace these destinations with every flow label above
lid:5
EOF_POLICY
}

# A probe result line: DEST STATUS FLOW_LABEL [WIRE_UDP_SPORT].
result() {
	printf '{"schema": "ibahprobe.probe.v1", "record": "result", "dest": "%s", "status": "%s", "params": {"hop_limit": 64, "flow_label": %s, "udp_sport": null, "wire_udp_sport": %s}}\n' \
		"$1" "$2" "$3" "${4:-null}"
}

@test "trace -f: the file's flow-label line is --flow-label; -v names it; a given one wins" {
	[ -d /sys/class/infiniband_mad ] && ls /sys/class/infiniband_mad | grep -q umad &&
		skip "this machine has umad ports"
	policy_file
	run -3 --separate-stderr "$IBAHPROBE" -v trace -f "$BATS_TEST_TMPDIR/policy"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"ibahprobe: trace: flow labels 1-3 from $BATS_TEST_TMPDIR/policy:2 (its flow-label line)"* ]] ||
		fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" -v trace --flow-label 9 -f "$BATS_TEST_TMPDIR/policy"
	[[ $stderr == *"ibahprobe: trace: --flow-label, not $BATS_TEST_TMPDIR/policy:2's flow labels 1-3"* ]] ||
		fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" -v trace --udp-sport 50000 -f "$BATS_TEST_TMPDIR/policy"
	[[ $stderr == *"trace: --udp-sport, not"* ]] || fail "$stderr"
	[[ $stderr != *"--udp-sport and --flow-label"* ]] || fail "the file's labels are no --flow-label: $stderr"
}

@test "probe -f: the file's flow-label line is --flow-label; -v names it; a given one wins" {
	has_rdma_device && skip "this machine has an RDMA device"
	policy_file
	run -3 --separate-stderr "$IBAHPROBE" -v probe -f "$BATS_TEST_TMPDIR/policy"
	[[ $stderr == *"ibahprobe: probe: flow labels 1-3 from $BATS_TEST_TMPDIR/policy:2 (its flow-label line)"* ]] ||
		fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" -v probe --flow-label 7 -f "$BATS_TEST_TMPDIR/policy"
	[[ $stderr == *"ibahprobe: probe: flow labels 7 from --flow-label, not $BATS_TEST_TMPDIR/policy:2's 1-3"* ]] ||
		fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" -v probe lid:5
	[[ $stderr != *"flow labels"* ]] || fail "no file, no line: $stderr"
}

@test "probe -f and trace -f refuse two flow-label lines that differ, and a malformed one: exit 2, FILE:LINE" {
	local cmd
	printf '# flow-label 1-3\nlid:5\n# flow-label 1-4 (again)\n' >"$BATS_TEST_TMPDIR/two"
	printf '# flow-label 0x100000\nlid:5\n' >"$BATS_TEST_TMPDIR/wide"
	printf 'lid:5\n# flow-label\n' >"$BATS_TEST_TMPDIR/none"
	for cmd in probe trace; do
		run -2 --separate-stderr "$IBAHPROBE" "$cmd" -f "$BATS_TEST_TMPDIR/two"
		[ -z "$output" ] || fail "$cmd: stdout: $output"
		assert_equal "$stderr" "ibahprobe: error: $BATS_TEST_TMPDIR/two:3: a second flow-label line names 1-4, $BATS_TEST_TMPDIR/two:1's named 1-3: one file, one list of flow labels"
		run -2 --separate-stderr "$IBAHPROBE" "$cmd" --flow-label 1 -f "$BATS_TEST_TMPDIR/two"
		[[ $stderr == *"two:3: a second flow-label line"* ]] || fail "$cmd: a broken file stays broken: $stderr"
		run -2 --separate-stderr "$IBAHPROBE" "$cmd" -f "$BATS_TEST_TMPDIR/wide"
		assert_equal "$stderr" "ibahprobe: error: $BATS_TEST_TMPDIR/wide:1: flow-label line: 20-bit flow label '0x100000' is out of range: expected 0-1048575 (0x0-0xfffff)"
		run -2 --separate-stderr "$IBAHPROBE" "$cmd" -f "$BATS_TEST_TMPDIR/none"
		[[ $stderr == "ibahprobe: error: $BATS_TEST_TMPDIR/none:2: the flow-label line names no labels"* ]] ||
			fail "$cmd: $stderr"
		run -2 --separate-stderr "$IBAHPROBE" "$cmd" -j -f "$BATS_TEST_TMPDIR/two"
		assert_json_error 2
	done
	# ah and path read such a line as the comment it was before.
	printf '# flow-label 0x100000\n10.0.0.3\n' >"$BATS_TEST_TMPDIR/ah"
	run -0 "$IBAHPROBE" ah --dry-run --link-layer eth -f "$BATS_TEST_TMPDIR/ah" -j
	[ "$(jq length <<<"$output")" -eq 1 ] || fail "$output"
}

@test "the file's labels keep trace's and probe's limits: exit 2, naming the line" {
	printf '# flow-label 0-1024\nlid:5\n' >"$BATS_TEST_TMPDIR/many"
	run -2 --separate-stderr "$IBAHPROBE" trace -f "$BATS_TEST_TMPDIR/many"
	assert_equal "$stderr" "ibahprobe: error: $BATS_TEST_TMPDIR/many:1: the flow-label line names 1025 labels, more than trace takes (1024): give --flow-label"
	printf '# flow-label 0-2047\nlid:5\n' >"$BATS_TEST_TMPDIR/many"
	run -2 --separate-stderr "$IBAHPROBE" probe --tclass 0,1,2 -f "$BATS_TEST_TMPDIR/many"
	assert_equal "$stderr" "ibahprobe: error: $BATS_TEST_TMPDIR/many:1: the flow-label line's 2048 labels make 6144 parameter sets, more than 4096: narrow the sweep (or give --flow-label)"
	policy_file
	run -2 --separate-stderr "$IBAHPROBE" probe --mtu -j -f "$BATS_TEST_TMPDIR/policy"
	assert_json_error 2
	[[ $stderr == *"--mtu searches one parameter set per destination: $BATS_TEST_TMPDIR/policy:2's flow-label line names 3 labels"* ]] ||
		fail "$stderr"
}

@test "trace --failed: results that all passed leave nothing to trace (exit 0, no device), stdin too" {
	{ result n2 reachable 1; result n3 reachable 2; printf '{"schema": "ibahprobe.probe.v1", "record": "summary"}\n'; } \
		>"$BATS_TEST_TMPDIR/ok.jsonl"
	run -0 --separate-stderr "$IBAHPROBE" -v trace --failed "$BATS_TEST_TMPDIR/ok.jsonl"
	assert_output "no failing result in $BATS_TEST_TMPDIR/ok.jsonl: nothing to trace"
	[[ $stderr == *"trace: 0 failing flows of 2 results in $BATS_TEST_TMPDIR/ok.jsonl (2 reachable)"* ]] ||
		fail "$stderr"
	run -0 bash -c "'$IBAHPROBE' trace -j --failed - < '$BATS_TEST_TMPDIR/ok.jsonl'"
	assert_output "[]"
	# probe -j's form: one array over many lines.
	jq -s '.' "$BATS_TEST_TMPDIR/ok.jsonl" >"$BATS_TEST_TMPDIR/ok.json"
	run -0 "$IBAHPROBE" trace -j --failed "$BATS_TEST_TMPDIR/ok.json"
	assert_output "[]"
}

@test "trace --failed: each distinct failing flow once, reachable ones skipped" {
	[ -d /sys/class/infiniband_mad ] && ls /sys/class/infiniband_mad | grep -q umad &&
		skip "this machine has umad ports"
	{
		result n2 reachable 1
		result n2 partial_loss 2 50001
		result n2 unreachable 2 50001
		result n3 error 2
		result n2 unreachable 3
	} >"$BATS_TEST_TMPDIR/r.jsonl"
	run -3 --separate-stderr "$IBAHPROBE" -v trace --failed "$BATS_TEST_TMPDIR/r.jsonl"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"trace: 3 failing flows of 5 results in $BATS_TEST_TMPDIR/r.jsonl (1 reachable)"* ]] ||
		fail "$stderr"
}

@test "trace --failed refuses bad input: exit 2, RESULTS:LINE, nothing on stdout" {
	printf '{"schema": "ibahprobe.probe.v1", "record": "summary"}\n\n{"dest": }\n' >"$BATS_TEST_TMPDIR/bad"
	run -2 --separate-stderr "$IBAHPROBE" trace --failed "$BATS_TEST_TMPDIR/bad"
	[ -z "$output" ] || fail "stdout: $output"
	assert_equal "$stderr" "ibahprobe: error: $BATS_TEST_TMPDIR/bad:3: no JSON: unexpected character"
	run -2 --separate-stderr "$IBAHPROBE" trace -j --failed "$BATS_TEST_TMPDIR/bad"
	assert_json_error 2
	printf '[{"schema": "ibahprobe.probe.v1", "record": "result",\n' >"$BATS_TEST_TMPDIR/cut"
	run -2 --separate-stderr "$IBAHPROBE" trace --failed "$BATS_TEST_TMPDIR/cut"
	assert_equal "$stderr" "ibahprobe: error: $BATS_TEST_TMPDIR/cut:1: the input ends inside a JSON value"
	printf '{"schema": "ibahprobe.trace.v1", "dest": "n2"}\n' >"$BATS_TEST_TMPDIR/trace"
	run -2 --separate-stderr "$IBAHPROBE" trace --failed "$BATS_TEST_TMPDIR/trace"
	[[ $stderr == *"trace:1: no probe record"*"give probe -j or --jsonl output"* ]] || fail "$stderr"
	result n2 unreachable 1048576 >"$BATS_TEST_TMPDIR/wide"
	run -2 --separate-stderr "$IBAHPROBE" trace --failed "$BATS_TEST_TMPDIR/wide"
	[[ $stderr == *"wide:1: the result for n2 has no \"flow_label\" of 0-1048575"* ]] || fail "$stderr"
	result "lid:0" unreachable 1 >"$BATS_TEST_TMPDIR/dest"
	run -2 --separate-stderr "$IBAHPROBE" trace --failed "$BATS_TEST_TMPDIR/dest"
	assert_equal "$stderr" "ibahprobe: error: $BATS_TEST_TMPDIR/dest:1: the result's destination: lid '0' is out of range: expected 1-49151 (0x1-0xbfff)"
	run -2 --separate-stderr "$IBAHPROBE" trace --failed /nonexistent
	assert_equal "$stderr" "ibahprobe: error: cannot open probe results '/nonexistent': No such file or directory"
}

@test "trace --failed takes its flows from RESULTS alone: DEST, -f, --flow-label, --udp-sport refused" {
	result n2 unreachable 1 >"$BATS_TEST_TMPDIR/r.jsonl"
	policy_file
	run -2 --separate-stderr "$IBAHPROBE" trace --failed "$BATS_TEST_TMPDIR/r.jsonl" lid:5
	assert_equal "$stderr" "ibahprobe: error: --failed takes its destinations from $BATS_TEST_TMPDIR/r.jsonl: drop the DEST operands"
	run -2 --separate-stderr "$IBAHPROBE" trace --failed "$BATS_TEST_TMPDIR/r.jsonl" -f "$BATS_TEST_TMPDIR/policy"
	[[ $stderr == *"drop -f" ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" trace --failed "$BATS_TEST_TMPDIR/r.jsonl" --flow-label 1
	assert_equal "$stderr" "ibahprobe: error: --failed traces each failing result with its own flow: drop --flow-label"
	run -2 --separate-stderr "$IBAHPROBE" trace --failed - --udp-sport 50000 </dev/null
	[[ $stderr == *"drop --udp-sport" ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" trace -j --failed "$BATS_TEST_TMPDIR/r.jsonl" lid:5
	assert_json_error 2
}

@test "plan's files as it writes them: probe -f and trace -f take their flow-label line" {
	has_rdma_device && skip "this machine has an RDMA device"
	[ -d /sys/class/infiniband_mad ] && ls /sys/class/infiniband_mad | grep -q umad &&
		skip "this machine has umad ports"
	cd "$BATS_TEST_TMPDIR"
	printf 'lid:1\nlid:2\nlid:3\n' >hosts
	run -0 "$IBAHPROBE" -q plan hosts --ecmp-width 2 -o plan.d --traces t.d
	run -3 --separate-stderr "$IBAHPROBE" -v probe -f plan.d/lid:1
	[[ $stderr == *"probe: flow labels 1-8 from plan.d/lid:1:2 (its flow-label line)"* ]] || fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" -v trace -f t.d/lid:1
	[[ $stderr == *"trace: flow labels 1-8 from t.d/lid:1:2 (its flow-label line)"* ]] || fail "$stderr"
}
