#!/usr/bin/env bats
# report --groups FILE on the four recorded hosts (tests/cli/data/report-*):
# node01 and node02 in rackA, node03 in rackB, node04 named by no line and
# so a group of its own (as plan --groups treats it). Known pairs: node02
# -> node03 loses probes (rackA -> rackB partial loss), node03 -> node04
# unreachable, node04 -> node01 error, traffic toward node04 is remarked.

load helpers

DATA=$BATS_TEST_DIRNAME/data
FOUR=("$DATA/report-node01.jsonl" "$DATA/report-node02.jsonl"
      "$DATA/report-node03.json" "$DATA/report-node04.jsonl")
RACKS=$DATA/groups-racks.txt

@test "--groups is in the help table" {
	run -0 "$IBAHPROBE" report -h
	assert_line --partial -- "--groups"
}

@test "text: groups legend, block matrix, failing blocks, summary; warning for the ungrouped host; exit 1" {
	run -1 --separate-stderr "$IBAHPROBE" report --groups "$RACKS" "${FOUR[@]}"
	[[ $stderr == *"1 host in no group, each a group of its own (the first: 'node04')"* ]] || fail "stderr: $stderr"
	assert_line --index 0 "3 groups (1 of them a host the groups file does not name)"
	assert_line "  g1    rackA: 2 sources, 2 destinations"
	assert_line "  g3    node04: 1 source, 1 destination (ungrouped)"
	assert_line --regexp '^ +g1 +g2 +g3$'
	assert_line --regexp '^g1 rackA +ok [0-9]+us +LOSS 1 +ok [0-9]+us R$'
	assert_line --regexp '^g2 rackB +ok [0-9]+us +\. +-- 1$'
	assert_line --regexp '^g3 node04 +ERR 1 +ok [0-9]+us +\.$'
	assert_line --regexp '^  rackA -> rackB: 2 pairs: 1 reachable, 1 partial loss, 0 unreachable, 0 error, 0 remarked; median RTT [0-9]+us$'
	assert_line "4 sources x 4 destinations, 12 pairs: 9 reachable, 1 partial loss, 1 unreachable, 1 error"
}

@test "JSON: groups with their hosts, blocks with counts, worst status and median RTT" {
	run -1 --separate-stderr "$IBAHPROBE" report -j --groups "$RACKS" "${FOUR[@]}"
	jq -e '.schema == "ibahprobe.report.groups.v1"' <<<"$output" >/dev/null || fail "$output"
	run -0 jq -c '[.groups[] | [.name, .ungrouped, .sources, .destinations]]' <<<"$output"
	assert_output '[["rackA",false,["node01","node02"],["node01","node02"]],["rackB",false,["node03"],["node03"]],["node04",true,["node04"],["node04"]]]'
	run -1 --separate-stderr "$IBAHPROBE" report -j --groups "$RACKS" "${FOUR[@]}"
	run -0 jq -c '[.blocks[] | [.source_group, .destination_group, .pairs, .reachable, .partial_loss, .unreachable, .error, .remarked, .worst, (.rtt_median_us != null)]]' <<<"$output"
	assert_output '[[0,0,2,2,0,0,0,0,"reachable",true],[0,1,2,1,1,0,0,0,"partial_loss",true],[0,2,2,2,0,0,0,2,"reachable",true],[1,0,2,2,0,0,0,0,"reachable",true],[1,2,1,0,0,1,0,0,"unreachable",false],[2,0,2,1,0,0,1,0,"error",true],[2,1,1,1,0,0,0,0,"reachable",true]]'
}

@test "every host in the file: no warning; a groups file naming hosts by address works too" {
	local g=$BATS_TEST_TMPDIR/g.txt
	printf 'node01 a\nnode02 a\nnode03 b\n10.4.0.14 b\n' >"$g"
	run -1 --separate-stderr "$IBAHPROBE" report -j --groups "$g" "${FOUR[@]}"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	run -0 jq -c '[.groups[] | [.name, (.sources | length)]], .summary.ungrouped' <<<"$output"
	assert_line --index 0 '[["a",2],["b",2]]'
	assert_line --index 1 0
}

@test "all fine in groups: exit 0; the groups file may come from stdin" {
	run -0 --separate-stderr "$IBAHPROBE" report --groups "$RACKS" "$DATA/report-fine.jsonl"
	run -0 --separate-stderr "$IBAHPROBE" report --groups - "$DATA/report-fine.jsonl" <"$RACKS"
	assert_line --index 0 --partial "group"
}

# bad_input FRAGMENT ARGS...: exit 2, FRAGMENT on stderr, stdout empty.
bad_input() {
	local want=$1
	shift
	run -2 --separate-stderr "$IBAHPROBE" report "$@"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"$want"* ]] || fail "stderr: $stderr"
}

@test "bad --groups: no file, a malformed line, a host twice, an empty name, with --svg, stdin twice; checked before the results: exit 2" {
	local g=$BATS_TEST_TMPDIR/g.txt
	bad_input "cannot open" --groups "$BATS_TEST_TMPDIR/none.txt" "${FOUR[@]}"
	printf 'node01 a extra\n' >"$g"
	bad_input "g.txt:1" --groups "$g" "${FOUR[@]}"
	printf 'node01 a\nnode01 b\n' >"$g"
	bad_input "g.txt:2" --groups "$g" "${FOUR[@]}"
	bad_input "--groups needs a file name" --groups "" "${FOUR[@]}"
	bad_input "--groups and --svg exclude each other" --groups "$RACKS" --svg "${FOUR[@]}"
	bad_input "the results are read from stdin too" --groups - <"$RACKS"
	bad_input "the results are read from stdin too" --groups - "${FOUR[0]}" - <"$RACKS"
	# checked before the results are read: a bad groups file wins over
	# an unreadable input
	printf 'node01\n' >"$g"
	bad_input "g.txt:1" --groups "$g" "$BATS_TEST_TMPDIR/none.jsonl"
	run -2 --separate-stderr "$IBAHPROBE" report -j --groups "$g" "${FOUR[@]}"
	jq -e '.exit_status == 2' <<<"$output" >/dev/null || fail "-j error object: $output"
}

@test "HTML with --groups: the canvas page, self-contained, data embedded, names escaped" {
	run -1 --separate-stderr "$IBAHPROBE" report --html --groups "$RACKS" "${FOUR[@]}"
	[[ $output == *'<canvas id="matrix"'* ]] || fail "no canvas"
	[[ $output != *'<svg'* ]] || fail "an SVG in the canvas page"
	! grep -Eq '(src|href)="https?:' <<<"$output" || fail "a network resource"
	local data
	data=$(sed -n 's/.*<script type="application\/json" id="report-data">\(.*\)/\1/p' <<<"$output")
	data+=$(sed -n '/id="report-data"/,/<\/script>/p' <<<"$output" | sed '1d;s/<\/script>.*//')
	run -0 jq -c '[.groups, .rows, .cols, (.cells | length), .loss]' <<<"$data"
	assert_output '[[["rackA",0,0,2,0,2],["rackB",0,2,1,2,1],["node04",1,3,1,3,1]],["node01","node02","node03","node04"],["node01","node02","node03","node04"],16,[6,10,7,11,10,0]]'
	# A group name that would close the script element stays inside it.
	local g=$BATS_TEST_TMPDIR/g.txt
	printf 'node01 </script><b>x\n' >"$g"
	run -1 --separate-stderr "$IBAHPROBE" report --html --groups "$g" "${FOUR[@]}"
	[[ $output == *'"\u003c/script\u003e\u003cb\u003ex"'* ]] || fail "not escaped: $output"
	[ "$(grep -c '</script>' <<<"$output")" -eq 2 ] || fail "a script element closed early"
}

@test "HTML without --groups: the SVG page up to 200 hosts, the canvas page above" {
	run -1 --separate-stderr "$IBAHPROBE" report --html "${FOUR[@]}"
	[[ $output == *'<svg'* && $output != *'<canvas'* ]] || fail "small fabric: not the SVG page"
	local dir=$BATS_TEST_TMPDIR
	python3 "$BATS_TEST_DIRNAME/report_groups_gen.py" 201 2 "$dir/g.txt" >"$dir/r.jsonl"
	# racks 0-2 only: none of the generator's failing blocks, exit 0
	run -0 --separate-stderr "$IBAHPROBE" report --html "$dir/r.jsonl"
	[[ $output == *'<canvas id="matrix"'* && $output != *'<svg'* ]] || fail "201 hosts: not the canvas page"
	[[ $output == *'"groups":[["all hosts",0,0,201,0,201]]'* ]] || fail "not one group of all hosts"
}

@test "text: a long group name is cut between characters and by the columns they take, the matrix still aligned" {
	local g=$BATS_TEST_TMPDIR/g.txt
	printf 'node01 ééééééééééééééééééééé\nnode02 ééééééééééééééééééééé\nnode03 機器室機器室機器室機器室\n' >"$g"
	run -1 --separate-stderr "$IBAHPROBE" report --groups "$g" "${FOUR[@]}"
	iconv -f UTF-8 -t UTF-8 <<<"$output" >/dev/null || fail "not UTF-8: $output"
	assert_line --regexp '^g1 é{14}\.\.\. ok [0-9]+us +LOSS 1 '
	assert_line --regexp '^g2 (機器室){2}機\.\.\. ok [0-9]+us +\. +-- 1$'
	assert_line --regexp '^g3 node04 {12}ERR 1 '
}
