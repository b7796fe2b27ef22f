#!/usr/bin/env bats
# report --traces says which elements the traces could not tell apart
# (report(8), INDISTINGUISHABLE ELEMENTS): elements every traced flow
# crossed together. Recorded inputs: tests/cli/data/trace-ecmp.json, host
# a's traces of flow labels 1-8 to d-ecmp, the odd ones through R3
# (198.18.13.3, then 198.18.23.2), the even ones through R4 (198.18.14.4,
# then 198.18.24.2); tests/cli/data/report-ecmp.jsonl, its results.

load helpers

DATA=$BATS_TEST_DIRNAME/data
PROBE=$DATA/report-ecmp.jsonl
TRACE=$DATA/trace-ecmp.json

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "text: the groups failing results cross (the first hop, R3's branch); R4's branch only in the count" {
	run -1 --separate-stderr "$IBAHPROBE" report "$PROBE" --traces "$TRACE"
	assert_line "indistinguishable (elements the traces cannot tell apart):"
	assert_line "  0 of 12 elements on the paths of 8 traced flows stand apart; 3 groups cannot be told apart,"
	assert_line "    2 of them on the paths of failing results (trace other flow labels,"
	# Wrapped under 100 columns.
	assert_line "  - 198.18.1.2 -> 198.18.1.1 and 198.18.1.1: each of the 8 traced flows that crossed one crossed"
	assert_line "    both (4 of them failing)"
	assert_line "  - 198.18.1.1 -> 198.18.13.3, 198.18.13.3, 198.18.13.3 -> 198.18.23.2,"
	[ "$(grep -c '^  - ' <<<"$output")" -eq 2 ] || fail "not two groups: $output"
	refute_output --partial "198.18.14.4"
}

@test "-j: identifiability with every group, its flows and its elements by kind and name" {
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces "$TRACE"
	jq -e '.identifiability == {elements: 12, flows: 8, separable: 0, indistinguishable: [
		{flows: 8, failing: 4, elements: [{kind: "link", name: "198.18.1.2 -> 198.18.1.1"},
			{kind: "router", name: "198.18.1.1"}]},
		{flows: 4, failing: 4, elements: [{kind: "link", name: "198.18.1.1 -> 198.18.13.3"},
			{kind: "router", name: "198.18.13.3"},
			{kind: "link", name: "198.18.13.3 -> 198.18.23.2"},
			{kind: "router", name: "198.18.23.2"},
			{kind: "link", name: "198.18.23.2 -> 198.18.10.4"}]},
		{flows: 4, failing: 0, elements: [{kind: "link", name: "198.18.1.1 -> 198.18.14.4"},
			{kind: "router", name: "198.18.14.4"},
			{kind: "link", name: "198.18.14.4 -> 198.18.24.2"},
			{kind: "router", name: "198.18.24.2"},
			{kind: "link", name: "198.18.24.2 -> 198.18.10.4"}]}]}' <<<"$output" >/dev/null ||
		fail "$(jq -c .identifiability <<<"$output")"
	# The localisation's keys stay where they were.
	jq -e 'has("localisation") and has("path_tomography")' <<<"$output" >/dev/null || fail "$output"
}

@test "traces of one flow label only: the whole path is one group; a second label splits it" {
	jq '[.[] | select(.flow_label == 1)]' "$TRACE" > one.json
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces one.json
	jq -e '.identifiability.flows == 1 and .identifiability.separable == 0 and
		(.identifiability.indistinguishable | length == 1 and .[0].flows == 1 and
		 (.[0].elements | length) == 7)' <<<"$output" >/dev/null ||
		fail "$(jq -c .identifiability <<<"$output")"
	run -1 --separate-stderr "$IBAHPROBE" report "$PROBE" --traces one.json
	assert_line --partial "  - 198.18.1.2 -> 198.18.1.1, 198.18.1.1, 198.18.1.1 -> 198.18.13.3,"
	assert_line "  0 of 7 elements on the paths of 1 traced flow stand apart; 1 group cannot be told apart,"
	assert_line "    crossed all, no other any (the trace of a failing result)"
	jq '[.[] | select(.flow_label <= 2)]' "$TRACE" > two.json
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces two.json
	jq -e '.identifiability.indistinguishable | map(.elements | length) == [2, 5, 5]' <<<"$output" >/dev/null ||
		fail "$(jq -c .identifiability <<<"$output")"
}

@test "a second source behind another first router separates a's first hop from the branches it shares" {
	# b (198.18.5.2 behind 198.18.5.1) reaches R3 over its own link: R3
	# and R3's links onward are then crossed by a's odd flows and b's,
	# a's link to R3 by a's only.
	jq '[.[] | select(.flow_label == 1) | .host = "b" | .source_address = "198.18.5.2" |
		.sgid = "::ffff:198.18.5.2" | .hops[0].answers[].from = "198.18.5.1"]' "$TRACE" > b.json
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces "$TRACE" --traces b.json
	jq -e '.identifiability.separable == 1 and
		([.identifiability.indistinguishable[].elements | map(.name)] |
		 any(. == ["198.18.13.3", "198.18.13.3 -> 198.18.23.2", "198.18.23.2",
			"198.18.23.2 -> 198.18.10.4"]))' <<<"$output" >/dev/null ||
		fail "$(jq -c .identifiability <<<"$output")"
}

@test "html: the groups as a list; without --traces no identifiability anywhere" {
	run -1 --separate-stderr "$IBAHPROBE" report --html "$PROBE" --traces "$TRACE"
	assert_output --partial "<p><b>Indistinguishable</b>: 0 of 12 elements on the paths of 8 traced flows stand apart;"
	assert_output --partial "<li>198.18.1.2 -&gt; 198.18.1.1 and 198.18.1.1: each of the 8 traced flows that crossed one crossed both (4 of them failing)</li>"
	refute_output --partial "<li>198.18.1.1 -&gt; 198.18.14.4"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE"
	jq -e 'has("identifiability") | not' <<<"$output" >/dev/null || fail "$output"
	run -1 --separate-stderr "$IBAHPROBE" report "$PROBE"
	refute_output --partial "indistinguishable"
}
