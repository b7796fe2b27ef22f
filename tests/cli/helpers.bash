# Shared setup for the CLI suite: the binary under test (the normal or the
# ASan/UBSan build, see tools/run-suites) and bats-assert.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
IBAHPROBE=${IBAHPROBE:-$TOP/ibahprobe}

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
