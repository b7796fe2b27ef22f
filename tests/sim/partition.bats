#!/usr/bin/env bats
# What partitions do to probe and trace (issue 25): two limited members
# of a partition cannot talk, and the SA answers a requester only about
# ports that share a P_Key with it. two-switch.topo with H4 in no
# partition as a full member: opensm makes an unlisted port a limited
# member of the default partition, and H4 is a limited member of
# 0x0012 (H1 full, H3 limited), so H4 shares a partition with nobody
# limited, not even itself (match_pkey needs one full member).
load helpers


setup_file() {
	[ -x "$RENDEZVOUS_PEER" ] || missing "tests/tools/rendezvous_peer is not built (make check-build)"
	local parts=$BATS_FILE_TMPDIR/partitions.conf
	# Port GUIDs of two-switch.topo: H1 0x100001, H3 0x100005, H4 0x100007.
	printf '%s\n' 'Default=0x7fff, ipoib : ALL_SWITCHES=full, 0x0000000000100001=full, 0x0000000000100003=full, 0x0000000000100005=full ;' \
		'storage=0x0012 : 0x0000000000100001=full, 0x0000000000100005=limited, 0x0000000000100007=limited ;' >"$parts"
	sim_setup_file two-switch.topo -P "$parts"
}
teardown_file() { sim_stop; }

teardown() { sim_stop_peers; }

@test "two limited members: no path in their partition, and the error says why (osm_physp_share_this_pkey)" {
	sim_start_peer 127.0.0.1 "$(sim_gid H3)"
	local h3=$PEER
	sim_start_peer 127.0.0.2 "$(sim_gid H1)"
	local h1=$PEER
	run -1 --separate-stderr iba_on H4 probe --dry-run -j --pkey 0x0012 "$h3" "$h1"
	echo "$output" | jq -e '
		(.[0] | .status == "error" and
		 (.error | test("no records")) and
		 (.error | test("this port is a limited member of partition 0x0012 \\(P_Key bit 15 clear\\).*two limited members cannot talk")))
		and (.[1] | .status == "resolved" and .pkey_index != null)' ||
		fail "$output"
	# A full member is told nothing of the kind.
	run -0 --separate-stderr iba_on H1 probe --dry-run -j --pkey 0x0012 "$h3"
	echo "$output" | jq -e '.[0].status == "resolved"' || fail "$output"
}

@test "records the SA hides by partition are named hidden, never a cable down (lr_rcv_get_physp_link)" {
	local h1 h4
	h1=$(sim_lid H1)
	h4=$(sim_lid H4)
	# H4 shares no partition with its own port (limited everywhere): the
	# SA gives it no LinkRecord out of its port, which its PortInfoRecord
	# says is ACTIVE.
	run -1 --separate-stderr iba_on H4 trace -j "lid:$h1"
	echo "$output" | jq -e '.[0] | .status == "hidden" and .broken_at == 0 and
		(.error | test("H4 \\(LID [0-9]+\\) port 1 is ACTIVE \\(its PortInfoRecord\\) but the SA gives no LinkRecord out of it: hidden by the SA \\(no shared partition with this port\\)")) and
		(.error | test("down|cabled") | not)' || fail "$output"
	run -1 iba_on H4 trace "lid:$h1"
	local joined
	joined=$(tr -s ' \n' '  ' <<<"$output")
	[[ $joined == *"hidden by the SA (no shared partition with this port)"* &&
		$joined != *"not cabled"* ]] || fail "$output"
	# Seen from H1, the link into H4 (whose ends share no partition) is
	# hidden as well: at S2's port 2, which is ACTIVE.
	run -1 --separate-stderr iba_on H1 trace -j "lid:$h4"
	echo "$output" | jq -e '.[0] | .status == "hidden" and .broken_at == 2 and
		(.error | test("S2 \\(LID [0-9]+\\) port 2 is ACTIVE .*hidden by the SA"))' ||
		fail "$output"
	# A full member's links are there: H1 -> H3 is complete.
	run -0 --separate-stderr iba_on H1 trace -j "lid:$(sim_lid H3)"
	echo "$output" | jq -e '.[0].status == "complete"' || fail "$output"
}
