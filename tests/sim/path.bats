#!/usr/bin/env bats
# `ibahprobe path` on the two-switch subnet: saquery is the reference for
# every pair; lookups by GUID and node name; per-destination errors; 1,000
# destinations in one call; `ports` and `ah --dry-run` through libibumad.

load helpers

setup_file() { sim_setup_file two-switch.topo; }
teardown_file() { sim_stop; }

@test "every HCA to every LID (HCAs, switches, itself) agrees with saquery -p" {
	local lids node
	lids=$(sim_all_lids)
	[ "$(wc -w <<<"$lids")" -eq 6 ] || fail "expected 6 LIDs, got: $lids"
	for node in $(sim_hcas two-switch.topo); do
		assert_paths_match_saquery "$node" $lids
	done
}

@test "guid: and node: destinations are looked up in the SA" {
	run -0 iba_on H1 path -j "guid:$(sim_guid H3)" node:H4 "gid:$(sim_gid H2)"
	echo "$output" | jq -e --argjson h3 "$(sim_lid H3)" --argjson h4 "$(sim_lid H4)" \
		--argjson h2 "$(sim_lid H2)" --arg g3 "$(sim_gid H3)" '
		map(.dlid) == [$h3, $h4, $h2] and .[0].dgid == $g3 and
		map(.dest) == ["guid:0x0000000000100005", "node:H4", "gid:fe80::10:3"]'
}

@test "unknown LID, GUID and node name: exit 1, errors per destination, the others answered" {
	run -1 iba_on H1 path -j 4 lid:99 guid:0xdead node:nope 5
	echo "$output" | jq -e '
		map(.status) == ["ok", "error", "error", "error", "ok"] and
		(.[1].error | test("no records")) and (.[2].error | test("no port with GUID 0x000000000000dead")) and
		(.[3].error | test("no node named .nope.")) and .[4].dlid == 5'
	run -1 iba_on H1 path 4 lid:99
	assert_line --index 2 "lid:99  error: path record: SA answered no records (status 0x0300)"
	assert_line --index 3 "2 destinations: 1 with a path, 1 without"
}

@test "text output: a header, one aligned row per destination under 100 columns, a summary; -v adds the rest" {
	run -0 iba_on H1 path 4 5 lid:6
	assert_equal "$output" "DEST    SLID   DLID  SL    PKEY   MTU  GB/S  HOP_LIMIT  TCLASS  FLOW_LABEL
4          1      4   0  0xffff  2048    10          0    0x00     0x00000
5          1      5   0  0xffff  2048    10          0    0x00     0x00000
lid:6      1      6   0  0xffff  2048    10          0    0x00     0x00000
3 destinations: 3 with a path, 0 without"
	# guid: and node: rows name their port in a PORT column.
	run -0 iba_on H1 path "guid:$(sim_guid H3)" 4
	assert_line --index 0 --regexp '^DEST +PORT +SLID +DLID '
	assert_line --index 1 --regexp '^guid:0x0000000000100005 +1 +1 +5 +0 +0xffff '
	assert_line --index 2 --regexp '^4 +- +1 +4 '
	local line
	for line in "${lines[@]}"; do
		[ "${#line}" -lt 100 ] || fail "${#line} columns: $line"
	done
	run -0 iba_on H1 path -v 4
	assert_line --index 2 "    packet_life 18 reversible yes numb_path 0 qos_class 0"
	assert_line --index 3 --regexp '^    sgid fe80::10:1 dgid fe80::10:[0-9a-f]+$'
	assert_line --index 4 "1 destination: 1 with a path, 0 without"
}

@test "constraints reach the SA: a 4096 MTU or a foreign P_Key gets no path" {
	run -0 iba_on H1 path -j --mtu 2048 --sl 0 --reversible 5
	echo "$output" | jq -e '.[0].mtu == 2048'
	run -1 iba_on H1 path -j --mtu 4096 5
	echo "$output" | jq -e '.[0].status == "error"'
	run -1 iba_on H1 path -j --pkey 0x1234 5
	echo "$output" | jq -e '.[0].status == "error"'
}

@test "no records because of a selector: the error names the selector and what the path has" {
	run -1 iba_on H1 path -j --mtu 4096 5 lid:99
	echo "$output" | jq -e '.[0].error == "path record: SA answered no records (status 0x0300): the selectors excluded the path: --mtu 4096 (the path'"'"'s MTU is 2048)" and
		(.[1].error | test("selector") | not) and (.[1].error | test("no records"))'
	run -1 iba_on H1 path -j --mtu 2048 --sl 3 --rate 40 node:H3
	echo "$output" | jq -e '.[0].error | endswith("--rate 40 (the path'"'"'s rate is 10 Gb/s), --sl 3 (the path'"'"'s SL is 0)")'
	# Without a selector, "no records" stays the destination's fault.
	run -1 iba_on H1 path -j lid:99
	echo "$output" | jq -e '.[0].error == "path record: SA answered no records (status 0x0300)"'
}

@test "1,000 destinations in one call: all answered, in input order" {
	local f=$BATS_TEST_TMPDIR/dests
	for ((i = 0; i < 1000; i++)); do echo $((i % 6 + 1)); done >"$f"
	run -0 iba_on H2 path -j -f "$f"
	echo "$output" | jq -e 'length == 1000 and all(.[]; .status == "ok") and
		([.[] | .dlid] == [range(1000) | . % 6 + 1])'
}

@test "ports shows the umad view of the simulated CA, exit 0" {
	run -0 iba_on H3 ports -j
	echo "$output" | jq -e --argjson lid "$(sim_lid H3)" --argjson sm "$(sim_lid "$SIM_SM_NODE")" \
		--arg gid "$(sim_gid H3)" '.[0] | .device == "ibsim0" and .source == "umad" and
		(.ports[0] | .state == "ACTIVE" and .link_layer == "InfiniBand" and
		 .lid == $lid and .sm_lid == $sm and .gids[0].gid == $gid)'
	run -0 iba_on H3 ports
	assert_output --partial "ibsim0 (umad)"
}

@test "ah --dry-run DEST builds the AH the path implies (no GRH inside the subnet)" {
	run -0 iba_on H1 ah --dry-run -j node:H3
	echo "$output" | jq -e --argjson lid "$(sim_lid H3)" '.[0] | .status == "valid" and
		.source == "path" and .ah_attr.is_global == 0 and .ah_attr.dlid == $lid and
		.ah_attr.static_rate == 3'
}
