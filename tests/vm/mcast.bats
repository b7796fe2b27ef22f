#!/usr/bin/env bats
# probe mcast: on RoCE (rxe): a probe sent to an IP multicast group
# reaches every member that joined it (serve --mcast: IGMP join on its
# netdev and ibv_attach_mcast), each answers unicast. B on A's LAN answers
# with 0 hops; C, behind R1, only once R1 routes the group (smcrouted in
# R1's namespace with an mroute from r1-lan to r1-c), one router hop on
# its GRH; a member whose serve stopped is missing (--expect-members, and
# named by check's mcast_member=). Rendezvous ports 18811 (b), 18812 (c).

bats_require_minimum_version 1.5.0
load lib
load mcast_route

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
GROUP=239.1.2.3

setup_file() {
	require_vm_fabric || return 1
	start_serve b "$BATS_FILE_TMPDIR/serve.b" 18811 --mcast "$GROUP"
	start_serve c "$BATS_FILE_TMPDIR/serve.c" 18812 --mcast "$GROUP"
}

r1_route_group() {
	mcast_r1_route "$GROUP" mcast-r1 "$BATS_FILE_TMPDIR"
}

r1_unroute_group() {
	mcast_r1_unroute mcast-r1
}

teardown_file() {
	r1_unroute_group
	stop_serves "$BATS_FILE_TMPDIR"
}

# -t 2500: a member's first reply waits for its reply AH (the neighbour
# resolved on first contact, about a second under TCG).
probe_group() {	# ARGS... (after the group's options)
	timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g "$(fabric_gid_index a 4)" \
		-t 2500 probe -c 3 -i 50 -j "$@" "mcast:$GROUP"
}

@test "without a multicast route: B on A's LAN answers with 0 hops, C behind R1 is missing (--expect-members 2: exit 1)" {
	run -0 probe_group --expect-members 1
	echo "$output" | jq -c '.[]'
	echo "$output" | jq -e --arg b "::ffff:$FABRIC_B_IP4" '
		[.[] | select(.record == "mcast_member")] as $m |
		($m | length) == 1 and
		($m[0] | .member.gid == $b and .member.host == "b" and
			.member_state == "answered" and
			.received == 3 and .hops == 0 and
			.observed.hop_limit == 64 and .listed == null) and
		(.[-1] | .record == "mcast_group" and .answered == 1 and
			.ok == true and .qkey == 448061630 and
			.listing_why_not == "RoCE has no SA to list the members")' ||
		fail "$output"
	run -1 probe_group --expect-members 2
	echo "$output" | jq -e '.[-1] | .ok == false and .answered == 1 and
		.summary == "1 member answered; expected 2, 1 short"' || fail "$output"
}

@test "R1 routes the group: C answers too, one router hop on its GRH; a member that left is named missing by check" {
	r1_route_group || fail "smcroute: $(cat "$BATS_FILE_TMPDIR/smcrouted.log")"
	run -0 probe_group --expect-members 2
	echo "$output" | jq -c '.[]'
	echo "$output" | jq -e --arg b "::ffff:$FABRIC_B_IP4" --arg c "::ffff:$FABRIC_C_IP4" '
		[.[] | select(.record == "mcast_member")] as $m |
		($m | length) == 2 and
		($m[] | select(.member.gid == $b) | .hops == 0) and
		($m[] | select(.member.gid == $c) | .hops == 1 and .member.host == "c" and
			.observed.hop_limit == 63 and .received == 3)' ||
		fail "$output"
	# B's serve stops: it leaves the group; check names it missing.
	serve_summary "$BATS_FILE_TMPDIR/serve.b" >/dev/null
	rm -f "$BATS_FILE_TMPDIR/serve.b.pid"
	local f=$BATS_TEST_TMPDIR/group.chk
	printf 'mcast:%s count=3 mcast_members>=2 mcast_member=%s mcast_member=%s\n' \
		"$GROUP" "$FABRIC_B_IP4" "$FABRIC_C_IP4" >"$f"
	run -1 timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g "$(fabric_gid_index a 4)" -t 2500 check "$f"
	echo "$output"
	[[ ${lines[1]} == "not ok 1 - mcast:$GROUP mcast_members>=2"*"1 member answered"* ]] || fail "$output"
	[ "${lines[2]}" = "not ok 2 - mcast:$GROUP mcast_member=$FABRIC_B_IP4" ] || fail "$output"
	[[ $output == *"got $FABRIC_B_IP4 not among the 1 member that answered ($FABRIC_C_IP4)"* ]] || fail "$output"
	[ "${lines[-1]}" = "# 2 of 3 expectations failed" ] || fail "$output"
	[[ $output == *$'\n'"ok 3 - mcast:$GROUP mcast_member=$FABRIC_C_IP4"* ]] || fail "$output"
	r1_unroute_group
}
