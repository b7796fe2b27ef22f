#!/usr/bin/env bats
# The fabric-wide run of ibahprobe report(8), end to end: pdsh starts serve
# on every endpoint (a, b, c, d), runs probe --jsonl from every endpoint to
# all the others, and report merges the lines into one matrix whose hops and
# remarking are the fabric's (README.md: 0 hops a-b, 1 to c, 2 to and from
# d; R2 remarks DSCP towards d). fanout-host maps pdsh's %h to an endpoint.
# Rendezvous ports 18541-18544, apart from the other files' responders.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/ibahprobe
WRAPPER=$BATS_TEST_DIRNAME/fanout-host

# pdsh with its exec module on the given endpoints, the wrapper's action;
# -S: the largest exit status, -N: no "host: " prefix (the lines stay JSON).
fan() {
	local hosts=$1
	shift
	timeout 180 pdsh -S -N -R exec -w "$hosts" "$WRAPPER" %h "$@"
}

setup_file() {
	require_vm_fabric || return 1
	export IBAHPROBE
	printf '%s\n' a:18541 b:18542 c:18543 d:18544 >"$BATS_FILE_TMPDIR/hosts.txt"
	fan a,b,c,d serve "$BATS_FILE_TMPDIR"
}

teardown_file() {
	fan a,b,c,d stop "$BATS_FILE_TMPDIR" || true
	stop_serves "$BATS_FILE_TMPDIR"
}

# The report's cell from source endpoint $1 to destination endpoint $2.
cell() {
	jq -c --arg s "$(fabric_var "$1" IP4)" --arg d "$(fabric_var "$2" IP4)" '
		(.sources[] | select(.address == $s) | .name) as $sn |
		(.destinations[] | select(.address == $d) | .name) as $dn |
		.cells[] | select(.source == $sn and .destination == $dn)' \
		"$BATS_FILE_TMPDIR/report.json"
}

@test "probe from every endpoint through pdsh, merged by report: 4 x 4, the fabric's hops and remarking" {
	local x y want
	run -0 --separate-stderr fan a,b,c,d probe "$BATS_FILE_TMPDIR/hosts.txt" -c 3 -t 3000
	echo "$output" >"$BATS_FILE_TMPDIR/all.jsonl"
	# Each prober skipped itself (its own port is in the list) and ended
	# its stream with a summary.
	jq -e -s 'map(select(.record == "result")) | length == 12' "$BATS_FILE_TMPDIR/all.jsonl" ||
		fail "12 results expected (pdsh -S status 0): $output $stderr"
	jq -e -s '[.[] | select(.record == "summary") | .skipped | length] == [1, 1, 1, 1]' \
		"$BATS_FILE_TMPDIR/all.jsonl" || fail "each prober skips itself: $output"
	run -0 "$IBAHPROBE" report -j "$BATS_FILE_TMPDIR/all.jsonl"
	echo "$output" >"$BATS_FILE_TMPDIR/report.json"
	want=$(printf '"%s",' "$FABRIC_A_IP4" "$FABRIC_B_IP4" "$FABRIC_C_IP4" "$FABRIC_D_IP4")
	# Square: the same four endpoints, in the same order, on both axes.
	jq -e --argjson w "[${want%,}]" '
		[.sources[].address] == $w and [.destinations[].address] == $w and
		[.sources[].device] == ["'"$FABRIC_A_RXE"'", "'"$FABRIC_B_RXE"'",
			"'"$FABRIC_C_RXE"'", "'"$FABRIC_D_RXE"'"] and
		.summary == {sources: 4, destinations: 4, pairs: 12, reachable: 12,
			partial_loss: 0, unreachable: 0, error: 0, failed_runs: 0,
			sent_no_results: 0, never_probed: 0}' \
		"$BATS_FILE_TMPDIR/report.json" || fail "$(cat "$BATS_FILE_TMPDIR/report.json")"
	for x in a b c d; do
		for y in a b c d; do
			[ "$x" != "$y" ] || continue
			want=$(v="FABRIC_HOPS_$(printf '%s\n' "${x^^}" "${y^^}" | sort | paste -sd_)"; echo "${!v}")
			cell "$x" "$y" | jq -e --argjson h "$want" --arg to_d "$([ "$y" = d ] && echo yes)" '
				.status == "reachable" and .sent == 3 and .received == 3 and
				.hops == $h and .tclass_remarked == ($to_d == "yes") and
				(if $to_d == "yes" then .remarks == [{traffic_class_sent: 0,
					traffic_class_seen: 48}] else .remarks == [] end)' >/dev/null ||
				fail "$x -> $y (hops $want): $(cell "$x" "$y")"
		done
	done
	# The text form: one row per endpoint, the diagonal not probed, R
	# only in d's column.
	run -0 "$IBAHPROBE" report "$BATS_FILE_TMPDIR/all.jsonl"
	[ "$(grep -c '^[^ ]*/rxe_[abcd] ' <<<"$output")" -eq 4 ] || fail "$output"
	[ "$(grep -c ' R$' <<<"$output")" -eq 3 ] || fail "$output"
}

@test "a responder gone: pdsh -S exits 1, report shows errors in its column and exits 1" {
	fan d stop "$BATS_FILE_TMPDIR"
	run -1 --separate-stderr fan a,b,c,d probe "$BATS_FILE_TMPDIR/hosts.txt" -c 2 -t 3000
	echo "$output" >"$BATS_FILE_TMPDIR/gone.jsonl"
	jq -e -s 'map(select(.record == "result")) | length == 12' "$BATS_FILE_TMPDIR/gone.jsonl" ||
		fail "$output $stderr"
	run -1 "$IBAHPROBE" report -j "$BATS_FILE_TMPDIR/gone.jsonl"
	echo "$output" >"$BATS_FILE_TMPDIR/report.json"
	# No set reached d, and the four endpoints share one host name: its
	# column keeps the text the probers were given.
	jq -e '.summary == {sources: 4, destinations: 4, pairs: 12, reachable: 9,
			partial_loss: 0, unreachable: 0, error: 3, failed_runs: 0,
			sent_no_results: 0, never_probed: 0} and
		.destinations[3] == {name: "d:18544", address: null} and
		([.cells[] | select(.destination == "d:18544") |
			select(.status == "error" and (.errors | length) == 1)] | length) == 3' \
		"$BATS_FILE_TMPDIR/report.json" || fail "$output"
	# d itself still probes the others.
	cell d a | jq -e '.status == "reachable" and .hops == 2' >/dev/null || fail "d -> a: $(cell d a)"
	run -1 "$IBAHPROBE" report --html -o "$BATS_FILE_TMPDIR/fabric.html" "$BATS_FILE_TMPDIR/gone.jsonl"
	[ "$(grep -o 'class="cell error"' "$BATS_FILE_TMPDIR/fabric.html" | wc -l)" -eq 3 ]
}
