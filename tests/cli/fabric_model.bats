#!/usr/bin/env bats
# tests/tools/fabric_model, the localisation benchmark's fabric
# (tests/bench/localise): what it writes is what probe --jsonl and
# trace -j write, in their keys and order (lib/probe/probe_print.c,
# lib/trace/roce_trace_print.c), report and report --traces read it
# without a complaint, the same seed gives the same bytes, and the
# ground truth names elements as report does.

load helpers

setup() {
	GEN=$(dirname "$IBAHPROBE")/build/tests/tools/fabric_model
	[ -x "$GEN" ] || GEN=$(dirname "$IBAHPROBE")/tests/tools/fabric_model
	[ -x "$GEN" ] || missing "fabric_model not built (make check-build)"
	OUT=$BATS_TEST_TMPDIR/f
	mkdir -p "$OUT"
}

# report -j --traces over the scenario in $OUT, into $output (exit 1:
# suspects), nothing on stderr.
report_scenario() {
	cat "$OUT"/*.trace.json >"$BATS_TEST_TMPDIR/traces.json"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$OUT"/*.probe.jsonl \
		--traces "$BATS_TEST_TMPDIR/traces.json"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "a result record has probe --jsonl's keys in its order, loss_direction and its counts among them" {
	"$GEN" --seed 2 --fault lossy_link "$OUT"
	want='["schema","run_id","start_time","record","run_params","dest","source","params","interrupted","status","sent","received","lost","late","duplicates","rtt_us","network_rtt_us","responder_us","stamps","observed","hop_limit_sent","hop_limit_source","hop_limit_rule","hops","hops_back","loss_direction","responder_received","responder_answered","lost_there","lost_back","ah_create_usec","verdicts","findings","ah_attr","reverse_ah"]'
	run jq -c 'select(.record == "result") | keys_unsorted' "$OUT/h0000.probe.jsonl"
	[ "${lines[0]}" = "$want" ] || fail "${lines[0]}"
	jq -e -s '[.[] | select(.record == "result")] | all(
		(.loss_direction | IN("none", "there", "back", "both", "unknown")) and
		(if .loss_direction == "unknown" then .lost_there == null
		 else .lost_there + .lost_back == .lost end))' "$OUT"/*.probe.jsonl >/dev/null ||
		fail "loss_direction and its counts disagree"
	run jq -c 'select(.record == "summary") | .counts' "$OUT/h0000.probe.jsonl"
	[ "${#lines[@]}" -eq 1 ] || fail "one summary per run: $output"
}

@test "a trace document has trace -j's keys in its order: hops, traffic_class_changes, path" {
	"$GEN" --seed 2 --trace-share 1 "$OUT"
	want='["schema","host","device","sgid","source_address","dest","dest_address","qpn","flow_label","udp_sport","flow_label_source","traffic_class","method","not_reproduced","ip_flow_label","socket_priority","status","error","hops","per_hop_traffic_class","traffic_class_changes","responder_received","path","path_index","path_ambiguous"]'
	run jq -c '.[0] | keys_unsorted' "$OUT/h0000.trace.json"
	[ "$output" = "$want" ] || fail "$output"
	# Every flow traced with --trace-share 1: as many traces as results.
	[ "$(jq -s 'map(length) | add' "$OUT"/*.trace.json)" -eq \
	  "$(cat "$OUT"/*.probe.jsonl | jq -s 'map(select(.record == "result")) | length')" ]
}

@test "report and report --traces read a scenario without complaint; a remarking router shows in both" {
	"$GEN" --seed 4 --fault router_remark --fault dead_link "$OUT"
	cat "$OUT"/*.trace.json >"$BATS_TEST_TMPDIR/traces.json"
	run -1 --separate-stderr "$IBAHPROBE" report "$OUT"/*.probe.jsonl
	[ -z "$stderr" ] || fail "stderr: $stderr"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$OUT"/*.probe.jsonl \
		--traces "$BATS_TEST_TMPDIR/traces.json"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	jq -e '.path_tomography.traces > 0 and .path_tomography.failing > 0' \
		<<<"$output" >/dev/null || fail "$(head -c 400 <<<"$output")"
	remarker=$(jq -r '.faults[] | select(.kind == "router_remark") | .name' "$OUT/truth.json")
	jq -e --arg r "$remarker" -s 'flatten | map(.traffic_class_changes[]) |
		length > 0 and all(.field == "dscp" and .sent == 26 and .seen == 0 and
			(.after == $r or .after == null))' "$OUT"/*.trace.json >/dev/null ||
		fail "traffic_class_changes do not point at $remarker"
	grep -q '"tclass_remarked"' "$OUT"/*.probe.jsonl
}

@test "the truth names a link as report does (\"A -> B\" of router addresses) and a router by its address" {
	"$GEN" --seed 4 --fault router_remark --fault dead_link "$OUT"
	jq -e '.faults | length == 2 and
		(.[] | select(.element == "link") | .name | test("^172\\.16\\.[0-9.]+ -> 172\\.16\\.[0-9.]+$")) and
		(.[] | select(.element == "router") | .name | test("^172\\.16\\.[0-9.]+$"))' \
		"$OUT/truth.json" >/dev/null || fail "$(cat "$OUT/truth.json")"
	# A dead host writes nothing.
	"$GEN" --seed 5 --fault dead_host "$BATS_TEST_TMPDIR/d"
	dead=$(jq -r '.faults[0].name' "$BATS_TEST_TMPDIR/d/truth.json")
	[ ! -e "$BATS_TEST_TMPDIR/d/$dead.probe.jsonl" ]
	[ "$(ls "$BATS_TEST_TMPDIR/d" | grep -c probe.jsonl)" -eq 63 ]
}

@test "deterministic: the same seed the same bytes, another seed others; a rail fabric probes its own rail" {
	"$GEN" --seed 9 --fault lossy_nic "$OUT"
	"$GEN" --seed 9 --fault lossy_nic "$BATS_TEST_TMPDIR/g"
	diff -r "$OUT" "$BATS_TEST_TMPDIR/g"
	"$GEN" --seed 10 --fault lossy_nic "$BATS_TEST_TMPDIR/h"
	run -1 cmp -s "$OUT/h0000.probe.jsonl" "$BATS_TEST_TMPDIR/h/h0000.probe.jsonl"
	"$GEN" --shape rail --seed 9 "$BATS_TEST_TMPDIR/r"
	jq -e -s 'map(select(.record == "result")) |
		(map(.source.device) | unique == ["mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"])' \
		"$BATS_TEST_TMPDIR/r/h0000.probe.jsonl" >/dev/null
}

@test "bad arguments: exit 2 and a message" {
	run -2 --separate-stderr "$GEN" --fault nosuch "$OUT"
	[[ $stderr == *"--fault nosuch: unknown"* ]] || fail "$stderr"
	run -2 --separate-stderr "$GEN" --hosts 60 "$OUT"
	[[ $stderr == *"--hosts 60 does not fit"* ]] || fail "$stderr"
	run -2 --separate-stderr "$GEN" --background 2 "$OUT"
	[[ $stderr == *"a share 0..1"* ]] || fail "$stderr"
	run -2 --separate-stderr "$GEN"
	[[ $stderr == *"usage: fabric_model"* ]] || fail "$stderr"
}

@test "a spine that drops half of what it forwards at 2,048 hosts: named first, its links to the next routers its alternatives" {
	# The fit takes the spine's links one by one (each carries fewer of
	# its passing flows than it does); without them it takes the spine.
	"$GEN" --hosts 2048 --seed 7 --fault router_drop "$OUT"
	report_scenario
	spine=$(jq -r '.faults[0].name' "$OUT/truth.json")
	jq -e --arg h "$spine" '.localisation.suspects[0] |
		.kind == "router" and .name == $h and .cause == "loss" and
		(.alternatives | length >= 2 and
			all(.[]; startswith($h + " -> ")))' <<<"$output" >/dev/null ||
		fail "$(jq -c '.localisation.suspects[0:3]' <<<"$output")"
}

@test "a ToR that answers no trace and drops most of what it carries: its hosts named as one edge, not one by one" {
	# 64-host rail, seed 237: tor7 (silent) drops 62% both ways; the
	# model has no element for it, and the fit takes each port behind it
	"$GEN" --hosts 64 --shape rail --seed 237 --fault router_drop "$OUT"
	jq -e '.faults[0].silent and (.faults[0].hosts | length == 8)' \
		"$OUT/truth.json" >/dev/null || fail "$(cat "$OUT/truth.json")"
	report_scenario
	jq -e --slurpfile t "$OUT/truth.json" '.localisation.suspects |
		(.[0] | .kind == "hop" and (.name | startswith("edge of ")) and
			.cause == "unseen" and (.elements | length >= 3) and
			all(.elements[]; .kind == "host" and
				(.name as $n | $t[0].faults[0].hosts |
					index($n) != null))) and
		all(.[]; .kind != "host")' <<<"$output" >/dev/null ||
		fail "$(jq -c '.localisation.suspects[0:3]' <<<"$output")"
}

@test "a spine that answers and forwards almost nothing: named alone, the hop before it where a trace found the hop silent part of it" {
	# 64-host rail, seed 239: spine2 drops 93% of what it forwards; two
	# failing flows reached it over a hop that did not answer
	"$GEN" --hosts 64 --shape rail --seed 239 --fault router_drop "$OUT"
	report_scenario
	spine=$(jq -r '.faults[0].name' "$OUT/truth.json")
	jq -e --arg h "$spine" '.localisation.suspects |
		length == 1 and .[0].kind == "router" and .[0].name == $h' \
		<<<"$output" >/dev/null ||
		fail "$(jq -c '.localisation.suspects[0:3]' <<<"$output")"
}

@test "a dead host's ports, whose edges no trace shows because they answer nothing, stay the host's, not an edge" {
	# 64-host rail, seed 40: h0015 is dead, its four ports behind four
	# ToRs that answer; it wrote nothing, so it is no edge's host
	"$GEN" --hosts 64 --shape rail --seed 40 --fault dead_host "$OUT"
	report_scenario
	jq -e --slurpfile t "$OUT/truth.json" '.localisation.suspects |
		length >= 1 and all(.[]; .kind == "host" and
			(.address as $a | $t[0].faults[0].names | index($a) != null))' \
		<<<"$output" >/dev/null ||
		fail "$(jq -c '.localisation.suspects[0:3]' <<<"$output")"
}
