#!/usr/bin/env bats
# ibahprobe report on recorded probe results of four hosts (node01-04,
# tests/cli/data/report-*): node01/02 share a segment (0 hops), node03 is
# one router away, node04 two, and the router in front of node04 remarks
# the traffic class; node02 -> node03 loses probes, node03 -> node04 none
# arrive, node04 cannot reach node01's responder. node03's file is a JSON
# array (probe -j), the others JSON Lines (probe --jsonl).

load helpers

DATA=$BATS_TEST_DIRNAME/data
FOUR=("$DATA/report-node01.jsonl" "$DATA/report-node02.jsonl"
      "$DATA/report-node03.json" "$DATA/report-node04.jsonl")

@test "report -h shows its options and the input it takes" {
	run -0 "$IBAHPROBE" report -h
	assert_line --partial "Usage: ibahprobe [OPTIONS] report [OPTIONS] [FILE...]"
	for opt in --svg --html --output --title; do
		assert_line --partial -- "$opt"
	done
}

@test "text: the matrix with rows = sources, columns = destinations, legend, findings; exit 1" {
	run -1 --separate-stderr "$IBAHPROBE" report "${FOUR[@]}"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_line --index 0 "4 sources x 4 destinations, 12 pairs: 9 reachable, 1 partial loss, 1 unreachable, 1 error"
	assert_line --regexp '^source \\ destination +node01 +node02 +node03 +node04$'
	assert_line --regexp '^node01 +\. +ok 0h [0-9]+us +ok 1h [0-9]+us +ok 2h [0-9]+us R$'
	assert_line --regexp '^node02 +ok 0h [0-9]+us +\. +LOSS 3/10 +ok 2h [0-9]+us R$'
	assert_line --regexp '^node03 +ok 1h [0-9]+us +ok 1h [0-9]+us +\. +--$'
	assert_line --regexp '^node04 +ERR +ok 2h [0-9]+us +ok 2h [0-9]+us +\.$'
	assert_line --partial "legend: ok Nh T = reachable"
	assert_line "  node02 -> node03: partial loss, 7 of 10 answered (2 sets)"
	assert_line "  node03 -> node04: unreachable, 0 of 10 answered (2 sets)"
	assert_line "  node04 -> node01: error (2 sets)"
	assert_line --partial "      error: node01: rendezvous on port 18515: Connection refused"
	# A finding of one set names it (the other set saw another remark).
	assert_line "      tclass 0x28: traffic class remarked: sent 0x28 (DSCP 10), seen 0x30 (DSCP 12)"
	assert_line "      tclass 0: 2 of 5 answered; tclass 0x28: 5 of 5"
	assert_line "      tclass 0: partial loss: 3 of 5 probes lost"
	# Columns line up: every cell of a column starts where its header does.
	local header col
	header=$(grep '^source' <<<"$output")
	col=$(( $(awk -v h="$header" 'BEGIN { print index(h, "node03") }') - 1 ))
	[ "$(grep -E '^node0[1-4] ' <<<"$output" | cut -c$((col + 1))- | cut -c1-4 | tr '\n' ,)" = "ok 1,LOSS,.   ,ok 2," ] ||
		fail "node03 column not aligned: $output"
}

@test "-j: one document with sources, destinations, cells and summary as documented" {
	run -1 "$IBAHPROBE" report -j "${FOUR[@]}"
	echo "$output" | jq -e '
		(keys == ["cells", "destinations", "expected", "failed_runs", "notes",
			"path_tomography", "runs", "schema", "sources", "summary", "suspects",
			"warnings"]) and
		(.path_tomography == null) and
		(.schema == "ibahprobe.report.v1") and
		([.sources[].name] == ["node01", "node02", "node03", "node04"]) and
		([.destinations[].name] == ["node01", "node02", "node03", "node04"]) and
		(.sources[0] == {name: "node01", host: "node01", device: "mlx5_0", address: "10.1.0.11",
			sent_results: true, failed_runs: 0}) and
		(.destinations[3] == {name: "node04", address: "10.4.0.14"}) and
		(.cells | length == 12) and
		(.cells[0] | keys == ["destination", "errors", "findings", "hops", "interrupted",
			"lost", "received", "remarks", "rtt_max_us", "rtt_median_us", "sent",
			"set_results", "sets", "source", "status", "tclass_remarked", "verdicts"]) and
		(.runs | length == 4) and ([.runs[].host] == ["node01", "node02", "node03", "node04"]) and
		(.runs[0] == {run_id: null, host: "node01", device: "mlx5_0", start_time: null,
			params: null, interrupted: false}) and
		(.expected == {hosts: [], sent_no_results: [], never_probed: []}) and
		(.warnings == []) and (.notes == []) and (.suspects == []) and
		(.summary == {sources: 4, destinations: 4, pairs: 12, reachable: 9,
			partial_loss: 1, unreachable: 1, error: 1, failed_runs: 0,
			sent_no_results: 0, never_probed: 0})' >/dev/null ||
		fail "$output"
}

@test "-j: per pair the hops, loss, remarking and errors of the recorded results" {
	run -1 "$IBAHPROBE" report -j "${FOUR[@]}"
	cell() { echo "$output" | jq -c --arg s "$1" --arg d "$2" \
		'.cells[] | select(.source == $s and .destination == $d)'; }
	[ "$(cell node01 node02 | jq -c '[.status, .hops, .sets, .sent, .received, .tclass_remarked]')" = '["reachable",0,2,10,10,false]' ]
	[ "$(cell node01 node03 | jq .hops)" = 1 ]
	[ "$(cell node03 node02 | jq .hops)" = 1 ]
	[ "$(cell node02 node04 | jq -c '[.hops, .tclass_remarked, .remarks]')" = \
		'[2,true,[{"traffic_class_sent":0,"traffic_class_seen":48},{"traffic_class_sent":40,"traffic_class_seen":48}]]' ]
	[ "$(cell node02 node03 | jq -c '[.status, .sent, .received, .lost, .findings, .verdicts]')" = \
		'["partial_loss",10,7,3,["tclass 0: 2 of 5 answered; tclass 0x28: 5 of 5","tclass 0: partial loss: 3 of 5 probes lost"],["partial_loss","reachable"]]' ]
	[ "$(cell node03 node04 | jq -c '[.status, .hops, .rtt_median_us, .received]')" = '["unreachable",null,null,0]' ]
	cell node04 node01 | jq -e '.status == "error" and .sent == 0 and
		(.errors[0] | startswith("node01: rendezvous on port 18515"))' >/dev/null
	# The RTT is the median of the two sets' medians.
	local want
	want=$(jq -s '[.[] | select(.dest == "node02") | .rtt_us.median] | add / 2' "$DATA/report-node01.jsonl")
	cell node01 node02 | jq -e --argjson w "$want" '(.rtt_median_us - $w) | fabs < 1e-9' >/dev/null ||
		fail "median $(cell node01 node02 | jq .rtt_median_us), expected $want"
	[ -z "$(cell node01 node01)" ] || fail "node01 -> node01 was never probed"
}

@test "all pairs reachable without loss: exit 0" {
	run -0 "$IBAHPROBE" report -j "$DATA/report-fine.jsonl"
	echo "$output" | jq -e '.summary.pairs == 2 and .summary.reachable == 2' >/dev/null
	run -0 "$IBAHPROBE" report "$DATA/report-fine.jsonl"
	refute_output --partial "findings:"
}

@test "stdin, '-', concatenated files and any file order give the same report" {
	local want
	want=$("$IBAHPROBE" report -j "${FOUR[@]}") || [ $? -eq 1 ]
	export IBAHPROBE
	run -1 bash -c 'cat "$@" | "$IBAHPROBE" report -j' _ "${FOUR[3]}" "${FOUR[2]}" "${FOUR[1]}" "${FOUR[0]}"
	[ "$output" = "$want" ] || fail "stdin, reversed: $output"
	run -1 bash -c '"$IBAHPROBE" report -j "$1" - "$3" "$4" < "$2"' _ "${FOUR[@]}"
	[ "$output" = "$want" ] || fail "'-' among files: $output"
	# A pretty-printed array followed by JSON Lines in one file.
	cat "${FOUR[2]}" "${FOUR[0]}" "${FOUR[1]}" "${FOUR[3]}" >"$BATS_TEST_TMPDIR/all"
	run -1 "$IBAHPROBE" report -j "$BATS_TEST_TMPDIR/all"
	[ "$output" = "$want" ] || fail "one concatenated file: $output"
}

@test "a prober that failed as a whole ({error, exit_status}) is listed, not merged; exit 1" {
	{ cat "$DATA/report-fine.jsonl"; echo '{"error":"no RDMA device found","exit_status":3}'; } >"$BATS_TEST_TMPDIR/in"
	run -1 "$IBAHPROBE" report "$BATS_TEST_TMPDIR/in"
	assert_line --partial "; 1 failed run"
	assert_line "  a probe run failed (exit status 3): no RDMA device found ($BATS_TEST_TMPDIR/in:3)"
	run -1 "$IBAHPROBE" report -j "$BATS_TEST_TMPDIR/in"
	echo "$output" | jq -e --arg f "$BATS_TEST_TMPDIR/in:3" \
		'.failed_runs == [{input: $f, host: null, run_id: null, error: "no RDMA device found",
			exit_status: 3}] and
		 .summary.failed_runs == 1 and .summary.pairs == 2' >/dev/null
}

@test "records of a multicast probe among the results: read, not merged, noted" {
	# probe mcast:GROUP -j writes one mcast_member record a member and one
	# mcast_group record; a fleet's inputs may hold them beside results.
	{ cat "$DATA/report-fine.jsonl"
	  echo '{"schema":"ibahprobe.probe.v1","record":"mcast_member","group":"239.1.2.3","gid":"::ffff:198.18.1.3","answered":true}'
	  echo '{"schema":"ibahprobe.probe.v1","record":"mcast_group","group":"239.1.2.3","answered":1,"silent":0}'
	} >"$BATS_TEST_TMPDIR/in"
	run -0 "$IBAHPROBE" report -j "$DATA/report-fine.jsonl"
	local want=$output
	run -0 "$IBAHPROBE" report -j "$BATS_TEST_TMPDIR/in"
	echo "$output" | jq -e '.summary.pairs == 2 and .summary.reachable == 2 and
		(.notes | map(select(startswith("2 records of multicast group probes"))) | length == 1)' \
		>/dev/null || fail "$output"
	[ "$(jq -c 'del(.notes)' <<<"$output")" = "$(jq -c 'del(.notes)' <<<"$want")" ] ||
		fail "the matrix changed with the group's records"
	run -0 "$IBAHPROBE" report "$BATS_TEST_TMPDIR/in"
	assert_output --partial "2 records of multicast group probes (probe mcast:) are not in"
	# Any other record kind is still refused, naming the ones read.
	echo '{"schema":"ibahprobe.probe.v1","record":"nonsense"}' >"$BATS_TEST_TMPDIR/bad"
	run -2 "$IBAHPROBE" report "$BATS_TEST_TMPDIR/bad"
	assert_output --partial 'expected result, summary, error, mcast_member or mcast_group'
}

@test "--svg: a well-formed SVG heat map, one cell per pair, colour by status, tooltips" {
	command -v xmllint >/dev/null || missing "xmllint is not installed (libxml2-utils; make deps)"
	run -1 --separate-stderr "$IBAHPROBE" report --svg "${FOUR[@]}"
	echo "$output" >"$BATS_TEST_TMPDIR/r.svg"
	run -0 xmllint --noout "$BATS_TEST_TMPDIR/r.svg"
	svg=$(<"$BATS_TEST_TMPDIR/r.svg")
	[[ $svg == '<?xml version="1.0" encoding="UTF-8"?>'* ]] || fail "no XML declaration"
	[ "$(grep -o '<g class="cell [a-z]*">' <<<"$svg" | sed 's/.*cell \([a-z]*\).*/\1/' | sort | uniq -c | tr -s ' \n' ' ')" = \
		' 1 error 4 none 1 partial 9 reachable 1 unreachable ' ] ||
		fail "cells: $(grep -o '<g class="cell [a-z]*">' <<<"$svg" | sort | uniq -c)"
	[[ $svg == *'<title>node02 → node03'$'\n''status: partial loss'$'\n''received 7 of 10 (3 lost), 2 parameter sets'* ]] ||
		fail "tooltip of node02 -> node03 missing"
	[[ $svg == *'>LOSS 3/10</text>'* ]] || fail "partial loss cell text"
	[[ $svg == *'>2h · '*'us</text>'* ]] || fail "hops and RTT in a cell"
	[[ $svg == *'>R</text>'* ]] || fail "no remarking badge"
	[[ $svg != *'href'* && $svg != *'<script'* && $svg != *'url('* ]] || fail "external resource or script"
}

@test "--html: a self-contained page with the heat map and a findings table" {
	command -v xmllint >/dev/null || missing "xmllint is not installed (libxml2-utils; make deps)"
	run -1 "$IBAHPROBE" report --html --title "Fabric A" "${FOUR[@]}"
	echo "$output" >"$BATS_TEST_TMPDIR/r.html"
	# A polyglot page: well-formed XML as well as HTML.
	run -0 xmllint --noout "$BATS_TEST_TMPDIR/r.html"
	run -0 xmllint --xpath 'count(//*[local-name()="tr"])' "$BATS_TEST_TMPDIR/r.html"
	[ "$output" = 6 ] || fail "findings table rows (header + 5): $output"
	html=$(<"$BATS_TEST_TMPDIR/r.html")
	[[ $html == '<!DOCTYPE html>'* ]] || fail "no doctype"
	[[ $html == *'<title>Fabric A</title>'* && $html == *'<h1>Fabric A</h1>'* ]] || fail "title"
	[[ $html == *'<svg xmlns="http://www.w3.org/2000/svg"'* ]] || fail "no inline SVG"
	[[ $html == *'<style>'* ]] || fail "no inline CSS"
	[[ $html != *'<script'* && $html != *'href='* && $html != *'src='* && $html != *'url('* ]] ||
		fail "external resource or script"
}

@test "host names and destination texts are escaped in SVG and HTML, sanitised in text" {
	command -v xmllint >/dev/null || missing "xmllint is not installed (libxml2-utils; make deps)"
	local evil='<b onload="x()">&amp;'"'"'</b>' in=$BATS_TEST_TMPDIR/evil.jsonl
	jq -c --arg e "$evil" '.source.host = $e + "\u001b[31m" | .dest = "<script>alert(1)</script>"' \
		"$DATA/report-fine.jsonl" >"$in"
	for form in --svg --html; do
		run -0 "$IBAHPROBE" report "$form" "$in"
		echo "$output" >"$BATS_TEST_TMPDIR/out"
		run -0 xmllint --noout "$BATS_TEST_TMPDIR/out"
		out=$(<"$BATS_TEST_TMPDIR/out")
		[[ $out != *'<script>'* && $out != *'<b onload'* ]] || fail "$form: raw markup from input"
		[[ $out == *'&lt;script&gt;alert(1)&lt;/script&gt;'* ]] || fail "$form: destination not escaped"
		[[ $out == *'&lt;b onload=&quot;x()&quot;&gt;&amp;amp;&#39;&lt;/b&gt;'* ]] || fail "$form: host not escaped"
		[[ $out != *$'\e'* ]] || fail "$form: control character passed"
	done
	run -0 "$IBAHPROBE" report "$in"
	[[ $output != *$'\e'* ]] || fail "text: escape sequence from input reached the terminal"
	assert_output --partial '&amp;'"'"'</b>\x1b[31m'
}

@test "-o FILE: the SVG or HTML replaces FILE atomically, nothing on stdout" {
	local out=$BATS_TEST_TMPDIR/dir/fabric.html
	mkdir "$BATS_TEST_TMPDIR/dir"
	echo old >"$out"
	run -1 --separate-stderr "$IBAHPROBE" report --html -o "$out" "${FOUR[@]}"
	[ -z "$output" ] || fail "stdout: $output"
	head -n 1 "$out" | grep -qx '<!DOCTYPE html>'
	[ "$(ls "$BATS_TEST_TMPDIR/dir")" = fabric.html ] || fail "left behind: $(ls "$BATS_TEST_TMPDIR/dir")"
	[ "$(stat -c %a "$out")" = "$(printf '%o' $(( 0666 & ~$(umask) )))" ] || fail "mode $(stat -c %a "$out")"
	run -3 --separate-stderr "$IBAHPROBE" report --svg -o "$BATS_TEST_TMPDIR/none/x.svg" "${FOUR[@]}"
	[ -z "$output" ]
	[[ $stderr == "ibahprobe: error: cannot write $BATS_TEST_TMPDIR/none/x.svg: No such file or directory" ]] ||
		fail "$stderr"
}

@test "-o never replaces a symlink or a directory (exit 2), writes through a FIFO, keeps mode and owner" {
	local d=$BATS_TEST_TMPDIR/o
	mkdir "$d"
	echo target >"$d/target.html"
	ln -s target.html "$d/link.html"
	run -2 --separate-stderr "$IBAHPROBE" report --html -o "$d/link.html" "${FOUR[@]}"
	[ -z "$output" ] && [[ $stderr == *"link.html is a symbolic link"* ]] || fail "$stderr"
	[ -L "$d/link.html" ] && [ "$(cat "$d/target.html")" = target ] ||
		fail "the link or its target was touched"
	run -2 --separate-stderr "$IBAHPROBE" report --svg -o "$d" "${FOUR[@]}"
	[[ $stderr == *"is a directory"* ]] || fail "$stderr"
	# A FIFO gets the document, as > would give it.
	mkfifo "$d/fifo"
	cat "$d/fifo" >"$d/from-fifo" &
	run -1 --separate-stderr "$IBAHPROBE" report --svg -o "$d/fifo" "${FOUR[@]}"
	wait
	[ -p "$d/fifo" ] || fail "the FIFO was replaced"
	grep -q '<svg' "$d/from-fifo" || fail "nothing came through the FIFO"
	# An existing file keeps its mode, and (as root) its owner.
	echo old >"$d/kept.html"
	chmod 0640 "$d/kept.html"
	if [ "$(id -u)" -eq 0 ]; then chown nobody "$d/kept.html"; fi
	run -1 --separate-stderr "$IBAHPROBE" report --html -o "$d/kept.html" "${FOUR[@]}"
	head -n 1 "$d/kept.html" | grep -qx '<!DOCTYPE html>' || fail "not written"
	[ "$(stat -c %a "$d/kept.html")" = 640 ] || fail "mode $(stat -c %a "$d/kept.html")"
	if [ "$(id -u)" -eq 0 ]; then
		[ "$(stat -c %U "$d/kept.html")" = nobody ] || fail "owner $(stat -c %U "$d/kept.html")"
	fi
}

@test "conflicting options: exit 2, the reason on stderr, nothing on stdout" {
	run -2 --separate-stderr "$IBAHPROBE" report --svg --html "${FOUR[@]}"
	[ -z "$output" ] && [[ $stderr == *"--svg and --html exclude each other"* ]]
	run -2 --separate-stderr "$IBAHPROBE" report -j --svg "${FOUR[@]}"
	assert_json_error 2
	[[ $stderr == *"-j and --svg exclude each other"* ]]
	run -2 --separate-stderr "$IBAHPROBE" report -o x "${FOUR[@]}"
	[ -z "$output" ] && [[ $stderr == *"-o writes the --svg or --html form"* ]]
	run -2 --separate-stderr "$IBAHPROBE" report --title x -j "${FOUR[@]}"
	assert_json_error 2
	[[ $stderr == *"--title names the --svg or --html form"* ]]
	run -2 --separate-stderr "$IBAHPROBE" report -o "" --svg "${FOUR[@]}"
	[ -z "$output" ] && [[ $stderr == *"-o needs a file name"* ]]
}

# bad_input FRAGMENT ARGS...: exit 2, the message with FRAGMENT on stderr,
# empty stdout; with -j one JSON error object.
bad_input() {
	local fragment=$1
	shift
	run -2 --separate-stderr "$IBAHPROBE" report "$@"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: $fragment"* ]] || fail "stderr: $stderr"
	run -2 --separate-stderr "$IBAHPROBE" report -j "$@"
	assert_json_error 2
	echo "$output" | jq -e --arg f "$fragment" '.error | startswith($f)' >/dev/null ||
		fail "JSON error: $output"
	run -2 --separate-stderr "$IBAHPROBE" report --html "$@"
	[ -z "$output" ] || fail "--html stdout: $output"
}

@test "a line that is not JSON: exit 2 naming FILE:LINE and quoting the line" {
	bad_input "$DATA/report-bad-notjson.jsonl:2: not JSON (null expected): 'node01: ibahprobe: error: this is not JSON'" \
		"${FOUR[0]}" "$DATA/report-bad-notjson.jsonl"
}

@test "a result without a needed key: exit 2 naming FILE:LINE and the key" {
	bad_input "$DATA/report-bad-missing.jsonl:3: result lacks \"received\"" "$DATA/report-bad-missing.jsonl"
	jq -c '.source.sgid = 7' "$DATA/report-fine.jsonl" >"$BATS_TEST_TMPDIR/t.jsonl"
	bad_input "$BATS_TEST_TMPDIR/t.jsonl:1: \"source.sgid\" is int, expected string or null" "$BATS_TEST_TMPDIR/t.jsonl"
	# In an array, the line of the element.
	jq '.[2].status = "fine"' "${FOUR[2]}" >"$BATS_TEST_TMPDIR/a.json"
	local line
	line=$(grep -n '"status": "fine"' "$BATS_TEST_TMPDIR/a.json" | cut -d: -f1)
	line=$(awk -v l="$line" 'NR < l && /^  \{/ { s = NR } END { print s }' "$BATS_TEST_TMPDIR/a.json")
	bad_input "$BATS_TEST_TMPDIR/a.json:$line: \"status\" is \"fine\"" "$BATS_TEST_TMPDIR/a.json"
}

@test "empty input, an empty file, a missing file, a directory: exit 2" {
	bad_input "$DATA/report-empty.jsonl:1: no probe results (empty input)" "${FOUR[0]}" "$DATA/report-empty.jsonl"
	bad_input "<stdin>:1: no probe results (empty input)" </dev/null
	bad_input "cannot open $DATA/no-such-file.jsonl: No such file or directory" "$DATA/no-such-file.jsonl"
	bad_input "cannot read $DATA: Is a directory" "$DATA"
}
