#!/usr/bin/env bats
# Paths that leave the subnet: with opensm's prefix routes, a DGID under a
# routed prefix answers DLID = the router's LID and hop limit 255 (so the
# AH gets a GRH); a prefix without a route answers no records.

load helpers

setup_file() {
	# opensm's config names the routes file by absolute path.
	local conf=$BATS_FILE_TMPDIR/opensm.conf
	echo "prefix_routes_file $BATS_TEST_DIRNAME/topo/router-prefix-routes.conf" >"$conf"
	sim_setup_file router.topo -F "$conf"
}
teardown_file() { sim_stop; }

OFF_SUBNET=fec0:0:0:2::1
NO_ROUTE=fec0:0:0:9::1

@test "an off-subnet DGID: DLID is the router's, hop limit 255, as saquery says" {
	local rlid
	rlid=$(sim_lid R1)
	run -0 iba_on H1 path -j "gid:$OFF_SUBNET"
	echo "$output" | jq -e --argjson r "$rlid" --arg g "$OFF_SUBNET" '.[0] |
		.dlid == $r and .hop_limit == 255 and .dgid == $g and .sgid == "fe80::10:1"'
	run -0 sim_run H1 saquery -p --sgid-to-dgid "fe80::10:1-$OFF_SUBNET"
	[[ $output == *"dlid....................$rlid"* ]] || fail "$output"
	[[ $output == *"hop_flow_raw............0xFF"* ]] || fail "$output"
}

@test "a prefix without a route: exit 1, that destination fails, the others answer" {
	run -1 iba_on H1 path -j "gid:$NO_ROUTE" node:H2 "gid:$OFF_SUBNET"
	echo "$output" | jq -e '.[0].status == "error" and
		(.[0].error | test("no records")) and .[1].status == "ok" and
		.[2].hop_limit == 255'
	run -1 iba_on H1 path "gid:$NO_ROUTE"
	[[ ${lines[1]} == "gid:$NO_ROUTE  error: path record: SA answered no records"* ]] ||
		fail "$output"
}

@test "the AH towards a routed destination has a GRH (hop limit > 0), inside the subnet none" {
	run -0 iba_on H1 ah --dry-run -j "gid:$OFF_SUBNET" node:H2
	echo "$output" | jq -e --argjson r "$(sim_lid R1)" --arg g "$OFF_SUBNET" '
		(.[0].ah_attr | .is_global == 1 and .dlid == $r and
		 .grh.hop_limit == 255 and .grh.dgid == $g) and
		(.[1].ah_attr.is_global == 0)'
}

@test "check: grh_required holds off the subnet (via the router) and not inside it" {
	printf 'gid:%s grh_required=yes\nnode:H2 grh_required=no\ngid:%s grh_required=yes\n' \
		"$OFF_SUBNET" "$NO_ROUTE" >"$BATS_TEST_TMPDIR/routed.chk"
	run -1 iba_on H1 check "$BATS_TEST_TMPDIR/routed.chk"
	assert_line --index 1 "ok 1 - gid:$OFF_SUBNET grh_required=yes"
	assert_line --index 2 "ok 2 - node:H2 grh_required=no"
	# Too long for one line: the diagnostics follow as TAP comments.
	assert_line --index 3 "not ok 3 - gid:$NO_ROUTE grh_required=yes"
	assert_line --index 4 --regexp '^# got .*no records'
	assert_line --index 5 '# expected a GRH'
}
