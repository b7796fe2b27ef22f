#!/usr/bin/env bats
# probe's output for people and scripts on the real rxe driver: a
# 30-destination, 3-set run fits in one line per destination and set (plus
# findings and a summary) under 100 columns; rows come live; a run until
# interrupted prints running rows and ends with the final ones; an
# interrupted run says so in text and JSON; colour only where asked; a dead
# destination is exit 1; output that cannot be written is exit 3.
# Runs in the guest (tests/vm/run). Rendezvous ports 18611-18640.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
	local x k port=18611
	# Ten responders on each of B, C and D: 30 destinations, 0, 1 and 2
	# router hops away, R2 remarking towards D.
	: >"$BATS_FILE_TMPDIR/dests"
	for x in b c d; do
		for ((k = 0; k < 10; k++)); do
			start_serve "$x" "$BATS_FILE_TMPDIR/serve.$port" "$port"
			echo "$x:$port" >>"$BATS_FILE_TMPDIR/dests"
			port=$((port + 1))
		done
	done
}

teardown_file() { stop_serves "$BATS_FILE_TMPDIR"; }

probe_a() { timeout 300 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe "$@"; }

# widest LINES...: the longest line's width.
widest() { awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }'; }

@test "30 destinations x 3 traffic classes: a header, one row per destination and set, findings, a summary, all under 100 columns" {
	run -0 --separate-stderr probe_a -c 3 --tclass 0,0x28,0xb8 -f "$BATS_FILE_TMPDIR/dests"
	echo "$output" >"$BATS_FILE_TMPDIR/table"
	[ "$(widest <"$BATS_FILE_TMPDIR/table")" -lt 100 ] || fail "a line of 100 columns or more: $output"
	# Header: the source named (device, port, link layer), the run sized.
	[[ ${lines[0]} == "probe from "*": $FABRIC_A_RXE port 1, Ethernet, sgid per destination (-g auto)" ]] ||
		fail "header: ${lines[0]}"
	[[ ${lines[1]} == "30 destinations x 3 sets, 3 probes each, 208 bytes, timeout "* ]] ||
		fail "run line: ${lines[1]}"
	[[ ${lines[2]} =~ ^DEST\ +STATUS\ +LOST\ +RTT\ +HOPS\ +TC$ ]] || fail "titles: ${lines[2]}"
	# Rows: not indented; findings: indented; the summary last.
	rows=$(sed -n '4,$p' "$BATS_FILE_TMPDIR/table" | grep -v '^ ' | sed '$d')
	[ "$(wc -l <<<"$rows")" -eq 90 ] || fail "90 rows expected: $output"
	# In destination order, each three times (one per set), aligned.
	[ "$(awk '{ print $1 }' <<<"$rows" | uniq | paste -sd' ')" = "$(paste -sd' ' "$BATS_FILE_TMPDIR/dests")" ] ||
		fail "order: $rows"
	[ "$(awk '{ print index($0, " ok ") }' <<<"$rows" | sort -u | wc -l)" -eq 1 ] ||
		fail "status column not aligned: $rows"
	# Hops from the fabric; remarking towards D shown as sent>seen.
	grep -q '^b:18611 .* ok .* 0  0x00$' <<<"$rows" || fail "b: $rows"
	grep -q '^c:18621 .* ok .* 1  0x28$' <<<"$rows" || fail "c: $rows"
	grep -q '^d:18631 .* ok .* 2  0xb8>0x30$' <<<"$rows" || fail "d: $rows"
	# 30 remarked sets (the ten D responders x three classes): one
	# finding each, none elsewhere.
	[ "$(grep -c '^    traffic class remarked' "$BATS_FILE_TMPDIR/table")" -eq 30 ] || fail "$output"
	[ "$(grep -c '^ ' "$BATS_FILE_TMPDIR/table")" -eq 30 ] || fail "other findings: $output"
	[ "${lines[-1]}" = "30 destinations, 3 sets: 90 ok, 0 loss, 0 unreachable, 0 errors; tc remarked 30" ] ||
		fail "summary: ${lines[-1]}"
	# No AH dumps without -v.
	[[ $output != *is_global* ]] || fail "AH dump without -v"
}

@test "-v adds the AH, the reverse AH and the hop limit rule under each row" {
	run -0 --separate-stderr probe_a -v -c 1 b:18611
	[[ $output == *"    AH is_global 1 "* ]] || fail "$output"
	[[ $output == *"    reverse AH is_global 1 "* ]] || fail "$output"
	[[ $output == *"    hop limit rule: rxe creates AHs in the kernel"* ]] || fail "$output"
}

@test "rows come live: a finished destination's row is out long before a lossy one ends the run" {
	# B answers at once; a dead host (no ARP answer) is an error row that
	# is ready at once too; C's responder is blocked on UDP 4791, so its
	# set waits for its deadlines and the second rendezvous.
	nft add table inet ibpout
	nft add chain inet ibpout in '{ type filter hook input priority 0; }'
	nft add rule inet ibpout in ip daddr "$FABRIC_C_IP4" udp dport 4791 drop
	probe_a -c 4 -i 300 -t 2000 b:18611 c:18621 >"$BATS_FILE_TMPDIR/live" 2>/dev/null &
	local pid=$! t_b="" t_end line rc
	# Time stamps in ms from bash itself (a process start costs ~0.1 s
	# under TCG).
	while kill -0 "$pid" 2>/dev/null; do
		if [ -z "$t_b" ]; then
			while IFS= read -r line; do
				[[ $line == "b:18611 "* ]] && t_b=${EPOCHREALTIME/./}
				[[ $line == "c:18621 "* ]] && fail "c's row came with b's"
			done <"$BATS_FILE_TMPDIR/live"
		fi
		sleep 0.05
	done
	t_end=${EPOCHREALTIME/./}
	wait "$pid" && rc=0 || rc=$?
	nft delete table inet ibpout
	[ -n "$t_b" ] || fail "b's row never came: $(cat "$BATS_FILE_TMPDIR/live")"
	[ $(((t_end - t_b) / 1000)) -ge 1000 ] ||
		fail "b's row came only $(((t_end - t_b) / 1000)) ms before the end"
	[ "$rc" -eq 1 ] || fail "exit $rc: $(cat "$BATS_FILE_TMPDIR/live")"
	grep -q '^c:18621 .* unreachable ' "$BATS_FILE_TMPDIR/live" || fail "$(cat "$BATS_FILE_TMPDIR/live")"
	grep -q 'data path is blocked\|RoCE v2 (UDP 4791)' "$BATS_FILE_TMPDIR/live" ||
		fail "the loss cause (second rendezvous) is missing: $(cat "$BATS_FILE_TMPDIR/live")"
}

@test "--continuous: running rows every --interval-round, final rows and summary on SIGINT, exit 0" {
	run -0 --separate-stderr timeout --preserve-status -s INT 5 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto \
		probe --continuous --interval-round 1 -i 100 b:18611 d:18631
	[ "$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2}  [0-9]+ probes sent$' <<<"$output")" -ge 2 ] ||
		fail "running blocks: $output"
	[[ ${lines[1]} == *"until interrupted"* ]] || fail "${lines[1]}"
	[[ $output =~ interrupted\ \(SIGINT\)\ after\ [0-9]+\ probes ]] || fail "$output"
	[ "${lines[-1]}" = "2 destinations, 1 set: 2 ok, 0 loss, 0 unreachable, 0 errors; tc remarked 1" ] ||
		fail "${lines[-1]}"
	[ "$(widest <<<"$output")" -lt 100 ] || fail "$output"
	# JSON Lines: running records, the final ones, a summary that says
	# interrupted.
	run -0 --separate-stderr timeout --preserve-status -s INT 3 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto \
		probe -c 0 --interval-round 1 -i 100 --jsonl b:18611
	jq -e -s '
		(map(select(.record == "result" and .running)) | length >= 1) and
		(map(select(.record == "result" and (.running | not))) | length == 1) and
		(last | .record == "summary" and .interrupted and .exit_status == 0 and
			.run_params.continuous and .run_params.count == 0) and
		(map(.run_id) | unique | length == 1)' <<<"$output" || fail "$output"
}

@test "an interrupted run says so: text line, interrupted results in JSON, exit 1" {
	run -1 --separate-stderr timeout --preserve-status -s INT 2 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto \
		probe -c 100 -i 100 b:18611
	[[ $output =~ interrupted\ \(SIGINT\)\ after\ [0-9]+\ probes ]] || fail "$output"
	run -1 --separate-stderr timeout --preserve-status -s INT 2 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto \
		probe -c 100 -i 100 -j b:18611
	jq -e '.[0].interrupted and .[0].sent < 100 and .[0].record == "result" and
		.[0].schema == "ibahprobe.probe.v1"' <<<"$output" || fail "$output"
}

@test "colour: --color=always marks the verdict, auto on a terminal too unless NO_COLOR, never on a pipe" {
	run -0 --separate-stderr probe_a -c 1 --color=always b:18611
	[[ $output == *$'\e[32mok\e[0m'* ]] || fail "$output"
	run -0 --separate-stderr probe_a -c 1 b:18611
	[[ $output != *$'\e['* ]] || fail "colour on a pipe: $output"
	run -0 env TERM=xterm script -qec "$IBAHPROBE -d $FABRIC_A_RXE -g auto probe -c 1 b:18611 2>/dev/null" /dev/null
	[[ $output == *$'\e[32mok'* ]] || fail "no colour on a terminal: $output"
	run -0 env TERM=xterm NO_COLOR=1 script -qec "$IBAHPROBE -d $FABRIC_A_RXE -g auto probe -c 1 b:18611 2>/dev/null" /dev/null
	[[ $output != *$'\e[3'* ]] || fail "NO_COLOR ignored: $output"
}

@test "a dead or unresolvable destination, even the only one, is exit 1 with its error in its row" {
	local dead=${FABRIC_A_IP4%.*}.97
	run -1 --separate-stderr probe_a -c 1 -t 700 "$dead:18611"
	[[ $output == *"$dead:18611  error  "* ]] || fail "$output"
	[ "${lines[-1]}" = "1 destination, 1 set: 0 ok, 0 loss, 0 unreachable, 1 error" ] || fail "$output"
	run -1 --separate-stderr probe_a -c 1 -j no-such-host.invalid
	jq -e '.[0].status == "error" and (.[0].error | test("resolve"))' <<<"$output" || fail "$output"
}

@test "output that cannot be written is exit 3, one message, also when a destination failed" {
	run -3 --separate-stderr bash -c "timeout 120 '$IBAHPROBE' -d '$FABRIC_A_RXE' -g auto probe -c 1 b:18611 no-such-host.invalid >/dev/full"
	[ "$(grep -c 'cannot write output' <<<"$stderr")" -eq 1 ] || fail "$stderr"
	[[ $stderr == *"No space left on device"* ]] || fail "$stderr"
	run -3 --separate-stderr bash -c "timeout 120 '$IBAHPROBE' -d '$FABRIC_A_RXE' -g auto probe -c 1 --jsonl b:18611 >/dev/full"
	[ "$(grep -c 'cannot write output' <<<"$stderr")" -eq 1 ] || fail "$stderr"
}

@test "check interrupted: TAP ends with Bail out!, JSON says interrupted, exit 1" {
	# C's data path dropped and a 6 s deadline: the run is still waiting
	# when SIGINT comes.
	printf 'b:18611 reachable\nc:18621 reachable\n' >"$BATS_FILE_TMPDIR/int.chk"
	nft add table inet ibpchk
	nft add chain inet ibpchk in '{ type filter hook input priority 0; }'
	nft add rule inet ibpchk in ip daddr "$FABRIC_C_IP4" udp dport 4791 drop
	run -1 --separate-stderr timeout --preserve-status -s INT 3 "$IBAHPROBE" \
		-d "$FABRIC_A_RXE" -g auto -t 6000 check "$BATS_FILE_TMPDIR/int.chk"
	local text=$output
	run -1 --separate-stderr timeout --preserve-status -s INT 3 "$IBAHPROBE" \
		-d "$FABRIC_A_RXE" -g auto -t 6000 -j check "$BATS_FILE_TMPDIR/int.chk"
	nft delete table inet ibpchk
	[[ $text =~ Bail\ out!\ interrupted\ \(SIGINT\)\ after\ [0-9]+\ probes$ ]] || fail "$text"
	jq -e '.interrupted == true' <<<"$output" || fail "$output"
}
