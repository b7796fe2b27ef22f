#!/usr/bin/env bats
# Replies after their deadline are credited by sequence number to the
# probe they answer: a slow destination (netem delay on R2's link to D,
# longer than -t) probed together with a fast one gets the late replies,
# the fast one none (before, a late reply went to the first cell with the
# same parameters and responder QPN, and every rxe device's first QP is 17).
# Rendezvous ports 18571 (b) and 18572 (d).

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
	start_serve b "$BATS_FILE_TMPDIR/serve.b" 18571
	start_serve d "$BATS_FILE_TMPDIR/serve.d" 18572
	# First contacts resolve the neighbours before the delay is added.
	timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe -c 1 -t 3000 \
		b:18571 d:18572 >/dev/null
}

teardown_file() {
	ip netns exec r2 tc qdisc del dev r2-d root 2>/dev/null
	stop_serves "$BATS_FILE_TMPDIR"
}

@test "late replies go to the slow destination that sent them, named in its findings" {
	# Ten probes 100 ms apart: the replies of the first ones come back,
	# late, while the last ones are still in flight.
	ip netns exec r2 tc qdisc add dev r2-d root netem delay 300ms
	run -1 timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe -c 10 \
		-i 100 -t 150 -j b:18571 d:18572
	ip netns exec r2 tc qdisc del dev r2-d root
	echo "$output" | jq -c '.[] | {dest, status, received, late, duplicates}'
	echo "$output" | jq -e '
		(.[] | select(.dest == "b:18571") | .status == "reachable" and
			.late == 0 and .duplicates == 0) and
		(.[] | select(.dest == "d:18572") | .status == "unreachable" and
			.late >= 3 and
			any(.findings[]; test("^[0-9]+ replies came after the 150 ms deadline")))'
}

@test "duplicated replies count as duplicates, never as late or received twice" {
	# netem on R2's link to D duplicates every packet towards D: each
	# request arrives twice, and each copy is answered. The second reply
	# to the last probe may come after the run ended: at least 8 of 10.
	ip netns exec r2 tc qdisc add dev r2-d root netem duplicate 100%
	run -0 timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe -c 10 \
		-i 20 -t 1000 -j d:18572
	ip netns exec r2 tc qdisc del dev r2-d root
	echo "$output" | jq -c '.[0] | {status, received, lost, late, duplicates, findings}'
	echo "$output" | jq -e '.[0] | .status == "reachable" and
		.received == 10 and .lost == 0 and .late == 0 and
		.duplicates >= 8 and
		any(.findings[]; test("^[0-9]+ duplicate repl"))'
}
