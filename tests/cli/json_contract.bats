#!/usr/bin/env bats
# The -j contract (issue 13): -j, --pretty or probe --jsonl in force, as
# getopt itself reads the line, makes every exit 2 exactly one JSON error
# object on stdout; without them, stdout stays empty. Help is always text.

load helpers

# Exit 2 with exactly one JSON error object (one line unless --pretty).
json_usage_error() {
	run -2 --separate-stderr "$IBAHPROBE" "$@"
	assert_json_error 2
	[[ $stderr == "ibahprobe: error: "* ]] || fail "no message on stderr: $stderr"
}

# Exit 2, nothing on stdout, the message on stderr.
text_usage_error() {
	run -2 --separate-stderr "$IBAHPROBE" "$@"
	[ -z "$output" ] || fail "stdout without -j in force: $output"
	[[ $stderr == "ibahprobe: error: "* ]] || fail "no message on stderr: $stderr"
}

@test "-j bundled with other short options counts: -jP0, -jt 0, -vjq" {
	json_usage_error -jP0 ports
	[[ $stderr == *"port '0' is out of range"* ]]
	json_usage_error -jt 0 ports
	[[ $stderr == *"timeout (ms) '0'"* ]]
	json_usage_error -vjq -P 0 ports
	json_usage_error ports -jP0
	json_usage_error probe -jc 1000001 h1
	[[ $stderr == *"count '1000001'"* ]]
	# An unknown letter before the j: the letter is named, the j counts.
	json_usage_error --jso -Zj ports
	[[ $stderr == *"unknown option '-Z'"* ]] || fail "$stderr"
}

@test "abbreviated --json and --pretty count: --js, --jso, --pre" {
	json_usage_error --js -P 0 ports
	json_usage_error --jso ports -P 0
	json_usage_error --pre -P 0 ports
	[ "${#lines[@]}" -gt 1 ] || fail "--pre is --pretty: indented, got $output"
	json_usage_error ports --pret -g 256
}

@test "a -j after the bad option, or after the command, counts" {
	json_usage_error -P 0 ports -j
	json_usage_error ports -P 0 --json
	json_usage_error ah --dry-run --dlid 0x0x28 --link-layer ib -j
	json_usage_error frobnicate -j
	json_usage_error frobnicate --bogus --pretty
}

@test "a -j that getopt does not read as -j does not count" {
	# The argument of -P, -d, -t: not an option.
	text_usage_error -P -j ports
	[[ $stderr == *"port '-j' is not a number"* ]]
	text_usage_error -d --json -P 0 ports
	text_usage_error -Pj ports
	# After --, -j is an operand.
	text_usage_error ah --dry-run --link-layer eth -- -j
	[[ $stderr == *"destination '-j'"* ]]
	# The command name, once getopt stopped at --.
	text_usage_error -- -j ports
	[[ $stderr == *"unknown command '-j'"* ]]
	# probe's --jsonl is no option of ports; --json=1 is no --json.
	text_usage_error ports --jsonl
	text_usage_error ports --json=1
	[[ $stderr == *"option '--json' takes no argument"* ]]
}

@test "probe --js is ambiguous (--json, --jsonl): an error, not JSON" {
	text_usage_error probe --js h1
	[[ $stderr == *"option '--js' is ambiguous"* ]]
	# Before the command only the common options exist: --js is --json.
	json_usage_error --js probe --count 1000001 h1
}

@test "probe --jsonl errors are one JSON line, --pretty or not" {
	json_usage_error probe --jsonl --hop-limit 300 h1
	[ "${#lines[@]}" -eq 1 ] || fail "not one line: $output"
	json_usage_error probe --count 1000001 --jsonl h1
	[ "${#lines[@]}" -eq 1 ] || fail "not one line: $output"
	json_usage_error --pretty probe --jsonl --size 1 h1
	[ "${#lines[@]}" -eq 1 ] || fail "--pretty with --jsonl: not one line: $output"
	json_usage_error probe --jsonl --qkey 1 h1
	[[ $stderr == *"--qkey needs --qpn"* ]]
}

@test "help is always text, with or without -j; its errors follow -j" {
	for args in "help" "-h" "ports -h" "help ports"; do
		run -0 --separate-stderr "$IBAHPROBE" -j $args
		[[ $output == "Usage: ibahprobe "* ]] || fail "-j $args: $output"
		text=$output
		run -0 --separate-stderr "$IBAHPROBE" $args
		assert_equal "$output" "$text"
	done
	run -0 --separate-stderr "$IBAHPROBE" --json __complete commands
	assert_line ports
	run -0 --separate-stderr "$IBAHPROBE" --pretty __complete options probe
	assert_line --regexp '^--jsonl	'
	json_usage_error -j help frobnicate
	json_usage_error --json __complete
	json_usage_error -j -h -P 0
	text_usage_error help frobnicate
	text_usage_error __complete
}

# Fails unless stdin is well-formed UTF-8 (Python decodes strictly).
assert_utf8() {
	python3 -c 'import sys; sys.stdin.buffer.read().decode("utf-8")' ||
		fail "not UTF-8: $output"
}

@test "JSON stays UTF-8: bytes that are no UTF-8 become U+FFFD" {
	local fffd=$'\xef\xbf\xbd'
	# From argv, in an error object.
	run -2 --separate-stderr "$IBAHPROBE" -j probe --count $'x\xff\xc0\xaf\xed\xa0\x80' h1
	assert_json_error 2
	printf '%s' "$output" | assert_utf8
	[[ $output == *"'x$fffd$fffd$fffd$fffd$fffd$fffd'"* ]] || fail "$output"
	# From a file: report refuses input that is no UTF-8 (report(8),
	# LIMITS), naming FILE:LINE:COL; the error object, quoting nothing
	# raw, is UTF-8.
	sed $'s/"host":"node01"/"host":"node\xc0\xaf01\xed\xa0\x80"/' \
		"$BATS_TEST_DIRNAME/data/report-fine.jsonl" >"$BATS_TEST_TMPDIR/bad.jsonl"
	run -2 --separate-stderr "$IBAHPROBE" report -j "$BATS_TEST_TMPDIR/bad.jsonl"
	assert_json_error 2
	printf '%s' "$output" | assert_utf8
	[[ $stderr == *"bad.jsonl:1:40: not UTF-8 (an overlong form)"* ]] || fail "$stderr"
}

@test "without -j no exit 2 writes to stdout" {
	text_usage_error
	text_usage_error frobnicate
	text_usage_error -P 0 ports
	text_usage_error probe --count 1000001 h1
	text_usage_error version extra
}

@test "2,000 random command lines keep the contract (fixed seed)" {
	# RANDOM_RUNS and RANDOM_SEED repeat it longer or elsewhere. serve and
	# probe would really run on a machine with an RDMA device.
	local skip=""
	has_rdma_device && skip="serve probe"
	RANDOM_SKIP_COMMANDS=$skip run -0 python3 "$BATS_TEST_DIRNAME/json_contract_random.py" \
		"$IBAHPROBE" "${RANDOM_RUNS:-2000}" "${RANDOM_SEED:-13}" "$BATS_TEST_TMPDIR"
	# A second reader of every JSON error the runs wrote.
	count=$(cat "$BATS_TEST_TMPDIR/json-error-count")
	[ "$count" -gt 500 ] || fail "too few JSON errors to judge: $output"
	jq -e -s --argjson n "$count" 'length == $n and
		all(.[]; (.error | type == "string" and length > 0) and
			.exit_status == 2 and length == 2)' \
		"$BATS_TEST_TMPDIR/json-errors" >/dev/null ||
		fail "jq disagrees about the JSON errors"
}
