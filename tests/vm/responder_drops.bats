#!/usr/bin/env bats
# Responder drops are not path loss (issue 25, item 4): three probers
# burst at once at a serve whose receive queue holds 2 receives (serve
# --rq-depth 2); the probes that find no posted receive are dropped by
# the device, and probe names them "dropped at the responder (receive
# queue full)", not "lost on the way there".
#
# What rxe shows, honestly: rxe has no counter for such drops (its
# responder, rxe_resp.c, drops a UD packet that finds no receive WQE as
# "class D" without counting it; rxe_hw_counters.c has nothing for it),
# so serve reports "rq_drop_counter": null and the evidence here is what
# serve sees itself: a poll that took every receive it had posted (the
# queue ran empty). On mlx5 the port's out_of_buffer counter would say
# how many were dropped; that path is covered by the unit tests only.
# Rendezvous port 18751, serve on c.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
	start_serve c "$BATS_FILE_TMPDIR/serve.c" 18751 --rq-depth 2 || return 1
	# Reply AHs to the three probers made before the burst (first
	# contact would be "resolving", not the queue).
	local x
	for x in a b d; do
		timeout 60 "$IBAHPROBE" -d "$(fabric_var "$x" RXE)" -g auto probe \
			-c 1 -t 3000 c:18751 >/dev/null || true
	done
}

teardown_file() {
	stop_serves "$BATS_FILE_TMPDIR"
	true
}

# The three probers at once; 0 when some probe found the queue full.
burst() {
	local x pids=()
	for x in a b d; do
		timeout 120 "$IBAHPROBE" -d "$(fabric_var "$x" RXE)" -g auto probe \
			-c 64 -w 32 -i 0 -t 2000 -j c:18751 \
			>"$BATS_TEST_TMPDIR/burst.$x" 2>"$BATS_TEST_TMPDIR/burst.$x.err" &
		pids+=($!)
	done
	wait "${pids[@]}" || true
	for x in a b d; do
		echo "== $x"
		cat "$BATS_TEST_TMPDIR/burst.$x"
	done
	cat "$BATS_TEST_TMPDIR"/burst.[abd] | jq -s -e \
		'[.[][] | .lost_there // 0] | add > 0' >/dev/null
}

@test "a burst of three probers at a 2-deep receive queue: named as responder drops, never 'lost on the way there'" {
	local try
	# Some probe of a burst finds the queue full; on a loaded machine
	# serve may keep up with one burst, so three at most are tried (each
	# prober's run is its own set: the earlier bursts do not count).
	for try in 1 2 3; do
		burst && break
		echo "burst $try: serve kept up, no probe lost"
		[ "$try" -lt 3 ] || fail "no prober lost a probe in three bursts: none filled the queue"
	done
	# Every prober that lost probes there is told where they died.
	cat "$BATS_TEST_TMPDIR"/burst.[abd] | jq -s -e '[.[][] |
		select((.lost_there // 0) > 0)] | length > 0 and all(.[];
		.loss_direction == "responder_queue" and
		(.verdicts | index("responder_queue")) and
		(.verdicts | index("lost_there")) == null and
		any(.findings[]; startswith("dropped at the responder (receive queue full), most likely")))'
	! grep -h 'lost on the way there' "$BATS_TEST_TMPDIR"/burst.[abd] ||
		fail "a finding still blames the path"
	# serve's summary: no counter on rxe, the empty queue seen.
	serve_summary "$BATS_FILE_TMPDIR/serve.c" | jq -e \
		'.rq_depth == 2 and .rq_drop_counter == null and .rq_empty_seen > 0'
}
