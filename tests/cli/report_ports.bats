#!/usr/bin/env bats
# report --ports: the fleet port audit over recorded `ports -j` documents
# (tests/cli/data/ports), written from what real devices list:
#   gpu01, gpu02, gpu04, gpu05  mlx5 RoCE, untagged netdev and VLAN 100:
#       RoCE v1/v2 pairs per address, link-local, IPv4 and a global IPv6;
#       the untagged IPv4 GID at index 3 (gpu04 and gpu05 in one file)
#   gpu03   mlx5 RoCE, addresses on the VLAN netdev only: IPv4 GID at 5,
#       MTU 1024, older firmware
#   soft01  rxe: RoCE v2 GIDs only, IPv4 at index 1, firmware 0.0.0
#   ib01    an InfiniBand port: LID 20, LMC 2, two P_Keys, no netdev

load helpers

DATA=$BATS_TEST_DIRNAME/data/ports
AGREE=("$DATA/gpu01.json" "$DATA/gpu02.json" "$DATA/pair.json")
ALL=("${AGREE[@]}" "$DATA/gpu03.json" "$DATA/soft01.json" "$DATA/ib01.json")

# Every line of $output under 100 columns.
assert_narrow() {
	local line
	while IFS= read -r line; do
		[ "${#line}" -lt 100 ] || fail "a line of ${#line} columns: $line"
	done <<<"$output"
}

@test "report -h names --ports and its expectations" {
	run -0 "$IBAHPROBE" report -h
	for opt in --ports --expect-gid-index --expect-mtu; do
		assert_line --partial -- "$opt"
	done
}

@test "a fleet that agrees: one value per fact, exit 0 with the expectations it meets" {
	run -0 --separate-stderr "$IBAHPROBE" report --ports "${AGREE[@]}" \
		--expect-gid-index 3 --expect-mtu 4096
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_line --index 0 "fleet port audit: 4 hosts, 4 ports"
	assert_line "  RoCE v2 IPv4 GID at index 3 on all 4 hosts"
	assert_line "  RoCE v2 IPv6 GID at index 9 on all 4 hosts"
	assert_line "  MTU 4096 on all 4 ports"
	assert_line "  firmware 28.39.1002 on all 4 devices"
	assert_line "  state ACTIVE on all 4 ports"
	assert_narrow
}

@test "per port: the facts, each netdev's VLAN and RoCE v2 GID indexes, the routable GIDs" {
	run -0 "$IBAHPROBE" report --ports "$DATA/gpu01.json" "$DATA/ib01.json" \
		"$DATA/soft01.json"
	assert_line "gpu01  mlx5_0/1 Ethernet ACTIVE rate 100 Gb/s mtu 4096 fw 28.39.1002 pkeys 0xffff"
	assert_line "    netdev ens1f0np0 (no VLAN): RoCE v2 IPv4 GID 3, IPv6 GID -"
	assert_line "    netdev ens1f0np0.100 (VLAN 100): RoCE v2 IPv4 GID 7, IPv6 GID 9"
	assert_line "    gid 3 ::ffff:10.1.0.11 RoCE v2 ens1f0np0"
	assert_line "    gid 9 fd00:100::b RoCE v2 ens1f0np0.100"
	# Link-local and RoCE v1 GIDs are not routed: not listed.
	refute_line --partial "gid 0 "
	refute_line --partial "gid 2 "
	assert_line "ib01   mlx5_2/1 InfiniBand ACTIVE rate 200 Gb/s mtu 4096 fw 20.38.1002 pkeys 0xffff,0x8001"
	assert_line "    lid 20 lmc 2"
	assert_line "soft01 rxe0/1 Ethernet ACTIVE rate 10 Gb/s mtu 1024 fw 0.0.0 pkeys 0xffff"
	assert_line "    netdev eth1 (no VLAN): RoCE v2 IPv4 GID 1, IPv6 GID -"
}

@test "a fleet that disagrees: the consensus names the odd hosts and where NCCL_IB_GID_INDEX fails" {
	run -0 "$IBAHPROBE" report --ports "${ALL[@]}"
	assert_line "  RoCE v2 IPv4 GID at index 3 on 4 hosts; at index 5 on 1 host; at index 1 on 1 host: a fleet-wide"
	assert_line "    NCCL_IB_GID_INDEX=3 fails there"
	assert_line "    at index 5 on 1 host: gpu03"
	assert_line "    at index 1 on 1 host: soft01"
	assert_line "  MTU 4096 on 5 ports, 1024 on 2"
	assert_line "    1024 on 2 ports: gpu03 mlx5_0/1, soft01 rxe0/1"
	assert_line "  firmware 28.39.1002 on all but 3 devices (28.35.2000 on 1, 0.0.0 on 1, 20.38.1002 on 1)"
	assert_line "    28.35.2000 on 1 device: gpu03 mlx5_0"
	# The InfiniBand port has no RoCE GID: not counted among the hosts.
	refute_line --partial "ib01 mlx5_2:"
	assert_narrow
}

@test "--expect-gid-index and --expect-mtu: exit 1 when the fleet differs, naming how many" {
	run -1 "$IBAHPROBE" report --ports "${ALL[@]}" --expect-gid-index 3
	assert_line "    NCCL_IB_GID_INDEX=3 (expected) fails on 2 hosts"
	run -1 "$IBAHPROBE" report --ports "${ALL[@]}" --expect-mtu 4096
	assert_line "  MTU 4096 on 5 ports, 1024 on 2: expected 4096, 2 ports differ"
	# Index 7 holds gpu01's VLAN 100 IPv4 GID: NCCL_IB_GID_INDEX=7 works
	# there, though it is not the lowest.
	run -0 "$IBAHPROBE" report --ports "${AGREE[@]}" --expect-gid-index 7
	run -1 "$IBAHPROBE" report --ports "${AGREE[@]}" --expect-gid-index 5
	assert_line --partial "NCCL_IB_GID_INDEX=5 (expected) fails on 4 hosts"
	run -1 "$IBAHPROBE" report --ports "${AGREE[@]}" --expect-mtu 1024
	run -1 -- "$IBAHPROBE" report --ports "${AGREE[@]}" -j --expect-mtu 1024
	echo "$output" | jq -e '.as_expected == false and
		(.consensus[] | select(.fact == "active_mtu") |
		 .expected == "1024" and .disagreeing == 4)'
}

@test "JSON: the schema, every port with its facts, the consensus with every member" {
	run -0 "$IBAHPROBE" report --ports -j "${ALL[@]}"
	echo "$output" | jq -e '.schema == "ibahprobe.report.ports.v1" and
		.hosts == 7 and .port_count == 7 and .as_expected == true'
	echo "$output" | jq -e '.ports[] | select(.host == "gpu03") |
		.roce_v2_ipv4_gid_index == 5 and .active_mtu == 1024 and
		.fw_ver == "28.35.2000" and .pkeys == ["0xffff"] and
		(.netdevs[] | select(.netdev == "ens1f0np0.100") |
		 .vlan_id == 100 and .roce_v2_ipv4_gid_index == 5) and
		(.routable_gids | map(.index) == [5])'
	echo "$output" | jq -e '.ports[] | select(.host == "ib01") |
		.lid == 20 and .lmc == 2 and .roce_v2_ipv4_gid_index == null and
		.pkeys == ["0xffff", "0x8001"] and .netdevs == []'
	echo "$output" | jq -e '.consensus[] | select(.fact == "roce_v2_ipv4_gid_index") |
		.unit == "host" and .agrees == false and
		(.values | map([.value, .count]) == [["3", 4], ["5", 1], ["1", 1]]) and
		(.values[0].members == ["gpu01", "gpu02", "gpu04", "gpu05"]) and
		(.summary | endswith("a fleet-wide NCCL_IB_GID_INDEX=3 fails there"))'
}

@test "HTML: a well-formed page in the report's style, the odd hosts named" {
	command -v xmllint >/dev/null || missing "xmllint (libxml2-utils) is not installed"
	run -0 "$IBAHPROBE" report --ports --html "${ALL[@]}" --title "rack <7>"
	echo "$output" | xmllint --noout -
	assert_output --partial "<title>rack &lt;7&gt;</title>"
	assert_output --partial "<li>at index 5: gpu03</li>"
	assert_output --partial '<li class="failed">MTU 4096 on 5 ports, 1024 on 2'
	assert_output --partial "font-family: 'DejaVu Sans'"
}

@test "a huge fleet: lists abbreviated with counts, lines under 100 columns" {
	local dir=$BATS_TEST_TMPDIR/fleet h
	mkdir -p "$dir"
	# 1,200 hosts at index 3, 64 at index 5 (gpu03's layout), as one
	# concatenation the way a fleet's documents are gathered.
	for ((h = 0; h < 1200; h++)); do
		sed "s/\"gpu01\"/\"node$h\"/" "$DATA/gpu01.json"
	done >"$dir/fleet.json"
	for ((h = 0; h < 64; h++)); do
		sed "s/\"gpu03\"/\"odd-node$h\"/" "$DATA/gpu03.json"
	done >>"$dir/fleet.json"
	run -0 "$IBAHPROBE" report --ports "$dir/fleet.json"
	assert_line --index 0 "fleet port audit: 1,264 hosts, 1,264 ports"
	assert_line "  RoCE v2 IPv4 GID at index 3 on 1,200 hosts; at index 5 on 64 hosts: a fleet-wide"
	assert_line --regexp '^    at index 5 on 64 hosts: odd-node0, odd-node1, .* and [0-9]+ more$'
	assert_line "  MTU 4096 on 1,200 ports, 1024 on 64"
	assert_line "  firmware 28.39.1002 on all but 64 devices (28.35.2000 on 64)"
	assert_narrow
	run -0 "$IBAHPROBE" report --ports -j "$dir/fleet.json"
	echo "$output" | jq -e '.consensus[0].values[1].members | length == 64'
}

@test "bad documents: exit 2, the file and document named, nothing on stdout" {
	local bad=$BATS_TEST_TMPDIR
	printf 'not json\n' >"$bad/notjson.json"
	head -c 300 "$DATA/gpu01.json" >"$bad/cut.json"
	sed 's/"host":"gpu01",//' "$DATA/gpu01.json" >"$bad/nohost.json"
	sed 's/"RoCE v2"/"RoCE v3"/' "$DATA/gpu01.json" >"$bad/type.json"
	sed 's/"active_mtu":4096/"active_mtu":"4096"/' "$DATA/gpu01.json" >"$bad/mtu.json"
	printf '{"host":"x"}\n' >"$bad/object.json"
	printf '[]\n' >"$bad/empty-array.json"
	: >"$bad/empty.json"
	while IFS='|' read -r file what; do
		run -2 --separate-stderr "$IBAHPROBE" report --ports "$DATA/gpu02.json" "$bad/$file"
		[ -z "$output" ] || fail "$file: wrote to stdout: $output"
		[[ $stderr == "ibahprobe: error: "*"$file"*"$what"* ]] ||
			fail "$file: message lacks '$what': $stderr"
		run -2 --separate-stderr "$IBAHPROBE" report --ports -j "$bad/$file"
		assert_json_error 2
	done <<-'TABLE'
	notjson.json|document 1:
	cut.json|document 1: the JSON ends half way
	nohost.json|device 1 names no host
	type.json|type "RoCE v3" is none of IB, RoCE v1, RoCE v2
	mtu.json|"active_mtu" is no integer
	object.json|not an array of devices
	empty-array.json|an empty array
	empty.json|no ports -j document in it
	TABLE
	# One host twice is ambiguous: which document is its?
	run -2 --separate-stderr "$IBAHPROBE" report --ports "$DATA/gpu01.json" "$DATA/gpu01.json"
	[ -z "$output" ]
	[[ $stderr == *"host gpu01 given twice"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report --ports "$bad/missing.json"
	[[ $stderr == *"cannot open"*"missing.json"* ]] || fail "$stderr"
}

@test "bad option values and combinations: exit 2" {
	refuses_bad_values report --ports "$DATA/gpu01.json" <<-'TABLE'
	--expect-gid-index|-1|4096|x|3x||--expect-gid-index
	--expect-mtu|0|1500|4097|9000|abc|no active MTU
	TABLE
	run -2 --separate-stderr "$IBAHPROBE" report --expect-mtu 4096 "$DATA/gpu01.json"
	[[ $stderr == *"--expect-mtu pins a value of the port audit"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report --ports --svg "$DATA/gpu01.json"
	[[ $stderr == *"--ports and --svg exclude each other"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report --ports --baseline x "$DATA/gpu01.json"
	[[ $stderr == *"--ports and --baseline exclude each other"* ]] || fail "$stderr"
}

@test "a device that could not be read: a warning, the others audited" {
	local doc=$BATS_TEST_TMPDIR/err.json
	jq -c '. + [{"host":"gpu01","device":"mlx5_1","source":"verbs",
		"node_guid":"0x0","fw_ver":null,"transport":"InfiniBand",
		"ud_probes":true,"ud_unsupported":null,"status":"error",
		"error":"cannot open mlx5_1: Permission denied","errno":13,
		"ports":[]}]' "$DATA/gpu01.json" >"$doc"
	run -0 --separate-stderr "$IBAHPROBE" report --ports "$doc"
	assert_line "  MTU 4096 on 1 port"
	[[ $stderr == *"host gpu01: mlx5_1 could not be read: cannot open mlx5_1: Permission denied"* ]] ||
		fail "$stderr"
}

@test "documents on stdin, concatenated as pdsh -N leaves them" {
	run -0 --separate-stderr bash -c 'cat "$@" | "$0" report --ports' \
		"$IBAHPROBE" "${AGREE[@]}"
	assert_line --index 0 "fleet port audit: 4 hosts, 4 ports"
	run -0 --separate-stderr bash -c 'cat "$@" | "$0" report --ports - -j' \
		"$IBAHPROBE" "${AGREE[@]}"
	echo "$output" | jq -e '.hosts == 4'
}
