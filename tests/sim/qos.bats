#!/usr/bin/env bats
# A QoS policy (opensm -Q -Y topo/qos-policy.conf) gives H3 SL 3 and H4
# SL 5: `path` reports the SL the SA chose, agrees with saquery, and a
# requested SL the policy forbids gets no path.

load helpers

setup_file() {
	sim_setup_file two-switch.topo -Q -Y "$BATS_TEST_DIRNAME/topo/qos-policy.conf"
}
teardown_file() { sim_stop; }

@test "the policy's SL per destination, as saquery sees it" {
	run -0 iba_on H1 path -j node:H2 node:H3 node:H4
	echo "$output" | jq -e 'map(.sl) == [0, 3, 5]'
	assert_paths_match_saquery H2 $(sim_lid H1) $(sim_lid H3) $(sim_lid H4)
}

@test "asking for an SL the policy does not give: no path for that destination only" {
	run -1 iba_on H1 path -j --sl 0 node:H2 node:H3
	echo "$output" | jq -e '.[0].status == "ok" and .[0].sl == 0 and
		.[1].status == "error" and (.[1].error | test("no records"))'
	run -0 iba_on H1 path -j --sl 3 node:H3
	echo "$output" | jq -e '.[0].sl == 3'
}

@test "the AH built from the path carries the policy's SL" {
	run -0 iba_on H1 ah --dry-run -j node:H4
	echo "$output" | jq -e '.[0].ah_attr.sl == 5 and .[0].ah_attr.is_global == 0'
}
