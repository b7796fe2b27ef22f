#!/usr/bin/env bats
# tests/hw/run, the hardware validation kit, where it cannot run: a clean
# skip (exit 77, one line why, nothing on stdout) and its usage errors
# (exit 2). The kit's real run is tested in the VM (tests/vm/hwkit.bats).

load helpers

KIT=$TOP/tests/hw/run

@test "hw kit: no hosts is a clean skip: exit 77, one line on stderr, nothing on stdout" {
	run -77 --separate-stderr "$KIT"
	assert_output ""
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "not one line: $stderr"
	[[ $stderr == "tests/hw/run: skip: no hosts given"* ]] || fail "$stderr"
}

@test "hw kit: bad arguments are exit 2, named, nothing on stdout" {
	local args
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr "$KIT" $args
		assert_output ""
		[[ $stderr == *"error: $want"* ]] || fail "$args: $stderr"
	done <<-'EOF'
		onlyone|two hosts wanted (HOST_A HOST_B), got 1
		a b c|two hosts wanted (HOST_A HOST_B), got 3
		--bogus a b|unknown option '--bogus'
		--port 0 a b|--port wants a number from 1 to 65535, not '0'
		--port 70000 a b|--port wants a number from 1 to 65535, not '70000'
		--count x a b|--count wants a number from 1 to 10000, not 'x'
		--rtt-count x a b|--rtt-count wants a number from 0 to 100000, not 'x'
		--rtt-count 100001 a b|--rtt-count wants a number from 0 to 100000, not '100001'
		--duration 5 a b|--duration wants a number from 10 to 86400, not '5'
		--copy /nonexistent/ibahprobe a b|--copy: no file '/nonexistent/ibahprobe'
		local:rxe0 local:rxe0|A and B are the same device 'rxe0'
		a --port|--port needs a value
	EOF
}

@test "hw kit: -h prints the usage and exits 0" {
	run -0 "$KIT" -h
	assert_line --partial "Usage: tests/hw/run [OPTIONS] HOST_A HOST_B"
	assert_line --partial "local:DEVICE"
}

@test "hw kit: no RDMA device here, or an unreachable host: a clean skip" {
	if ! has_rdma_device; then
		run -77 --separate-stderr "$KIT" --ibahprobe "$IBAHPROBE" local:dev0 local:dev1
		assert_output ""
		[[ $stderr == "tests/hw/run: skip: no RDMA device on "* ]] || fail "$stderr"
	fi
	# .invalid never resolves (RFC 2606): ssh fails at once.
	run -77 --separate-stderr "$KIT" host-a.invalid host-b.invalid
	assert_output ""
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "not one line: $stderr"
	[[ $stderr == *"skip: "*"host-a.invalid"*"unreachable"* || $stderr == *"skip: ssh is not installed"* ]] ||
		fail "$stderr"
}
