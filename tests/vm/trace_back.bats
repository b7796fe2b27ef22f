#!/usr/bin/env bats
# trace when only the way back is broken (issue 26): R1 drops C's answers
# on their way to A, so after R1 (hop 1) nothing answers. trace stops 3
# silent hops after the last router (not at 16), asks the responder
# whether the silent hops' datagrams arrived, and says it reached the
# responder and its answers were lost on the way back. Rendezvous port
# 18696, serve on c.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
	start_serve c "$BATS_FILE_TMPDIR/serve.c" 18696
}

teardown_file() {
	ip netns exec r1 nft delete table inet trace_back 2>/dev/null
	stop_serves "$BATS_FILE_TMPDIR"
	true
}

teardown() { ip netns exec r1 nft delete table inet trace_back 2>/dev/null || true; }

# R1 forwards nothing of RoCE v2 towards A's LAN: C's answers; the time
# exceeded R1 itself sends is its own output, not forwarded.
drop_answers_on_r1() {
	ip netns exec r1 nft -f - <<'NFT'
table inet trace_back {
	chain forward {
		type filter hook forward priority 0;
		oifname "r1-lan" udp dport 4791 drop
	}
}
NFT
}

trace_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 300 trace "$@"; }

@test "answers dropped on the way back: reached the responder, its answers lost; stops 3 hops after R1" {
	drop_answers_on_r1
	run -1 --separate-stderr trace_a -j c:18696
	echo "$output"
	echo "$output" | jq -e --arg gw "$FABRIC_A_GW4" '.[0] |
		.status == "answers_lost" and .responder_received == 9 and
		(.hops | length) == 4 and
		.hops[0].answers[0].from == $gw and
		all(.hops[1:][]; all(.answers[]; .kind == "silent"))' >/dev/null ||
		fail "not answers_lost at 4 hops"
	run -1 --separate-stderr trace_a c:18696
	echo "$output"
	[[ $output == *"reached the responder: it received 9 datagrams of hops 2-4; its answers were lost on the way back"* ]] ||
		fail "not said"
	[[ $output != *"not reached"* ]] || fail "said not reached"
	[[ $output == *"1 flow: 0 reached the responder, 1 did not"* ]] || fail "summary"
}

@test "--max-hops sweeps to it; the requests dropped on the way there: not reached, the responder saw none" {
	drop_answers_on_r1
	run -1 --separate-stderr trace_a -j --queries 1 --max-hops 6 c:18696
	echo "$output" | jq -e '.[0] | .status == "answers_lost" and (.hops | length) == 6 and
		.responder_received == 5' >/dev/null || fail "$output"
	ip netns exec r1 nft delete table inet trace_back
	ip netns exec r1 nft -f - <<'NFT'
table inet trace_back {
	chain forward {
		type filter hook forward priority 0;
		oifname "r1-c" udp dport 4791 drop
	}
}
NFT
	run -1 --separate-stderr trace_a -j --queries 1 c:18696
	echo "$output" | jq -e '.[0] | .status == "silent" and (.hops | length) == 4 and
		.responder_received == 0' >/dev/null || fail "$output"
	run -1 --separate-stderr trace_a --queries 1 c:18696
	[[ $output == *"not reached: nothing answered after hop 1 (stopped there; --max-hops goes further) (the responder received none of hops 2-4)"* ]] ||
		fail "$output"
}
