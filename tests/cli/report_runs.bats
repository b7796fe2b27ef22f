#!/usr/bin/env bats
# ibahprobe report on probe results of schema ibahprobe.probe.v1 (run ids,
# start times, run parameters, summary and error records) and on the same
# outcomes written before it: mixed per-set outcomes, --expect, --latest,
# failed and interrupted runs (tests/cli/data/report-v1-*, report-old-*).
#   node01: to node02, tclass 0x28 lost 10 of 10, tclass 0 none (run R1);
#           a later run (report-v1-node01-later) lost none
#   node02: to node01, 10 of 10 with tclass 0, then interrupted (run R3)
#   node03: could not run at all (an error record naming node03)

load helpers

DATA=$BATS_TEST_DIRNAME/data
V1=("$DATA/report-v1-node01.jsonl" "$DATA/report-v1-node02.jsonl" "$DATA/report-v1-node03.jsonl")
OLD=$DATA/report-old-sets.jsonl

cell() { jq -c --arg s "$1" --arg d "$2" '.cells[] | select(.source == $s and .destination == $d)' <<<"$output"; }

@test "a pair with some probes answered is partial loss in text, JSON, SVG cell, tooltip and HTML" {
	command -v xmllint >/dev/null || missing "xmllint is not installed (libxml2-utils; make deps)"
	local f
	for f in "${V1[0]}" "$OLD"; do
		run -1 "$IBAHPROBE" report "$f"
		assert_line --regexp '^node01 +(\. +)?LOSS 10/20$'
		assert_line "  node01 -> node02: partial loss, 10 of 20 answered (2 sets)"
		run -1 "$IBAHPROBE" report -j "$f"
		[ "$(cell node01 node02 | jq -c '[.status, .sent, .received]')" = '["partial_loss",20,10]' ] ||
			fail "$f: $(cell node01 node02)"
		jq -e '.summary.partial_loss == (if .summary.pairs == 2 then 2 else 1 end) and
			.summary.unreachable == 0' <<<"$output" >/dev/null || fail "$f: $output"
		run -1 "$IBAHPROBE" report --svg "$f"
		xmllint --noout - <<<"$output"
		# The cell, its words and its tooltip tell one story.
		[[ $output == *'<g class="cell partial"><title>node01 → node02'$'\n''status: partial loss'$'\n''received 10 of 20 (10 lost)'* ]] ||
			fail "$f: tooltip: $output"
		[[ $output == *'>LOSS 10/20</text>'* ]] || fail "$f: cell text"
		[[ $output != *'>0 of 20</text>'* ]] || fail "$f: the cell says 0 of 20"
		run -1 "$IBAHPROBE" report --html "$f"
		[[ $output == *'<td>node01</td><td>node02</td><td><span class="st partial">partial loss</span></td><td>10 of 20</td>'* ]] ||
			fail "$f: HTML row"
	done
}

@test "an unreachable pair still reads 0 of N in its SVG cell" {
	{ head -1 "${V1[0]}"; } >"$BATS_TEST_TMPDIR/in"
	run -1 "$IBAHPROBE" report --svg "$BATS_TEST_TMPDIR/in"
	[[ $output == *'<g class="cell unreachable">'*'>0 of 10</text>'* ]] || fail "$output"
}

@test "a finding names its parameter set: text, JSON, SVG tooltip and HTML" {
	local f want="tclass 0x28: 0 of 10 answered; tclass 0: 10 of 10"
	for f in "${V1[0]}" "$OLD"; do
		run -1 "$IBAHPROBE" report "$f"
		assert_line "      $want"
		assert_line "      tclass 0x28: unreachable: 10 of 10 probes lost"
		run -1 "$IBAHPROBE" report -j "$f"
		cell node01 node02 | jq -e --arg w "$want" '
			.findings == [$w, "tclass 0x28: unreachable: 10 of 10 probes lost"] and
			([.set_results[] | [.label, .status, .sent, .received]] ==
				[["tclass 0x28", "unreachable", 10, 0], ["tclass 0", "reachable", 10, 10]]) and
			(.set_results[0].params == {hop_limit: 64, traffic_class: 40, flow_label: 0, sl: 0})' \
			>/dev/null || fail "$f: $(cell node01 node02)"
		run -1 "$IBAHPROBE" report --svg "$f"
		[[ $output == *"$want"$'\n'*'</title>'* ]] || fail "$f: SVG tooltip"
		run -1 "$IBAHPROBE" report --html "$f"
		[[ $output == *"<li>$want</li>"* ]] || fail "$f: HTML"
	done
	# Only what varies is named: the hop limit and flow label did not.
	run -1 "$IBAHPROBE" report "$OLD"
	refute_output --partial "hl 64"
	refute_output --partial "fl 0"
}

@test "sets that fared alike get no per-set line; old 'partial loss' and new partial_loss both read" {
	run -0 "$IBAHPROBE" report -j "$DATA/report-v1-node01-later.jsonl"
	[ "$(cell node01 node02 | jq -c '.findings')" = '[]' ] || fail "$output"
	sed 's/"partial loss"/"partial_loss"/g' "$OLD" >"$BATS_TEST_TMPDIR/new"
	run -1 "$IBAHPROBE" report -j "$BATS_TEST_TMPDIR/new"
	local new=$output
	run -1 "$IBAHPROBE" report -j "$OLD"
	[ "$output" = "$new" ] || fail "the two spellings differ"
	grep -q '"partial loss"' "$OLD"
	[[ $output != *'"partial loss"'* ]] || fail "report -j spells partial loss with a blank"
}

@test "--expect LIST: a host that sent nothing and pairs never probed are named; exit 1; its order" {
	run -1 --separate-stderr "$IBAHPROBE" report --expect node05,node02,node01 "$DATA/report-v1-node01-later.jsonl"
	assert_line --index 1 "3 hosts expected: 2 sent no results, 1 pair never probed"
	assert_line --regexp '^source \\ destination +node05 +node02 +node01$'
	assert_line --regexp '^node05 +\. +\. +\.$'
	assert_line --regexp '^node02 +\. +\. +\.$'
	assert_line --regexp '^node01 +\. +ok 0h 12us +\.$'
	assert_line "  sent no results: node05, node02"
	assert_line "  never probed: node01 -> node05"
	run -1 "$IBAHPROBE" report -j --expect node05,node02,node01 "$DATA/report-v1-node01-later.jsonl"
	jq -e '.expected == {hosts: ["node05", "node02", "node01"], sent_no_results: ["node05", "node02"],
			never_probed: [{source: "node01", destination: "node05"}]} and
		([.sources[].name] == ["node05", "node02", "node01"]) and
		([.destinations[].name] == ["node05", "node02", "node01"]) and
		.summary.sent_no_results == 2 and .summary.never_probed == 1' <<<"$output" >/dev/null ||
		fail "$output"
	# An expected address matches the node of that address.
	run -1 "$IBAHPROBE" report -j --expect 10.1.0.12,node01 "$DATA/report-v1-node01-later.jsonl"
	jq -e '.expected.sent_no_results == ["10.1.0.12"] and .expected.never_probed == [] and
		([.destinations[].name] == ["node02", "node01"])' <<<"$output" >/dev/null || fail "$output"
	# Without --expect the same input is fine.
	run -0 "$IBAHPROBE" report "$DATA/report-v1-node01-later.jsonl"
}

@test "--expect FILE: one host a line, # comments and blank lines; unusable lists are exit 2" {
	printf '# the fabric\nnode02\n\n  node01   # the first\nnode03\n' >"$BATS_TEST_TMPDIR/hosts"
	run -1 "$IBAHPROBE" report -j --expect "$BATS_TEST_TMPDIR/hosts" "${V1[@]}"
	jq -e '.expected.hosts == ["node02", "node01", "node03"] and
		([.sources[].name] == ["node02", "node01", "node03"]) and
		.expected.sent_no_results == [] and
		.expected.never_probed == [{source: "node02", destination: "node03"},
			{source: "node01", destination: "node03"}]' <<<"$output" >/dev/null || fail "$output"
	run -2 --separate-stderr "$IBAHPROBE" report --expect "$BATS_TEST_TMPDIR/none/hosts" "${V1[@]}"
	[ -z "$output" ] && [[ $stderr == "ibahprobe: error: --expect: cannot open $BATS_TEST_TMPDIR/none/hosts: No such file or directory" ]] ||
		fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report --expect node01,node02,node01 "${V1[@]}"
	[ -z "$output" ] && [[ $stderr == *"--expect: the list: 'node01' is listed twice"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report --expect ", ," "${V1[@]}"
	[ -z "$output" ] && [[ $stderr == *"--expect names no host"* ]] || fail "$stderr"
	printf '# nobody\n' >"$BATS_TEST_TMPDIR/empty"
	run -2 --separate-stderr "$IBAHPROBE" report -j --expect "$BATS_TEST_TMPDIR/empty" "${V1[@]}"
	assert_json_error 2
	run -2 --separate-stderr "$IBAHPROBE" report --expect "" "${V1[@]}"
	[[ $stderr == *"--expect needs a file or a comma-separated list"* ]] || fail "$stderr"
}

@test "a failed run (an error record) is tied to its host: its row, the summary, JSON" {
	run -1 --separate-stderr "$IBAHPROBE" report "${V1[@]}"
	assert_line --index 0 --partial "; 1 failed run"
	assert_line --regexp '^node03 +FAIL +FAIL$'
	assert_line "  node03: a probe run failed (exit status 3): no active port on any RDMA device"
	assert_line --partial "FAIL = the probe run of the source failed"
	run -1 "$IBAHPROBE" report -j "${V1[@]}"
	jq -e '(.failed_runs | length == 1) and
		(.failed_runs[0] | .host == "node03" and .run_id == "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a04"
			and .exit_status == 3 and (.input | endswith("report-v1-node03.jsonl:1"))) and
		(.sources[2] == {name: "node03", host: "node03", device: null, address: null,
			sent_results: false, failed_runs: 1})' <<<"$output" >/dev/null || fail "$output"
	run -1 "$IBAHPROBE" report --svg "${V1[@]}"
	[[ $output == *'<g class="cell failed"><title>node03 → node01'$'\n''not probed: the probe run of the source failed</title>'* ]] ||
		fail "$output"
}

@test "two runs of one source mixed: a warning on stderr and in JSON; --latest keeps the newest" {
	run -1 --separate-stderr "$IBAHPROBE" report "${V1[0]}" "$DATA/report-v1-node01-later.jsonl"
	[ "$stderr" = "ibahprobe: warning: node01: 2 runs mixed, newest 2026-11-23T18:40:05Z; --latest keeps only it" ] ||
		fail "stderr: $stderr"
	assert_line --regexp '^node01 +LOSS 10/40$'
	run -1 --separate-stderr "$IBAHPROBE" report -j "${V1[0]}" "$DATA/report-v1-node01-later.jsonl"
	jq -e '(.warnings | length == 1) and (.warnings[0] | startswith("node01: 2 runs mixed")) and
		([.runs[].run_id] == ["3f1c2a4e-8b1d-4c6e-9a7f-0d2b5e8c1a01", "7a9e0b3c-2d4f-4a1b-8c6d-5e7f9a0b1c02"])' \
		<<<"$output" >/dev/null || fail "$output"
	# Either order of the inputs: the newest by start_time stays.
	run -0 --separate-stderr "$IBAHPROBE" report --latest "$DATA/report-v1-node01-later.jsonl" "${V1[0]}"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_line --regexp '^node01 +ok 0h 12us$'
	run -0 "$IBAHPROBE" report -j --latest "${V1[0]}" "$DATA/report-v1-node01-later.jsonl"
	jq -e '[.runs[].run_id] == ["7a9e0b3c-2d4f-4a1b-8c6d-5e7f9a0b1c02"] and .warnings == []' \
		<<<"$output" >/dev/null || fail "$output"
	# A newer failed run of node01 replaces its results.
	printf '%s\n' '{"schema":"ibahprobe.probe.v1","record":"error","run_id":"0b0b0b0b-0000-4000-8000-000000000005","start_time":"2026-11-23T19:00:00Z","source":{"host":"node01"},"error":"no RDMA device found","exit_status":3}' >"$BATS_TEST_TMPDIR/err"
	run -2 --separate-stderr "$IBAHPROBE" report --latest "${V1[0]}" "$BATS_TEST_TMPDIR/err"
	[[ $stderr == *"no probe results in the input, only 1 failed run"* ]] || fail "$stderr"
	# Old files without run ids: one run per file and source.
	cp "$OLD" "$BATS_TEST_TMPDIR/again"
	run -1 --separate-stderr "$IBAHPROBE" report "$OLD" "$BATS_TEST_TMPDIR/again"
	[[ $stderr == *"node01: 2 runs mixed, newest unknown; --latest keeps only it"* ]] || fail "$stderr"
	run -1 --separate-stderr "$IBAHPROBE" report - <"$OLD"
	[ -z "$stderr" ] || fail "one file is one run: $stderr"
}

@test "summary records are no results; an interrupted run marks its results partial, with a note" {
	run -0 "$IBAHPROBE" report -j "${V1[1]}"
	jq -e '.summary.pairs == 1 and (.cells | length == 1) and .cells[0].interrupted and
		.cells[0].set_results[0].interrupted and
		.runs == [{run_id: "c4d5e6f7-0a1b-4c2d-9e3f-1a2b3c4d5e03", host: "node02", device: "mlx5_0",
			start_time: "2026-11-23T18:12:31Z",
			params: "count 10, interval 10 ms, size 64, window 8, timeout 1000 ms, hl 64, tclass 0,0x28, fl 0",
			interrupted: true}] and
		.notes == ["node02: the run started 2026-11-23T18:12:31Z was interrupted: its results are partial"]' \
		<<<"$output" >/dev/null || fail "$output"
	run -0 "$IBAHPROBE" report "${V1[1]}"
	assert_line "  node02 -> node01: reachable, 10 of 10 answered (1 set, run interrupted)"
	assert_line "  node02: the run started 2026-11-23T18:12:31Z was interrupted: its results are partial"
	# A file of summary records only holds no result.
	grep '"summary"' "${V1[0]}" >"$BATS_TEST_TMPDIR/summary"
	run -2 --separate-stderr "$IBAHPROBE" report "$BATS_TEST_TMPDIR/summary"
	[[ $stderr == *"no probe results in the input"* ]] || fail "$stderr"
}

@test "new fields with bad values are refused with FILE:LINE; exit 2" {
	local line
	line=$(head -1 "${V1[0]}")
	bad() {
		printf '%s\n' "$1" >"$BATS_TEST_TMPDIR/bad"
		run -2 --separate-stderr "$IBAHPROBE" report "$BATS_TEST_TMPDIR/bad"
		[ -z "$output" ] && [[ $stderr == *"$BATS_TEST_TMPDIR/bad:1: $2"* ]] || fail "$1: $stderr"
	}
	bad "${line/ibahprobe.probe.v1/ibahprobe.probe.v2}" '"schema" is "ibahprobe.probe.v2": report reads ibahprobe.probe.v1'
	bad "${line/\"record\":\"result\"/\"record\":\"row\"}" '"record" is "row", expected result, summary, error, mcast_member or mcast_group'
	bad "${line/2026-11-23T18:12:27Z/yesterday}" '"start_time" is "yesterday", expected an RFC 3339'
	bad "${line/\"run_id\":\"3f1c2a4e-8b1d-4c6e-9a7f-0d2b5e8c1a01\"/\"run_id\":7}" '"run_id" is int, expected string or null'
	bad "${line/\"status\":\"unreachable\"/\"status\":\"partial\"}" '"status" is "partial", expected reachable, partial_loss, unreachable or error'
	bad '{"schema":"ibahprobe.probe.v1","record":"error","error":"x","exit_status":3}' 'result lacks "source"'
}

@test "HTML and SVG show the runs' dates, their parameters and the source count" {
	run -1 "$IBAHPROBE" report --html "${V1[@]}"
	[[ $output == *'<p class="summary runs">runs 2026-11-23T18:12:27Z to 2026-11-23T18:12:31Z · 2 sources sent results</p>'* ]] ||
		fail "$output"
	[[ $output == *'<p class="summary params">parameters: count 10, interval 10 ms, size 64, window 8, timeout 1000 ms, hl 64, tclass 0,0x28, fl 0</p>'* ]] ||
		fail "$output"
	run -1 "$IBAHPROBE" report --svg --expect node01,node02,node03 "${V1[@]}"
	[[ $output == *'class="runs">runs 2026-11-23T18:12:27Z to 2026-11-23T18:12:31Z · 2 sources sent results · 3 hosts expected: 0 sent no results, 2 pairs never probed</text>'* ]] ||
		fail "$output"
	[[ $output == *'class="params">parameters: count 10, interval 10 ms'* ]] || fail "$output"
	# Files from before schema v1 know neither.
	run -1 "$IBAHPROBE" report --html "$OLD"
	[[ $output == *'<p class="summary runs">run date unknown · 2 sources sent results</p>'* ]] || fail "$output"
	[[ $output == *'<p class="summary params">parameters: unknown</p>'* ]] || fail "$output"
}

@test "help report and report -h list only the common options report uses" {
	local form
	for form in "help report" "report -h"; do
		run -0 "$IBAHPROBE" $form
		assert_line --partial -- "--expect HOSTS"
		assert_line --partial -- "--latest"
		assert_line --partial -- "-j, --json"
		assert_line --partial -- "--pretty"
		refute_output --partial -- "--gid-index"
		# --groups sa asks the SA on -d/-P, within -t.
		assert_line --partial -- "--device"
		assert_line --partial -- "--port"
		assert_line --partial -- "--timeout"
	done
	# The others still list them all.
	run -0 "$IBAHPROBE" help probe
	assert_line --partial -- "--gid-index"
}

@test "text lines stay under 100 columns, also with many sets and long findings" {
	local i
	for i in 0 4 8 12 16 20 24 28 32 36 40 44; do
		sed "s/\"traffic_class\":40/\"traffic_class\":$i/g" "${V1[0]}" | head -1
	done | sed 's/"hop_limit":64/"hop_limit":1/' >"$BATS_TEST_TMPDIR/many"
	cat "$OLD" >>"$BATS_TEST_TMPDIR/many"
	run -1 "$IBAHPROBE" report --expect node01,node02,node03,node04,node05,node06,node07,node08,node09,node10,node11,node12,node13 "$BATS_TEST_TMPDIR/many"
	assert_line "      hl 1 tclass 0: 0 of 10 answered; hl 1 tclass 0x04: 0 of 10; hl 1 tclass 0x08: 0 of 10;"
	assert_line "        hl 64 tclass 0x28: 0 of 10; hl 64 tclass 0: 10 of 10"
	# The matrix is as wide as the fabric; everything else fits.
	local long
	long=$(grep -v '^source \\\|^node[01][0-9] ' <<<"$output" | awk 'length > 99')
	[ -z "$long" ] || fail "longer than 99 columns: $long"
}
