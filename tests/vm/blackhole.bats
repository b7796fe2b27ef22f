#!/usr/bin/env bats
# A responder that cannot build the reverse AH to one prober must not stall
# the others (issue 11, item 3). The way back from B to C is routed through
# a next hop nobody answers ARP for (tests/vm/blackhole-reverse), so every
# ibv_create_ah for a reply to C blocks ~1 s in neighbour resolution and
# fails; A probes B at the same time and must lose nothing.
# Rendezvous ports 18562 (control run) and 18563 (black-holed run), serve on b.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
}

teardown_file() {
	"$BATS_TEST_DIRNAME/blackhole-reverse" b "$FABRIC_C_IP4" off
	stop_serves "$BATS_FILE_TMPDIR"
}

# both_probe PORT: C and A probe B at once, 200 probes 5 ms apart each;
# their JSON in $BATS_TEST_TMPDIR/{a,c}.json, their exit status in A_RC, C_RC.
both_probe() {
	local port=$1 cpid
	timeout 120 "$IBAHPROBE" -d "$FABRIC_C_RXE" -g auto probe -c 200 -i 5 -j "b:$port" \
		>"$BATS_TEST_TMPDIR/c.json" 2>"$BATS_TEST_TMPDIR/c.err" &
	cpid=$!
	A_RC=0 C_RC=0
	timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe -c 200 -i 5 -j "b:$port" \
		>"$BATS_TEST_TMPDIR/a.json" 2>"$BATS_TEST_TMPDIR/a.err" || A_RC=$?
	wait "$cpid" || C_RC=$?
	echo "A: status $A_RC, $(jq -c '.[0] | {status, received, lost, late}' "$BATS_TEST_TMPDIR/a.json" 2>&1) $(cat "$BATS_TEST_TMPDIR/a.err")"
	echo "C: status $C_RC, $(jq -c '.[0] | {status, received, lost, late}' "$BATS_TEST_TMPDIR/c.json" 2>&1) $(cat "$BATS_TEST_TMPDIR/c.err")"
}

# stop_and_summary LOG: SIGTERM to that serve, then its summary event.
stop_and_summary() {
	local log=$1
	kill -TERM "$(cat "$log.pid")"
	timeout 30 tail --pid="$(cat "$log.pid")" -f /dev/null ||
		fail "serve did not stop within 30 s of SIGTERM: $(cat "$log")"
	jq -c 'select(.event == "summary")' "$log"
}

@test "control: without the black hole, two probers at once both lose nothing" {
	local log=$BATS_FILE_TMPDIR/serve.control
	start_serve b "$log" 18562
	# First contacts: the neighbours on both ends are resolved (~1 s each
	# on rxe) before the measured run.
	timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe -c 2 -t 3000 b:18562 >/dev/null
	timeout 60 "$IBAHPROBE" -d "$FABRIC_C_RXE" -g auto probe -c 2 -t 3000 b:18562 >/dev/null
	both_probe 18562
	stop_and_summary "$log"
	jq -e '.[0] | .status == "reachable" and .received == 200 and .lost == 0' \
		"$BATS_TEST_TMPDIR/a.json"
	jq -e '.[0] | .status == "reachable" and .received == 200 and .lost == 0' \
		"$BATS_TEST_TMPDIR/c.json"
	[ "$A_RC" -eq 0 ] && [ "$C_RC" -eq 0 ]
}

@test "C's way back black-holed at B: C gets no reply, A at the same time loses nothing, serve counts the reverse_ah drops" {
	local log=$BATS_FILE_TMPDIR/serve.blackhole summary
	# Before C's first probe reaches this responder, so that no reverse AH
	# to C exists yet (a cached one would be used without a new lookup).
	"$BATS_TEST_DIRNAME/blackhole-reverse" b "$FABRIC_C_IP4" on
	start_serve b "$log" 18563
	both_probe 18563
	summary=$(stop_and_summary "$log")
	"$BATS_TEST_DIRNAME/blackhole-reverse" b "$FABRIC_C_IP4" off
	echo "serve: $summary"
	# A first: today serve, stuck ~1 s in each failed reverse AH to C, does
	# not even answer A's rendezvous in time (A exits 3, nothing set up).
	[ "$A_RC" -eq 0 ] || fail "A: exit status $A_RC while B failed to answer C"
	jq -e '.[0] | .status == "reachable" and .received == 200 and .lost == 0 and .late == 0' \
		"$BATS_TEST_TMPDIR/a.json" || fail "A lost probes while B failed to answer C"
	jq -e '.[0] | .received == 0 and .status == "unreachable"' "$BATS_TEST_TMPDIR/c.json"
	[ "$C_RC" -eq 1 ]
	jq -e '.dropped.reverse_ah >= 1 and .answered >= 200' <<<"$summary"
}
