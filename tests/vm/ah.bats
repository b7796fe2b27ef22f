#!/usr/bin/env bats
# ibahprobe on a real verbs driver (rdma_rxe): `ports` sees the rxe devices
# and their RoCE v2 GID tables; `ah` chooses the source GID, creates and
# destroys an address handle to every other endpoint across 0, 1 and 2
# router hops, and explains failures. Runs in the guest (tests/vm/run).

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
}

# ibahprobe bounded in time: a hang is a failure, not a stuck suite.
iba() { timeout 60 "$IBAHPROBE" "$@"; }

@test "ports: every rxe device, Ethernet, GRH required, RoCE v2 GIDs with netdevs" {
	local x dev i4 i6
	run -0 iba ports -j
	for x in $FABRIC_ENDPOINTS; do
		dev=$(fabric_var "$x" RXE)
		i4=$(fabric_gid_index "$x" 4)
		i6=$(fabric_gid_index "$x" 6)
		echo "$output" | jq -e --arg dev "$dev" --argjson i4 "$i4" --argjson i6 "$i6" \
			--arg ip4 "$(fabric_var "$x" IP4)" --arg ip6 "$(fabric_var "$x" IP6)" \
			--arg nd "$(fabric_var "$x" NETDEV)" '
			.[] | select(.device == $dev) | .source == "verbs" and
			(.ports[0] | .state == "ACTIVE" and .link_layer == "Ethernet" and
			 .grh_required == true and
			 (.gids[] | select(.index == $i4) | {index, gid, type, family, netdev}) == {index: $i4,
				gid: ("::ffff:" + $ip4), type: "RoCE v2", family: "ipv4", netdev: $nd} and
			 (.gids[] | select(.index == $i6) | {index, gid, type, family, netdev}) == {index: $i6,
				gid: $ip6, type: "RoCE v2", family: "ipv6", netdev: $nd} and
			 (.gids[] | select(.index == $i4) | .vlan_id == null and .vlan_known) and
			 ([.gids[] | select(.type != "RoCE v2")] | length) == 0)' >/dev/null ||
			fail "$dev is not as expected in: $output"
	done
	run -0 iba -d "$FABRIC_A_RXE" ports
	[[ $output == *"link_layer Ethernet"* ]]
	# GIDs are padded to the longest of the listing.
	[[ $output =~ "::ffff:$FABRIC_A_IP4 "\ *"type RoCE v2 family ipv4 netdev $FABRIC_A_NETDEV" ]] ||
		fail "$output"
	[[ $output != *rxe_b* ]]
}

# The column where pattern starts, on each line matching filter.
columns_of() {	# FILTER PATTERN
	awk -v f="$1" -v p="$2" '$0 ~ f { print index($0, p) }' | sort -u
}

@test "ports: the rows of devices, ports and GIDs line up in columns" {
	run -0 iba ports
	local col
	for col in "^[^ ]|node_guid" "^  port | lid " "^  port | grh_required " \
		"^    gid | type " "^    gid | family "; do
		[ "$(columns_of "${col%%|*}" "${col#*|}" <<<"$output" | wc -l)" -eq 1 ] ||
			fail "'${col#*|}' is not in one column: $output"
	done
	[[ $output != *" "$'\n'* ]] || fail "trailing blanks: $output"
}

@test "ports: an unknown device or port is exit 3, named" {
	run -3 --separate-stderr iba -d rxe_nope ports
	[[ $stderr == *"'rxe_nope'"* ]] || fail "$stderr"
	run -3 --separate-stderr iba -d "$FABRIC_A_RXE" -P 2 ports
	[[ $stderr == *"port 2"* ]] || fail "$stderr"
}

# From every endpoint to every other one, over both families: all created
# and destroyed, the source GID the one of the destination's family.
@test "ah: every endpoint to every other, IPv4 and IPv6, 0-2 router hops" {
	local x y fam dests want
	for x in $FABRIC_ENDPOINTS; do
		for fam in 4 6; do
			dests=()
			for y in $FABRIC_ENDPOINTS; do
				[ "$x" = "$y" ] || dests+=("$(fabric_var "$y" "IP$fam")")
			done
			want=$(fabric_gid_index "$x" "$fam")
			run -0 iba -d "$(fabric_var "$x" RXE)" -g auto ah -j "${dests[@]}"
			echo "$output" | jq -e --argjson n "${#dests[@]}" --argjson g "$want" '
				length == $n and all(.[]; .status == "created" and
					.create_errno == 0 and .ah_attr.is_global == 1 and
					.ah_attr.grh.sgid_index == $g and
					(.sgid_choice | .index == $g and
					 .gid_type == "RoCE v2" and
					 (.reason | length > 0)))' >/dev/null ||
				fail "$x IPv$fam: $output"
		done
	done
}

@test "ah: host names resolve, the choice of source GID is shown with -v" {
	run -0 --separate-stderr iba -d "$FABRIC_A_RXE" -g auto -v ah c6 d
	[[ $output == *"c6: created"*"dgid $FABRIC_C_IP6 "* ]] || fail "$output"
	[[ $output == *"d:  created"*"dgid ::ffff:$FABRIC_D_IP4 "* ]] || fail "$output"
	[[ $stderr == *"c6: sgid_index $(fabric_gid_index a 6) ("*", because "* ]] || fail "$stderr"
}

@test "ah: overrides land in the attributes that are created" {
	run -0 iba -d "$FABRIC_A_RXE" -g auto ah "$FABRIC_D_IP6" -j \
		--hop-limit 3 --tclass 0x28 --flow-label 0x12345 --sl 2 --static-rate 3
	echo "$output" | jq -e '.[0] | .status == "created" and .ah_attr.sl == 2 and
		.ah_attr.static_rate == 3 and
		.ah_attr.grh == {dgid: "'"$FABRIC_D_IP6"'", flow_label: 74565,
			sgid_index: '"$(fabric_gid_index a 6)"', hop_limit: 3, traffic_class: 40}'
}

@test "ah: a silent neighbour on the LAN fails with the cause in words" {
	local silent=${FABRIC_A_IP4%.*}.77
	run -1 iba -d "$FABRIC_A_RXE" -g auto ah "$silent"
	[[ $output == *"ibv_create_ah failed after"* ]] || fail "$output"
	[[ $output == *"error: "*"neighbour"* ]] || fail "$output"
	run -1 iba -d "$FABRIC_A_RXE" -g auto ah "$silent" "$FABRIC_B_IP4" -j
	echo "$output" | jq -e '.[0].status == "error" and .[0].create_errno != 0 and
		(.[0].error | length > 0) and .[1].status == "created"'
}

@test "ah: a source GID of the wrong family or an empty slot is refused before creation" {
	local ll
	# vetha's own link-local GID: the VLAN netdev on A has one too.
	ll=$(iba -d "$FABRIC_A_RXE" ports -j | jq --arg nd "$FABRIC_A_NETDEV" \
		'.[0].ports[0].gids[] | select((.gid | startswith("fe80")) and .netdev == $nd) | .index')
	run -1 iba -d "$FABRIC_A_RXE" -g "$ll" ah "$FABRIC_C_IP4" -j
	echo "$output" | jq -e '.[0].status == "invalid" and (.[0] | has("create_usec") | not) and
		(.[0].violations | length > 0)'
	run -1 iba -d "$FABRIC_A_RXE" -g 200 ah "$FABRIC_C_IP4"
	[[ $output == *"sgid_index 200 is empty"* ]] || fail "$output"
}

@test "path on a RoCE port: RoCE has no SA, exit 3 (as probe --discover), nothing on stdout" {
	run -3 --separate-stderr iba -d "$FABRIC_A_RXE" path lid:3
	[ -z "$output" ] || fail "stdout: $output"
	[ "$stderr" = "ibahprobe: error: $FABRIC_A_RXE port 1 is RoCE, which has no SA: path queries are for InfiniBand ports (ah and probe take RoCE destinations by address)" ] ||
		fail "$stderr"
	run -3 --separate-stderr iba path -j "$FABRIC_B_IP4"
	[[ $stderr == *" is RoCE, which has no SA: path queries are for InfiniBand ports"* ]] ||
		fail "$stderr"
	echo "$output" | jq -e '.exit_status == 3 and (.error | test("RoCE, which has no SA"))'
}

@test "ah: a LID destination means nothing on RoCE" {
	run -1 iba -d "$FABRIC_A_RXE" ah lid:3
	[[ $output == *"means nothing on RoCE"* ]] || fail "$output"
}
