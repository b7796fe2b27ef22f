#!/usr/bin/env bats
# The boundary of a RoCE multicast group: B on A's LAN and C behind R1
# are expected members (--expect-member, check's mcast_member=). Without
# a multicast route on R1, C is silent to the group but answers unicast
# over R1 (one trace), and B answered from this side of R1: R1 is named
# as the group's boundary. Once R1 routes the group C answers and no
# boundary is named. Rendezvous ports 18831 (b), 18832 (c); group
# 239.1.2.5, apart from mcast.bats' 239.1.2.3.

bats_require_minimum_version 1.5.0
load lib
load mcast_route

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
GROUP=239.1.2.5

setup_file() {
	require_vm_fabric || return 1
	start_serve b "$BATS_FILE_TMPDIR/serve.b" 18831 --mcast "$GROUP"
	start_serve c "$BATS_FILE_TMPDIR/serve.c" 18832 --mcast "$GROUP"
}

teardown_file() {
	mcast_r1_unroute mcast-boundary-r1
	stop_serves "$BATS_FILE_TMPDIR"
}

# -t 2500: a member's first reply waits for its reply AH (about a second
# under TCG); the unicast trace's queries wait as long.
probe_group() {	# ARGS... (after the group's options)
	timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g "$(fabric_gid_index a 4)" \
		-t 2500 probe -c 3 -i 50 "$@" "mcast:$GROUP"
}

@test "R1 does not route the group: C answers unicast over R1, B answered on A's LAN: R1 is the boundary (JSON, text, check)" {
	run -1 probe_group -j --expect-member b:18831,c:18832
	echo "$output" | jq -c '.[]'
	echo "$output" | jq -e --arg c "::ffff:$FABRIC_C_IP4" --arg r1 "$FABRIC_A_GW4" '
		[.[] | select(.record == "mcast_member")] as $m |
		($m | length) == 1 and ($m[0].member.host == "b") and
		(.[-1] | .record == "mcast_group" and .ok == false and
			(.boundaries | length) == 1 and
			(.boundaries[0] | .member == "c:18832" and .gid == $c and
				.unicast == "reached" and .error == null and
				.routers == [$r1] and .verdict == "router" and
				.boundary == $r1 and .boundary_host == "r1"))' ||
		fail "$output"
	local words="c ($FABRIC_C_IP4) answers unicast over $FABRIC_A_GW4 (r1) but not $GROUP: r1 does not route the group (the boundary)"
	echo "$output" | jq -e --arg w "$words" '.[-1].boundaries[0].summary == $w' ||
		fail "$output"
	run -1 probe_group --expect-member b:18831,c:18832
	echo "$output"
	[[ $output == *$'\n'"  $words"* ]] || fail "$output"
	# check's mcast_member= line says the same.
	local f=$BATS_TEST_TMPDIR/group.chk
	printf 'mcast:%s count=3 mcast_member=b:18831 mcast_member=c:18832\n' "$GROUP" >"$f"
	run -1 timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g "$(fabric_gid_index a 4)" -t 2500 check "$f"
	echo "$output"
	[[ $output =~ $'\n'"ok "[0-9]+" - mcast:$GROUP mcast_member=b:18831"$'\n' ]] || fail "$output"
	[[ $output =~ $'\n'"not ok "[0-9]+" - mcast:$GROUP mcast_member=c:18832"$'\n' ]] || fail "$output"
	# check wraps its long "got" lines: join them again.
	local flat=${output//$'\n#   '/ }
	[[ $flat == *"not among the 1 member that answered ($FABRIC_B_IP4); $words"* ]] ||
		fail "$output"
}

@test "R1 routes the group: C answers with one router hop, no boundary is named" {
	mcast_r1_route "$GROUP" mcast-boundary-r1 "$BATS_FILE_TMPDIR" ||
		fail "smcroute: $(cat "$BATS_FILE_TMPDIR/smcrouted.log")"
	run -0 probe_group -j --expect-member b:18831,c:18832
	echo "$output" | jq -c '.[]'
	echo "$output" | jq -e --arg c "::ffff:$FABRIC_C_IP4" '
		([.[] | select(.record == "mcast_member" and .member.gid == $c)][0].hops == 1) and
		(.[-1] | .ok == true and .answered == 2 and .boundaries == [])' ||
		fail "$output"
	mcast_r1_unroute mcast-boundary-r1
}
