#!/usr/bin/env bats
# node: destinations on a subnet with a dual-port CA (X, both ports
# cabled): its description names two ports, so the SA has two NodeRecords
# for it and answers a Get "too many records" (0x0400). ibahprobe asks with
# GetTable. The simulator cuts the two-record table to its first packet
# (no RMPP): the first port's record arrives whole, and the cut is said;
# the whole table is decoded in tests/unit/test_node_ports.c.

load helpers

setup_file() { sim_setup_file dual-port.topo; }
teardown_file() { sim_stop; }

# PortGUID and LID of port PN of NODE, from opensm's dump.
port_field() {	# NODE PN FIELD
	grep -o "PortGUID:[0-9A-Fa-f]* [^{]*{$1} LID:[0-9A-Fa-f]* PN:0*$2 " \
		"$SIM_DIR/osm/opensm-subnet.lst" | head -n 1 |
		sed -n "s/.*$3:\([0-9A-Fa-f]*\).*/\1/p"
}

@test "node:NAME of a dual-port CA: a path to its port 1, not 'too many records'" {
	local lid1 guid1
	lid1=$((16#$(port_field X 1 LID)))
	guid1=$(printf '0x%016x' $((16#$(port_field X 1 PortGUID))))
	run -0 --separate-stderr iba_on H1 path -j node:X
	echo "$output" | jq -e --argjson lid "$lid1" --arg guid "$guid1" '
		length == 1 and (.[0] | .dest == "node:X" and .status == "ok" and
		.dlid == $lid and .port_num == 1 and .port_guid == $guid)' || fail "$output"
	[[ $stderr == *"node:X: only the first packet of the SA's answer arrived (1 NodeRecords of more)"*"ports of the node are missing"* ]] ||
		fail "no word of the cut answer: $stderr"
	run -0 --separate-stderr iba_on H1 path node:X
	assert_line --index 1 --regexp "^node:X +1 +[0-9]+ +$lid1 "
	run -0 --separate-stderr iba_on H1 -v path node:X
	assert_output --partial "    port_guid $guid1"
}

@test "ah --dry-run node:NAME of a dual-port CA builds the AH to its port 1" {
	run -0 --separate-stderr iba_on H1 ah --dry-run -j node:X
	echo "$output" | jq -e --argjson lid "$((16#$(port_field X 1 LID)))" \
		'.[0].status == "valid" and .[0].ah_attr.dlid == $lid' || fail "$output"
}

@test "port 2 by guid:, single-port nodes by node:, rows name their port" {
	local lid2 guid2
	lid2=$((16#$(port_field X 2 LID)))
	guid2=$(printf '0x%016x' $((16#$(port_field X 2 PortGUID))))
	run -1 --separate-stderr iba_on H1 path -j "guid:$guid2" node:H2 node:nope 1
	echo "$output" | jq -e --argjson lid "$lid2" --arg guid "$guid2" --argjson h2 "$(sim_lid H2)" '
		map(.status) == ["ok", "ok", "error", "ok"] and
		.[0].dlid == $lid and .[0].port_num == 2 and .[0].port_guid == $guid and
		.[1].dlid == $h2 and .[1].port_num == 1 and
		(.[2].error | test("no node named .nope.")) and .[2].port_num == null and
		.[3].port_num == null and .[3].port_guid == null' || fail "$output"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}
