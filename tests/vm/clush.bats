#!/usr/bin/env bats
# The fabric-wide run through ClusterShell, end to end, as fanout.bats does
# through pdsh: clush (its exec worker, -R exec, which Debian 12's
# clustershell 1.9 has) starts serve on every endpoint with --pidfile,
# runs probe --jsonl from every endpoint to all the others, report merges
# the lines into one 4 x 4 matrix with the fabric's hops, and the
# responders are stopped through their pidfiles. clush-host maps %h to an
# endpoint. Rendezvous ports 18661-18664, apart from the other files'.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/ibahprobe
WRAPPER=$BATS_TEST_DIRNAME/clush-host

# clush with the exec worker on the given endpoints, the wrapper's action;
# -S: the largest exit status, -N: no "host: " prefix (the lines stay
# JSON). HOME: clush reads no user's configuration but its own defaults.
fan() {
	local hosts=$1
	shift
	HOME=$BATS_FILE_TMPDIR timeout 180 clush -S -N -R exec -w "$hosts" "$WRAPPER %h $*"
}

setup_file() {
	[ -n "${FABRIC_ENDPOINTS:-}" ] || {
		echo "not inside the VM fabric: run tests/vm/run" >&2
		return 1
	}
	command -v clush >/dev/null || {
		echo "clush is not installed (Debian package clustershell; make deps)" >&2
		return 1
	}
	export IBAHPROBE
	printf '%s\n' a:18661 b:18662 c:18663 d:18664 >"$BATS_FILE_TMPDIR/hosts.txt"
	fan a,b,c,d serve "$BATS_FILE_TMPDIR"
}

teardown_file() {
	fan a,b,c,d stop "$BATS_FILE_TMPDIR" 2>/dev/null || true
	local pf
	for pf in "$BATS_FILE_TMPDIR"/serve.*.pid; do
		[ -s "$pf" ] && kill "$(cat "$pf")" 2>/dev/null
	done
	true
}

# The report's cell from source endpoint $1 to destination endpoint $2.
cell() {
	jq -c --arg s "$(fabric_var "$1" IP4)" --arg d "$(fabric_var "$2" IP4)" '
		(.sources[] | select(.address == $s) | .name) as $sn |
		(.destinations[] | select(.address == $d) | .name) as $dn |
		.cells[] | select(.source == $sn and .destination == $dn)' \
		"$BATS_FILE_TMPDIR/report.json"
}

@test "clush started serve everywhere: each pidfile holds its serve's pid" {
	local x pf pid
	for x in a b c d; do
		pf=$BATS_FILE_TMPDIR/serve.$x.pid
		pid=$(cat "$pf")
		grep -q ' serve ' <(tr '\0' ' ' <"/proc/$pid/cmdline") || fail "$x: pid $pid is no serve"
		jq -e --arg pf "$pf" 'select(.event == "ready") | .pidfile == $pf' \
			"$BATS_FILE_TMPDIR/serve.$x" >/dev/null || fail "$(cat "$BATS_FILE_TMPDIR/serve.$x")"
	done
}

@test "probe from every endpoint through clush, merged by report: 4 x 4, the fabric's hops" {
	local x y want
	run -0 --separate-stderr fan a,b,c,d probe "$BATS_FILE_TMPDIR/hosts.txt" -c 3 -t 3000
	echo "$output" >"$BATS_FILE_TMPDIR/all.jsonl"
	jq -e -s 'map(select(.record == "result")) | length == 12' "$BATS_FILE_TMPDIR/all.jsonl" ||
		fail "12 results expected (clush -S status 0): $output $stderr"
	jq -e -s '[.[] | select(.record == "summary") | .skipped | length] == [1, 1, 1, 1]' \
		"$BATS_FILE_TMPDIR/all.jsonl" || fail "each prober skips itself: $output"
	run -0 "$IBAHPROBE" report -j "$BATS_FILE_TMPDIR/all.jsonl"
	echo "$output" >"$BATS_FILE_TMPDIR/report.json"
	jq -e '.summary == {sources: 4, destinations: 4, pairs: 12, reachable: 12,
			partial_loss: 0, unreachable: 0, error: 0, failed_runs: 0,
			sent_no_results: 0, never_probed: 0}' \
		"$BATS_FILE_TMPDIR/report.json" || fail "$(cat "$BATS_FILE_TMPDIR/report.json")"
	for x in a b c d; do
		for y in a b c d; do
			[ "$x" != "$y" ] || continue
			want=$(v="FABRIC_HOPS_$(printf '%s\n' "${x^^}" "${y^^}" | sort | paste -sd_)"; echo "${!v}")
			cell "$x" "$y" | jq -e --argjson h "$want" \
				'.status == "reachable" and .received == 3 and .hops == $h' >/dev/null ||
				fail "$x -> $y (hops $want): $(cell "$x" "$y")"
		done
	done
}

@test "stopped through its pidfile: clush -S exits 0, serve said SIGTERM and removed the file; probing d then fails, exit 1" {
	run -0 fan d stop "$BATS_FILE_TMPDIR"
	[ ! -e "$BATS_FILE_TMPDIR/serve.d.pid" ]
	jq -e 'select(.event == "summary") | .stopped_by == "SIGTERM"' \
		"$BATS_FILE_TMPDIR/serve.d" >/dev/null || fail "$(cat "$BATS_FILE_TMPDIR/serve.d")"
	run -1 --separate-stderr fan a,b,c probe "$BATS_FILE_TMPDIR/hosts.txt" -c 2 -t 3000
	echo "$output" >"$BATS_FILE_TMPDIR/gone.jsonl"
	run -1 "$IBAHPROBE" report -j "$BATS_FILE_TMPDIR/gone.jsonl"
	jq -e '.summary.error == 3 and .summary.reachable == 6' <<<"$output" >/dev/null || fail "$output"
	run -0 fan a,b,c stop "$BATS_FILE_TMPDIR"
	run -0 bash -c "ls '$BATS_FILE_TMPDIR'/serve.*.pid 2>/dev/null | wc -l"
	[ "$output" -eq 0 ] || fail "pidfiles left: $output"
}
