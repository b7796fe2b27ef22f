#!/usr/bin/env bats
# A continuous run follows a responder that restarted (issue 24): serve on
# D is killed mid-run and started again on the same rendezvous port, with
# a new QP; the prober asks the rendezvous again after a round without a
# reply, follows the new QPN, counts the downtime as loss (within about a
# round), and says so in its rows, its JSON Lines and its metrics. A
# short run still only reports the restart at its end. Rendezvous port
# 18795.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
}

teardown_file() {
	stop_serves "$BATS_FILE_TMPDIR"
	true
}

# kill_serve LOGFILE: SIGKILL to the serve start_serve began (the child
# of its timeout(1)), as a crash or an OOM kill ends it.
kill_serve() {
	pkill -KILL -P "$(cat "$1.pid")"
	kill "$(cat "$1.pid")" 2>/dev/null || true
	rm -f "$1.pid"
}

# The QPN in serve's ready line.
ready_qpn() {
	grep -m1 '"event":"ready"' "$1" | jq -r .qpn
}

@test "continuous: serve killed and restarted mid-run is followed to its new QPN; the loss is the downtime" {
	local d=$BATS_FILE_TMPDIR out=$BATS_FILE_TMPDIR/run.jsonl pid qpn1 qpn2 t_kill t_back
	local t_start t_end
	start_serve d "$d/serve.1" 18795
	qpn1=$(ready_qpn "$d/serve.1")
	t_start=$(date +%s%N)
	# Rounds of 1 s, a probe every 100 ms: 10 per round.
	timeout -s INT 14 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe --continuous \
		--interval-round 1 -i 100 --metrics "$d/m.prom" --jsonl d:18795 \
		>"$out" 2>"$d/run.err" &
	pid=$!
	sleep 4
	t_kill=$(date +%s%N)
	kill_serve "$d/serve.1"
	sleep 2
	start_serve d "$d/serve.2" 18795
	t_back=$(date +%s%N)
	qpn2=$(ready_qpn "$d/serve.2")
	[ "$qpn1" != "$qpn2" ] || fail "the new serve has the same QPN $qpn1"
	wait "$pid" || true
	t_end=$(date +%s%N)
	# The last record: the restart followed, the new QPN used.
	jq -se --argjson a "$qpn1" --argjson b "$qpn2" 'map(select(.record == "result")) | last |
		.responder_restarts.count == 1 and .responder_restarts.first_qpn == $a and
		.responder_restarts.qpn == $b and (.responder_restarts.last_at | test("^[0-9]{2}:[0-9]{2}:[0-9]{2}$")) and
		(.verdicts | index("responder_restarted")) and
		any(.findings[]; test("the responder restarted at [0-9:]+ [(]QPN \($a) -> \($b)[)]: the probes followed it"))' \
		"$out" >/dev/null || fail "$(tail -1 "$out")
$(cat "$d/run.err")"
	# Rounds after the follow are answered in full again.
	jq -se 'map(select(.record == "result")) | .[-3:] | all(.round.lost == 0)' "$out" >/dev/null ||
		fail "the last rounds lost probes: $(jq -c '.round' "$out" | tail -4)"
	# The loss: the downtime (kill to ready again) at the rate the
	# prober really sent (a loaded guest sends fewer than 10 a second),
	# plus at most about a round until the follow.
	local lost sent down_ms run_ms per_round expected
	lost=$(jq -s 'map(select(.record == "result")) | last | .sent - .received' "$out")
	sent=$(jq -s 'map(select(.record == "result")) | last | .sent' "$out")
	down_ms=$(((t_back - t_kill) / 1000000))
	run_ms=$(((t_end - t_start) / 1000000))
	per_round=$((sent * 1000 / run_ms))
	expected=$((sent * down_ms / run_ms))
	echo "lost $lost of $sent, down $down_ms of $run_ms ms: $expected expected, $per_round a round" >&3
	[ "$lost" -ge $((expected - per_round - 2)) ] || fail "lost $lost, expected $expected"
	[ "$lost" -le $((expected + per_round * 3 / 2 + 2)) ] ||
		fail "lost $lost, expected $expected: not followed within a round"
	# The metrics count it; stderr said it when it happened.
	grep -q '^ibahprobe_responder_restarts_total{dest="d:18795".*} 1$' "$d/m.prom" ||
		fail "$(grep restarts "$d/m.prom")"
	grep -q "d:18795: responder restarted at [0-9:]* (QPN $qpn1 -> $qpn2): following it" "$d/run.err" ||
		fail "$(cat "$d/run.err")"
}

@test "continuous text: the restart is a line after the round's rows" {
	local d=$BATS_FILE_TMPDIR pid qpn1 qpn2
	stop_serves "$d" || true
	start_serve d "$d/serve.3" 18795
	qpn1=$(ready_qpn "$d/serve.3")
	timeout -s INT 8 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe --continuous \
		--interval-round 1 -i 100 d:18795 >"$d/text.out" 2>"$d/text.err" &
	pid=$!
	sleep 2
	kill_serve "$d/serve.3"
	sleep 1
	start_serve d "$d/serve.4" 18795
	qpn2=$(ready_qpn "$d/serve.4")
	wait "$pid" || true
	grep -q "^d:18795: responder restarted at [0-9:]* (QPN $qpn1 -> $qpn2): following it$" "$d/text.out" ||
		fail "$(cat "$d/text.out")"
	awk 'length > 99 { bad = 1 } END { exit bad }' "$d/text.out" || fail "a line over 99 columns"
}
