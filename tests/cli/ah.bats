#!/usr/bin/env bats
# ah without a device: building, checking, JSON keys, and bad input for
# every option (exact status, message on stderr, nothing on stdout).

load helpers

eth_ah() {
	"$IBAHPROBE" ah --dry-run --link-layer eth --dgid ::ffff:10.0.0.2 \
		--sgid-index 1 --hop-limit 64 --tclass 0x28 --flow-label 0x12345 "$@"
}

@test "RoCE dry run: the attributes under the verbs.h names" {
	run -0 --separate-stderr eth_ah -j
	[ -z "$stderr" ]
	echo "$output" | jq -e '
		length == 1 and .[0].status == "valid" and .[0].source == "flags" and
		(.[0].ah_attr | .is_global == 1 and .dlid == 0 and .sl == 0 and
		 .src_path_bits == 0 and .static_rate == 0 and .port_num == 1) and
		(.[0].ah_attr.grh | .dgid == "::ffff:10.0.0.2" and
		 .flow_label == 74565 and .sgid_index == 1 and .hop_limit == 64 and
		 .traffic_class == 40) and
		.[0].violations == []'
}

@test "the JSON keys are exactly the documented ones" {
	run -0 eth_ah -j
	assert_equal "$(echo "$output" | jq -c '.[0] | keys')" \
		'["ah_attr","dest","source","status","violations"]'
	assert_equal "$(echo "$output" | jq -c '.[0].ah_attr | keys')" \
		'["dlid","grh","is_global","port_num","sl","src_path_bits","static_rate"]'
	assert_equal "$(echo "$output" | jq -c '.[0].ah_attr.grh | keys')" \
		'["dgid","flow_label","hop_limit","sgid_index","traffic_class"]'
}

@test "text output shows the same fields" {
	run -0 eth_ah
	assert_line --index 0 "(flags): valid (from flags)"
	assert_line --index 1 --partial "is_global 1 dlid 0 sl 0 src_path_bits 0 static_rate 0 port_num 1"
	assert_line --index 2 --partial "grh dgid ::ffff:10.0.0.2 flow_label 0x12345 sgid_index 1 hop_limit 64 traffic_class 0x28"
}

@test "several destinations: status words and GRH fields line up in columns, one AH prints unpadded" {
	run -0 "$IBAHPROBE" ah --dry-run --link-layer eth --sgid-index 1 \
		10.0.0.2 fe80::1%lo 2001:db8::1234:5678:9abc
	assert_line --index 0 "10.0.0.2:                 valid (from gid)"
	assert_line --index 3 "fe80::1%lo:               valid (from gid)"
	assert_line --index 6 "2001:db8::1234:5678:9abc: valid (from gid)"
	assert_line --index 2 "    grh dgid ::ffff:10.0.0.2          flow_label 0x00000 sgid_index 1 hop_limit 64 traffic_class 0x00"
	assert_line --index 5 "    grh dgid fe80::1                  flow_label 0x00000 sgid_index 1 hop_limit 64 traffic_class 0x00"
	# No line ends in padding.
	[[ $output != *" "$'\n'* && $output != *" " ]] || fail "trailing blanks: $output"
	# The JSON is the same as without alignment.
	run -0 "$IBAHPROBE" ah --dry-run --link-layer eth --sgid-index 1 -j 10.0.0.2 fe80::1%lo
	echo "$output" | jq -e 'map(.ah_attr.grh.dgid) == ["::ffff:10.0.0.2", "fe80::1"] and
		map(.dest) == ["10.0.0.2", "fe80::1%lo"] and map(.status) == ["valid", "valid"]'
}

@test "--pretty is indented JSON of the same document" {
	run -0 eth_ah -j
	compact=$output
	run -0 eth_ah --pretty
	[ "$(echo "$output" | wc -l)" -gt 5 ]
	assert_equal "$(echo "$output" | jq -c .)" "$(echo "$compact" | jq -c .)"
}

@test "flow label over 20 bits: exit 2, the range, empty stdout" {
	run -2 --separate-stderr eth_ah --flow-label 0x123456
	[ -z "$output" ]
	assert_equal "$stderr" "ibahprobe: error: 20-bit flow label '0x123456' is out of range: expected 0-1048575 (0x0-0xfffff)"
	run -2 --separate-stderr eth_ah --flow-label 0x123456 -j
	assert_json_error 2
	echo "$output" | jq -e '.error | contains("0xfffff")'
}

# option, bad values..., expected fragment of the message
bad_values() {
	cat <<'TABLE'
--dlid|0|65536|x|-1||dlid
--sl|16|x|-1||4-bit sl
--src-path-bits|128|x||src_path_bits
--static-rate|1|25|x||static rate
--port-num|0|255|x||port
--dgid|zz::1|1.2.3|::ffff:1.2.3.4.5||gid
--sgid-index|256|x||gid index
--hop-limit|256|x|-1||hop limit
--tclass|256|0x100|x||traffic class
--flow-label|0x100000|1048576|x||20-bit flow label
--link-layer|ethernet|IB||link layer
TABLE
}

@test "every ah option refuses bad values: exit 2, message, empty stdout" {
	refuses_bad_values ah --dry-run < <(bad_values)
}

@test "bad destinations: exit 2 naming the destination" {
	for dest in "lid:0" "lid:0xc000" "guid:" "node:" "bad host!" "[::1" "h:0" "h:65536"; do
		run -2 --separate-stderr "$IBAHPROBE" ah --dry-run "$dest"
		[ -z "$output" ] || fail "$dest wrote to stdout"
		[[ $stderr == "ibahprobe: error: "* ]] || fail "$dest: $stderr"
	done
}

@test "a link-local scope names an interface of this host, on fe80:: only: exit 2 otherwise" {
	run -2 --separate-stderr "$IBAHPROBE" ah --dry-run --link-layer eth 'fe80::2%no-such-if0'
	[ -z "$output" ]
	assert_equal "$stderr" "ibahprobe: error: destination 'fe80::2%no-such-if0': no interface 'no-such-if0' on this host ('ip link' lists them)"
	run -2 --separate-stderr "$IBAHPROBE" ah --dry-run --link-layer eth '2001:db8::1%lo' -j
	assert_json_error 2
	echo "$output" | jq -e '.error | contains("IPv6 link-local address only")'
	run -0 "$IBAHPROBE" ah --dry-run --link-layer eth 'fe80::2%lo' '[fe80::3%lo]:99' -j
	echo "$output" | jq -e 'map(.ah_attr.grh.dgid) == ["fe80::2", "fe80::3"]'
}

@test "-g auto: sgid_choice has exactly the documented keys, and says why" {
	run -0 --separate-stderr "$IBAHPROBE" -v ah --dry-run --link-layer eth 10.0.0.2 -j
	assert_equal "$(echo "$output" | jq -c '.[0].sgid_choice | keys')" \
		'["gid","gid_type","index","netdev","reason","route_oif","route_source","rule"]'
	echo "$output" | jq -e '.[0].sgid_choice == {index: 0, gid: null,
		gid_type: null, netdev: null, rule: "table_unknown",
		reason: "GID table unknown (no device): index 0", route_oif: null,
		route_source: null}'
	assert_equal "$stderr" "ibahprobe: 10.0.0.2: sgid_index 0 (because GID table unknown (no device): index 0)"
	# A given index is no choice.
	run -0 "$IBAHPROBE" -g 1 ah --dry-run --link-layer eth 10.0.0.2 -j
	echo "$output" | jq -e '.[0] | has("sgid_choice") | not'
}

@test "destination file: comments, blanks, and a bad line named by number" {
	printf '# nodes\n\n10.0.0.2  # a\n10.0.0.3\n' >"$BATS_TEST_TMPDIR/dests"
	run -0 "$IBAHPROBE" ah --dry-run --link-layer eth -f "$BATS_TEST_TMPDIR/dests" -j
	echo "$output" | jq -e 'map(.dest) == ["10.0.0.2", "10.0.0.3"]'
	printf '10.0.0.2\nlid:0\n' >"$BATS_TEST_TMPDIR/bad"
	run -2 --separate-stderr "$IBAHPROBE" ah --dry-run -f "$BATS_TEST_TMPDIR/bad"
	[ -z "$output" ]
	[[ $stderr == *"$BATS_TEST_TMPDIR/bad:2:"* ]]
	run -0 bash -c "echo 10.0.0.9 | '$IBAHPROBE' ah --dry-run --link-layer eth -f - -j"
	echo "$output" | jq -e '.[0].ah_attr.grh.dgid == "::ffff:10.0.0.9"'
	run -2 --separate-stderr "$IBAHPROBE" ah --dry-run -f /nonexistent
	[[ $stderr == *"cannot open destination file '/nonexistent'"* ]]
}

@test "RoCE without a DGID breaks roce_needs_grh: exit 1, named in JSON and text" {
	run -1 "$IBAHPROBE" ah --dry-run --link-layer eth -j
	echo "$output" | jq -e '.[0].status == "invalid" and
		(.[0].violations | map(.rule) == ["roce_needs_grh"]) and
		.[0].violations[0].severity == "error"'
	run -1 "$IBAHPROBE" ah --dry-run --link-layer eth
	assert_output --partial "error: RoCE (link layer Ethernet) needs a GRH"
}

@test "a GRH to the DGID :: breaks dgid_set" {
	run -1 "$IBAHPROBE" ah --dry-run --link-layer eth --dgid :: -j
	echo "$output" | jq -e '.[0].violations | map(.rule) == ["dgid_set"]'
}

@test "a multicast LID without a GRH breaks multicast_needs_grh" {
	run -1 "$IBAHPROBE" ah --dry-run --link-layer ib --dlid 0xc001 -j
	echo "$output" | jq -e '.[0].violations | map(.rule) == ["multicast_needs_grh"]'
}

@test "a port that requires a GRH, without one, breaks port_requires_grh" {
	run -1 "$IBAHPROBE" ah --dry-run --link-layer ib --grh-required --dlid 5 -j
	echo "$output" | jq -e '.[0].violations | map(.rule) == ["port_requires_grh"]'
	run -0 "$IBAHPROBE" ah --dry-run --link-layer ib --grh-required --dlid 5 --dgid fe80::5 -j
	echo "$output" | jq -e '.[0].status == "valid" and .[0].ah_attr.is_global == 1'
}

@test "IB without a DLID breaks dlid_valid; SL 9 on RoCE only warns" {
	run -1 "$IBAHPROBE" ah --dry-run --link-layer ib -j
	echo "$output" | jq -e '.[0].violations | map(.rule) == ["dlid_valid"]'
	run -0 "$IBAHPROBE" ah --dry-run --link-layer eth --dgid 10.1.1.1 --sl 9 -j
	echo "$output" | jq -e '.[0].status == "valid" and
		.[0].violations == [{"rule":"sl_fits_roce_pcp","severity":"warning",
		"message":"sl 9: RoCE carries only 3 bits (VLAN PCP 0-7)"}]'
}

@test "--link-layer and --grh-required need --dry-run" {
	run -2 --separate-stderr "$IBAHPROBE" ah --link-layer eth
	[[ $stderr == *"use them with --dry-run"* ]]
}

@test "without a device and without --dry-run: exit 3" {
	has_rdma_device && skip "this machine has an RDMA device"
	run -3 --separate-stderr "$IBAHPROBE" ah 10.0.0.2
	[ -z "$output" ]
	[[ $stderr == *"no RDMA device found"* ]]
}

@test "a dry run without a device assumes InfiniBand and says so" {
	has_rdma_device && skip "this machine has an RDMA device"
	run -0 --separate-stderr "$IBAHPROBE" ah --dry-run --dlid 3 -j
	[[ $stderr == *"assuming an InfiniBand port"* ]]
	echo "$output" | jq -e '.[0].ah_attr.dlid == 3 and .[0].ah_attr.is_global == 0'
	run -0 --separate-stderr "$IBAHPROBE" -q ah --dry-run --dlid 3
	[ -z "$stderr" ]
}

@test "mcast: destinations that do not parse: exit 2 naming the group, empty stdout" {
	run -2 --separate-stderr "$IBAHPROBE" ah --dry-run mcast:fe80::1
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"'fe80::1' is not a multicast GID (an MGID starts with ff)"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" ah --dry-run mcast:
	[[ $stderr == *"'mcast:' names no group: expected mcast:MGID, mcast:ipoib[:PKEY] or mcast:ipoib6[:PKEY]"* ]] || fail "$stderr"
	for dest in mcast:ipoib:0x10000 mcast:ipoib: mcast:ipoibx mcast:zz mcast:ipoib6:-1; do
		run -2 --separate-stderr "$IBAHPROBE" ah --dry-run "$dest"
		[ -z "$output" ] || fail "$dest wrote to stdout"
		[[ $stderr == "ibahprobe: error: "* ]] || fail "$dest: $stderr"
	done
}

@test "a group on RoCE: the destination's error, exit 1 (a RoCE port has no SA)" {
	run -1 --separate-stderr "$IBAHPROBE" ah --dry-run --link-layer eth -j mcast:ipoib
	echo "$output" | jq -e '.[0] | .status == "error" and
		(.error | test("InfiniBand multicast group, known to the SA: a RoCE port has no SA"))' || fail "$output"
}

@test "a group without an SA: the destination's error says what it needed, exit 1" {
	has_rdma_device && skip "this machine has an RDMA device"
	run -1 --separate-stderr "$IBAHPROBE" ah --dry-run -j mcast:ff12:401b:ffff::ffff:ffff
	echo "$output" | jq -e '.[0] | .status == "error" and
		(.error | startswith("needs the group'"'"'s MCMemberRecord from the SA: "))' || fail "$output"
}

@test "--ipoib-groups without a port, or on an assumed RoCE port: exit 3 or 2, nothing on stdout" {
	has_rdma_device && skip "this machine has an RDMA device"
	run -3 --separate-stderr "$IBAHPROBE" ah --dry-run --ipoib-groups
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"--ipoib-groups reads the port's P_Key table"* ]] || fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" ah --dry-run --link-layer eth --ipoib-groups -j
	assert_json_error 3
}
