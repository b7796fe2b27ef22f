#!/usr/bin/env bats
# probe mcast: of an IPv6 group on RoCE (rxe), end to end: B on A's LAN
# joined ff0e::1:7 (serve --mcast: MLD join on its netdev and
# ibv_attach_mcast) and answers with 0 hops from its IPv6 GID. rxe looks
# the group up with oif = its netdev, which the fabric's rules send to
# A's table, whose default route goes to R1: the test adds a route for
# the group's scope out of A's LAN there (and removes it). Rendezvous
# port 18833 (b).

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
GROUP=ff0e::1:7

setup_file() {
	require_vm_fabric || return 1
	ip -6 route add ff0e::/16 dev "$FABRIC_A_NETDEV" table "$FABRIC_A_TABLE"
	start_serve b "$BATS_FILE_TMPDIR/serve.b" 18833 --mcast "$GROUP"
}

teardown_file() {
	ip -6 route del ff0e::/16 dev "$FABRIC_A_NETDEV" table "$FABRIC_A_TABLE" 2>/dev/null
	stop_serves "$BATS_FILE_TMPDIR"
}

@test "an IPv6 group: B answers from its IPv6 GID with 0 hops (--expect-member b6)" {
	run -0 timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g "$(fabric_gid_index a 6)" \
		-t 2500 probe -c 3 -i 50 -j --expect-member "b6:18833" "mcast:$GROUP"
	echo "$output" | jq -c '.[]'
	echo "$output" | jq -e --arg b "$FABRIC_B_IP6" '
		[.[] | select(.record == "mcast_member")] as $m |
		($m | length) == 1 and
		($m[0] | .member.gid == $b and .member.host == "b6" and
			.received == 3 and .hops == 0 and
			.observed.dgid == "ff0e::1:7") and
		(.[-1] | .record == "mcast_group" and .mcast_group == "ff0e::1:7" and
			.answered == 1 and .ok == true and .boundaries == [])' ||
		fail "$output"
}
