#!/usr/bin/env bats
# probe --mtu (--size max) without a device: what cannot go with a search
# is refused before any device is opened (exit 2, the message on stderr,
# nothing on stdout); without a device it exits 3 with its own schema in
# the JSON error. The search itself is tested in tests/vm/mtu.bats.

load helpers

refused() {
	local want=$1
	shift
	run -2 --separate-stderr "$IBAHPROBE" probe "$@"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: $want"* ]] || fail "stderr: $stderr"
}

@test "probe --mtu and --size max refuse what cannot go with a search: exit 2, empty stdout" {
	refused "--mtu searches the size itself: drop -s 300" --mtu -s 300 h1
	refused "--mtu searches the size itself: drop -s 300" -s 300 --size max h1
	refused "--mtu runs one search per destination: drop --continuous" --mtu --continuous h1
	refused "--mtu runs one search per destination: drop -c 0" --size max -c 0 h1
	refused "--mtu runs one search per destination: drop --interval-round" --mtu --interval-round 5 h1
	refused "--mtu sends -c probes at each size: -c 101 is more than 100" --mtu -c 101 h1
	refused "--dry-run probes nothing: drop --mtu" --mtu --dry-run h1
	refused "--mtu searches one parameter set per destination: give --hop-limit one value, not 3" --mtu --hop-limit 1-3 h1
	refused "--mtu searches one parameter set per destination: give --tclass one value, not 2" --mtu --tclass 0,0x28 h1
	refused "--mtu searches one parameter set per destination: give --flow-label one value, not 2" --mtu --flow-label 1,2 h1
	refused "--mtu searches one parameter set per destination: give --sl one value, not 16" --mtu --sl 0-15 h1
	refused "probe needs at least one destination" --mtu
	refused "probe size 'maximum' is not a number" --size maximum h1
}

@test "probe --mtu --jsonl is refused with one JSON line: the result is one document" {
	run -2 --separate-stderr "$IBAHPROBE" probe --mtu --jsonl h1
	assert_json_error 2
	[ "${#lines[@]}" -eq 1 ] || fail "more than one line: $output"
	[[ $stderr == "ibahprobe: error: --mtu's result is one document: use -j, not --jsonl" ]] || fail "$stderr"
}

@test "probe --mtu with one value per list passes the usage checks (exit 3 without a device)" {
	has_rdma_device && skip "this machine has an RDMA device: probe would run"
	run -3 --separate-stderr "$IBAHPROBE" probe --mtu --hop-limit 5 --tclass 0x28 -c 1 h1
	[ -z "$output" ]
	[[ $stderr == "ibahprobe: error: no RDMA device found"* ]] || fail "$stderr"
}

@test "probe --mtu without a device: the JSON error names the MTU schema" {
	has_rdma_device && skip "this machine has an RDMA device: probe would run"
	run -3 --separate-stderr "$IBAHPROBE" -j probe --mtu h1
	assert_json_error 3
	echo "$output" | jq -e '.schema == "ibahprobe.probe_mtu.v1" and .exit_status == 3'
}

@test "probe -h names --mtu and --size max" {
	run -0 "$IBAHPROBE" probe -h
	[[ $output == *"--mtu"*"MTU discovery"* ]] || fail "$output"
	[[ $output == *"or max: as --mtu"* ]] || fail "$output"
}

@test "bash completion: probe offers --mtu, and max after --size" {
	run bash_complete "$IBAHPROBE" probe --mt
	[ "$output" = "--mtu" ] || fail "$output"
	run bash_complete "$IBAHPROBE" probe --size ""
	[ "$output" = "max" ] || fail "$output"
	run bash_complete "$IBAHPROBE" probe -s m
	[ "$output" = "max" ] || fail "$output"
}
