#!/usr/bin/env bats
# Help, the command table and option parsing work on any machine.

load helpers

@test "ibahprobe help lists every command and exits 0" {
	run -0 --separate-stderr "$IBAHPROBE" help
	for cmd in $(commands); do
		assert_output --partial "  $cmd "
	done
	assert_output --partial "Exit status"
	[ -z "$stderr" ]
}

@test "every command has -h, help COMMAND, and both name every option" {
	for cmd in $(commands); do
		run -0 --separate-stderr "$IBAHPROBE" "$cmd" -h
		assert_output --partial "Usage: ibahprobe [OPTIONS] $cmd"
		common=$(long_options)
		# report touches no device but the SA port of --groups sa:
		# its help leaves out the GID index (tests/cli/report_runs.bats).
		[ "$cmd" != report ] ||
			common=$(grep -vxF -- --gid-index <<<"$common")
		# Nor does plan (it has a -v line).
		[ "$cmd" != plan ] ||
			common=$(grep -vxE -- '--(device|port|gid-index|timeout)' <<<"$common")
		# trace asks the SA only: a GID index picks nothing.
		[ "$cmd" != trace ] || common=$(grep -vxF -- --gid-index <<<"$common")
		for opt in $(long_options "$cmd") $common; do
			assert_output --partial -- "$opt"
		done
		help_text=$output
		run -0 "$IBAHPROBE" help "$cmd"
		[ "$output" = "$help_text" ] || fail "help $cmd differs from $cmd -h"
	done
}

@test "-h before the command name works too" {
	run -0 "$IBAHPROBE" -h ah
	assert_output --partial "Usage: ibahprobe [OPTIONS] ah"
}

@test "no command: exit 2 with a hint, nothing on stdout" {
	run -2 --separate-stderr "$IBAHPROBE"
	[ -z "$output" ]
	assert_equal "$stderr" "ibahprobe: error: no command given; 'ibahprobe help' lists the commands"
}

@test "unknown command: exit 2, named in the message" {
	run -2 --separate-stderr "$IBAHPROBE" frobnicate
	[ -z "$output" ]
	[[ $stderr == *"unknown command 'frobnicate'"* ]]
}

@test "unknown option: exit 2, named in the message" {
	run -2 --separate-stderr "$IBAHPROBE" ah --bogus
	[ -z "$output" ]
	[[ $stderr == *"unknown option '--bogus'"* ]]
	run -2 --separate-stderr "$IBAHPROBE" ah -Z
	[[ $stderr == *"unknown option '-Z'"* ]]
}

@test "missing option argument: exit 2, named in the message" {
	run -2 --separate-stderr "$IBAHPROBE" ah --dry-run --dlid
	[ -z "$output" ]
	[[ $stderr == *"option '--dlid' needs an argument"* ]]
	run -2 --separate-stderr "$IBAHPROBE" -t
	[[ $stderr == *"option '-t' needs an argument"* ]]
}

@test "common options are accepted before and after the command name" {
	run -0 "$IBAHPROBE" -j ah --dry-run --link-layer eth --dgid ::ffff:10.0.0.2
	first=$output
	run -0 "$IBAHPROBE" ah --dry-run --link-layer eth --dgid ::ffff:10.0.0.2 -j
	assert_equal "$output" "$first"
	run -0 "$IBAHPROBE" ah --link-layer eth --dgid ::ffff:10.0.0.2 --dry-run -t 50 --json
	assert_equal "$output" "$first"
}

@test "options may follow destinations" {
	run -0 --separate-stderr "$IBAHPROBE" ah 10.0.0.2 --dry-run --link-layer eth -j
	echo "$output" | jq -e '.[0].dest == "10.0.0.2" and .[0].ah_attr.is_global == 1'
}

@test "bad common option values: exit 2, range in the message, empty stdout" {
	run -2 --separate-stderr "$IBAHPROBE" -P 0 ports
	[ -z "$output" ]
	[[ $stderr == *"port '0' is out of range: expected 1-254"* ]]
	run -2 --separate-stderr "$IBAHPROBE" -g 256 ports
	[[ $stderr == *"expected 0-255"* && $stderr == *"(or auto)"* ]]
	run -2 --separate-stderr "$IBAHPROBE" -g x ports
	[[ $stderr == *"is not a number"* ]]
	run -2 --separate-stderr "$IBAHPROBE" -t 0 ports
	[[ $stderr == *"timeout (ms) '0' is out of range"* ]]
	run -2 --separate-stderr "$IBAHPROBE" -t 10s ports
	[[ $stderr == *"is not a number"* ]]
}

@test "errors in JSON mode are one JSON object on stdout, still exit 2" {
	run -2 --separate-stderr "$IBAHPROBE" -j -P 0 ports
	assert_json_error 2
	[[ $stderr == *"out of range"* ]]
	run -2 --separate-stderr "$IBAHPROBE" frobnicate --pretty
	assert_json_error 2
}

@test "a write error on stdout is reported, not hidden" {
	run -3 --separate-stderr bash -c "'$IBAHPROBE' help > /dev/full"
	[[ $stderr == *"cannot write output"* ]]
}

@test "version, -V and version -j" {
	run -0 "$IBAHPROBE" version
	assert_output --regexp '^ibahprobe [0-9]+\.[0-9]+\.[0-9]+$'
	run -0 "$IBAHPROBE" -V
	assert_output --regexp '^ibahprobe [0-9]+\.[0-9]+\.[0-9]+$'
	run -0 "$IBAHPROBE" version -j
	echo "$output" | jq -e '(.version | test("^[0-9]+\\.")) and .features.verbs == true and .features.umad == true and (.features.json_c | type == "string")'
	run -2 "$IBAHPROBE" version extra
}
