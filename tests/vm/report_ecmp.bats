#!/usr/bin/env bats
# Where on an ECMP fabric the loss is (issue 14): netem drops a share of
# what R3 forwards towards R2, one of the two branches between R1 and R2.
# rxe sends every probe of a run from its QP's own UDP source port
# (rxe_qp_init_req), which probe reports as wire_udp_sport; a run per QP
# lands on one branch, the next run (a new QP) maybe on the other.
# `trace --udp-sport` follows exactly those ports, and `report --traces`
# joins each result with the trace of its port and names the R3 branch.
# The branch each port takes is checked against R1's own route lookup
# (`ip route get ... sport`), the reference that no one here wrote.
# Runs in the guest (tests/vm/run). Rendezvous ports 18731-18739.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
	start_serve d "$BATS_FILE_TMPDIR/serve.d" 18731 || return 1
	# First contact (neighbours on both branches) outside the tests.
	timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 2000 trace --queries 1 \
		--flow-label 1-8 d-ecmp:18731 >/dev/null 2>&1 || true
}

teardown_file() {
	ip netns exec "$FABRIC_R3_NETNS" tc qdisc del dev "$FABRIC_R3_R2_NETDEV" root 2>/dev/null || true
	stop_serves "$BATS_FILE_TMPDIR"
}

trace_a() { timeout 300 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 2000 trace "$@"; }
probe_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 1000 probe "$@"; }

# branch_of PORT...: R1's nexthop for a datagram from A to D's ECMP
# address with that UDP source port, one line per port.
branch_of() {
	local p batch=$BATS_TEST_TMPDIR/get
	: >"$batch"
	for p in "$@"; do
		echo "route get $FABRIC_D_ECMP_IP4 from $FABRIC_A_IP4 iif r1-lan ipproto udp sport $p dport 4791" >>"$batch"
	done
	ip -n "$FABRIC_R1_NETNS" -b "$batch" | grep -o 'via [^ ]*' | awk '{ print $2 }'
}

@test "trace --udp-sport: each given port its own flow, on the branch R1's route lookup picks for it" {
	local f=$BATS_TEST_TMPDIR/ports.json
	trace_a -j --queries 1 --udp-sport 50000-50011 d-ecmp:18731 >"$f" ||
		fail "trace: status $? $(cat "$f")"
	jq -e 'length == 12 and all(.status == "reached" and .flow_label == null)
		and (map(.udp_sport) == [range(50000; 50012)])' "$f" >/dev/null ||
		fail "$(cat "$f")"
	paste <(jq -r '.[] | .path[1] // "*"' "$f") <(branch_of $(seq 50000 50011)) |
		awk '$1 != "*" { n++; if ($1 != $2) bad++ } END { exit (bad || n < 10) }' ||
		fail "trace and R1 disagree: $(paste <(jq -r '.[] | .path[1]' "$f") <(branch_of $(seq 50000 50011)))"
	run -0 --separate-stderr trace_a --queries 1 --udp-sport 50000-50011 d-ecmp:18731
	[[ ${lines[0]} =~ ^d-ecmp:18731:\ 2\ distinct\ paths\ over\ 12\ flows$ ]] || fail "$output"
	[[ $output == *"UDP source ports 0xc35"* ]] || fail "$output"
}

@test "netem loss on the R3 branch: report --traces names R3's branch, not R4's, with its evidence" {
	local dir=$BATS_TEST_TMPDIR i sport via n3=0 n4=0 ports=() top
	ip netns exec "$FABRIC_R3_NETNS" tc qdisc add dev "$FABRIC_R3_R2_NETDEV" root netem loss 30%
	# One run per QP: probe until both branches carried two runs.
	for ((i = 1; i <= 24 && (n3 < 2 || n4 < 2); i++)); do
		probe_a -c 20 -j d-ecmp:18731 >"$dir/run$i.json" || true
		sport=$(jq -r '.[0].params.wire_udp_sport' "$dir/run$i.json")
		[[ $sport =~ ^[0-9]+$ ]] || fail "no wire_udp_sport: $(cat "$dir/run$i.json")"
		ports+=("$sport")
		via=$(branch_of "$sport")
		if [ "$via" = "$FABRIC_R3_R1_IP4" ]; then n3=$((n3 + 1)); else n4=$((n4 + 1)); fi
	done
	[ "$n3" -ge 2 ] && [ "$n4" -ge 2 ] || fail "runs via R3: $n3, via R4: $n4 (ports ${ports[*]})"
	trace_a -j --udp-sport "$(IFS=,; echo "${ports[*]}")" d-ecmp:18731 >"$dir/traces.json" || true
	ip netns exec "$FABRIC_R3_NETNS" tc qdisc del dev "$FABRIC_R3_R2_NETDEV" root
	run -1 --separate-stderr "$IBAHPROBE" report -j "$dir"/run*.json --traces "$dir/traces.json"
	top=$(echo "$output" | jq -c '[.suspects[] | select(.kind == "segment" or .kind == "router" or .kind == "link")] | .[0]')
	echo "$top" | jq -e --arg r3 "$FABRIC_R3_R1_IP4" --arg r4 "$FABRIC_R4_R1_IP4" --argjson n3 "$n3" '
		.rank != null and (.elements | any(.name == $r3)) and (.elements | all(.name | contains($r4) | not))
		and .results.failing >= $n3 and .results.passing == 0' >/dev/null ||
		fail "top path suspect: $top; report: $output"
	run -1 --separate-stderr "$IBAHPROBE" report "$dir"/run*.json --traces "$dir/traces.json"
	[[ $output == *"suspects on the path:"*"via "*"$FABRIC_R3_R1_IP4"* ]] || fail "$output"
}
