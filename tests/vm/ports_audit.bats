#!/usr/bin/env bats
# The fleet port audit on the real rxe driver: `ports -j` of A, B, C and D
# (each in a UTS namespace of its own, so each names its own host), merged
# by report --ports. rxe lists RoCE v2 GIDs only; A's VLAN netdev
# (vetha.100) adds GIDs with VLAN 100. The fleet agrees on the index of
# its RoCE v2 IPv4 GID (as sysfs says), on the MTU and the firmware; an
# expectation it does not meet is exit 1. No port, route or address is
# used or changed.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
	local x
	for x in $FABRIC_ENDPOINTS; do
		unshare -u sh -c 'hostname "host-$1" && exec "$2" -d "$3" ports -j' _ \
			"$x" "$IBAHPROBE" "$(fabric_var "$x" RXE)" \
			>"$BATS_FILE_TMPDIR/ports-$x.json" || return 1
	done
}

# lowest_v4_index X: the lowest index of a RoCE v2 IPv4-mapped GID of X's
# rxe port, from sysfs (what the audit must agree with).
lowest_v4_index() {
	local dev g i v t best=
	dev=$(fabric_var "$1" RXE)
	for g in /sys/class/infiniband/"$dev"/ports/1/gids/*; do
		i=${g##*/}
		read -r v <"$g" 2>/dev/null || continue
		[[ $v == 0000:0000:0000:0000:0000:ffff:* ]] || continue
		read -r t <"/sys/class/infiniband/$dev/ports/1/gid_attrs/types/$i" 2>/dev/null || continue
		[ "$t" = "RoCE v2" ] || continue
		if [ -z "$best" ] || [ "$i" -lt "$best" ]; then best=$i; fi
	done
	echo "$best"
}

# has_line LINE: $output holds LINE exactly.
has_line() { grep -qxF -- "$1" <<<"$output" || fail "no line '$1' in: $output"; }

@test "ports -j names the host, the firmware, the P_Keys and the VLAN of A's VLAN GIDs" {
	local doc=$BATS_FILE_TMPDIR/ports-a.json
	jq -e '.[0].host == "host-a" and (.[0] | has("fw_ver")) and
		.[0].ports[0].pkeys == ["0xffff"]' "$doc"
	jq -e --arg nd "$FABRIC_A_VLAN_NETDEV" '[.[0].ports[0].gids[] |
		select(.netdev == $nd)] | length > 0 and
		all(.vlan_id == 100 and .vlan_known)' "$doc"
	jq -e --arg nd "$FABRIC_A_NETDEV" '[.[0].ports[0].gids[] |
		select(.netdev == $nd)] | length > 0 and
		all(.vlan_id == null and .vlan_known)' "$doc"
}

@test "report --ports over A, B, C, D: the consensus agrees with sysfs; an expectation not met is exit 1" {
	local x want= idx files=() agree=1
	for x in $FABRIC_ENDPOINTS; do
		files+=("$BATS_FILE_TMPDIR/ports-$x.json")
		idx=$(lowest_v4_index "$x")
		[ -n "$idx" ] || fail "no RoCE v2 IPv4 GID on $x"
		[ -z "$want" ] || [ "$want" = "$idx" ] || agree=0
		want=${want:-$idx}
	done
	# Each host's index as sysfs has it, agreeing or not.
	run -0 --separate-stderr "$IBAHPROBE" report --ports -j "${files[@]}"
	for x in $FABRIC_ENDPOINTS; do
		jq -e --arg h "host-$x" --argjson i "$(lowest_v4_index "$x")" \
			'.ports[] | select(.host == $h) | .roce_v2_ipv4_gid_index == $i' \
			<<<"$output" || fail "host-$x: not index $(lowest_v4_index "$x"): $output"
	done
	[ "$agree" = 1 ] || fail "rxe endpoints' GID tables differ: $(cat "${files[@]}")"
	run -0 --separate-stderr "$IBAHPROBE" report --ports "${files[@]}" \
		--expect-gid-index "$want" --expect-mtu 1024
	echo "$output"
	has_line "fleet port audit: 4 hosts, 4 ports"
	has_line "  RoCE v2 IPv4 GID at index $want on all 4 hosts"
	has_line "  MTU 1024 on all 4 ports"
	has_line "  state ACTIVE on all 4 ports"
	grep -qE '^  firmware .* on all 4 devices$' <<<"$output" || fail "$output"
	grep -qF "    netdev $FABRIC_A_VLAN_NETDEV (VLAN 100): RoCE v2 IPv4 GID " <<<"$output" ||
		fail "A's VLAN netdev not listed: $output"
	# Index 0 is each port's link-local GID: NCCL_IB_GID_INDEX=0 fails
	# on every host.
	run -1 --separate-stderr "$IBAHPROBE" report --ports "${files[@]}" --expect-gid-index 0
	grep -qF "NCCL_IB_GID_INDEX=0 (expected) fails on 4 hosts" <<<"$output" || fail "$output"
	run -1 --separate-stderr "$IBAHPROBE" report --ports -j "${files[@]}" --expect-mtu 4096
	jq -e '.as_expected == false and .hosts == 4 and
		(.consensus[] | select(.fact == "active_mtu") | .disagreeing == 4)' <<<"$output"
}
