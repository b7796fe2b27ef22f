#!/usr/bin/env bats
# report names suspects (report(8), SUSPECTS) on recorded results of five
# hosts (tests/cli/data/report-suspect-*): in report-suspect-host.jsonl n5's
# port is down (its probes fail, nothing reaches it), n4's responder is
# stopped (nothing reaches it, its own probes work) and n1 -> n2 loses a
# few probes; report-suspect-thin.jsonl has four failing pairs spread over
# the fabric, and the four recorded hosts of report.bats one failing pair
# per node: no suspect in either. In report-suspect-rack.jsonl rack3
# (n7-n9, tests/cli/data/groups-suspect-racks.txt) is cut off from the
# other two racks.

load helpers

DATA=$BATS_TEST_DIRNAME/data
HOST=$DATA/report-suspect-host.jsonl
THIN=$DATA/report-suspect-thin.jsonl
FOUR=("$DATA/report-node01.jsonl" "$DATA/report-node02.jsonl"
      "$DATA/report-node03.json" "$DATA/report-node04.jsonl")

@test "text: the dead host once, then the dead destination with what the host explains; aligned, < 100 columns" {
	run -1 --separate-stderr "$IBAHPROBE" report "$HOST"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_line "suspects (they explain 11 of 12 failing pairs; the strongest first):"
	assert_line "  1. host         n5  explains 8 failing pairs"
	assert_line "       fails from 4 of 4 sources: 3 unreachable, 1 error"
	assert_line "       fails to 4 of 4 destinations: 4 error"
	assert_line "  2. destination  n4  explains 3 failing pairs"
	assert_line "       fails from 4 of 4 sources: 3 unreachable, 1 error"
	assert_line "       the other 1 of its failing pairs is explained by host n5"
	# n5 is said once; n1 fails to 3 of 4, but n5 and n4 explain two.
	[ "$(grep -c '^  [0-9]\. ' <<<"$output")" -eq 2 ] || fail "$output"
	refute_line --regexp '^  [0-9]\. +(source|destination) +n5 '
	refute_line --regexp '^  [0-9]\. .* n1 '
	# After the matrix and its legend, before the findings.
	local legend suspects findings
	legend=$(grep -n '^legend:' <<<"$output" | cut -d: -f1)
	suspects=$(grep -n '^suspects' <<<"$output" | cut -d: -f1)
	findings=$(grep -n '^findings:' <<<"$output" | cut -d: -f1)
	[ "$legend" -lt "$suspects" ] && [ "$suspects" -lt "$findings" ] ||
		fail "order: legend $legend, suspects $suspects, findings $findings"
	[ "$(awk 'length > 99' <<<"$output" | wc -l)" -eq 0 ] || fail "long lines: $output"
}

@test "-j: suspects with kind, name, counts per axis and failure kind, explained pairs, rank" {
	run -1 --separate-stderr "$IBAHPROBE" report -j "$HOST"
	jq -e '
		(.schema == "ibahprobe.report.v1") and
		(.suspects | length == 2) and
		(.suspects[0] == {rank: 1, kind: "host", name: "n5", address: "10.0.0.5",
			explained: 8, members: [],
			as_destination: {probed: 4, failing: 4, partial_loss: 0, unreachable: 3,
				error: 1, explained_elsewhere: 0},
			as_source: {probed: 4, failing: 4, partial_loss: 0, unreachable: 0,
				error: 4, explained_elsewhere: 0},
			explained_by: []}) and
		(.suspects[1] == {rank: 2, kind: "destination", name: "n4", address: "10.0.0.4",
			explained: 3, members: [],
			as_destination: {probed: 4, failing: 4, partial_loss: 0, unreachable: 3,
				error: 1, explained_elsewhere: 1},
			as_source: null,
			explained_by: [{kind: "host", name: "n5", pairs: 1}]})' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "no suspect when failures are spread thin, or none: no section, an empty array" {
	for input in "$THIN" "${FOUR[*]}" "$DATA/report-fine.jsonl"; do
		# shellcheck disable=SC2086 # FOUR is several files
		run --separate-stderr "$IBAHPROBE" report $input
		[ "$status" -le 1 ] || fail "$input: status $status: $stderr"
		refute_line --partial "suspects"
		# shellcheck disable=SC2086
		run --separate-stderr "$IBAHPROBE" report -j $input
		jq -e '.suspects == []' <<<"$output" >/dev/null || fail "$input: $output"
	done
	# The thin input does fail: four pairs, at most one in a row or column.
	run -1 "$IBAHPROBE" report -j "$THIN"
	jq -e '.summary.reachable == 16' <<<"$output" >/dev/null || fail "$output"
}

@test "HTML: the suspects listed above the heat map; none on the thin input" {
	run -1 --separate-stderr "$IBAHPROBE" report --html "$HOST"
	[[ $output == *'<div class="suspects">'* ]] || fail "no list: $output"
	[[ $output == *'<li value="1">host <b>n5</b>: explains 8 failing pairs; fails from 4 of 4 sources: 3 unreachable, 1 error; fails to 4 of 4 destinations: 4 error</li>'* ]] ||
		fail "n5: $output"
	[[ $output == *'<li value="2">destination <b>n4</b>: explains 3 failing pairs; fails from 4 of 4 sources: 3 unreachable, 1 error; the other 1 of its failing pairs is explained by host n5</li>'* ]] ||
		fail "n4: $output"
	[ "$(grep -n 'class="suspects"' <<<"$output" | cut -d: -f1)" -lt \
	  "$(grep -n '<svg' <<<"$output" | head -n 1 | cut -d: -f1)" ] || fail "not above the map"
	# Still well-formed XML (the page is a polyglot).
	if command -v xmllint >/dev/null; then
		xmllint --noout - <<<"$output" || fail "not well-formed"
	fi
	run -1 --separate-stderr "$IBAHPROBE" report --html "$THIN"
	[[ $output != *'class="suspects"'* ]] || fail "a list on the thin input"
}

@test "HTML --groups: the canvas page lists the suspects above the blocks" {
	printf 'n1 rack1\nn2 rack1\nn3 rack2\nn4 rack2\nn5 rack2\n' >"$BATS_TEST_TMPDIR/racks"
	run -1 --separate-stderr "$IBAHPROBE" report --html --groups "$BATS_TEST_TMPDIR/racks" "$HOST"
	[[ $output == *'<li value="1">host <b>n5</b>: explains 8 failing pairs;'* ]] || fail "$output"
	[ "$(grep -n 'class="suspects"' <<<"$output" | cut -d: -f1)" -lt \
	  "$(grep -n '<canvas' <<<"$output" | cut -d: -f1)" ] || fail "not above the canvas"
}

@test "--groups: a rack cut off is one suspect, the group, with its members; without groups its three hosts" {
	local rack=$DATA/report-suspect-rack.jsonl racks=$DATA/groups-suspect-racks.txt
	run -1 --separate-stderr "$IBAHPROBE" report --groups "$racks" "$rack"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_line "suspects (they explain 36 of 36 failing pairs; the strongest first):"
	assert_line "  1. group        rack3  explains 36 failing pairs"
	assert_line "       members: host n7, host n8, host n9"
	assert_line "       to its members: 18 of 24 pairs fail: 18 unreachable"
	assert_line "       from its members: 18 of 24 pairs fail: 18 unreachable"
	[ "$(grep -c '^  [0-9]\. ' <<<"$output")" -eq 1 ] || fail "$output"
	run -1 --separate-stderr "$IBAHPROBE" report --html --groups "$racks" "$rack"
	[[ $output == *'<li value="1">group <b>rack3</b>: explains 36 failing pairs; members: host n7, host n8, host n9;'* ]] ||
		fail "$output"
	run -1 --separate-stderr "$IBAHPROBE" report "$rack"
	assert_line "  1. host         n7  explains 12 failing pairs"
	assert_line "  1. host         n9  explains 12 failing pairs"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$rack"
	jq -e '[.suspects[] | [.rank, .kind, .name, .explained, .members]] ==
		[[1, "host", "n7", 12, []], [1, "host", "n8", 12, []], [1, "host", "n9", 12, []]]' \
		<<<"$output" >/dev/null || fail "$output"
}
