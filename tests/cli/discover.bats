#!/usr/bin/env bats
# serve --register and probe --discover/--list without a fabric: bad
# combinations are refused before anything is opened (exit 2, message on
# stderr, nothing on stdout), help names the options, and without a device
# both exit 3. The SA half runs in tests/sim/service.bats.

load helpers

# Exit 2 with the message on stderr and nothing on stdout; with -j, one
# JSON error object instead.
refuses() {	# FRAGMENT ARGS...
	local what=$1
	shift
	run -2 --separate-stderr "$IBAHPROBE" "$@"
	[ -z "$output" ] || fail "'$*' wrote to stdout: $output"
	[[ $stderr == "ibahprobe: error: "*"$what"* ]] || fail "'$*': $stderr"
	run -2 --separate-stderr "$IBAHPROBE" "$@" -j
	assert_json_error 2
}

@test "probe --list without --discover: exit 2" {
	refuses "--list needs --discover" probe --list
	refuses "--list needs --discover" probe --list gid:fe80::1
}

@test "probe --discover refuses --qpn and --qkey: the records carry them" {
	refuses "drop --qpn and --qkey" probe --discover --qpn 0x11
	refuses "drop --qpn and --qkey" probe --discover --list --qpn 0x11 --qkey 5
}

@test "probe --discover DEST: only GIDs and GUIDs name a record" {
	refuses "a destination is a GID or guid: whose record the SA has, not a lid destination: 'lid:5'" \
		probe --discover lid:5
	refuses "not a node destination: 'node:H1'" probe --discover --list gid:fe80::1 node:H1
	refuses "not a host destination: 'h1'" probe --discover h1
	refuses "gid 'nope' is not valid" probe --discover gid:nope
}

@test "probe --discover checks the sweep and the other options first" {
	refuses "hop limit '300' is out of range" probe --discover --hop-limit 300
	refuses "window" probe --discover --list --window 0
}

@test "help names --register, --discover and --list" {
	run -0 "$IBAHPROBE" serve -h
	assert_output --partial "--register"
	assert_output --partial "register a ServiceRecord with the SA"
	run -0 "$IBAHPROBE" probe -h
	assert_output --partial "probe [OPTIONS] DEST... | --discover [DEST...]"
	assert_output --partial "--discover"
	assert_output --partial "with --discover: list the registered responders"
	run -0 "$IBAHPROBE" help probe
	assert_output --partial "--list"
}

@test "no fabric: --register, --discover and --list exit 3 with a JSON error under -j" {
	has_rdma_device && skip "this machine has an RDMA device"
	run -3 --separate-stderr "$IBAHPROBE" serve --register -j
	assert_json_error 3
	run -3 --separate-stderr "$IBAHPROBE" probe --discover -j
	assert_json_error 3
	run -3 --separate-stderr "$IBAHPROBE" probe --discover --list -j
	assert_json_error 3
	run -3 --separate-stderr "$IBAHPROBE" probe --discover --list
	[ -z "$output" ]
	[[ $stderr == "ibahprobe: error: "*"umad"* ]] || fail "$stderr"
}
