#!/usr/bin/env bats
# What trace on RoCE reproduces of the NIC's own packets (issue 25): over
# IPv6 the socket's datagrams carry the flow label rxe's packets carry (0:
# prepare_ipv6_hdr), even where the kernel would write its own
# (net.ipv6.auto_flowlabels=1 for the test, restored after); every flow
# names its method; --nic is refused on rxe, whose AHs carry the route's
# hop limit. Runs in the guest (tests/vm/run). Rendezvous ports 18741-18749.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
	start_serve d "$BATS_FILE_TMPDIR/serve.d" 18741 || return 1
}

teardown_file() { stop_serves "$BATS_FILE_TMPDIR"; }

teardown() {
	[ -z "${CAPTURE_PID:-}" ] || tcpdump_stop
	# fabric-up sets it to 0 for every test (see there).
	echo 0 >/proc/sys/net/ipv6/auto_flowlabels
}

trace_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 1000 trace "$@"; }

@test "IPv6: the trace's datagrams carry rxe's flow label (0), not the kernel's, like probe's own packets" {
	local wire trace_port=49157	# flow label 5's UDP source port
	echo 1 >/proc/sys/net/ipv6/auto_flowlabels
	pcap_start "" "$FABRIC_A_NETDEV" "ip6 and udp dst port 4791 and dst host $FABRIC_D_IP6"
	# probe's packets for the capture; its verdict is not this test's
	# (a first IPv6 reply can be lost while D resolves R2).
	"$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe -c 2 --flow-label 5 d6:18741 >/dev/null 2>&1 || true
	run -0 --separate-stderr trace_a -j --flow-label 5 d6:18741
	wire=$(pcap_fields udp.srcport ipv6.flow)
	echo "$output" | jq -e '.[0].status == "reached" and .[0].method == "socket"
		and .[0].not_reproduced == [] and .[0].ip_flow_label == 0
		and .[0].socket_priority == 0' >/dev/null || fail "$output"
	# Every hop's datagram (3: R1, R2, D) from the trace's port, label 0.
	[ "$(grep -c "^$trace_port,0\$" <<<"$wire")" -ge 3 ] || fail "trace: $wire"
	# probe's packets (rxe: its QP's port) carry label 0 as well.
	[ "$(grep -vc "^$trace_port," <<<"$wire")" -ge 1 ] || fail "no probe packet: $wire"
	[ "$(cut -d, -f2 <<<"$wire" | sort -u)" = 0 ] || fail "labels: $wire"
}

@test "every flow names its method: -v text, and the socket's queue priority from the traffic class" {
	run -0 --separate-stderr trace_a -v --queries 1 --tclass 0x10 d:18741
	[[ $output == *"  method: socket (kernel UDP socket, queue priority 6)"* ]] || fail "$output"
	[[ $output != *"not reproduced"* && $output != *"LAG member"* ]] || fail "$output"
	run -0 --separate-stderr trace_a -j --queries 1 --tclass 0x10 d:18741
	echo "$output" | jq -e '.[0].method == "socket" and .[0].socket_priority == 6
		and .[0].ip_flow_label == null and .[0].not_reproduced == []' >/dev/null ||
		fail "$output"
}

@test "--nic on rxe: refused, exit 3, the provider's hop limit rule named, nothing on stdout" {
	run -3 --separate-stderr trace_a --nic --queries 1 d:18741
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: --nic needs a provider that sends the AH's hop limit: rxe creates AHs in the kernel"* ]] ||
		fail "$stderr"
}
