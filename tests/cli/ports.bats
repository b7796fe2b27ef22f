#!/usr/bin/env bats
# ports on this machine. Without any RDMA device (the build hosts): exit 3,
# a message that says where to look, nothing or one JSON error on stdout.
# With devices, the shape of the output; real drivers are tested in
# tests/vm/ (rxe) and tests/sim/ (umad).

load helpers

@test "ports takes no operands" {
	run -2 --separate-stderr "$IBAHPROBE" ports extra
	[ -z "$output" ]
	[[ $stderr == *"ports takes no arguments"* ]] || fail "$stderr"
}

@test "bad -P and -d values: exit 2" {
	run -2 --separate-stderr "$IBAHPROBE" ports -P 0
	[ -z "$output" ]
	[[ $stderr == *"port"*"'0'"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" ports -P 256 -j
	assert_json_error 2
}

@test "no RDMA device: exit 3, a hint, JSON error with -j" {
	has_rdma_device && skip "this machine has an RDMA device"
	run -3 --separate-stderr "$IBAHPROBE" ports
	[ -z "$output" ]
	assert_equal "$stderr" "ibahprobe: error: no RDMA device found: neither libibverbs nor libibumad sees one (is the driver loaded? 'rdma link' and /sys/class/infiniband tell)"
	run -3 --separate-stderr "$IBAHPROBE" ports -j
	assert_json_error 3
}

@test "an unknown device name: exit 3 naming it" {
	run -3 --separate-stderr "$IBAHPROBE" -d no_such_dev0 ports
	[ -z "$output" ]
	[[ $stderr == *"no_such_dev0"* ]] || fail "$stderr"
}

@test "with a device: JSON has the documented keys" {
	has_rdma_device || skip "no RDMA device on this machine"
	run -0 "$IBAHPROBE" ports -j
	echo "$output" | jq -e '.[0] | has("name") and (.ports[0] |
		has("port_num") and has("state") and has("link_layer") and
		has("lid") and has("sm_lid") and has("gids"))'
}
