#!/usr/bin/env bats
# Multicast groups through the real SA (issue 23, InfiniBand side):
# opensm with partitions.conf IPoIB groups that some simulated ports
# cannot join (opensm's validate_port_caps: the port's MTUCap and rate
# against the group's), joins and leaves (SubnAdmSet/Delete), the
# members as the SA shows them (GetTable), the joinability audit, and
# the AH `ah mcast:` and `probe --dry-run mcast:` build from the group's
# record, compared with `saquery -g`. ibsim has no data path: nothing
# here sends to a group.
#
# mcast.topo: H1 and H2 on 4x links (rate code 3, 10 Gb/s), H3 on a 1x
# link (code 2, 2.5 Gb/s); every port's MTUCap is 2048 under ibsim.
load helpers

SA_MCAST=$(dirname "$IBAHPROBE")/tests/tools/sa_mcast
[ -x "$SA_MCAST" ] || SA_MCAST=$TOP/build/tests/tools/sa_mcast

BCAST=ff12:401b:ffff::ffff:ffff
BIG=ff12:401b:8001::ffff:ffff

setup_file() {
	[ -x "$SA_MCAST" ] || missing "tests/tools/sa_mcast is not built (make check-build)"
	local parts=$BATS_FILE_TMPDIR/partitions.conf
	# The default partition's broadcast group at MTU 2048 and 10 Gb/s
	# (H3 too slow), partition 0x0001's at MTU 4096 (above every port).
	printf '%s\n' 'Default=0x7fff, ipoib, mtu=4, rate=3 : ALL=full ;' \
		'big=0x0001, ipoib, mtu=5, rate=3, sl=0 : ALL=full ;' >"$parts"
	sim_setup_file mcast.topo -P "$parts"
}
teardown_file() { sim_stop; }

mcast_on() {	# NODE ARGS...
	local node=$1
	shift
	sim_run "$node" "$SA_MCAST" "$@"
}

# One field (Mlid, Mtu, pkey, Rate, SL) of MGID's group in `saquery -g`.
saquery_group_field() {	# NODE MGID FIELD
	sim_run "$1" saquery -g | awk -v mgid="$2" -v field="$3" '
		$1 ~ /^MGID/ { sub(/^MGID\.+/, "", $1); cur = $1 }
		cur == mgid && $1 ~ "^" field "\\." { sub("^" field "\\.+", "", $1); print $1; exit }'
}

@test "a FullMember join of a partitions.conf group, the members the SA shows, and a leave" {
	run -0 mcast_on H1 join "$BCAST" full
	[[ $output == "mgid=$BCAST port_gid=$(sim_gid H1) qkey=0x00000b1b mlid=0xc000 mtu=4 rate=3 pkey=0xffff "* ]] || fail "$output"
	[[ $output == *" join_state=FullMember proxy_join=0" ]] || fail "$output"
	# Untrusted (SM_Key 0): one record for the group, PortGID and
	# JoinState zeroed (mcmr_query_mgrp, IBA p923).
	run -0 mcast_on H2 members "$BCAST"
	[ "${#lines[@]}" -eq 1 ] || fail "$output"
	[[ $output == "mgid=$BCAST port_gid=:: "*" join_state=none "* ]] || fail "$output"
	# Trusted (opensm's default SM_Key 1): one record per member.
	run -0 mcast_on H2 -k 1 members "$BCAST"
	[[ $output == *"port_gid=$(sim_gid H1) "*"join_state=FullMember"* ]] || fail "$output"
	# Whether one port is a member, untrusted: the record exists or not.
	run -0 mcast_on H2 member "$BCAST" "$(sim_gid H1)"
	run -1 mcast_on H1 member "$BCAST" "$(sim_gid H2)"
	[[ $output == *"the SA has no multicast group $BCAST that this port may see"* ]] || fail "$output"
	run -0 mcast_on H1 leave "$BCAST" full
	run -1 mcast_on H2 member "$BCAST" "$(sim_gid H1)"
	# A second leave: opensm's validate_delete says REQ_INVALID.
	run -1 mcast_on H1 leave "$BCAST" full
	[[ $output == "error: the SA refused to remove this port from $BCAST (status 0x0200, request invalid): the port is not a member with those JoinState bits, or the group is gone" ]] || fail "$output"
}

@test "refused joins are said in words: MTU, rate, create rules (validate_port_caps, o15-0.1.9, REQUIRED_MC_CREATE_COMP_MASK)" {
	run -1 mcast_on H1 join "$BIG" full
	[ "$output" = "error: the SA refused the join of $BIG (status 0x0200, request invalid): the group's MTU 4096 is above this port's 2048" ] || fail "$output"
	run -1 mcast_on H3 join "$BCAST" sendonly
	[ "$output" = "error: the SA refused the join of $BCAST (status 0x0200, request invalid): the group's rate 10 Gb/s is above this port's 2.5 Gb/s" ] || fail "$output"
	run -1 mcast_on H2 join ff12:1234::77 sendonly
	[[ $output == *"(status 0x0200, request invalid): the group does not exist, and only a FullMember join creates one (o15-0.1.9)" ]] || fail "$output"
	run -1 mcast_on H2 join ff12:1234::77 full
	[[ $output == *"(status 0x0600, insufficient components): the group does not exist, and creating it needs its Q_Key, P_Key, SL, FlowLabel and TClass" ]] || fail "$output"
	# An exact MTU that is not the group's (validate_more_comp_fields).
	run -1 mcast_on H2 join "$BCAST" full 0x0b1b 0xffff 0 5 3
	[ "$output" = "error: the SA refused the join of $BCAST (status 0x0200, request invalid): the join asked for MTU 4096 exactly, the group's is 2048" ] || fail "$output"
	run -1 mcast_on H2 join ff12:a01b::77 full 0x1234 0xffff 0 4 3
	[[ $output == *"an MGID with the SA's signature 0xa01b and link-local scope is the SA's own to assign" ]] || fail "$output"
}

@test "a FullMember join creates a group with its Q_Key, P_Key, SL, MTU and rate; saquery -g agrees; the last leave removes it" {
	local mgid=ff15:1234::9
	run -0 mcast_on H2 join "$mgid" full 0x11223344 0xffff 3 4 3
	[[ $output == "mgid=$mgid port_gid=$(sim_gid H2) qkey=0x11223344 "*" mtu=4 rate=3 pkey=0xffff sl=3 "* ]] || fail "$output"
	local mlid
	mlid=$(sed -n 's/.* mlid=\(0x[0-9a-f]*\) .*/\1/p' <<<"$output")
	run -0 mcast_on H1 lookup "$mgid"
	[[ $output == *" qkey=0x11223344 mlid=$mlid mtu=4 rate=3 pkey=0xffff sl=3 "*" scope=5 "* ]] || fail "$output"
	[ "$(saquery_group_field H1 "$mgid" Mlid)" = "$(printf '0x%04X' "$mlid")" ] || fail "saquery -g: $(sim_run H1 saquery -g)"
	[ "$(saquery_group_field H1 "$mgid" SL)" = "0x3" ] || fail "saquery -g SL"
	# H3 (1x) cannot join what H2 made at 10 Gb/s.
	run -1 mcast_on H3 join "$mgid" full
	[[ $output == *"the group's rate 10 Gb/s is above this port's 2.5 Gb/s" ]] || fail "$output"
	run -0 mcast_on H2 leave "$mgid" full
	run -1 mcast_on H1 lookup "$mgid"
	[[ $output == "error: the SA has no multicast group $mgid that this port may see"* ]] || fail "$output"
}

@test "the joinability audit: which IPoIB groups this port cannot join, and why (ah mcast:)" {
	run -1 --separate-stderr iba_on H1 ah --dry-run mcast:ipoib:0x0001
	[[ $output == *"this port (MTU 2048) cannot join $BIG (MTU 4096): IPoIB on partition 0x8001 will not come up here"* ]] || fail "$output"
	run -1 --separate-stderr iba_on H3 ah --dry-run -j mcast:ipoib
	echo "$output" | jq -e --arg m "$BCAST" '.[0] | .joinable == false and
		.joinable_reason == "this port (rate 2.5 Gb/s) cannot join \($m) (rate 10 Gb/s): IPoIB on partition 0xffff will not come up here"' || fail "$output"
	run -0 --separate-stderr iba_on H1 ah --dry-run -j mcast:ipoib
	echo "$output" | jq -e '.[0] | .joinable == true and .status == "valid"' || fail "$output"
	# The sa_mcast audit agrees with ah.
	run -1 mcast_on H3 audit "$BIG"
	[ "$output" = "this port (MTU 2048, rate 2.5 Gb/s) cannot join $BIG (MTU 4096, rate 10 Gb/s): IPoIB on partition 0x8001 will not come up here" ] || fail "$output"
}

@test "ah mcast: and probe --dry-run mcast: build the AH from the group's record, as saquery -g has it" {
	local mlid
	mlid=$(( $(saquery_group_field H1 "$BCAST" Mlid) ))
	run -0 --separate-stderr iba_on H1 ah --dry-run -j mcast:ipoib
	echo "$output" | jq -e --arg m "$BCAST" --argjson mlid "$mlid" '.[0] |
		.source == "group" and .violations == [] and
		.ah_attr.dlid == $mlid and .ah_attr.is_global == 1 and
		.ah_attr.grh.dgid == $m and .ah_attr.sl == .group.sl and
		.ah_attr.static_rate == .group.rate and
		.ah_attr.grh.hop_limit == .group.hop_limit and
		.ah_attr.grh.traffic_class == .group.traffic_class and
		.ah_attr.grh.flow_label == .group.flow_label and
		.group.mlid == $mlid and .group.mtu == 2048 and .group.rate == 3 and
		.group.qkey == 2843 and .group.pkey == 65535 and .group.scope == 2' ||
		fail "$output"
	run -0 --separate-stderr iba_on H1 probe --dry-run -j mcast:ipoib
	echo "$output" | jq -e --arg m "$BCAST" --argjson mlid "$mlid" '.[0] |
		.status == "resolved" and .dgid == $m and .dgid_source == "group" and
		.qkey == 2843 and .path == null and .joinable == true and
		(.ahs[0] | .status == "valid" and .violations == [] and
		 .ah_attr.dlid == $mlid and .ah_attr.is_global == 1 and
		 .ah_attr.grh.dgid == $m)' || fail "$output"
	run -0 iba_on H1 probe --dry-run mcast:ipoib
	[[ $output == *"dgid $BCAST (group)"* && $output == *"is_global 1 dlid $mlid "* ]] || fail "$output"
}

@test "a group the SA does not have: status error, exit 1; probe without verbs: exit 3; mixed lists: exit 2" {
	run -1 --separate-stderr iba_on H1 ah --dry-run -j mcast:ff12:1234::404
	echo "$output" | jq -e '.[0] | .status == "error" and
		(.error == "the SA has no multicast group ff12:1234::404 that this port may see (none, or one of a partition this port is not in)")' || fail "$output"
	run -1 --separate-stderr iba_on H1 probe --dry-run -j mcast:ipoib6
	echo "$output" | jq -e '.[0] | .status == "error" and (.error | test("ff12:601b:ffff::1"))' || fail "$output"
	# Probing a group for real needs verbs, which the simulator lacks:
	# said, exit 3, nothing half-written.
	run -3 --separate-stderr iba_on H1 probe mcast:ipoib
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"probing a group needs a verbs device; this one is visible through umad only"* ]] || fail "$stderr"
	run -2 --separate-stderr iba_on H1 probe --dry-run mcast:ipoib "lid:$(sim_lid H2)"
	[[ $stderr == *"give mcast: destinations on their own"* ]] || fail "$stderr"
	run -1 --separate-stderr iba_on H1 path mcast:ipoib
	[[ $output == *"is a multicast group, which has no PathRecord"* ]] || fail "$output"
}

@test "ah --ipoib-groups: the broadcast group of every partition in the port's P_Key table, and which will not come up" {
	run -1 --separate-stderr iba_on H1 ah --dry-run --ipoib-groups -j
	echo "$output" | jq -e --arg b "$BCAST" --arg g "$BIG" '
		[.[] | .dest] == ["mcast:ipoib:0xffff", "mcast:ipoib:0x8001"] and
		(.[0] | .group.mgid == $b and .joinable == true) and
		(.[1] | .group.mgid == $g and .joinable == false and
		 (.joinable_reason | endswith("IPoIB on partition 0x8001 will not come up here")))' ||
		fail "$output"
	run -1 iba_on H3 ah --dry-run --ipoib-groups
	[[ $output == *"this port (rate 2.5 Gb/s) cannot join $BCAST (rate 10 Gb/s): IPoIB on partition 0xffff will not come up here"* ]] || fail "$output"
	[[ $output == *"this port (MTU 2048, rate 2.5 Gb/s) cannot join $BIG (MTU 4096, rate 10 Gb/s): IPoIB on partition 0x8001 will not come up here"* ]] || fail "$output"
	# The groups given come first, then the table's.
	run -1 --separate-stderr iba_on H1 ah --dry-run --ipoib-groups -j mcast:ff12:1234::404
	echo "$output" | jq -e 'length == 3 and .[0].dest == "mcast:ff12:1234::404" and .[0].status == "error"' || fail "$output"
}

@test "a prober's part in a group (sa/mcast_sender): SendOnlyNonMember join, the FullMembers the SA lists without the sender, leave" {
	run -0 mcast_on H1 join "$BCAST" full
	run -0 mcast_on H2 -k 1 sender "$BCAST"
	[[ ${lines[0]} == "joined mgid=$BCAST port_gid=$(sim_gid H2) "*" join_state=SendOnlyNonMember proxy_join=0" ]] || fail "$output"
	[[ $output == *$'\n'"listed $(sim_gid H1)"$'\n'* ]] || fail "$output"
	[[ $output != *"listed $(sim_gid H2)"* ]] || fail "the sender is listed as a member: $output"
	[ "${lines[-1]}" = left ] || fail "$output"
	# Gone after the leave: the SA has no record of H2 in the group.
	run -1 mcast_on H1 member "$BCAST" "$(sim_gid H2)"
	# Without the SA key the SA hides the members: no listing, said.
	run -0 mcast_on H2 sender "$BCAST"
	[[ $output == *"listing unknown: the SA lists members to a trusted query only (an SA key)"* ]] || fail "$output"
	[[ $output != *"listed "* ]] || fail "$output"
	# opensm leaves a request with a wrong key unanswered: no listing,
	# and the join is left all the same.
	run -0 mcast_on H2 -t 200 -k 0x77 sender "$BCAST"
	[[ $output == *"listing unknown: "*"no answer from the SA"* ]] || fail "$output"
	[ "${lines[-1]}" = left ] || fail "$output"
	run -0 mcast_on H1 leave "$BCAST" full
}

@test "probe --dry-run mcast: --sa-key: with the SA's key the members it lists are shown; without, or with another, the listing is unknown and why" {
	run -0 mcast_on H1 join "$BCAST" full
	run -0 --separate-stderr iba_on H2 probe --dry-run -j --sa-key 1 mcast:ipoib
	echo "$output" | jq -e --arg h1 "$(sim_gid H1)" '.[0] |
		.listing_known == true and .listing_why_not == null and
		.listed_members == [$h1]' || fail "$output"
	run -0 --separate-stderr iba_on H2 probe --dry-run --sa-key 0x1 mcast:ipoib
	[[ $output == *"the SA lists 1 member"$'\n'"      $(sim_gid H1)"* ]] || fail "$output"
	# The default is opensm's default key, 1: the same listing.
	run -0 --separate-stderr iba_on H2 probe --dry-run -j mcast:ipoib
	echo "$output" | jq -e --arg h1 "$(sim_gid H1)" '.[0].listed_members == [$h1]' || fail "$output"
	# No key: the SA hides the members.
	run -0 --separate-stderr iba_on H2 probe --dry-run -j --sa-key 0 mcast:ipoib
	echo "$output" | jq -e '.[0] | .listing_known == false and .listed_members == [] and
		.listing_why_not == "the SA lists members to a trusted query only (an SA key)"' ||
		fail "$output"
	# Another key than opensm's: no answer, said; the group's AH all the same.
	run -0 --separate-stderr iba_on H2 probe --dry-run -t 200 --sa-key 0x77 mcast:ipoib
	[[ $output == *"listing unknown: "*"no answer from the SA"* ]] || fail "$output"
	[[ $output == *"dgid $BCAST (group)"* ]] || fail "$output"
	run -0 mcast_on H1 leave "$BCAST" full
}

@test "check: mcast_joinable from the SA's rule, and mcast_members without verbs fails with the reason" {
	local f=$BATS_TEST_TMPDIR/groups.chk
	printf '%s\n' 'mcast:ipoib mcast_joinable' 'mcast:ipoib:0x8001 mcast_joinable' \
		'mcast:ff12:1234::404 mcast_joinable' 'mcast:ipoib mcast_members>=1' >"$f"
	run -1 --separate-stderr iba_on H1 check "$f"
	assert_equal "${lines[0]}" "1..4"
	assert_equal "${lines[1]}" "ok 1 - mcast:ipoib mcast_joinable"
	[[ ${lines[2]} == "not ok 2 - mcast:ipoib:0x8001 mcast_joinable"* ]] || fail "$output"
	[[ $output == *"this port (MTU 2048"*") cannot join $BIG (MTU 4096"* ]] || fail "$output"
	[[ ${lines[*]} == *"not ok 3 - mcast:ff12:1234::404 mcast_joinable"* ]] || fail "$output"
	[[ $output == *"the SA has no multicast group ff12:1234::404 that this port may see"* ]] || fail "$output"
	[[ ${lines[*]} == *"not ok 4 - mcast:ipoib mcast_members>=1"* ]] || fail "$output"
	[[ $output == *"probing a group needs a verbs device"* ]] || fail "$output"
	# H3's 1x link is below the broadcast group's rate.
	printf '%s\n' 'mcast:ipoib mcast_joinable' >"$f"
	run -1 --separate-stderr iba_on H3 check -j "$f"
	echo "$output" | jq -e '.results[0] | .ok == false and .got.value == false and .expected.value == true and
		(.got_text | test("this port \\(rate 2.5 Gb/s\\) cannot join")) and .expected_text == "joinable"' || fail "$output"
}

# serve --mcast's membership (lib/sa/mcast_membership.c) through the
# tool: ibsim has no verbs device for serve itself, so the QP's attach is
# not reached; the SA sequence is the one serve runs.
@test "serve --mcast: a FullMember join creates the group with serve's Q_Key, the SA lists us, a reregister rejoins, the leave removes us and the group" {
	local mgid=ff15:1234::a
	run -0 mcast_on H2 serve "$mgid" 0x1ab4e0be 0xffff
	[ "${lines[0]}" = "qp_qkey=0x1ab4e0be" ] || fail "$output"
	[[ ${lines[1]} == "joined group=$mgid mgid=$mgid mlid=0xc"*" qkey=0x1ab4e0be join=full_member member=yes" ]] || fail "$output"
	local mlid
	mlid=$(sed -n 's/.* mlid=\(0x[0-9a-f]*\) .*/\1/p' <<<"${lines[1]}")
	[ "${lines[2]}" = "rejoined group=$mgid mlid=$mlid member=yes" ] || fail "$output"
	[ "${lines[3]}" = "left mgid=$mgid member=no" ] || fail "$output"
	# The last member left: opensm removed the group.
	run -1 mcast_on H1 lookup "$mgid"
	[[ $output == "error: the SA has no multicast group $mgid that this port may see"* ]] || fail "$output"
}

@test "serve --mcast ipoib: never joined by serve; a port that is a member is attached only and stays a member after serve leaves" {
	# No IPoIB here: H1 is no member, serve refuses and the group keeps
	# no member.
	run -1 mcast_on H1 serve ipoib 0x1ab4e0be 0xffff
	[[ $output == "error: ipoib ($BCAST) is an IPoIB group and this port is no member of it (IPoIB not up on this partition?): serve attaches to IPoIB groups the kernel joined, and never joins or leaves them itself"* ]] || fail "$output"
	# (no member at all: the trusted GetTable answers no records)
	run -1 mcast_on H2 -k 1 members "$BCAST"
	[[ $output != *"port_gid=$(sim_gid H1) "* ]] || fail "serve joined: $output"
	# The kernel's IPoIB join, played by the tool: then serve takes the
	# group's Q_Key and leaves the port's membership alone.
	run -0 mcast_on H1 join "$BCAST" full
	run -0 mcast_on H1 serve ipoib 0x1ab4e0be 0xffff
	[ "${lines[0]}" = "qp_qkey=0x00000b1b" ] || fail "$output"
	[ "${lines[1]}" = "joined group=ipoib mgid=$BCAST mlid=0xc000 qkey=0x00000b1b join=already_member member=yes" ] || fail "$output"
	[ "${lines[3]}" = "left mgid=$BCAST member=yes" ] || fail "$output"
	run -0 mcast_on H2 -k 1 members "$BCAST"
	[[ $output == *"port_gid=$(sim_gid H1) "*"join_state=FullMember"* ]] || fail "IPoIB's membership disturbed: $output"
	# An explicit --qkey that is not the group's: said, both named.
	run -1 mcast_on H1 serve ipoib 0x1ab4e0be 0xffff given
	[[ $output == "error: group ipoib has Q_Key 0x00000b1b, not 0x1ab4e0be (--qkey)"* ]] || fail "$output"
	run -0 mcast_on H1 leave "$BCAST" full
}
