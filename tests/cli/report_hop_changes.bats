#!/usr/bin/env bats
# report --traces names results that crossed another number of routers
# than their flow's trace (report(8), HOP COUNTS). Recorded inputs:
# tests/cli/data/report-ecmp.jsonl (a's results to d-ecmp, flow labels
# 1-8, 3 hops each) and tests/cli/data/trace-ecmp.json (their traces, 3
# routers each), changed here one field at a time.

load helpers

DATA=$BATS_TEST_DIRNAME/data
PROBE=$DATA/report-ecmp.jsonl
TRACE=$DATA/trace-ecmp.json

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "the same hop count as the traces: no section, -j compared 8, none changed" {
	run -1 --separate-stderr "$IBAHPROBE" report "$PROBE" --traces "$TRACE"
	refute_output --partial "hop counts"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces "$TRACE"
	jq -e '.hop_changes == {compared: 8, changed: []}' <<<"$output" >/dev/null ||
		fail "$(jq -c .hop_changes <<<"$output")"
}

@test "one result 4 hops where its trace crossed 3 routers: named in text, HTML and JSON" {
	jq -c 'if .params.flow_label == 5 then .hops = 4 else . end' "$PROBE" > changed.jsonl
	run -1 --separate-stderr "$IBAHPROBE" report changed.jsonl --traces "$TRACE"
	assert_line "hop counts (results against their traces):"
	assert_line "  1 of 8 results with a complete trace crossed another number of routers than their trace: the"
	assert_line "  - a -> d-ecmp fl 0x5 tc 0: 4 router hops, its trace 3"
	[ "$(grep -c '^  - a -> d-ecmp fl' <<<"$output")" -eq 1 ] || fail "$output"
	run -1 --separate-stderr "$IBAHPROBE" report -j changed.jsonl --traces "$TRACE"
	jq -e '.hop_changes == {compared: 8, changed: [{host: "a", dest: "d-ecmp", flow_label: 5,
		traffic_class: 0, hops: 4, trace_hops: 3}]}' <<<"$output" >/dev/null ||
		fail "$(jq -c .hop_changes <<<"$output")"
	run -1 --separate-stderr "$IBAHPROBE" report --html changed.jsonl --traces "$TRACE"
	assert_output --partial "<li>a -&gt; d-ecmp fl 0x5 tc 0: 4 router hops, its trace 3</li>"
}

@test "a trace with a silent hop is not compared: its hop count is unknown" {
	jq -c 'if .params.flow_label == 5 then .hops = 4 else . end' "$PROBE" > changed.jsonl
	jq '[.[] | if .flow_label == 5 then .hops[1].answers = [{kind: "silent", from: null, rtt_us: null}] else . end]' \
		"$TRACE" > silent.json
	run -1 --separate-stderr "$IBAHPROBE" report -j changed.jsonl --traces silent.json
	jq -e '.hop_changes == {compared: 7, changed: []}' <<<"$output" >/dev/null ||
		fail "$(jq -c .hop_changes <<<"$output")"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE"
	jq -e 'has("hop_changes") | not' <<<"$output" >/dev/null || fail "hop_changes without --traces"
}
