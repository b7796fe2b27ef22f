#!/usr/bin/env bats
# What each RTT figure measures (issue 22), on the real rxe driver: the
# first reply to a prober the responder must first resolve a neighbour
# for waits in the responder, and that wait shows in rtt_us but not in
# network_rtt_us, named in responder_us; busy polling at either end is
# said in the header and in the stamps; rxe has no completion timestamps,
# decided from its reported capabilities.
# Rendezvous ports 18570-18573, serve on b.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
INJECT=$BATS_TEST_DIRNAME/../../build/tests/tools/ud_inject

setup_file() { require_vm_fabric || return 1; }

teardown_file() { stop_serves "$BATS_FILE_TMPDIR"; }

probe_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe "$@"; }

@test "first contact: the responder's neighbour wait is in rtt and responder_us, not in network_rtt" {
	start_serve b "$BATS_FILE_TMPDIR/serve.first" 18570
	# B has never answered A: its reply AH must find A's link-layer
	# address first (IPv6 neighbour discovery).
	ip -6 neigh flush to "$FABRIC_A_IP6"
	run -0 probe_a -c 4 -w 1 -t 5000 -j b6:18570
	echo "$output"
	echo "$output" | jq -e '.[0] |
		.received == 4 and .stamps == "sw-event" and
		.responder_us.reply_ah_wait_max > 0 and
		# the wait is the responder'"'"'s: the largest dwell is it
		.responder_us.max >= .responder_us.reply_ah_wait_max and
		# end to end holds the wait, the network share does not: the
		# longest round trip is mostly the wait, and no network
		# figure comes near it
		.rtt_us.max >= .responder_us.max and
		.responder_us.reply_ah_wait_max > .rtt_us.max / 2 and
		.network_rtt_us.max < .rtt_us.max / 2 and
		.dwell_unknown == 0'
}

@test "the header and -v say what RTT is shown and what the stamps cannot see" {
	start_serve b "$BATS_FILE_TMPDIR/serve.text" 18571
	run -0 probe_a -c 3 -v b:18571
	echo "$output"
	[[ $output == *"RTT end to end, events"* ]]
	[[ $output == *"timing: software stamps after completion events"* ]]
	[[ $output == *"no completion timestamps"* ]]
	[[ $output =~ RTT\ medians:\ [0-9.]+(us|ms)\ end\ to\ end,\ network\ [0-9.]+(us|ms)\ \(sw-event\ stamps\),\ responder ]]
}

@test "--busy-poll at both ends: sw-busy stamps, busy poll in the header" {
	start_serve b "$BATS_FILE_TMPDIR/serve.busy" 18572 --busy-poll
	# First contact outside the measured run: the reply AH is made by a
	# worker that a spinning responder leaves one vCPU for.
	probe_a -c 1 -t 5000 b:18572 >/dev/null || true
	# Both ends spin on a 2-vCPU guest: the kernel's rxe work gets
	# little room, so a generous deadline.
	run probe_a -c 20 -t 5000 --busy-poll -j b:18572
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.[0] | .received == 20 and .stamps == "sw-busy" and
		.network_rtt_us.median > 0 and .network_rtt_us.median <= .rtt_us.median and
		.responder_us.median > 0'
	run -0 probe_a -c 2 --busy-poll b:18572
	[[ $output == *"RTT end to end, busy poll"* ]]
	# One end busy: the network share is only as good as the sleeping end.
	run -0 probe_a -c 5 -j b:18572
	echo "$output" | jq -e '.[0].stamps == "sw-event"'
}

@test "an older prober's request (136 bytes, no timing flag) gets the 136-byte reply it reads" {
	[ -x "$INJECT" ] || missing "build/tests/tools/ud_inject (make vm-build)"
	local log=$BATS_FILE_TMPDIR/serve.old qpn
	start_serve b "$log" 18573
	qpn=$(jq -r 'select(.event == "ready") | .qpn' "$log")
	# The reply AH exists before the injector's 2 s of listening start.
	probe_a -c 1 -t 5000 b:18573 >/dev/null || true
	run -0 timeout 30 "$INJECT" -r -d "$FABRIC_A_RXE" -g "$(fabric_gid_index a 4)" \
		"::ffff:$FABRIC_B_IP4" "$qpn" 0x1ab4e0be request_v1 2
	echo "$output"
	[ "$(grep -c '^reply 136$' <<<"$output")" -eq 2 ]
	run -0 timeout 30 "$INJECT" -r -d "$FABRIC_A_RXE" -g "$(fabric_gid_index a 4)" \
		"::ffff:$FABRIC_B_IP4" "$qpn" 0x1ab4e0be request 2
	echo "$output"
	[ "$(grep -c '^reply 160$' <<<"$output")" -eq 2 ]
	# rxe has no completion timestamps: no stamps message follows.
	! grep -q '^stamps' <<<"$output"
}
