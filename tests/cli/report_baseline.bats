#!/usr/bin/env bats
# report --baseline OLD NEW: what changed between two runs of the four
# hosts of report.bats. report-baseline-old.jsonl is their four inputs in
# one file; report-baseline-new.jsonl the same run changed: node01 ->
# node02 lost, node02 -> node01 three times slower (19 -> 60 us), node03
# -> node01 slower by 30% only (31 -> 40 us), node04 -> node03 remarked
# at tclass 0x28, node03 -> node04 recovered, node02 -> node03 without its
# partial loss, node02 -> node04 no longer remarked, node01 -> node03 two
# hops instead of one, and node04 -> node02 not probed at all.

load helpers

DATA=$BATS_TEST_DIRNAME/data
OLD=$DATA/report-baseline-old.jsonl
NEW=$DATA/report-baseline-new.jsonl

@test "--baseline: a summary, then one line per change under 100 columns, regressions first; exit 1" {
	run -1 --separate-stderr "$IBAHPROBE" report --baseline "$OLD" "$NEW"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_line --index 0 "12 pairs before, 11 now, 11 in both: 3 regressions, 5 other changes"
	assert_line --index 1 "LOST       node01 -> node02: reachable -> unreachable"
	assert_line --index 2 "REMARKED   node04 -> node03: tclass 0x28 seen 0x30"
	assert_line --index 3 --regexp '^RTT        node02 -> node01: median 19us -> 60us \(\+2[0-9]{2}%\)$'
	assert_line --index 4 "RECOVERED  node03 -> node04: unreachable -> reachable"
	assert_line --index 5 "LOSS GONE  node02 -> node03: was 3 of 10 lost"
	assert_line --index 6 --partial "UNREMARKED node02 -> node04: was tclass"
	assert_line --index 7 "HOPS       node01 -> node03: 1h -> 2h"
	assert_line --index 8 "GONE PAIR  node04 -> node02: was reachable"
	# 30% slower is no regression at the default 50%.
	refute_line --partial "node03 -> node01"
	[ "$(awk 'length > 99' <<<"$output")" = "" ] || fail "a line of 100 columns or more"
}

@test "--baseline -j: the changes with both sides of each pair, a count per kind" {
	run -1 "$IBAHPROBE" report -j --baseline "$OLD" "$NEW"
	echo "$output" | jq -e --arg old "$OLD" --arg new "$NEW" '
		(.schema == "ibahprobe.report-baseline.v1") and
		(.baseline == {inputs: [$old], pairs: 12}) and
		(.current == {inputs: [$new], pairs: 11}) and
		(.common_pairs == 11) and (.rtt_regression_pct == 50) and
		(.rtt_floor_us == 20) and
		([.changes[] | select(.regression) | .kind] ==
			["lost", "remarked", "rtt_regression"]) and
		(.changes[0] | .source == "node01" and .destination == "node02" and
			.before.status == "reachable" and .before.received == 10 and
			.now.status == "unreachable" and .now.rtt_median_us == null) and
		(.changes[] | select(.kind == "gone_pair") |
			.source == "node04" and .now == null and .before.status == "reachable") and
		(.changes[] | select(.kind == "hops") | .before.hops == [1] and .now.hops == [2]) and
		(.summary == {regressions: 3, changes: 8, lost: 1, partial_loss: 0, remarked: 1,
			rtt_regression: 1, recovered: 1, loss_gone: 1, remarking_gone: 1,
			hops: 1, new_pair: 0, gone_pair: 1})' >/dev/null || fail "$output"
}

@test "--baseline the other way round: what recovered then is lost now; a pair only now probed is new" {
	run -1 "$IBAHPROBE" report -j --baseline "$NEW" "$OLD"
	echo "$output" | jq -e '
		([.changes[] | select(.regression) | .kind] ==
			["lost", "partial_loss", "remarked"]) and
		([.changes[] | select(.kind == "new_pair") | .source + ">" + .destination] ==
			["node04>node02"]) and
		(.summary.rtt_regression == 0)' >/dev/null || fail "$output"
}

@test "--baseline of a run against itself: nothing changed, exit 0 though the run has losses" {
	run -0 "$IBAHPROBE" report --baseline "$OLD" "$OLD"
	assert_output "12 pairs before, 12 now, 12 in both: 0 regressions, 0 other changes"
}

@test "--rtt-regression PCT: the threshold of an RTT regression" {
	run -1 "$IBAHPROBE" report --baseline "$OLD" --rtt-regression 300 "$NEW"
	refute_line --partial "RTT        node02 -> node01"
	assert_line --index 0 --partial "2 regressions"
	# 25%: node03 -> node01 grew 30%, but by 9 us only, under the floor.
	run -1 "$IBAHPROBE" report --baseline "$OLD" --rtt-regression 25 "$NEW"
	refute_line --partial "node03 -> node01"
	run -1 "$IBAHPROBE" report -j --baseline "$OLD" --rtt-regression 12.5 "$NEW"
	echo "$output" | jq -e '.rtt_regression_pct == 12.5' >/dev/null || fail "$output"
}

@test "--baseline and --rtt-regression refuse bad input: exit 2, a message, nothing on stdout" {
	local args
	for args in "--rtt-regression 50" \
		"--baseline $OLD --rtt-regression 0" \
		"--baseline $OLD --rtt-regression -5" \
		"--baseline $OLD --rtt-regression abc" \
		"--baseline $OLD --rtt-regression 1e3" \
		"--baseline $OLD --rtt-regression 100001" \
		"--baseline $OLD --svg" \
		"--baseline $OLD --html" \
		"--baseline $OLD --expect node01,node02" \
		"--baseline /nonexistent/old.jsonl" \
		"--baseline $DATA/report-empty.jsonl"; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr "$IBAHPROBE" report $args "$NEW"
		[ -z "$output" ] || fail "stdout for $args: $output"
		[[ $stderr == "ibahprobe: error: "* ]] || fail "stderr for $args: $stderr"
	done
	run -2 --separate-stderr "$IBAHPROBE" report --rtt-regression 50 "$NEW"
	[[ $stderr == *"--rtt-regression is a threshold of --baseline"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report --baseline "$OLD" --rtt-regression abc "$NEW"
	[[ $stderr == *"'abc' is no percentage"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report --baseline /nonexistent/old.jsonl "$NEW"
	[[ $stderr == *"cannot open /nonexistent/old.jsonl"* ]] || fail "$stderr"
	# Both from stdin cannot be.
	run -2 --separate-stderr "$IBAHPROBE" report --baseline - - <"$NEW"
	[[ $stderr == *"cannot both be stdin"* ]] || fail "$stderr"
	# With -j the error is the JSON error object, and only it.
	run -2 --separate-stderr "$IBAHPROBE" report -j --baseline "$OLD" --rtt-regression x "$NEW"
	echo "$output" | jq -e '.exit_status == 2 and (.error | test("no percentage"))' >/dev/null ||
		fail "$output"
}

@test "--baseline - reads the earlier results from stdin" {
	run -1 --separate-stderr "$IBAHPROBE" report --baseline - "$NEW" <"$OLD"
	assert_line --index 0 "12 pairs before, 11 now, 11 in both: 3 regressions, 5 other changes"
}
