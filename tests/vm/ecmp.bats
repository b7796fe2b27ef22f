#!/usr/bin/env bats
# ECMP (issue 14): D's ECMP address lies behind two parallel routers, R3
# and R4, between R1 and R2; R1 picks one per datagram by a layer-4 hash
# (fib_multipath_hash_policy=1). `trace --flow-label 1-64` gives each flow
# label its own UDP source port, so a sweep finds both router paths, the
# same path for a label on every run, and the path the kernel's own hash
# picks (`ip route get ... sport`, asked in R1's namespace) - the
# reference that no one here wrote. probe sees the asymmetry: 3 routers
# there, 2 back (D's replies take the direct R1-R2 link).
# Runs in the guest (tests/vm/run). Rendezvous ports 18691-18699.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
# R2 answers time exceeded (IPv4) from its leg towards R1: the ICMP error
# leaves by its route back to A, and its source is that device's address.
R2_T4=$(awk '$2 == "r2" { print $1; exit }' /etc/hosts 2>/dev/null)

setup_file() {
	require_vm_fabric || return 1
	start_serve d "$BATS_FILE_TMPDIR/serve.d" 18691 || return 1
	# First contact (neighbours on every router of both branches, the
	# responder's reply AHs) outside the measured sweeps.
	timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 2000 trace --queries 1 \
		--flow-label 1-8 d-ecmp:18691 d-ecmp6:18691 >/dev/null 2>&1 || true
}

teardown_file() { stop_serves "$BATS_FILE_TMPDIR"; }

trace_a() { timeout 300 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 2000 trace "$@"; }

# sweep_ok FILE GW MIDDLE3 MIDDLE4 DEST: the 64 flows of FILE (trace -j)
# all reached DEST after 3 routers (the hop limit the last datagram was
# sent with minus what the responder saw left), every path is GW, R3 or
# R4, a third router, DEST; exactly two path numbers, each with one
# middle router, and both middle routers used. A silent hop (null) is
# allowed anywhere but the middle (it names the path).
sweep_ok() {
	jq -e --arg gw "$2" --arg m3 "$3" --arg m4 "$4" --arg d "$5" '
		length == 64 and all(.status == "reached")
		and all(.hops | last | .hop_limit -
			(.answers | map(select(.kind == "responder")) | .[0].seen_hop_limit) == 3)
		and all(.path | length == 4 and (.[0] == $gw or .[0] == null)
			and (.[1] == $m3 or .[1] == $m4) and .[3] == $d)
		and (map(.path_index) | unique) == [1, 2]
		and (group_by(.path_index) | map(map(.path[1]) | unique) | sort)
			== [[$m3], [$m4]]' "$1" >/dev/null
}

@test "A -> d-ecmp, flow labels 1-64: two router paths, one via R3 and one via R4, all at the responder after 3 routers" {
	trace_a -j --queries 1 --flow-label 1-64 d-ecmp:18691 >"$BATS_FILE_TMPDIR/sweep4.json" ||
		fail "trace: status $? $(cat "$BATS_FILE_TMPDIR/sweep4.json")"
	sweep_ok "$BATS_FILE_TMPDIR/sweep4.json" "$FABRIC_A_GW4" "$FABRIC_R3_R1_IP4" \
		"$FABRIC_R4_R1_IP4" "$FABRIC_D_ECMP_IP4" || fail "$(jq -c '.[] | [.flow_label, .path, .path_index]' "$BATS_FILE_TMPDIR/sweep4.json")"
	# R2 is the third router on both paths (IPv4: its leg towards R1).
	jq -e --arg r2 "$R2_T4" 'all(.path[2] == $r2 or .path[2] == null)' \
		"$BATS_FILE_TMPDIR/sweep4.json" >/dev/null || fail "third hop not R2"
}

@test "the kernel's own hash: R1's route lookup for each flow label's UDP source port names the middle router the trace found" {
	local f=$BATS_FILE_TMPDIR/sweep4.json batch=$BATS_FILE_TMPDIR/get4 agree
	[ -s "$f" ] || skip "no sweep from the first test"
	# As the datagram enters R1 on its LAN leg: from A, UDP to port 4791.
	jq -r --arg a "$FABRIC_A_IP4" --arg d "$FABRIC_D_ECMP_IP4" '.[] |
		"route get \($d) from \($a) iif r1-lan ipproto udp sport \(.udp_sport) dport 4791"' \
		"$f" >"$batch"
	ip -n "$FABRIC_R1_NETNS" -b "$batch" | grep -o 'via [^ ]*' | awk '{ print $2 }' >"$batch.via"
	[ "$(wc -l <"$batch.via")" -eq 64 ] || fail "route get: $(cat "$batch.via")"
	# Flows whose middle hop answered: each agrees with the kernel.
	agree=$(jq -r '.[] | .path[1] // "*"' "$f" | paste - "$batch.via" |
		awk '$1 != "*" { n++; if ($1 != $2) { print "label " NR ": trace " $1 ", kernel " $2 > "/dev/stderr"; bad++ } }
			END { if (bad || n < 60) exit 1; print n }') ||
		fail "trace and the kernel's route lookup disagree"
	echo "agree on $agree flows"
}

@test "a second sweep: every flow label takes the same path again" {
	local f1=$BATS_FILE_TMPDIR/sweep4.json f2=$BATS_FILE_TMPDIR/sweep4b.json
	[ -s "$f1" ] || skip "no sweep from the first test"
	trace_a -j --queries 1 --flow-label 1-64 d-ecmp:18691 >"$f2" ||
		fail "trace: status $? $(cat "$f2")"
	sweep_ok "$f2" "$FABRIC_A_GW4" "$FABRIC_R3_R1_IP4" "$FABRIC_R4_R1_IP4" \
		"$FABRIC_D_ECMP_IP4" || fail "second sweep"
	jq -n -e --slurpfile a "$f1" --slurpfile b "$f2" '
		($a[0] | map({(.flow_label | tostring): .path[1]}) | add) as $x |
		($b[0] | map({(.flow_label | tostring): .path[1]}) | add) as $y |
		($x | keys) == ($y | keys) and all($x | keys[]; $x[.] == $y[.])' >/dev/null ||
		fail "labels moved: $(diff <(jq -c '.[] | [.flow_label, .path[1]]' "$f1") <(jq -c '.[] | [.flow_label, .path[1]]' "$f2"))"
}

@test "text: the summary per destination, which flow labels take which path, under 100 columns; -v adds each flow's hops" {
	local line sum=0 n m1 m2
	run -0 --separate-stderr trace_a --queries 1 --flow-label 1-16 d-ecmp:18691
	echo "$output"
	[ "${lines[0]}" = "d-ecmp:18691: 2 distinct paths over 16 flows" ] || fail "${lines[0]}"
	[[ ${lines[1]} =~ ^\ \ path\ 1:\ $FABRIC_A_GW4\ ($FABRIC_R3_R1_IP4|$FABRIC_R4_R1_IP4)\ $R2_T4\ -\>\ responder$ ]] ||
		fail "path 1: ${lines[1]}"
	m1=${BASH_REMATCH[1]}
	[[ ${lines[3]} =~ ^\ \ path\ 2:\ $FABRIC_A_GW4\ ($FABRIC_R3_R1_IP4|$FABRIC_R4_R1_IP4)\ $R2_T4\ -\>\ responder$ ]] ||
		fail "path 2: ${lines[3]}"
	m2=${BASH_REMATCH[1]}
	[ "$m1" != "$m2" ] || fail "both paths via $m1"
	for n in 2 4; do
		[[ ${lines[n]} =~ ^\ \ \ \ flow\ labels?\ 0x[0-9a-f].*\ \(([0-9]+)\)$ ]] || fail "labels: ${lines[n]}"
		sum=$((sum + BASH_REMATCH[1]))
	done
	[ "$sum" -eq 16 ] || fail "labels counted: $sum"
	[[ $output != *"UDP source port"* ]] || fail "per-flow lines without -v"
	[[ $output == *"16 flows: 16 reached the responder, 0 did not"* ]] || fail "$output"
	for line in "${lines[@]}"; do
		[ "${#line}" -lt 100 ] || fail "too wide: $line"
	done
	run -0 --separate-stderr trace_a -v --queries 1 --flow-label 1-2 d-ecmp:18691
	[[ $output == *"flow label 0x00002 (UDP source port 49154)"* ]] || fail "$output"
	[[ $output =~ $'\n'd-ecmp:18691:\ [12]\ distinct\ paths?\ over\ 2\ flows ]] || fail "$output"
}

@test "probe to d-ecmp: 3 hops there, 2 back, named asymmetric; d itself stays 2 and 2" {
	run -0 --separate-stderr timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe -c 3 -t 2000 -j \
		d-ecmp:18691 d:18691
	echo "$output"
	echo "$output" | jq -e --arg there "$FABRIC_HOPS_A_D_ECMP" --arg back "$FABRIC_HOPS_D_ECMP_A_BACK" \
		--arg d "$FABRIC_HOPS_A_D" '
		(.[] | select(.dest == "d-ecmp:18691") | .hops == ($there | tonumber) and
			.hops_back == ($back | tonumber) and
			(.verdicts | index("asymmetric_hops")) and
			any(.findings[]; . == "asymmetric routing: 3 hops there, 2 back")) and
		(.[] | select(.dest == "d:18691") | .hops == ($d | tonumber) and
			.hops_back == ($d | tonumber))' >/dev/null
}

@test "IPv6: a sweep over d-ecmp6 finds the two paths too (R2 answers from the leg it was reached on)" {
	local f=$BATS_FILE_TMPDIR/sweep6.json batch=$BATS_FILE_TMPDIR/get6
	trace_a -j --queries 1 --flow-label 1-64 d-ecmp6:18691 >"$f" ||
		fail "trace: status $? $(cat "$f")"
	sweep_ok "$f" "$FABRIC_A_GW6" "$FABRIC_R3_R1_IP6" "$FABRIC_R4_R1_IP6" \
		"$FABRIC_D_ECMP_IP6" || fail "$(jq -c '.[] | [.flow_label, .path, .path_index]' "$f")"
	jq -e --arg r23 "$FABRIC_R2_R3_IP6" --arg r24 "$FABRIC_R2_R4_IP6" \
		--arg m3 "$FABRIC_R3_R1_IP6" '
		all(.path[2] == null or (.path[1] == $m3 and .path[2] == $r23) or
			(.path[1] != $m3 and .path[2] == $r24))' "$f" >/dev/null ||
		fail "third hop: $(jq -c 'map(.path)' "$f")"
	jq -r --arg a "$FABRIC_A_IP6" --arg d "$FABRIC_D_ECMP_IP6" '.[] |
		"route get \($d) from \($a) iif r1-lan ipproto udp sport \(.udp_sport) dport 4791"' \
		"$f" >"$batch"
	ip -6 -n "$FABRIC_R1_NETNS" -b "$batch" | grep -o 'via [^ ]*' | awk '{ print $2 }' >"$batch.via"
	jq -r '.[] | .path[1] // "*"' "$f" | paste - "$batch.via" |
		awk '$1 != "*" { n++; if ($1 != $2) bad++ } END { exit (bad || n < 60) }' ||
		fail "IPv6 trace and the kernel's route lookup disagree: $(jq -r '.[] | .path[1]' "$f" | paste - "$batch.via")"
}
