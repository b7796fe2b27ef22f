#!/usr/bin/env bats
# `ibahprobe path` on a larger subnet with mixed link widths and speeds:
# twelve HCAs on three switches, rates from 2.5 to 120 Gb/s, a smaller MTU
# towards switch LIDs. saquery is the reference for every pair.

load helpers

setup_file() { sim_setup_file mixed.topo; }
teardown_file() { sim_stop; }

@test "every HCA to every LID agrees with saquery -p" {
	local lids node
	lids=$(sim_all_lids)
	[ "$(wc -w <<<"$lids")" -eq 15 ] || fail "expected 15 LIDs, got: $lids"
	for node in $(sim_hcas mixed.topo); do
		assert_paths_match_saquery "$node" $lids
	done
}

@test "the subnet really mixes: several rates and MTUs, the slowest link wins" {
	local all=()
	for node in A1 A4 B2 C3; do
		all+=("$(iba_on "$node" path -j $(sim_all_lids))")
	done
	printf '%s\n' "${all[@]}" | jq -s -e 'add | (map(.rate_gbps) | unique | length) >= 4 and
		(map(.mtu) | unique | length) >= 2'
	# A4 (12x QDR) to B2 (12x SDR) over the 4x QDR S1-S2 link: 30 Gb/s;
	# A4 to C1 also crosses the 1x SDR S2-S3 link: 2.5 Gb/s.
	run -0 iba_on A4 path -j node:B2 node:C1
	echo "$output" | jq -e 'map(.rate_gbps) == [30, 2.5]'
}
