# Shared setup for the CLI suite: the binary under test (the normal or the
# ASan/UBSan build, see tools/run-suites) and bats-assert.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
IBAHPROBE=${IBAHPROBE:-$TOP/ibahprobe}
# shellcheck source=tests/missing.bash
. "$TOP/tests/missing.bash"

# Every command the binary lists, and the long options of one command.
commands() { "$IBAHPROBE" __complete commands; }
long_options() { "$IBAHPROBE" __complete options ${1:+"$1"} | cut -f1; }

# A machine with an RDMA device gives other answers to ports and ah.
has_rdma_device() {
	ls /sys/class/infiniband/ 2>/dev/null | grep -q .
}

# Exactly one JSON document with an error and the given exit status.
assert_json_error() {
	local status=$1
	echo "$output" | jq -e --argjson s "$status" \
		'(.error | type == "string" and length > 0) and .exit_status == $s' \
		>/dev/null || fail "not a JSON error object with exit_status $status: $output"
	[ "$(echo "$output" | jq -s length)" -eq 1 ] || fail "more than one JSON document"
}

# Reads a table on stdin, one option per line: OPTION|BAD|BAD...|FRAGMENT,
# and runs "$@" OPTION BAD for each bad value (also with -j). Each must exit
# 2 with nothing on stdout (a JSON error with -j) and a message on stderr
# that contains FRAGMENT and names the value.
refuses_bad_values() {
	# bats' run uses a global i, so the loop counter has its own name.
	local row opt what value col
	while IFS='|' read -r -a row; do
		opt=${row[0]}
		what=${row[${#row[@]} - 1]}
		for ((col = 1; col < ${#row[@]} - 1; col++)); do
			value=${row[col]}
			run -2 --separate-stderr "$IBAHPROBE" "$@" "$opt" "$value"
			[ -z "$output" ] || fail "$opt '$value' wrote to stdout: $output"
			[[ $stderr == "ibahprobe: error: "*"$what"* ]] ||
				fail "$opt '$value': message lacks '$what': $stderr"
			[ -z "$value" ] || [[ $stderr == *"$value"* ]] ||
				fail "$opt '$value': message does not name the value: $stderr"
			run -2 --separate-stderr "$IBAHPROBE" "$@" "$opt" "$value" -j
			assert_json_error 2
		done
	done
}

# bash completion: what a user gets after pressing TAB on a command line.
bash_complete() {	# words... (the last one is being completed)
	bash -c '
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
		_ibahprobe
		printf "%s\n" "${COMPREPLY[@]}"' _ \
		"$TOP/completions/ibahprobe.bash" "$@" | sort
}
