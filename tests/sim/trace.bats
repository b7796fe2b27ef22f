#!/usr/bin/env bats
# `ibahprobe trace` in the simulated subnet, against ibtracert (SMPs, from
# infiniband-diags: the reference no one here wrote): for every ordered
# pair of HCAs of three topologies the hops (out port, port GUID, in port)
# agree. Also a LID that does not exist, and a route that went missing.
# Each test brings up its own subnet: two topologies in one file.

load helpers

teardown() { sim_stop; }

# ibtracert SLID DLID on NODE as one token per hop after the source:
# "OUT>PORTGUID[IN]" (it prints "[OUT] -> TYPE port {GUID}[IN] lid ...").
ibtracert_hops() {	# NODE SLID DLID
	sim_run "$1" ibtracert "$2" "$3" 2>/dev/null |
		sed -n 's/^\[\([0-9]*\)\] -> [a-z]* port {\(0x[0-9a-f]*\)}\[\([0-9]*\)\].*/\1>\2[\3]/p' |
		paste -sd ' '
}

# The same tokens from one object of `trace -j`.
trace_hops() {	# JSON-object
	jq -r '[.hops as $h | range(1; $h | length) |
		"\($h[. - 1].out_port)>\($h[.].port_guid)[\($h[.].in_port)]"] | join(" ")' <<<"$1"
}

# For every HCA of the topology: one trace to every other HCA, to each of
# its 2^LMC DLIDs (the subnet's LMC, default 0), each compared with
# ibtracert.
assert_every_pair_matches_ibtracert() {	# TOPOLOGY [LMC]
	local topo=$1 lmc=${2:-0} src dst slid lids answers i want got pairs=0 base k
	local -a hcas
	mapfile -t hcas < <(sim_hcas "$topo")
	for src in "${hcas[@]}"; do
		slid=$(sim_lid "$src")
		lids=()
		for dst in "${hcas[@]}"; do
			[ "$dst" != "$src" ] || continue
			base=$(sim_lid "$dst")
			for ((k = 0; k < 1 << lmc; k++)); do
				lids+=($((base + k)))
			done
		done
		answers=$(iba_on "$src" trace -j "${lids[@]}") ||
			fail "trace from $src failed: $answers"
		for ((i = 0; i < ${#lids[@]}; i++)); do
			local obj
			obj=$(jq -c --argjson i "$i" '.[$i]' <<<"$answers")
			jq -e '.status == "complete" and .schema == "ibahprobe.trace.v1"' <<<"$obj" >/dev/null ||
				fail "$src -> LID ${lids[i]}: not complete: $obj"
			want=$(ibtracert_hops "$src" "$slid" "${lids[i]}")
			got=$(trace_hops "$obj")
			[ -n "$want" ] || fail "ibtracert $slid ${lids[i]} gave no hops"
			[ "$want" = "$got" ] ||
				fail "$src -> LID ${lids[i]}: ibtracert says '$want', trace says '$got'"
			pairs=$((pairs + 1))
		done
	done
	echo "# $topo (LMC $lmc): $pairs DLIDs agree" >&3
	[ "$pairs" -eq $(( ${#hcas[@]} * (${#hcas[@]} - 1) << lmc )) ]
}

@test "two-switch: every ordered pair of HCAs agrees with ibtracert" {
	sim_setup_file two-switch.topo
	assert_every_pair_matches_ibtracert two-switch.topo
}

@test "mixed (three switches in a line): every ordered pair agrees with ibtracert" {
	sim_setup_file mixed.topo
	assert_every_pair_matches_ibtracert mixed.topo
}

# opensm masks a LinkRecord's FromLID with the subnet's LMC (a switch's
# LID is not aligned to it): the links out of such switches are read from
# the SA another way, and every DLID of every port agrees with ibtracert.
@test "mixed under LMC 1: every DLID of every pair agrees with ibtracert" {
	sim_setup_file mixed.topo -l 1
	assert_every_pair_matches_ibtracert mixed.topo 1
}

@test "ring under LMC 2: every DLID of every pair agrees with ibtracert" {
	sim_setup_file ring.topo -l 2
	assert_every_pair_matches_ibtracert ring.topo 2
}

@test "--paths all under LMC 2: a row per DLID of each port, each as ibtracert walks it" {
	sim_setup_file ring.topo -l 2
	local slid dst lids=() rows n i want got
	slid=$(sim_lid H11)
	for dst in $(sim_hcas ring.topo); do
		[ "$dst" = H11 ] || lids+=("$(sim_lid "$dst")")
	done
	run -0 iba_on H11 trace -j --paths all "${lids[@]}"
	rows=$output
	n=$(jq length <<<"$rows")
	[ "$n" -eq $((4 * ${#lids[@]})) ] || fail "$n rows for ${#lids[@]} destinations"
	# Each destination's four DLIDs, base first, each with its own row.
	jq -e '[.[] | .dlid_path] == ([range(0; length / 4)] | map(1, 2, 3, 4)) and
		all(.dlid_paths == 4 and .status == "complete")' <<<"$rows"
	jq -e '[.[] | .dlid - .dlid_path + 1] as $b | [range(0; length; 4) as $i |
		$b[$i:$i + 4] | unique | length] | all(. == 1)' <<<"$rows"
	for ((i = 0; i < n; i++)); do
		local obj
		obj=$(jq -c ".[$i]" <<<"$rows")
		want=$(ibtracert_hops H11 "$slid" "$(jq .dlid <<<"$obj")")
		got=$(trace_hops "$obj")
		[ "$want" = "$got" ] || fail "DLID $(jq .dlid <<<"$obj"): ibtracert '$want', trace '$got'"
	done
	# The SM spreads a port's DLIDs over both ways around the ring.
	jq -e 'group_by(.dest) | any(map(.hops | map(.node_description) | join(" ")) | unique | length > 1)' <<<"$rows"
	run -0 iba_on H11 trace --paths all "${lids[0]}"
	[[ $output == *"(path 2 of 4)"* && $output == *"paths of ${lids[0]}: all 4 complete"* ]] ||
		fail "$output"
	[[ $output == *"1 destination, 4 paths: 4 complete, 0 broken"* ]] || fail "$output"
}

@test "--paths all: a link that carries only some of a port's paths is named for exactly those" {
	# The SM's own routes kept while the link goes down (helpers.bash).
	local h31 over other
	sim_unlink_lmc2_s1_port8
	h31=$(sim_lid H31)
	over=("${S1_PORT8_DLIDS[@]}")
	other=("${OTHER_DLIDS[@]}")
	run -1 iba_on H11 trace -j --paths all "$h31"
	jq -e --argjson over "$(printf '%s\n' "${over[@]}" | jq -s .)" '
		[.[] | select(.status != "complete") | .dlid] == $over and
		all(.[] | select(.status != "complete");
			.status == "dead_end" and (.error | test("S1 \\(LID [0-9]+\\) port 8")))' <<<"$output" ||
		fail "$output"
	run -1 iba_on H11 trace --paths all "$h31"
	[[ $output == *"paths of $h31: DLID ${over[0]} (path $((over[0] - h31 + 1)) of 4) dead end"* ]] ||
		fail "$output"
	[[ $output == *"the other ${#other[@]} complete"* ]] || fail "$output"
	sim_console 'ReLink "S1"[8]'
}

@test "ring (four switches, two equal ways between opposite ones): every pair agrees" {
	sim_setup_file ring.topo
	assert_every_pair_matches_ibtracert ring.topo
	# Between some pair of opposite switches both ways around the ring
	# are taken (by different LIDs): the SM's routing choices are really
	# compared, not one fixed way.
	local lids node ways
	lids=$(sim_all_lids)
	ways=$(for node in H11 H21 H31 H41; do
		iba_on "$node" trace -j $lids | jq -r '.[].hops | select(length == 5) |
			"\(.[1].node_description)-\(.[3].node_description) \(.[2].node_description)"'
	done | sort -u | awk '{ n[$1]++ } END { for (k in n) if (n[k] > 1) print k }')
	[ -n "$ways" ] || fail "every pair of opposite switches uses one way only"
}

@test "hops carry node names, LIDs and the links' width, speed and state" {
	sim_setup_file mixed.topo
	local b2 c1
	b2=$(sim_lid B2)
	c1=$(sim_lid C1)
	run -0 iba_on A4 trace -j "$b2" "$c1"
	# A4 (12x QDR) -> S1 -> S2 (4x QDR) -> B2; to C1 also S2 -> S3 1x SDR.
	echo "$output" | jq -e --argjson b "$b2" '.[0] |
		.dlid == $b and ([.hops[].node_description] == ["A4", "S1", "S2", "B2"]) and
		(.hops[0].link | .width == "12x" and .speed == "QDR" and .state == "ACTIVE") and
		(.hops[1].link | .width == "4x" and .speed == "QDR") and
		.hops[3].link == null and .hops[3].out_port == null and .hops[0].in_port == null'
	echo "$output" | jq -e '.[1].hops[2] | .node_description == "S2" and
		.link.width == "1x" and .link.speed == "SDR"'
	# Who traced, as probe results name their source (report --traces
	# joins by it): this host and A4's port GID.
	echo "$output" | jq -e --arg h "$(hostname)" --arg g "$(sim_gid A4)" \
		'all(.[]; .host == $h and .sgid == $g)' || fail "$output"
	# Exactly the keys trace(8) documents, in every object and hop.
	echo "$output" | jq -e 'all(.[]; keys == (["schema", "host", "sgid", "dest", "status",
		"slid", "dlid", "sl", "path_error", "broken_at", "error", "hops"] | sort)) and
		all(.[].hops[]; keys == (["hop", "node_description", "node_type",
		"node_guid", "port_guid", "lid", "in_port", "out_port", "link"] | sort)) and
		all(.[].hops[].link | select(. != null); keys == (["width", "speed",
		"state", "phys_state"] | sort))'
	# The text: one line per hop, under 100 columns, a summary.
	run -0 iba_on A4 trace "$b2" "$c1"
	[ "$(awk '{ if (length > m) m = length } END { print m }' <<<"$output")" -lt 100 ]
	[[ $output == *"2 destinations: 2 complete, 0 broken" ]] || fail "$output"
	grep -qE '^ +2  S2 +0x[0-9a-f]{16} +[0-9]+ +7 +8  1x SDR ACTIVE$' <<<"$output" || fail "$output"
}

@test "a switch as destination: the path ends at its port 0, as ibtracert's" {
	sim_setup_file two-switch.topo
	local s2 h1
	s2=$(sim_lid S2)
	h1=$(sim_lid H1)
	run -0 iba_on H1 trace -j "$s2"
	[ "$(trace_hops "$(jq -c '.[0]' <<<"$output")")" = "$(ibtracert_hops H1 "$h1" "$s2")" ]
	echo "$output" | jq -e '.[0].hops[-1] | .node_type == "switch" and .out_port == null'
}

@test "a LID that does not exist: a routing hole at the first switch, exit 1" {
	sim_setup_file two-switch.topo
	local h1
	h1=$(sim_lid H1)
	# ibtracert cannot reach it either.
	run -255 sim_run H1 ibtracert "$h1" 77
	run -1 --separate-stderr iba_on H1 trace -j 77 "$(sim_lid H3)"
	echo "$output" | jq -e '.[0] | .status == "hole" and .broken_at == 1 and
		(.path_error | test("no records")) and (.error | test("no LFT block 1")) and
		.hops[1].node_description == "S1"'
	echo "$output" | jq -e '.[1].status == "complete"'
	run -1 iba_on H1 trace 77
	[[ $output == *"routing hole at S1"* ]] || fail "$output"
	[[ $output == *"1 destination: 0 complete, 1 broken" ]] || fail "$output"
}

@test "a route gone missing (H4 unlinked): the hole is named at its switch, exit 1" {
	sim_setup_file two-switch.topo
	local h4 i
	h4=$(sim_lid H4)
	sim_console 'Unlink "H4"'
	# The SM sweeps on the link-down trap and routes H4's LID nowhere.
	for ((i = 0; i < 50; i++)); do
		iba_on H1 trace -j "$h4" 2>/dev/null | jq -e '.[0].status == "hole"' >/dev/null && break
		sleep 0.1
	done
	run -1 iba_on H1 trace -j "$h4"
	echo "$output" | jq -e --argjson l "$h4" '.[0] | .status == "hole" and .dlid == $l and
		(.error | test("LFT entry for DLID \($l) is 255"))'
	# A destination without a LID to walk to: no path, no hops.
	run -1 iba_on H1 trace -j node:H4
	echo "$output" | jq -e '.[0] | .status == "no_path" and .hops == [] and .slid == null'
	sim_console 'ReLink "H4"'
}

@test "--failed: each destination of a failing result once (no flows on InfiniBand); reachable ones not traced" {
	sim_setup_file two-switch.topo
	local h3 h4
	h3=$(sim_lid H3)
	h4=$(sim_lid H4)
	result() {	# DEST STATUS FLOW_LABEL
		printf '{"schema": "ibahprobe.probe.v1", "record": "result", "dest": "%s", "status": "%s", "params": {"flow_label": %s, "wire_udp_sport": null}}\n' "$@"
	}
	{
		result "lid:$h3" partial_loss 1
		result "lid:$h4" reachable 1
		result 77 unreachable 1
		result "lid:$h3" unreachable 2
		printf '{"schema": "ibahprobe.probe.v1", "record": "summary"}\n'
	} >"$SIM_DIR/results.jsonl"
	run -1 --separate-stderr iba_on H1 trace -j --failed "$SIM_DIR/results.jsonl"
	echo "$output" | jq -e --arg h3 "lid:$h3" '[.[].dest] == [$h3, "77"] and
		.[0].status == "complete" and .[1].status == "hole"' >/dev/null ||
		fail "$output; stderr: $stderr"
	# As the same destinations on the command line.
	run -1 iba_on H1 trace -j "lid:$h3" 77
	[ "$(jq -c '[.[] | del(.host)]' <<<"$output")" = "$(iba_on H1 trace -j --failed "$SIM_DIR/results.jsonl" |
		jq -c '[.[] | del(.host)]')" ] || fail "not as given on the command line"
}

@test "many destinations: each record asked once; the whole tables tried first, cut here" {
	sim_setup_file mixed.topo
	local lids one many
	lids=$(sim_all_lids)
	run -0 --separate-stderr iba_on A1 -v trace -j $lids
	one=$output
	[[ $stderr =~ trace:\ ([0-9]+)\ SA\ record\ queries ]] || fail "$stderr"
	local q15=${BASH_REMATCH[1]}
	# Three times the destinations (past the prefetch threshold): the
	# same records serve them all, plus two GetTables (the whole
	# LinkRecord table, the LFTRecord table of block 0 where every LID of
	# this subnet is), which the simulator (no RMPP) delivers cut:
	# nothing of them is trusted, the walks ask record by record and agree.
	run -0 --separate-stderr iba_on A1 -v trace -j $lids $lids $lids
	many=$output
	[[ $stderr == *"whole LinkRecord table arrived cut"* ]] || fail "$stderr"
	[[ $stderr == *"LFTRecord table of block 0 (LIDs 0-63) arrived cut"* ]] ||
		fail "$stderr"
	[[ $stderr != *"whole LFTRecord"* ]] || fail "$stderr"
	[[ $stderr =~ trace:\ ([0-9]+)\ SA\ record\ queries ]] || fail "$stderr"
	[ "${BASH_REMATCH[1]}" -eq $((q15 + 2)) ] ||
		fail "45 destinations took ${BASH_REMATCH[1]} queries, 15 took $q15"
	[ "$(jq -c '[.[].hops]' <<<"$one")" = "$(jq -c '[.[0:15][].hops]' <<<"$many")" ]
	[ "$(jq -c '[.[].hops]' <<<"$one")" = "$(jq -c '[.[30:45][].hops]' <<<"$many")" ]
	jq -e 'length == 45 and all(.status == "complete")' <<<"$many"
}

@test "a subnet of several LFT blocks: only the destinations' blocks are asked, never the whole LFT table" {
	local topo=$BATS_TEST_TMPDIR/leaf-spine.topo src slid lid want got
	local -a all far blocks
	sim_write_leaf_spine "$topo" 8 24
	SIM_SM_NODE=H1_1 sim_setup_file "$topo"
	mapfile -t all < <(sim_all_lids | sort -n)
	[ "${all[-1]}" -ge 192 ] || fail "the subnet's LIDs end at ${all[-1]}: too few blocks"
	# 40 destinations (past the prefetch threshold) in blocks 1 and 3 only.
	local in1=0
	for lid in "${all[@]}"; do
		if ((lid / 64 == 1 && in1 < 30)); then
			far+=("$lid")
			in1=$((in1 + 1))
		elif ((lid / 64 == 3 && ${#far[@]} < 40)); then
			far+=("$lid")
		fi
	done
	[ "${#far[@]}" -ge 32 ] || fail "only ${#far[@]} LIDs in blocks 1 and 3"
	slid=$(sim_lid H1_1)
	run -0 --separate-stderr iba_on H1_1 -v trace -j "${far[@]}"
	mapfile -t blocks < <(grep -o 'LFTRecord table of block [0-9]*' <<<"$stderr" | sort -u)
	[ "${#blocks[@]}" -eq 2 ] || fail "blocks asked: ${blocks[*]}; $stderr"
	[[ ${blocks[0]} == *"block 1" && ${blocks[1]} == *"block 3" ]] ||
		fail "blocks asked: ${blocks[*]}"
	[[ $stderr != *"whole LFTRecord"* ]] || fail "$stderr"
	[[ $stderr == *"static route of the SM's forwarding tables (adaptive routing may deviate)"* ]] ||
		fail "$stderr"
	jq -e --argjson n "${#far[@]}" 'length == $n and all(.status == "complete")' <<<"$output"
	# The walks, fed record by record where the cut tables left them,
	# agree with ibtracert (every fourth destination, both blocks).
	for ((i = 0; i < ${#far[@]}; i += 4)); do
		want=$(ibtracert_hops H1_1 "$slid" "${far[i]}")
		[ -n "$want" ] || fail "ibtracert $slid ${far[i]} gave no hops"
		got=$(trace_hops "$(jq -c ".[$i]" <<<"$output")")
		[ "$want" = "$got" ] ||
			fail "LID ${far[i]}: ibtracert says '$want', trace says '$got'"
	done
}
