#!/usr/bin/env bats
# check's `isolated` on the real rxe driver (issue 26): the way to test a
# partition or an ACL. UDP 4791 dropped on R1 towards C while C's
# responder is up passes; datagrams that arrive fail (answered, or seen
# with the replies dropped on the way back); no responder fails with that
# reason. Rendezvous ports 18694-18695, serve on c.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
PC=18694

setup_file() {
	require_vm_fabric || return 1
	start_serve c "$BATS_FILE_TMPDIR/serve.c" $PC
}

teardown_file() {
	ip netns exec r1 nft delete table inet isolated 2>/dev/null
	stop_serves "$BATS_FILE_TMPDIR"
	true
}

teardown() { ip netns exec r1 nft delete table inet isolated 2>/dev/null || true; }

# R1 drops RoCE v2 datagrams leaving on OIF: r1-c (towards C, the
# probes) or r1-lan (towards A, C's replies).
drop_roce_on_r1() {
	ip netns exec r1 nft -f - <<NFT
table inet isolated {
	chain forward {
		type filter hook forward priority 0;
		oifname "$1" udp dport 4791 drop
	}
}
NFT
}

check_a() {
	cat >"$BATS_TEST_TMPDIR/list.chk"
	timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 1000 check -c 3 "$@" \
		"$BATS_TEST_TMPDIR/list.chk"
}

@test "isolated: UDP 4791 dropped towards a responder that is up passes" {
	drop_roce_on_r1 r1-c
	run -0 --separate-stderr check_a -j <<-EOF
		c:$PC  isolated
	EOF
	echo "$output"
	echo "$output" | jq -e '.tests == 1 and .passed == 1 and
		.results[0].expectation == "isolated" and .results[0].ok and
		.results[0].got.value == 0 and .results[0].got.unit == "requests" and
		.results[0].got.sent == 3 and .results[0].got.received == 0 and
		.results[0].expected.max == 0' >/dev/null || fail "not passed as measured"
	run -0 check_a <<-EOF
		c:$PC  isolated
	EOF
	[ "${lines[1]}" = "ok 1 - c:$PC isolated" ] || fail "$output"
}

@test "isolated: datagrams that arrive fail it, answered or not" {
	run -1 --separate-stderr check_a -j <<-EOF
		c:$PC  isolated
	EOF
	echo "$output"
	echo "$output" | jq -e '.failed == 1 and (.results[0] | .ok == false and
		.got_text == "3 of 3 answered: the datagrams arrive" and .got.value == 3)' >/dev/null ||
		fail "answered"
	# The replies dropped on the way back: no reply, yet the responder
	# saw them all.
	drop_roce_on_r1 r1-lan
	run -1 --separate-stderr check_a -j <<-EOF
		c:$PC  isolated
	EOF
	echo "$output"
	echo "$output" | jq -e '.results[0] | .ok == false and .got.value == 3 and
		(.got_text | startswith("the responder saw 3 of 3: the datagrams arrive"))' >/dev/null ||
		fail "seen, replies lost"
}

@test "isolated: no responder fails with that reason, not as isolated" {
	drop_roce_on_r1 r1-c
	run -1 --separate-stderr check_a -j <<-EOF
		c:18695  isolated
	EOF
	echo "$output"
	echo "$output" | jq -e '.results[0] | .ok == false and .got.value == null and
		(.got.reason | startswith("no responder to ask:") and contains("refused"))' >/dev/null ||
		fail "no responder"
}
