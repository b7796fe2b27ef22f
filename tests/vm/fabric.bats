#!/usr/bin/env bats
# The soft-RoCE VM fabric itself: devices, GIDs, UD traffic across 0, 1 and 2
# router hops, DSCP remarking on R2. Runs in the guest (tests/vm/run).

bats_require_minimum_version 1.5.0
load lib

setup_file() {
	require_vm_fabric || return 1
}

@test "rxe devices exist for every endpoint with link layer Ethernet" {
	local x dev
	for x in $FABRIC_ENDPOINTS; do
		dev=$(fabric_var "$x" RXE)
		run timeout 20 ibv_devinfo -d "$dev"
		echo "$output"
		[ "$status" -eq 0 ]
		[[ $output == *"hca_id:	$dev"* ]]
		[[ $output == *"link_layer:		Ethernet"* ]]
		[[ $output == *PORT_ACTIVE* ]]
	done
}

@test "the rxe provider library is present" {
	compgen -G '/usr/lib/*/libibverbs/librxe-rdmav*.so' >/dev/null
}

@test "every endpoint has RoCE v2 GIDs for its IPv4-mapped and IPv6 addresses" {
	local x fam i
	for x in $FABRIC_ENDPOINTS; do
		for fam in 4 6; do
			i=$(fabric_gid_index "$x" "$fam")
			echo "$x IPv$fam: gid index $i"
			[ -n "$i" ]
		done
	done
	# IPv4-mapped form, checked on one of them.
	[[ $FABRIC_A_GID4 == 0000:0000:0000:0000:0000:ffff:* ]]
}

@test "there are no RoCE v1 GIDs (rxe has only v2)" {
	run grep -rl 'IB/RoCE v1' /sys/class/infiniband/*/ports/1/gid_attrs/types/
	[ "$status" -ne 0 ]
}

@test "names resolve through /etc/hosts" {
	run getent hosts d
	[ "$status" -eq 0 ]
	[[ $output == "$FABRIC_D_IP4"* ]]
	run getent hosts d6
	[[ $output == "$FABRIC_D_IP6"* ]]
}

@test "ud pingpong, 0 router hops: a -> b, IPv4-mapped GIDs" {
	ud_pingpong a b 4
}

@test "ud pingpong, 1 router hop: a -> c, IPv4-mapped GIDs" {
	ud_pingpong a c 4
}

@test "ud pingpong, 2 router hops: a -> d, IPv4-mapped GIDs" {
	ud_pingpong a d 4
}

@test "ud pingpong, 2 router hops: c -> d, IPv6 GIDs" {
	ud_pingpong c d 6
}

@test "ud pingpong, 1 router hop: b -> c, IPv6 GIDs" {
	ud_pingpong b c 6
}

@test "route hop limit 1 on a -> c: R1 drops the probes (time exceeded)" {
	local before after
	before=$(icmp_time_exceeded r1)
	"$BATS_TEST_DIRNAME/set-hoplimit" a "$FABRIC_C_IP4" 1
	UD_TIMEOUT=6 run -1 ud_pingpong a c 4 3
	"$BATS_TEST_DIRNAME/set-hoplimit" a "$FABRIC_C_IP4" reset
	after=$(icmp_time_exceeded r1)
	echo "R1 time exceeded sent: $before -> $after"
	[ "$after" -gt "$before" ]
	ud_pingpong a c 4 3
}

@test "route hop limit 2 on a -> d (IPv6): R2 drops, hop limit 3 passes" {
	local before after
	before=$(icmp_time_exceeded r2 6)
	"$BATS_TEST_DIRNAME/set-hoplimit" a "$FABRIC_D_IP6" 2
	UD_TIMEOUT=6 run -1 ud_pingpong a d 6 3
	after=$(icmp_time_exceeded r2 6)
	echo "R2 time exceeded (IPv6) sent: $before -> $after"
	[ "$after" -gt "$before" ]
	"$BATS_TEST_DIRNAME/set-hoplimit" a "$FABRIC_D_IP6" 3
	run ud_pingpong a d 6 3
	"$BATS_TEST_DIRNAME/set-hoplimit" a "$FABRIC_D_IP6" reset
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "R2 remarks DSCP towards D: a -> d arrives with DSCP 12, a -> c unchanged" {
	capture_start "" "$FABRIC_D_NETDEV" "udp dst port 4791"
	ud_pingpong a d 4 3
	run capture_stop
	echo "$output"
	# TOS = DSCP << 2 (ECN bits 0): 12 -> 0x30.
	[[ $output == *"tos 0x30"* ]]

	capture_start "" "$FABRIC_C_NETDEV" "udp dst port 4791"
	ud_pingpong a c 4 3
	run capture_stop
	echo "$output"
	[[ $output == *"tos 0x0,"* ]]
	[[ $output != *"tos 0x30"* ]]
}

@test "R2 remarks IPv6 traffic class towards D" {
	capture_start "" "$FABRIC_D_NETDEV" "ip6 and udp dst port 4791"
	ud_pingpong c d 6 3
	run capture_stop
	echo "$output"
	[[ $output == *"class 0x30"* ]]
}

@test "a -> d arrives with TTL 62: two routers decremented it" {
	capture_start "" "$FABRIC_D_NETDEV" "udp dst port 4791"
	ud_pingpong a d 4 3
	run capture_stop
	echo "$output"
	[[ $output == *"ttl 62"* ]]
}
