#!/usr/bin/env bats
# plan's trace policy with real verbs (rxe): probe -f and trace -f take
# a host file's "# flow-label LIST" line as --flow-label, and trace
# --failed traces each failing flow of probe's results with its own flow
# label, or the UDP source port its result names. A -> B on one LAN: one
# hop, seconds under TCG. Rendezvous port 18871.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	[ -n "${FABRIC_ENDPOINTS:-}" ] || {
		echo "not inside the VM fabric: run tests/vm/run" >&2
		return 1
	}
	start_serve b "$BATS_FILE_TMPDIR/serve.b" 18871
}

teardown_file() { stop_serves "$BATS_FILE_TMPDIR"; }

on_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 1000 "$@"; }

@test "probe -f and trace -f sweep the file's flow-label line and say so; --flow-label wins" {
	printf '# ibahprobe plan: round 0 of 4 (seed 0) for a\n# flow-label 1-2 (2 ECMP branches, ...)\nb:18871\n' \
		>"$BATS_TEST_TMPDIR/a"
	run -0 --separate-stderr on_a probe --jsonl -c 1 -f "$BATS_TEST_TMPDIR/a"
	jq -s -e '[.[] | select(.record == "result") | .params.flow_label] == [1, 2] and
		all(.[]; .run_params.flow_labels == [1, 2] and .run_params.flow_label_source == "file")' \
		<<<"$output" >/dev/null || fail "$output"
	run -0 --separate-stderr on_a probe --jsonl -c 1 --flow-label 3 -f "$BATS_TEST_TMPDIR/a"
	jq -s -e 'all(.[]; .run_params.flow_labels == [3] and .run_params.flow_label_source == "command_line")' \
		<<<"$output" >/dev/null || fail "$output"
	run -0 --separate-stderr on_a trace -j --queries 1 -f "$BATS_TEST_TMPDIR/a"
	jq -e '[.[].flow_label] == [1, 2] and all(.[]; .status == "reached" and .flow_label_source == "file")' \
		<<<"$output" >/dev/null || fail "$output"
	run -0 --separate-stderr on_a trace -j --queries 1 b:18871
	jq -e '[.[].flow_label] == [0] and .[0].flow_label_source == "default"' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "trace --failed: each failing flow once, by its flow label or its probes' UDP source port" {
	result() {	# STATUS FLOW_LABEL WIRE_UDP_SPORT
		printf '{"schema": "ibahprobe.probe.v1", "record": "result", "dest": "b:18871", "status": "%s", "params": {"flow_label": %s, "wire_udp_sport": %s}}\n' "$@"
	}
	{
		result unreachable 5 null
		result partial_loss 7 50001
		result unreachable 5 null
		result reachable 9 null
	} >"$BATS_TEST_TMPDIR/results.jsonl"
	run -0 --separate-stderr on_a trace -j --queries 1 --failed "$BATS_TEST_TMPDIR/results.jsonl"
	# Flow label 5 is UDP source port 0xc005 (ibv_flow_label_to_udp_sport).
	jq -e 'length == 2 and
		(.[0] | .flow_label == 5 and .udp_sport == 49157) and
		(.[1] | .flow_label == null and .udp_sport == 50001) and
		all(.[]; .status == "reached" and .flow_label_source == "failed")' \
		<<<"$output" >/dev/null || fail "$output"
}
