#!/usr/bin/env bats
# A failure of our own QP is the local host's, said so with exit 3, never
# reported as unreachable destinations. rxe on a veth inside a network
# namespace is such a case on Linux 6.1 and 6.12: the device and its GIDs
# appear, but its UDP socket lives in the initial namespace, so the first
# send completes in error and the QP goes to the error state (tests/vm/
# README.md).

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
	/usr/sbin/ip netns add qperr
	/usr/sbin/ip link add vq0 type veth peer name vq1
	/usr/sbin/ip link set vq1 netns qperr
	/usr/sbin/ip addr add 10.99.0.2/24 dev vq0
	/usr/sbin/ip link set vq0 up
	/usr/sbin/ip -n qperr addr add 10.99.0.1/24 dev vq1
	/usr/sbin/ip -n qperr link set vq1 up
	/usr/sbin/ip -n qperr link set lo up
	ip netns exec qperr rdma link add rxe_q type rxe netdev vq1
	local i
	for ((i = 0; i < 100; i++)); do
		grep -qx '0000:0000:0000:0000:0000:ffff:0a63:0001' \
			/sys/class/infiniband/rxe_q/ports/1/gids/* 2>/dev/null && return 0
		sleep 0.1
	done
	echo "rxe_q's IPv4 GID did not appear" >&2
	return 1
}

teardown_file() {
	ip netns exec qperr rdma link delete rxe_q 2>/dev/null
	/usr/sbin/ip netns delete qperr 2>/dev/null
	/usr/sbin/ip link delete vq0 2>/dev/null
	true
}

@test "a QP that fails locally: exit 3, the local cause named, no destination called unreachable" {
	run -3 timeout 60 "$IBAHPROBE" -d rxe_q -g auto probe -c 3 -t 500 \
		--qpn 17 --qkey 0x1ab4e0be 10.99.0.2
	[[ $output == *"local UD QP on rxe_q failed"* ]] || fail "$output"
	[[ $output == *"not the destination's fault"* ]] || fail "$output"
	[[ $output != *unreachable* ]] || fail "called unreachable: $output"
}
