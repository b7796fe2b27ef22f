#!/usr/bin/env bats
# report --groups sa where there is no SA to ask: exit 3 with a message
# that says so, nothing on stdout (an error object with -j); the word sa
# is not a file name (./sa is); the option checks that come before the SA
# still come first. The groups themselves are tested against a real SA in
# tests/sim/report_groups_sa.bats.

load helpers

DATA=$BATS_TEST_DIRNAME/data
FINE=$DATA/report-fine.jsonl

# Exit 3, the message on stderr, nothing on stdout, in text, -j and --html.
no_sa() {	# FRAGMENT ARGS...
	local want=$1
	shift
	run -3 --separate-stderr "$IBAHPROBE" "$@" report --groups sa "$FINE"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: --groups sa needs the InfiniBand SA: $want"* ]] ||
		fail "stderr: $stderr"
	[[ $stderr == *"; give a groups file instead" ]] || fail "stderr: $stderr"
	run -3 --separate-stderr "$IBAHPROBE" "$@" report -j --groups sa "$FINE"
	jq -e '.exit_status == 3 and (.error | startswith("--groups sa needs the InfiniBand SA"))' \
		<<<"$output" >/dev/null || fail "-j error object: $output"
	run -3 --separate-stderr "$IBAHPROBE" "$@" report --html --groups sa "$FINE"
	[ -z "$output" ] || fail "--html stdout: $output"
}

@test "--groups sa and a device that is not there: exit 3, nothing on stdout" {
	no_sa "no InfiniBand port on no-such-hca" -d no-such-hca
}

@test "--groups sa on a machine without InfiniBand ports: exit 3, nothing on stdout" {
	compgen -G '/sys/class/infiniband_mad/umad*' >/dev/null &&
		skip "this machine has umad devices"
	no_sa "no InfiniBand port"
}

@test "a groups file named sa is given as ./sa; the bare word asks the SA" {
	cd "$BATS_TEST_TMPDIR"
	printf 'node01 rackA\nnode02 rackA\n' >sa
	run -0 --separate-stderr "$IBAHPROBE" report -j --groups ./sa "$FINE"
	jq -e '[.groups[].name] == ["rackA"]' <<<"$output" >/dev/null || fail "$output"
	compgen -G '/sys/class/infiniband_mad/umad*' >/dev/null && return 0
	run -3 --separate-stderr "$IBAHPROBE" report --groups sa "$FINE"
	[[ $stderr == *"--groups sa needs the InfiniBand SA"* ]] || fail "$stderr"
}

@test "--groups sa: the option checks come before the SA is opened (exit 2)" {
	run -2 --separate-stderr "$IBAHPROBE" report --groups sa --svg "$FINE"
	[[ $stderr == *"--groups and --svg exclude each other"* ]] || fail "$stderr"
	[ -z "$output" ]
	run -2 --separate-stderr "$IBAHPROBE" report --groups sa --baseline "$FINE" "$FINE"
	[[ $stderr == *"--groups and --baseline exclude each other"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" -d no-such-hca report --groups sa --rtt-regression 10 "$FINE"
	[[ $stderr == *"--rtt-regression is a threshold of --baseline"* ]] || fail "$stderr"
}

@test "help names sa; completion offers it next to files" {
	run -0 "$IBAHPROBE" report -h
	assert_output --partial "sa: each host's leaf switch, asked of the InfiniBand SA"
	# report uses -d, -P and -t now: --groups sa opens the SA with them.
	assert_output --partial -- "--device"
	assert_output --partial -- "--timeout"
	run -0 "$IBAHPROBE" __complete options report
	assert_line "$(printf -- '--groups\t\tFILE\tfile\tsa')"
	cd "$BATS_TEST_TMPDIR"
	: >groups.txt
	run bash -c 'source "$1"; COMP_WORDS=("$2" report --groups ""); COMP_CWORD=3
		_ibahprobe; printf "%s\n" "${COMPREPLY[@]}" | sort' _ \
		"$TOP/completions/ibahprobe.bash" "$IBAHPROBE"
	assert_output "$(printf '%s\n' groups.txt sa)"
}
