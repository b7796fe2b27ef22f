#!/usr/bin/env bats
# probe --continuous as a monitor on the real rxe driver: rounds of
# --interval-round seconds, after each the --metrics file replaced whole
# (promtool check metrics passes on the real file; hops, remarking on R2,
# the responder's device, a dead destination's setup_failed), JSON Lines
# records numbered by round with the round's own counts, and memory flat
# over many short rounds.
# Runs in the guest (tests/vm/run). Rendezvous ports 18671-18679.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	[ -n "${FABRIC_ENDPOINTS:-}" ] || {
		echo "not inside the VM fabric: run tests/vm/run" >&2
		return 1
	}
	start_serve b "$BATS_FILE_TMPDIR/serve.b" 18671
	start_serve d "$BATS_FILE_TMPDIR/serve.d" 18672
}

teardown_file() { stop_serves "$BATS_FILE_TMPDIR"; }

# The value of the sample of FAMILY whose labels contain LABELS, in FILE.
sample() { grep -F "$1{" "$3" | grep -F "$2" | awk '{ print $NF }'; }

@test "--metrics: the file after each round passes promtool; loss, hops, remarking, device, a dead destination" {
	command -v promtool >/dev/null || missing "promtool is not installed (prometheus; make deps)"
	local f=$BATS_TEST_TMPDIR/ibahprobe.prom pid seen=0 i t0
	t0=$(date +%s)
	timeout --preserve-status -s INT 6 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe --continuous \
		--interval-round 1 -i 100 --tclass 0x28 --metrics "$f" \
		b:18671 d:18672 c:18679 >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	# While it runs: the file appears after a round, always whole.
	for ((i = 0; i < 50; i++)); do
		sleep 0.1
		[ -e "$f" ] || continue
		cp "$f" "$BATS_TEST_TMPDIR/mid.prom"
		seen=1
		break
	done
	wait "$pid" && rc=0 || rc=$?
	[ "$rc" -eq 1 ] || fail "exit $rc (c:18679 has no responder: 1): $(cat "$BATS_TEST_TMPDIR/err")"
	[ "$seen" -eq 1 ] || fail "no metrics file during the run"
	run -0 promtool check metrics <"$BATS_TEST_TMPDIR/mid.prom"
	run -0 promtool check metrics <"$f"
	[ -z "$output" ] || fail "promtool: $output"
	[ ! -e "$f.tmp" ] || fail "$f.tmp left behind"
	local b="dest=\"b:18671\",dest_device=\"$FABRIC_B_RXE\",source_device=\"$FABRIC_A_RXE\",source_port=\"1\",traffic_class=\"40\""
	local d="dest=\"d:18672\",dest_device=\"$FABRIC_D_RXE\",source_device=\"$FABRIC_A_RXE\",source_port=\"1\",traffic_class=\"40\""
	local c='dest="c:18679",source_device="'$FABRIC_A_RXE'",source_port="1",traffic_class="40"'
	# Rounds of 1 s in 6 s, and the last one cut short by SIGINT.
	[ "$(sample ibahprobe_rounds_total '' "$f")" -ge 4 ] || fail "$(cat "$f")"
	[ "$(sample ibahprobe_loss_ratio "$b" "$f")" = 0 ] || fail "$(cat "$f")"
	[ "$(sample ibahprobe_probes_sent_total "$b" "$f")" -ge 30 ] || fail "$(cat "$f")"
	[ "$(sample ibahprobe_probes_received_total "$b" "$f")" = "$(sample ibahprobe_probes_sent_total "$b" "$f")" ]
	[ "$(sample ibahprobe_hops "$b" "$f")" = "$FABRIC_HOPS_A_B" ] || fail "$(cat "$f")"
	[ "$(sample ibahprobe_hops "$d" "$f")" = "$FABRIC_HOPS_A_D" ] || fail "$(cat "$f")"
	[ "$(sample ibahprobe_traffic_class_remarked "$b" "$f")" = 0 ] || fail "$(cat "$f")"
	[ "$(sample ibahprobe_traffic_class_remarked "$d" "$f")" = 1 ] || fail "R2 remarks towards d: $(cat "$f")"
	[ "$(sample ibahprobe_setup_failed "$c" "$f")" = 1 ] || fail "$(cat "$f")"
	[ "$(sample ibahprobe_setup_failed "$b" "$f")" = 0 ] || fail "$(cat "$f")"
	[ "$(sample ibahprobe_last_success_timestamp_seconds "$c" "$f")" = 0.000 ] || fail "$(cat "$f")"
	# The last success is a wall-clock time within the run.
	awk -v t0="$t0" -v t1="$(date +%s)" '{ exit !($NF >= t0 && $NF <= t1 + 1) }' \
		<<<"$(grep -F "ibahprobe_last_success_timestamp_seconds{$b}" "$f")" ||
		fail "last success not in [$t0, now]: $(grep last_success "$f")"
	grep -qF "ibahprobe_rtt_seconds{$b,quantile=\"0.5\"}" "$f" || fail "$(cat "$f")"
}

@test "--jsonl: each round's records carry its number and its own counts" {
	run -0 --separate-stderr timeout --preserve-status -s INT 4.5 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto \
		probe --continuous --interval-round 1 -i 100 --jsonl b:18671 d:18672
	jq -e -s '
		(map(select(.record == "result")) | group_by(.dest)) as $by |
		($by | length == 2) and
		all($by[]; map(.round.number) == [range(1; length + 1)] and
			(map(.round.sent) | add) == last.sent and
			(map(select(.running)) | length >= 1) and
			(last | .running == false and .interrupted)) and
		# whole rounds of 1 s at -i 100 (the last, cut short, may be empty)
		all($by[][] | select(.running); .round.sent >= 3 and .round.sent <= 15 and
			.round.lost == .round.sent - .round.received and
			.round.loss_ratio == 0 and .round.rtt_us.median > 0)' <<<"$output" ||
		fail "$output"
}

# anon_kib PID: the process's anonymous resident memory (heap, stacks),
# counted from its page tables (smaps_rollup). Not RssAnon of
# /proc/PID/status: before Linux 6.2 that is the mm's counter, which each
# thread updates in batches (SPLIT_RSS_COUNTING, TASK_RSS_EVENTS_THRESH of
# 64 faults, mm/memory.c sync_mm_rss; percpu counters since commit
# f1a7941243c1), so on the 6.1 guest it lagged and then jumped by some 180
# KiB mid-run while smaps showed 24 KiB more.
anon_kib() { awk '/^Anonymous:/ { print $2 }' "/proc/$1/smaps_rollup"; }

@test "many short rounds: memory stays flat" {
	local pid child anon1 anon2 rounds1 rounds2
	timeout --preserve-status -s INT 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe --continuous \
		--interval-round 1 -i 100 --metrics "$BATS_TEST_TMPDIR/m.prom" b:18671 d:18672 \
		>/dev/null 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	sleep 5
	child=$(pgrep -P "$pid" -x ibahprobe) || fail "probe is not running: $(cat "$BATS_TEST_TMPDIR/err")"
	anon1=$(anon_kib "$child")
	rounds1=$(sample ibahprobe_rounds_total '' "$BATS_TEST_TMPDIR/m.prom")
	sleep 15
	anon2=$(anon_kib "$child")
	rounds2=$(sample ibahprobe_rounds_total '' "$BATS_TEST_TMPDIR/m.prom")
	kill -INT "$child"
	wait "$pid" || fail "$(cat "$BATS_TEST_TMPDIR/err")"
	[ $((rounds2 - rounds1)) -ge 10 ] || fail "rounds $rounds1 then $rounds2"
	# Rounds later, at most the RTT samples (2 x 150 x 8 bytes, stored
	# twice while a realloc moves them) and the sequence ring's pages
	# (300 x 24 bytes) more: nothing per round.
	[ $((anon2 - anon1)) -le 48 ] ||
		fail "anonymous memory grew from $anon1 to $anon2 KiB from round $rounds1 to $rounds2"
}

# Issue 26: the run's totals hide "down now" (0/20 lost, then 12/32 while
# the last rounds got nothing): each row has the round beside the run,
# and a round that got nothing says since when.
@test "a responder killed mid-run: its rows say no reply since when, the round 100% lost; the others stay ok" {
	local out=$BATS_TEST_TMPDIR/out pid
	start_serve d "$BATS_TEST_TMPDIR/serve.d2" 18673
	timeout --preserve-status -s INT 8 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe --continuous \
		--interval-round 1 -i 100 b:18671 d:18673 >"$out" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	sleep 3.5
	kill "$(cat "$BATS_TEST_TMPDIR/serve.d2.pid")"
	wait "$pid" || true
	cat "$out"
	grep -qE '^DEST +STATUS +LOST +RTT +P99 +LAST% +LAST +HOPS +TC$' "$out" ||
		fail "no LAST% and LAST titles"
	grep -qE '^d:18673 +ok +0/[0-9]+ .* 0% ' "$out" || fail "d was ok before"
	grep -qE '^d:18673 +no reply +[0-9]+/[0-9]+ .* 100% +- ' "$out" ||
		fail "no round of d with no reply"
	grep -A1 -E '^d:18673 +no reply' "$out" | grep -qE '^    no reply since [0-2][0-9]:[0-5][0-9]:[0-5][0-9]$' ||
		fail "no 'no reply since HH:MM:SS' under d's row"
	! grep -qE '^b:18671 +no reply' "$out" || fail "b had a silent round"
	[ "$(awk '{ print length }' "$out" | sort -n | tail -1)" -lt 100 ] || fail "a line of 100 columns or more"
}
