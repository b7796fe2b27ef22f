#!/usr/bin/env bats
# report's input is anyone's text: names, destinations and findings come
# from files written on many hosts. What reaches a terminal has its
# controls and bidi overrides escaped; what reaches SVG or HTML keeps the
# document well-formed XML; a string that the reader would have to cut
# (\u0000) or cannot trust (malformed UTF-8) is refused with FILE:LINE:COL.

load helpers

DATA=$BATS_TEST_DIRNAME/data

# evil JQ_FILTER BYTES: report-fine.jsonl through the jq filter, then every
# "@@" replaced by BYTES (a printf format: raw bytes jq cannot write).
# Prints the path of the file.
evil() {
	local f=$BATS_TEST_TMPDIR/evil.jsonl
	jq -c "$1" "$DATA/report-fine.jsonl" |
		EXTRA=$(printf "$2") LC_ALL=C awk '{
			out = ""
			while ((n = index($0, "@@")) > 0) {
				out = out substr($0, 1, n - 1) ENVIRON["EXTRA"]
				$0 = substr($0, n + 2)
			}
			print out $0 }' >"$f"
	echo "$f"
}

# No raw C0 control but newline, no C1 control, no bidi control in $1.
no_raw_controls() {
	local bad
	bad=$(printf '%s' "$1" | LC_ALL=C grep -naP '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c') || true
	[ -z "$bad" ] || fail "raw control characters: $(printf '%s' "$bad" | head -n 3 | od -c | head -n 6)"
}

xml_ok() {	# FILE: well-formed, or fail with xmllint's complaint
	run xmllint --noout "$1"
	[ "$status" -eq 0 ] || fail "not well-formed XML: $output"
}

@test "text: controls, C1 controls and bidi overrides in names and findings are escaped" {
	local in
	# ESC as JSON writes it; C1 CSI (U+009B) and RLO (U+202E) as UTF-8.
	in=$(evil '.source.host += "@@" | .dest += "@@" | .findings = ["see @@here"]' \
		'\\u001b[31m\302\233\342\200\256')
	run -0 --separate-stderr "$IBAHPROBE" report "$in"
	no_raw_controls "$output"
	assert_line --regexp '^node01\\x1b\[31m\\u\{9b\}\\u\{202e\} +\. +ok '
	assert_output --partial 'node02\x1b[31m\u{9b}\u{202e}'
	assert_output --partial '      see \x1b[31m\u{9b}\u{202e}here'
	# Columns still line up: the escaped name is as wide as it prints.
	HEADER=$(grep '^source' <<<"$output") ROW=$(grep '^node01' <<<"$output") run -0 awk 'BEGIN {
		print index(ENVIRON["HEADER"], "node02"), index(ENVIRON["ROW"], "ok ") }'
	[ "${output% *}" = "${output#* }" ] || fail "node02 column at ${output% *}, its cell at ${output#* }"
}

@test "text: a backslash in a name is doubled, so an escape reads back one way" {
	local in
	in=$(evil '.source.host += "@@"' 'a\\\\x1b')
	run -0 "$IBAHPROBE" report "$in"
	assert_output --partial 'node01a\\x1b'
}

@test "errors quoting input escape controls and bidi overrides" {
	{ head -n 1 "$DATA/report-fine.jsonl"
	  printf 'node01: \033]0;owned\007 \342\200\256gnp.exe\n'; } >"$BATS_TEST_TMPDIR/in"
	run -2 --separate-stderr "$IBAHPROBE" report "$BATS_TEST_TMPDIR/in"
	[ -z "$output" ]
	no_raw_controls "$stderr"
	[[ $stderr == *":2: not JSON (null expected): 'node01: \x1b]0;owned\x07 \u{202e}gnp.exe'" ]] ||
		fail "$stderr"
	# A value of the wrong kind is quoted as well.
	in=$(evil '.status = "fine@@"' '\\u001b[2J\302\205')
	run -2 --separate-stderr "$IBAHPROBE" report "$in"
	no_raw_controls "$stderr"
	[[ $stderr == *':1: "status" is "fine\x1b[2J\u{85}", expected'* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report -j "$in"
	assert_json_error 2
	echo "$output" | jq -e '.error | contains("fine\\x1b[2J\\u{85}")' >/dev/null || fail "$output"
	# A failed run, alone, and a file name that cannot be opened.
	echo '{"error":"no device\u001b]0;owned\u0007\u202e","exit_status":3}' >"$BATS_TEST_TMPDIR/failed"
	run -2 --separate-stderr "$IBAHPROBE" report "$BATS_TEST_TMPDIR/failed"
	no_raw_controls "$stderr"
	[[ $stderr == *"failed:1: no device\x1b]0;owned\x07\u{202e})" ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report "$BATS_TEST_TMPDIR/"$'\e[2Jgone'
	no_raw_controls "$stderr"
	[[ $stderr == *'/\x1b[2Jgone: No such file or directory' ]] || fail "$stderr"
}

@test "a \\u0000 in a string or a key, or a control character unescaped, is refused with FILE:LINE:COL" {
	local in
	in=$(evil '.dest = "node02@@evil"' '\\u0000')
	run -2 --separate-stderr "$IBAHPROBE" report "$in"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: $in:1:16: a NUL character (\\u0000) in a JSON string"* ]] ||
		fail "$stderr"
	# In the second line, in a finding.
	in=$(evil 'if .dest == "node01" then .findings = ["a@@"] else . end' '\\u0000')
	run -2 --separate-stderr "$IBAHPROBE" report --svg "$in"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"$in:2:"*": a NUL character (\\u0000)"* ]] || fail "$stderr"
	# A key: json-c would keep "dest" of "dest\u0000x", and the last one won.
	printf '%s\n' "$(jq -c '. + {"dest@@x": "elsewhere"}' "$DATA/report-fine.jsonl" | head -n 1 | sed 's/@@/\\u0000/')" \
		>"$BATS_TEST_TMPDIR/key.jsonl"
	run -2 --separate-stderr "$IBAHPROBE" report -j "$BATS_TEST_TMPDIR/key.jsonl"
	assert_json_error 2
	[[ $stderr == *"key.jsonl:1:"*": a NUL character (\\u0000)"* ]] || fail "$stderr"
	# A control character not escaped is no JSON (RFC 8259), though
	# json-c 0.16 takes it.
	in=$(evil '.source.host += "@@"' '\033[2J')
	run -2 --separate-stderr "$IBAHPROBE" report "$in"
	no_raw_controls "$stderr"
	[[ $stderr == *"$in:1:"*": not JSON: control character 0x1b in a string (JSON writes it \u001b)" ]] ||
		fail "$stderr"
	# The escaped backslash before u0000 is text, not a NUL.
	in=$(evil '.source.host += "@@"' '\\\\u0000')
	run -0 "$IBAHPROBE" report -j "$in"
	echo "$output" | jq -e '.sources[0].host == "node01\\u0000"' >/dev/null || fail "$output"
}

@test "malformed UTF-8 is refused with FILE:LINE:COL and never reaches SVG or HTML" {
	local bytes what in
	while IFS='|' read -r bytes what; do
		in=$(evil '.source.host += "@@"' "$bytes")
		for form in --svg --html -j ""; do
			run -2 --separate-stderr "$IBAHPROBE" report $form "$in"
			[ "$form" = -j ] || [ -z "$output" ] || fail "$bytes $form: stdout: $output"
			[[ $stderr == *"$in:1:"*": not UTF-8 ($what)"* ]] || fail "$bytes $form: $stderr"
			no_raw_controls "$stderr"
		done
	done <<-'EOF'
	\300\200|an overlong form
	\340\201\201|an overlong form
	\360\200\200\257|an overlong form
	\355\240\200|a UTF-16 surrogate
	\355\277\277|a UTF-16 surrogate
	\364\220\200\200|past U+10FFFF
	\367\277\277\277|past U+10FFFF
	\342\202|a character cut short
	\200|byte 0x80 starts no character
	EOF
	# The column is that of the first byte of the bad sequence.
	in=$(evil '.source.host += "@@"' '\300\200')
	run -2 --separate-stderr "$IBAHPROBE" report "$in"
	local col
	col=$(head -n 1 "$in" | LC_ALL=C awk '{ print index($0, "node01") + 6 }')
	[[ $stderr == *"$in:1:$col: not UTF-8 (an overlong form)"* ]] || fail "col $col: $stderr"
}

@test "U+FFFE, U+FFFF, controls and bidi overrides from the input keep SVG and HTML well-formed" {
	command -v xmllint >/dev/null || missing "xmllint is not installed (libxml2-utils; make deps)"
	local in want
	# Raw: U+FFFE, U+FFFF, U+FDD0, C1 CSI, RLO; as JSON escapes: SOH,
	# ESC, U+FFFE, U+FFFF, NEL, RLO, and a lone surrogate (U+FFFD from
	# json-c). Each becomes one U+FFFD.
	in=$(evil '.source.host += "@@" | .dest += "@@" | .findings = ["x@@"]' \
		'\357\277\276\357\277\277\357\267\220\302\233\342\200\256\\u0001\\u001b\\ufffe\\uFFFF\\u0085\\u202E\\ud800')
	want=node01$(printf '\357\277\275%.0s' {1..12})
	for form in --svg --html; do
		run -0 --separate-stderr "$IBAHPROBE" report $form --title $'t\xef\xbf\xbe\e' "$in"
		printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
		xml_ok "$BATS_TEST_TMPDIR/out"
		! LC_ALL=C grep -qaP '\xef\xbf[\xbe\xbf]|\xef\xb7[\x90-\xaf]' "$BATS_TEST_TMPDIR/out" ||
			fail "$form: a noncharacter reached the document"
		no_raw_controls "$(tr -d '\t' <"$BATS_TEST_TMPDIR/out")"
		grep -q "<title>$want" "$BATS_TEST_TMPDIR/out" ||
			fail "$form: $(grep -o 'node01[^<]*' "$BATS_TEST_TMPDIR/out" | head -n 1)"
	done
}

@test "--title: bytes that are no UTF-8 keep SVG and HTML well-formed" {
	command -v xmllint >/dev/null || missing "xmllint is not installed (libxml2-utils; make deps)"
	for form in --svg --html; do
		run -0 --separate-stderr "$IBAHPROBE" report $form \
			--title $'A\xc0\x80B\xed\xa0\x80C\xf4\x90\x80\x80D\xffE\xe2\x82' "$DATA/report-fine.jsonl"
		printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/out"
		xml_ok "$BATS_TEST_TMPDIR/out"
		grep -q '<title>A��B���C����D�E��</title>' "$BATS_TEST_TMPDIR/out" ||
			fail "$form: $(grep -o '<title>[^<]*' "$BATS_TEST_TMPDIR/out" | head -n 1)"
	done
}

@test "text: a word longer than the line is cut between characters, by the columns they take" {
	local in word
	word=$(printf 'é%.0s' {1..60}; printf '漢%.0s' {1..40})
	in=$(evil '.findings = ["see @@"]' "$word")
	run -0 --separate-stderr "$IBAHPROBE" report "$in"
	iconv -f UTF-8 -t UTF-8 <<<"$output" >/dev/null || fail "not UTF-8: $output"
	# Every line at most 99 columns, a wide character taking two.
	run -0 python3 -c '
import sys, unicodedata as u
for line in sys.stdin.read().split("\n"):
    cols = sum(2 if u.east_asian_width(c) in "WF" else 1 for c in line)
    if cols > 99:
        print(cols, line)' <<<"$output"
	assert_output ''
	run -0 --separate-stderr "$IBAHPROBE" report "$in"
	# The word, put together again from its lines, is whole.
	joined=$(awk '/^      see/ {on = 1; next} on && /^        [^ ]/ {
		sub(/^ +/, ""); printf "%s", $0; next} on {exit}' <<<"$output")
	[ "$joined" = "$word" ] || fail "pieces: $joined"
}
