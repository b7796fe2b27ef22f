#!/usr/bin/env bats
# `report --groups sa` in the simulated subnet: results whose sources are
# the subnet's CA ports are folded by each host's leaf switch, asked of the
# SA, and every host's group is checked against the switch ibnetdiscover
# (SMPs, from infiniband-diags: no SA involved) finds at the other end of
# its cable. Four topologies (one switch, two, three in a line, and two
# leaves sharing one description with a host cabled to both), records
# with LID 0, and an SA that went away.

load helpers

teardown() { sim_stop; }

# One line per CA port, from ibnetdiscover run on NODE: "HOST PORT
# PORTGUID LID GROUP", GROUP being the NodeDescription of the switch at
# the other end, with its GUID added when two switches share the
# description ("-" when the peer is no switch).
ca_ports() {	# NODE
	sim_run "$1" ibnetdiscover 2>/dev/null >"$SIM_DIR/ibnetdiscover.txt" ||
		return 1
	awk '
	FNR == NR {	# first pass: the switches, GUID -> description
		if ($1 == "Switch") {
			guid = $3; gsub(/"|S-/, "", guid)
			d = $0; sub(/^[^#]*# "/, "", d); sub(/".*/, "", d)
			desc[guid] = d
			if (!((d, guid) in seen)) { seen[d, guid] = 1; n[d]++ }
		}
		next
	}
	$1 == "Ca" { host = $0; sub(/^[^#]*# "/, "", host); sub(/".*/, "", host); next }
	/^$/ { host = "" }
	host != "" && /^\[[0-9]+\]\(/ {
		match($0, /^\[[0-9]+\]/); port = substr($0, 2, RLENGTH - 2)
		match($0, /\([0-9a-f]+\)/); pguid = substr($0, RSTART + 1, RLENGTH - 2)
		match($0, /# lid [0-9]+/); lid = substr($0, RSTART + 6, RLENGTH - 6)
		match($0, /"[SH]-[0-9a-f]+"/); peer = substr($0, RSTART + 1, RLENGTH - 2)
		want = "-"
		if (peer ~ /^S-/) {
			g = substr(peer, 3); d = desc[g]
			want = n[d] > 1 ? sprintf("%s (0x%s)", d, g) : d
		}
		printf "%s\t%s\t%s\t%s\t%s\n", host, port, pguid, lid, want
	}' "$SIM_DIR/ibnetdiscover.txt" "$SIM_DIR/ibnetdiscover.txt"
}

# The GID of a port GUID (hex digits), in canonical form.
guid_gid() {
	local g=$((16#$1))
	printf 'fe80::%x:%x:%x:%x\n' $((g >> 48 & 0xffff)) $((g >> 32 & 0xffff)) \
		$((g >> 16 & 0xffff)) $((g & 0xffff)) | sed 's/::\(0:\)*/::/'
}

# Probe results, in the schema probe writes, in which every CA port of the
# table probes every other one by GID; the records of the HOSTs named
# after the table carry LID 0, as a RoCE port or an older probe writes.
results_from() {	# PORTS-TABLE [HOST...]
	local table=$1 host port guid lid want dhost dport dguid dlid dwant
	local -A run
	shift
	while IFS=$'\t' read -r host port guid lid want; do
		local slid=$lid sgid
		[[ " $* " != *" $host "* ]] || slid=0
		sgid=$(guid_gid "$guid")
		[ -n "${run[$host]:-}" ] || run[$host]=${#run[@]}
		while IFS=$'\t' read -r dhost dport dguid dlid dwant; do
			[ "$dguid" != "$guid" ] || continue
			printf '{"schema":"ibahprobe.probe.v1","record":"result","run_id":"00000000-0000-4000-8000-%012d","start_time":"2026-11-23T18:12:27Z","dest":"%s","source":{"host":"%s","device":"ibsim0","port_num":%s,"lid":%s,"sgid":"%s"},"params":{"hop_limit":64,"traffic_class":0,"flow_label":0,"sl":0},"status":"reachable","sent":10,"received":10,"lost":0,"late":0,"rtt_us":{"min":1.5,"median":2.5,"p99":3.5,"max":4.5},"observed":{"grh_present":false,"traffic_class":0},"hops":0,"verdicts":["reachable"],"findings":[],"ah_attr":{"is_global":0,"dlid":%s,"sl":0,"src_path_bits":0,"static_rate":0,"port_num":%s,"grh":null}}\n' \
				"${run[$host]}" "$(guid_gid "$dguid")" "$host" \
				"$port" "$slid" "$sgid" "$dlid" "$port"
		done <"$table"
	done <"$table"
}

# The group report -j put a port's source in: a source is named by its
# host, or "HOST/DEVICE (GID)" when the host probed from several ports.
group_of() {	# JSON HOST GID
	jq -r --arg h "$2" --arg gid "$3" '[.groups[] |
		select(any(.sources[]; . == $h or endswith("(" + $gid + ")"))) |
		if .ungrouped then "ungrouped:" + .name else .name end] | join(",")' <<<"$1"
}

# Every CA port's group agrees with ibnetdiscover's leaf switch.
assert_groups_match_ibnetdiscover() {	# TOPOLOGY
	local host port guid lid want got ports=0
	sim_setup_file "$1"
	ca_ports "$SIM_SM_NODE" >"$SIM_DIR/ports.tsv" || fail "ibnetdiscover failed"
	[ -s "$SIM_DIR/ports.tsv" ] || fail "ibnetdiscover found no CA port"
	results_from "$SIM_DIR/ports.tsv" >"$SIM_DIR/results.jsonl"
	run -0 --separate-stderr iba_on "$SIM_SM_NODE" report --groups sa -j \
		"$SIM_DIR/results.jsonl"
	local json=$output
	[ -z "$stderr" ] || fail "warnings where every host has a leaf: $stderr"
	while IFS=$'\t' read -r host port guid lid want; do
		got=$(group_of "$json" "$host" "$(guid_gid "$guid")")
		[ "$got" = "$want" ] ||
			fail "$host port $port (LID $lid): ibnetdiscover says '$want', report says '$got'"
		ports=$((ports + 1))
	done <"$SIM_DIR/ports.tsv"
	jq -e '.summary.ungrouped == 0' <<<"$json" >/dev/null || fail "$json"
	echo "# $1: $ports ports agree" >&3
}

@test "two-switch: every host in the group of its leaf switch, as ibnetdiscover sees it" {
	assert_groups_match_ibnetdiscover two-switch.topo
}

@test "mixed (three switches in a line): every host in its leaf switch's group" {
	assert_groups_match_ibnetdiscover mixed.topo
}

@test "dual-port: both ports of X on one switch keep X one host in one group" {
	assert_groups_match_ibnetdiscover dual-port.topo
}

@test "rails: two leaves named alike are told apart by GUID; a host on both is split by port" {
	assert_groups_match_ibnetdiscover rails.topo
	run -0 --separate-stderr iba_on H1 -v report --groups sa "$SIM_DIR/results.jsonl"
	# Each port asked once, each switch once, whatever the records.
	[[ $stderr == *"4 LinkRecord and 2 NodeRecord queries for 4 source ports"* ]] ||
		fail "$stderr"
	[[ $stderr == *"1 host on several leaf switches"* ]] || fail "$stderr"
	assert_line --regexp '^  g1 +leaf \(0x0000000000200000\): 2 sources, 2 destinations$'
	assert_line --regexp '^  g2 +leaf \(0x0000000000200001\): 2 sources, 2 destinations$'
}

@test "records with LID 0 stay ungrouped, with one warning that says why" {
	local json
	sim_setup_file two-switch.topo
	ca_ports H1 >"$SIM_DIR/ports.tsv"
	results_from "$SIM_DIR/ports.tsv" H2 H4 >"$SIM_DIR/results.jsonl"
	run -0 --separate-stderr iba_on H1 report --groups sa -j "$SIM_DIR/results.jsonl"
	json=$output
	[ "$stderr" = "ibahprobe: warning: --groups sa: 2 hosts in no group, each a group of its own: 2 with no LID in their results (RoCE, or a probe older than source.lid)" ] ||
		fail "$stderr"
	[ "$(group_of "$json" H2 x)" = "ungrouped:H2" ] || fail "$json"
	[ "$(group_of "$json" H4 x)" = "ungrouped:H4" ] || fail "$json"
	[ "$(group_of "$json" H1 x)" = "S1" ] || fail "$json"
	[ "$(group_of "$json" H3 x)" = "S2" ] || fail "$json"
	jq -e '.summary.ungrouped == 2 and .summary.groups == 4' <<<"$json" >/dev/null ||
		fail "$json"
}

@test "an SA that answers nothing: exit 3 naming the queries, nothing on stdout" {
	sim_setup_file two-switch.topo
	ca_ports H1 >"$SIM_DIR/ports.tsv"
	results_from "$SIM_DIR/ports.tsv" >"$SIM_DIR/results.jsonl"
	sim_kill_sm
	run -3 --separate-stderr iba_on H1 -t 50 report --groups sa "$SIM_DIR/results.jsonl"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: --groups sa: the SA answered none of the 4 LinkRecord queries (LinkRecord: "* ]] ||
		fail "$stderr"
}
