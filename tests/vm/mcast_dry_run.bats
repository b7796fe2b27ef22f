#!/usr/bin/env bats
# probe --dry-run mcast: on RoCE (rxe): the AH a run would send to the
# group with, as the InfiniBand dry run shows the one from the group's
# record: dgid = the group's GID (IPv4-mapped or IPv6), is_global, the
# hop limit, the source GID the route to the group picks and why; no
# serve, no SA, nothing sent.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
}

dry_run() {	# ARGS...
	timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" probe --dry-run "$@"
}

@test "probe --dry-run mcast:239.1.2.6: dgid the IPv4-mapped group, is_global, hop limit 64, the route's IPv4 RoCE v2 GID" {
	run -0 --separate-stderr dry_run -j mcast:239.1.2.6
	echo "$output"
	echo "$output" | jq -e --argjson g "$(fabric_gid_index a 4)" '
		length == 1 and (.[0] |
		.dest == "mcast:239.1.2.6" and .status == "resolved" and
		.dgid == "::ffff:239.1.2.6" and .dgid_source == "group" and
		.qkey == 448061630 and .pkey == null and .path == null and
		.sgid_choice.index == $g and .sgid_choice.netdev == "vetha" and
		(.ahs[0] | .status == "valid" and .violations == [] and
			.ah_attr.is_global == 1 and .ah_attr.dlid == 0 and
			.ah_attr.grh.dgid == "::ffff:239.1.2.6" and
			.ah_attr.grh.hop_limit == 64 and .ah_attr.grh.sgid_index == $g))' ||
		fail "$output"
	run -0 --separate-stderr dry_run mcast:239.1.2.6
	echo "$output"
	[[ $output == *"dgid ::ffff:239.1.2.6 (group)"* ]] || fail "$output"
	[[ $output == *"is_global 1"* ]] || fail "$output"
}

@test "probe --dry-run mcast: of an IPv6 group with --hop-limit, --qkey and -g: as given" {
	local g6
	g6=$(fabric_gid_index a 6)
	run -0 --separate-stderr timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g "$g6" \
		probe --dry-run -j --hop-limit 5 --qkey 0x11 mcast:ff0e::1:5
	echo "$output" | jq -e --argjson g "$g6" '.[0] |
		.dgid == "ff0e::1:5" and .qkey == 17 and .sgid_choice == null and
		.ahs[0].ah_attr.grh.hop_limit == 5 and
		.ahs[0].ah_attr.grh.sgid_index == $g' || fail "$output"
}

@test "probe --dry-run mcast:ipoib on RoCE: the row's error, exit 1" {
	run -1 --separate-stderr dry_run -j mcast:ipoib
	echo "$output" | jq -e '.[0] | .status == "error" and
		(.error | test("IPoIB group, which InfiniBand has and RoCE has not"))' ||
		fail "$output"
}
