#!/usr/bin/env bats
# `-g auto` follows the kernel's route (issue 11, item 6): endpoint A has a
# VLAN netdev (vetha.100) with its own subnet and its own RoCE v2 GIDs on
# rxe_a; C owns two more addresses, one that A reaches only through the VLAN
# and one only through vetha (README.md, "VLAN"). The source GID chosen must
# be the one whose netdev and address are the route's, read here from sysfs
# (gids, gid_attrs/types, gid_attrs/ndevs), never by number.
# Rendezvous port 18561 (serve on c).

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
PORT=18561

setup_file() {
	require_vm_fabric || return 1
	start_serve c "$BATS_FILE_TMPDIR/serve.c" "$PORT"
}

teardown_file() { stop_serves "$BATS_FILE_TMPDIR"; }

probe_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" probe "$@"; }

@test "the VLAN fabric: rxe_a has a RoCE v2 GID for the VLAN address on the VLAN netdev; the routes A's -g auto will see" {
	local i
	i=$(gid_index_on "$FABRIC_A_RXE" "$FABRIC_A_VLAN_NETDEV" "$FABRIC_A_VLAN_GID4")
	echo "VLAN GID index $i"
	# The VLAN's GIDs come after the primary ones: the first IPv4 GID of
	# rxe_a, which the other tests rely on, stays the primary address's.
	[ "$i" -gt "$(fabric_gid_index a 4)" ]
	run -0 ip -4 route get "$FABRIC_VIA_VLAN_IP4"
	[[ $output == *" dev $FABRIC_A_VLAN_NETDEV "*" src $FABRIC_A_VLAN_IP4 "* ]] || fail "$output"
	run -0 ip -4 route get "$FABRIC_VIA_PLAIN_IP4"
	[[ $output == *" dev $FABRIC_A_NETDEV "*" src $FABRIC_A_IP4 "* ]] || fail "$output"
}

@test "the VLAN fabric: with the VLAN GID given, A probes C over the VLAN; with the plain GID, R1 refuses it" {
	local vlan plain
	vlan=$(gid_index_on "$FABRIC_A_RXE" "$FABRIC_A_VLAN_NETDEV" "$FABRIC_A_VLAN_GID4")
	plain=$(gid_index_on "$FABRIC_A_RXE" "$FABRIC_A_NETDEV" "$FABRIC_A_GID4")
	run -0 probe_a -g "$vlan" -c 3 -t 3000 -j "c-via-vlan:$PORT"
	echo "$output" | jq -e --arg src "::ffff:$FABRIC_A_VLAN_IP4" '.[0] |
		.status == "reachable" and .received == 3 and .source.sgid == $src and
		.reverse_ah.grh.dgid == $src and .hops == 1'
	# From A's LAN untagged, R1 has no way to it: the plain GID cannot reach it.
	run -1 probe_a -g "$plain" -c 2 -t 500 -j "c-via-vlan:$PORT"
	echo "$output" | jq -e '.[0].received == 0'
}

@test "-g auto: a destination routed through the VLAN netdev gets the VLAN GID's index, and answers" {
	local want
	want=$(gid_index_on "$FABRIC_A_RXE" "$FABRIC_A_VLAN_NETDEV" "$FABRIC_A_VLAN_GID4")
	run -0 --separate-stderr probe_a -g auto -v -c 3 -t 3000 -j "c-via-vlan:$PORT"
	echo "$output"
	echo "$stderr"
	echo "$output" | jq -e --argjson want "$want" --arg src "::ffff:$FABRIC_A_VLAN_IP4" '.[0] |
		.ah_attr.grh.sgid_index == $want and .source.sgid == $src and
		.status == "reachable" and .received == 3'
	# -v says which GID and why: the route's netdev.
	[[ $stderr =~ sgid_index\ $want[^0-9] && $stderr == *"$FABRIC_A_VLAN_NETDEV"* ]] ||
		fail "-v does not name sgid_index $want and $FABRIC_A_VLAN_NETDEV: $stderr"
}

@test "over the VLAN: priority sent from vetha.100's egress map, the priority seen unknown on rxe, with the reason" {
	run -0 probe_a -g auto -c 2 -t 3000 -j "c-via-vlan:$PORT"
	echo "$output" | jq -e --argjson vid "$FABRIC_VLAN_ID" '.[0] |
		.status == "reachable" and .vlan_sent == $vid and .priority_sent == 0 and
		(.priority_sent_why | test("egress map")) and
		.pcp_seen == null and .vlan_seen == null and .priority_mismatch == null and
		(.vlan_seen_why | test("does not report the VLAN tag.*IBV_WC_EX_WITH_CVLAN"))'
}

@test "-g auto: a destination routed through the plain veth gets the plain GID's index" {
	local want
	want=$(gid_index_on "$FABRIC_A_RXE" "$FABRIC_A_NETDEV" "$FABRIC_A_GID4")
	run -0 --separate-stderr probe_a -g auto -v -c 3 -t 3000 -j "c-via-plain:$PORT"
	echo "$output"
	echo "$stderr"
	echo "$output" | jq -e --argjson want "$want" --arg src "::ffff:$FABRIC_A_IP4" '.[0] |
		.ah_attr.grh.sgid_index == $want and .source.sgid == $src and
		.status == "reachable" and .received == 3'
	[[ $stderr =~ sgid_index\ $want[^0-9] && $stderr =~ [[:space:]]$FABRIC_A_NETDEV([^.]|$) ]] ||
		fail "-v does not name sgid_index $want and $FABRIC_A_NETDEV: $stderr"
}
