#!/usr/bin/env bats
# trace with many queries in flight (issue 25): a 16-label sweep to D's
# ECMP address while R2 drops RoCE towards D (it still answers time
# exceeded) finds both ECMP branches and R2 as the last router that
# answers, in a time the serial trace (one query at a time: 16 flows x 3
# silent hops x 3 queries x the deadline) would exceed.
# Rendezvous port 18757, serve on d; 18759 has none.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
# R2 answers time exceeded (IPv4) from its leg towards R1.
R2_T4=$(awk '$2 == "r2" { print $1; exit }' /etc/hosts 2>/dev/null)

setup_file() {
	require_vm_fabric || return 1
	start_serve d "$BATS_FILE_TMPDIR/serve.d" 18757
}

drop_roce_after_r2() {
	ip netns exec r2 nft -f - <<'NFT'
table inet trace_fast {
	chain forward {
		type filter hook forward priority 0;
		oifname "r2-d" udp dport 4791 drop
	}
}
NFT
}

teardown() { ip netns exec r2 nft delete table inet trace_fast 2>/dev/null || true; }

teardown_file() {
	ip netns exec r2 nft delete table inet trace_fast 2>/dev/null
	stop_serves "$BATS_FILE_TMPDIR"
	true
}

@test "a 16-label sweep with RoCE dropped after R2: both branches, R2 last, faster than one query at a time could be" {
	local start took serial=$((16 * 3 * 3 * 300))
	# First contact (neighbours on both branches) outside the timing.
	timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 1000 trace --queries 1 \
		--flow-label 0-15 d-ecmp:18757 >/dev/null 2>&1 || true
	drop_roce_after_r2
	start=$(date +%s%N)
	run -1 --separate-stderr timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 300 trace -j \
		--flow-label 0-15 d-ecmp:18757
	took=$((($(date +%s%N) - start) / 1000000))
	echo "took $took ms; one query at a time would wait $serial ms for the deadlines alone"
	echo "$output" | jq -e --arg gw "$FABRIC_A_GW4" --arg m3 "$FABRIC_R3_R1_IP4" \
		--arg m4 "$FABRIC_R4_R1_IP4" --arg r2 "$R2_T4" '
		length == 16 and all(.status == "silent" and .responder_received == 0
			and (.hops | length) == 6 and .path[0] == $gw and .path[2] == $r2
			and all(.hops[3:][]; all(.answers[]; .kind == "silent")))
		and (map(.path[1]) | unique) == ([$m3, $m4] | sort)' >/dev/null ||
		fail "$(echo "$output" | jq -c '.[] | [.flow_label, .status, .path]')"
	[ "$took" -lt "$serial" ] || fail "took $took ms, not under $serial ms"
	# The serial trace, for the record: the same answer, one query at a time.
	run -1 --separate-stderr timeout 300 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 300 trace -j \
		--max-in-flight 1 --flow-label 0-1 d-ecmp:18757
	echo "$output" | jq -e --arg r2 "$R2_T4" 'length == 2 and all(.status == "silent" and .path[2] == $r2)' \
		>/dev/null || fail "serial: $output"
}

@test "no responder behind the port: every flow of the sweep an error row, exit 1, the JSON whole" {
	run -1 --separate-stderr timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 300 trace -j \
		--max-hops 16 --flow-label 0-15 d-ecmp:18759
	echo "$output" | jq -e 'length == 16 and all(.status == "error" and (.error | length) > 0)' \
		>/dev/null || fail "$output $stderr"
}
