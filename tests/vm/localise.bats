#!/usr/bin/env bats
# Localisation on the VM fabric's ECMP branches (issue 27): `report
# --traces` names the element that breaks, from what an admin gathers:
# probe runs from A to D's ECMP address (rxe sends a run from its QP's own
# UDP source port, so each run takes one branch, R3 or R4) until both
# branches carried several runs, then a trace of every run's port.
# Each case is one such sweep: netem loss on R3 -> R2 (the link named),
# all RoCE dropped at R4 before routing (R4 silent: the candidates after
# R1), R2's remarking towards D (R2 named), and no fault (nothing named).
# The sweeps of the loss cases send DSCP 12 (tclass 0x30), what R2 writes
# anyway: its remarking changes nothing there.
# Runs in the guest (tests/vm/run). Rendezvous ports 18861-18869.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
# R2 answers time exceeded (IPv4) from its leg towards R1 (ecmp.bats).
R2_T4=$(awk '$2 == "r2" { print $1; exit }' /etc/hosts 2>/dev/null)
# The traffic class R2's remarking leaves as it is (DSCP 12, ECN 0).
UNREMARKED=$((FABRIC_REMARK_DSCP << 2))
# Runs per branch a sweep gathers, and the most runs it tries.
RUNS_PER_BRANCH=3 RUNS_MAX=16

setup_file() {
	require_vm_fabric || return 1
	start_serve d "$BATS_FILE_TMPDIR/serve.d" 18861 || return 1
	# The admin's earlier traces, before anything broke: both branches
	# seen passing (16 ports miss one branch 1 time in 2^15), and first
	# contact with every router outside the sweeps.
	timeout 300 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 2000 trace -j -m 6 \
		--tclass "$UNREMARKED" --udp-sport 50600-50615 d-ecmp:18861 \
		>"$BATS_FILE_TMPDIR/before.json" 2>/dev/null || true
}

teardown_file() {
	ip netns exec "$FABRIC_R3_NETNS" tc qdisc del dev "$FABRIC_R3_R2_NETDEV" root 2>/dev/null || true
	ip netns exec "$FABRIC_R4_NETNS" nft delete table inet localise 2>/dev/null || true
	stop_serves "$BATS_FILE_TMPDIR"
}

teardown() {
	ip netns exec "$FABRIC_R3_NETNS" tc qdisc del dev "$FABRIC_R3_R2_NETDEV" root 2>/dev/null || true
	ip netns exec "$FABRIC_R4_NETNS" nft delete table inet localise 2>/dev/null || true
}

probe_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 1000 probe "$@"; }
trace_a() { timeout 300 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 2000 trace -m 6 "$@"; }

# branch_of PORT: R1's nexthop for a datagram from A to D's ECMP address
# with that UDP source port (report_ecmp.bats).
branch_of() {
	ip -n "$FABRIC_R1_NETNS" route get "$FABRIC_D_ECMP_IP4" from "$FABRIC_A_IP4" iif r1-lan \
		ipproto udp sport "$1" dport 4791 | grep -o 'via [^ ]*' | awk '{ print $2 }'
}

# sweep DIR TCLASS: probe runs (20 probes each) from A to D's ECMP
# address until each branch carried RUNS_PER_BRANCH runs (DIR/run*.json),
# then one trace of every run's port (DIR/traces.json). Sets n3 and n4,
# the runs via R3 and via R4.
sweep() {
	local dir=$1 tclass=$2 i sport ports=()
	n3=0 n4=0
	mkdir -p "$dir"
	for ((i = 1; i <= RUNS_MAX && (n3 < RUNS_PER_BRANCH || n4 < RUNS_PER_BRANCH); i++)); do
		probe_a -c 20 --tclass "$tclass" -j d-ecmp:18861 >"$dir/run$i.json" || true
		sport=$(jq -r '.[0].params.wire_udp_sport' "$dir/run$i.json")
		[[ $sport =~ ^[0-9]+$ ]] || { fail "run $i: no wire_udp_sport: $(cat "$dir/run$i.json")"; return 1; }
		ports+=("$sport")
		if [ "$(branch_of "$sport")" = "$FABRIC_R3_R1_IP4" ]; then n3=$((n3 + 1)); else n4=$((n4 + 1)); fi
	done
	[ "$n3" -ge "$RUNS_PER_BRANCH" ] && [ "$n4" -ge "$RUNS_PER_BRANCH" ] ||
		{ fail "runs via R3: $n3, via R4: $n4 (ports ${ports[*]})"; return 1; }
	trace_a -j --tclass "$tclass" --udp-sport "$(printf '%s\n' "${ports[@]}" | sort -nu | paste -sd,)" \
		d-ecmp:18861 >"$dir/traces.json" || true
	jq -e 'length >= 1' "$dir/traces.json" >/dev/null ||
		{ fail "no traces: $(cat "$dir/traces.json")"; return 1; }
}

# retrace_past_r3 DIR TCLASS: R2's hop can go unanswered on most traces
# via R3 (the netem loss takes all three queries, or R2's ICMP rate limit
# drops its answers); the loss then cannot be placed past R3, and report
# rightly names R3's side. As an admin would, trace the sweep's ports
# again (at most twice) until most traces via R3 show R2.
retrace_past_r3() {
	local dir=$1 tclass=$2 i ports via
	for ((i = 0; i < 2; i++)); do
		via=$(jq --arg r3 "$FABRIC_R3_R1_IP4" --arg r2 "$R2_T4" '
			[.[] | [.hops[].answers[].from] | select(index($r3))] |
			[length, (map(select(index($r2))) | length)]' "$dir/traces.json") ||
			return 0
		[ "$(jq '2 * .[1] > .[0]' <<<"$via")" = true ] && return 0
		ports=$(jq -r '[.[].udp_sport] | unique | map(tostring) | join(",")' \
			"$dir/traces.json")
		trace_a -j --tclass "$tclass" --udp-sport "$ports" d-ecmp:18861 \
			>"$dir/traces.json" || true
	done
}

# report_both STATUS DIR [--traces FILE...]: report -j over DIR's runs and
# traces into $json (each run's result joined with its trace), the text
# form into $text, both with exit STATUS.
report_both() {
	local status=$1 dir=$2
	shift 2
	run "-$status" --separate-stderr "$IBAHPROBE" report -j "$dir"/run*.json --traces "$dir/traces.json" "$@"
	json=$output
	# Every run joined with the trace of its port.
	jq -e '.localisation | .results >= 6 and .traced == .results' <<<"$json" >/dev/null ||
		fail "not every result traced: $json $stderr" || return 1
	run "-$status" --separate-stderr "$IBAHPROBE" report "$dir"/run*.json --traces "$dir/traces.json" "$@"
	text=$output
}

@test "no fault: both branches pass and report names no element" {
	local dir=$BATS_TEST_TMPDIR/clean json text
	sweep "$dir" "$UNREMARKED" || return 1
	report_both 0 "$dir" --traces "$BATS_FILE_TMPDIR/before.json"
	jq -e '.localisation | .suspects == [] and .verdict == "no element stands out"
		and .failing == 0' <<<"$json" >/dev/null ||
		fail "$(jq -c .localisation <<<"$json")"
	[[ $text == *"  no element stands out"* ]] || fail "$text"
}

@test "netem loss on R3 -> R2: report names that link first, with its evidence and confidence" {
	local dir=$BATS_TEST_TMPDIR/lossy json text link
	link="$FABRIC_R3_R1_IP4 -> $R2_T4"
	ip netns exec "$FABRIC_R3_NETNS" tc qdisc add dev "$FABRIC_R3_R2_NETDEV" root netem loss 30%
	sweep "$dir" "$UNREMARKED" || return 1
	retrace_past_r3 "$dir" "$UNREMARKED"
	ip netns exec "$FABRIC_R3_NETNS" tc qdisc del dev "$FABRIC_R3_R2_NETDEV" root
	report_both 1 "$dir"
	# Every run via R3 fails; a trace whose hop at R3 went unanswered
	# (its ICMP rate limit) shows "the hop after R1" there instead, and
	# that run is no evidence for the link: most of them are.
	jq -e --arg link "$link" --argjson n3 "$n3" '.localisation.suspects[0] |
		.rank == 1 and .kind == "link" and .name == $link and .cause == "loss"
		and .confidence > 0 and .evidence.failing >= ($n3 + 1) / 2
		and .evidence.failing >= 3 and .evidence.passing == 0
		and .evidence.loss_rate > 0.1 and .evidence.log_likelihood_ratio > 0
		and (.reason | length > 0)' <<<"$json" >/dev/null ||
		fail "$(jq -c .localisation <<<"$json")"
	[[ $text == *"  1. link    $link"$'\n'"      confidence "* ]] || fail "$text"
}

@test "RoCE dropped at R4, which answers nothing: R4 named first of the candidates after R1, with the reason" {
	local dir=$BATS_TEST_TMPDIR/silent json text s
	# Before routing: no ICMP either (a silent router).
	ip netns exec "$FABRIC_R4_NETNS" nft -f - <<-NFT
		table inet localise {
			chain pre {
				type filter hook prerouting priority raw; policy accept;
				udp dport 4791 drop
			}
		}
	NFT
	sweep "$dir" "$UNREMARKED" || return 1
	ip netns exec "$FABRIC_R4_NETNS" nft delete table inet localise
	# R4 is seen only in the traces from before.
	jq -e --arg r4 "$FABRIC_R4_R1_IP4" 'any(.path[1] == $r4)' "$BATS_FILE_TMPDIR/before.json" >/dev/null ||
		fail "no trace from before shows R4: $(cat "$BATS_FILE_TMPDIR/before.json")"
	report_both 1 "$dir" --traces "$BATS_FILE_TMPDIR/before.json"
	s=$(jq -c '.localisation.suspects[0]' <<<"$json")
	jq -e --arg r1 "$FABRIC_A_GW4" --arg r3 "$FABRIC_R3_R1_IP4" --arg r4 "$FABRIC_R4_R1_IP4" \
		--argjson n4 "$n4" '
		.rank == 1 and .cause == "unseen" and .kind == "router"
		and .name == $r4 and .address == $r4 and .alternatives == [$r3]
		and .confidence > 0 and .evidence.failing >= $n4
		and .reason == "the traces of \($n4) failing flows stop after \($r1); the next hop of its passing flows is \($r4) or \($r3)"' \
		<<<"$s" >/dev/null ||
		fail "$(jq -c .localisation <<<"$json")"
	[[ $text == *"  1. router  $FABRIC_R4_R1_IP4  (not seen by traces)"$'\n'"      confidence "*$'\n'"      or $FABRIC_R3_R1_IP4"$'\n'* ]] ||
		fail "$text"
}

@test "R2 remarks what it forwards to D: report names R2 as what rewrites the traffic class" {
	local dir=$BATS_TEST_TMPDIR/remark json text
	sweep "$dir" 0 || return 1
	report_both 0 "$dir"
	jq -e --arg r2 "$R2_T4" --argjson n $((2 * RUNS_PER_BRANCH)) '
		[.localisation.suspects[] | select(.cause == "remark")] | length == 1 and (.[0] |
		.kind == "router" and .name == $r2 and .address == $r2 and .confidence > 0.5
		and .results.failing >= $n and .results.passing == 0
		and (.reason | length > 0))' <<<"$json" >/dev/null ||
		fail "$(jq -c .localisation <<<"$json")"
	[[ $text == *". router  $R2_T4  rewrites the traffic class"$'\n'"      confidence "* ]] || fail "$text"
}
