#!/usr/bin/env bats
# Responder registration and discovery through SA ServiceRecords on the
# two-switch subnet: the SA half of `serve --register` (driven by
# tests/tools/sa_service, the same lib code, as there are no verbs here)
# and `probe --discover --list`, with saquery -S as the reference. The
# simulator has no RMPP: a table of two records arrives cut to its first
# packet, which ibahprobe must say. The last test kills the SM.

load helpers

# The test driver built with the binary under test (build/ or build-san/).
SA_SERVICE=$(dirname "$IBAHPROBE")/tests/tools/sa_service
[ -x "$SA_SERVICE" ] || SA_SERVICE=$TOP/build/tests/tools/sa_service

setup_file() {
	[ -x "$SA_SERVICE" ] || missing "tests/tools/sa_service is not built (make check-build)"
	sim_setup_file two-switch.topo
}
teardown_file() { sim_stop; }

SERVICES=()

# Registers a record from NODE and holds it (renewing) until stopped;
# waits for the registration. NAME names its files.
start_service() {	# NAME NODE SA_SERVICE_ARGS...
	local name=$1 node=$2 i
	shift 2
	# A generous SA deadline first (a later -t wins): on a loaded machine
	# opensm, just (re)started by an earlier test, may answer slowly.
	sim_run "$node" "$SA_SERVICE" -p "$SIM_DIR/$name.pid" -t 1000 "$@" \
		>"$SIM_DIR/$name.out" 2>&1 &
	echo $! >"$SIM_DIR/$name.job"
	SERVICES+=("$name")
	for ((i = 0; i < 100; i++)); do
		grep -q '^registered' "$SIM_DIR/$name.out" && return 0
		kill -0 "$(cat "$SIM_DIR/$name.job")" 2>/dev/null || break
		sleep 0.1
	done
	fail "sa_service $name on $node did not register: $(cat "$SIM_DIR/$name.out")"
}

# SIGTERM: the driver deletes its record and exits on its own.
stop_service() {	# NAME
	local name=$1 job
	[ -f "$SIM_DIR/$name.pid" ] && kill -TERM "$(cat "$SIM_DIR/$name.pid")" 2>/dev/null
	job=$(cat "$SIM_DIR/$name.job" 2>/dev/null) || return 0
	_sim_wait 10 bash -c "! kill -0 $job 2>/dev/null" ||
		fail "sa_service $name did not exit after SIGTERM"
	rm -f "$SIM_DIR/$name.pid" "$SIM_DIR/$name.job"
}

teardown() {
	local name
	for name in "${SERVICES[@]}"; do
		stop_service "$name"
	done
}

# saquery -S on H1: one "Field....value" pair per line.
saquery_services() {
	sim_run H1 saquery -S 2>/dev/null |
		sed -n 's/^[[:space:]]*\([A-Za-z_0-9.]*[A-Za-z0-9]\)\.\.*\(.*\)$/\1 \2/p'
}

@test "register: saquery -S sees the record with ServiceID, GID, name, lease and data" {
	start_service h2 H2 -n hostH2 -r 18515 0x123 0x1ab4e0be
	run -0 saquery_services
	assert_line "ServiceID 0x020000001ab4e0be"
	assert_line "ServiceGID $(sim_gid H2)"
	assert_line "ServiceP_Key 0xFFFF"
	assert_line "ServiceLease 0x3C"
	assert_line "ServiceName ibahprobe:hostH2"
	assert_line "ServiceData16.1 0x1"
	assert_line "ServiceData16.2 0x4853"
	assert_line "ServiceData16.3 $(printf '0x%X' "$(sim_lid H2)")"
	assert_line "ServiceData32.1 0x123"
	assert_line "ServiceData32.2 0x1AB4E0BE"
}

@test "discover --list: the registered responder as JSON and text, with its path's LID" {
	start_service h3 H3 -n hostH3 -r 18515 0x4567 0x1ab4e0be
	run -0 --separate-stderr iba_on H1 probe --discover --list -j
	[ -z "$stderr" ] || fail "stderr: $stderr"
	echo "$output" | jq -e --arg gid "$(sim_gid H3)" --argjson lid "$(sim_lid H3)" '
		length == 1 and (.[0] | .gid == $gid and .status == "ok" and
		.qpn == 17767 and .qkey == 448061630 and .lid == $lid and
		.host == "hostH3" and .rendezvous_port == 18515 and .lease_s == 60)' ||
		fail "$output"
	run -0 iba_on H4 probe --discover --list
	assert_output "$(sim_gid H3) host hostH3: ok lid $(sim_lid H3) qpn 17767 qkey 0x1ab4e0be rendezvous_port 18515 lease 60 s"
}

@test "two responders from two nodes: each found by GID or GUID; the whole table arrives cut (no RMPP) and says so" {
	start_service h2 H2 -n hostH2 0x123 0x1ab4e0be
	start_service h3 H3 -n hostH3 0x456 0x11111111
	run -1 --separate-stderr iba_on H1 probe --discover --list -j \
		"gid:$(sim_gid H2)" "guid:$(sim_guid H3)" "gid:$(sim_gid H4)"
	echo "$output" | jq -e --arg g2 "$(sim_gid H2)" --arg g3 "$(sim_gid H3)" \
		--arg g4 "$(sim_gid H4)" --argjson l2 "$(sim_lid H2)" --argjson l3 "$(sim_lid H3)" '
		map(.gid) == [$g2, $g3, $g4] and map(.status) == ["ok", "ok", "error"] and
		.[0].qpn == 291 and .[0].lid == $l2 and .[0].host == "hostH2" and
		.[1].qpn == 1110 and .[1].qkey == 286331153 and .[1].lid == $l3 and
		(.[2].error | test("no ibahprobe responder is registered for " + $g4))' ||
		fail "$output"
	# Both records as one table: two records do not fit one MAD.
	run -1 --separate-stderr iba_on H1 probe --discover --list -j
	[[ $stderr == *"only the first packet of the SA's answer arrived (1 ServiceRecords of more)"*"the list is incomplete"* ]] ||
		fail "no warning: $stderr"
	echo "$output" | jq -e 'length == 1 and (.[0].qpn == 291 or .[0].qpn == 1110)' ||
		fail "$output"
	run -1 --separate-stderr iba_on H1 -q probe --discover --list
	[ -z "$stderr" ] || fail "-q still warns: $stderr"
}

@test "unregister: the record is gone from saquery -S and from discovery" {
	start_service h4 H4 -n hostH4 0x99 0x1ab4e0be
	run -0 iba_on H1 probe --discover --list -j "gid:$(sim_gid H4)"
	stop_service h4
	grep -qx deleted "$SIM_DIR/h4.out" || fail "$(cat "$SIM_DIR/h4.out")"
	run -0 saquery_services
	[[ $output != *ServiceID* ]] || fail "still registered: $output"
	run -1 --separate-stderr iba_on H1 probe --discover --list
	[ -z "$output" ]
	[[ $stderr == *"no ibahprobe responder is registered in the SA"* ]] || fail "$stderr"
	run -1 --separate-stderr iba_on H1 probe --discover --list -j "gid:$(sim_gid H4)"
	echo "$output" | jq -e '.[0].status == "error" and (.[0].error | test("no ibahprobe responder is registered"))'
}

@test "lease: renewed records outlive it; a responder that dies without deleting drops out" {
	# Lease 3 s, renewed every second by the holder: still there at 5 s.
	start_service h2 H2 -l 3 0x123 0x1ab4e0be
	# Lease 2 s, and the holder exits at once (as after kill -9).
	run -0 sim_run H3 "$SA_SERVICE" -x -l 2 0x456 0x1ab4e0be
	run -0 iba_on H1 probe --discover --list -j "gid:$(sim_gid H2)" "gid:$(sim_gid H3)"
	sleep 5
	run -1 iba_on H1 probe --discover --list -j "gid:$(sim_gid H2)" "gid:$(sim_gid H3)"
	echo "$output" | jq -e 'map(.status) == ["ok", "error"] and .[0].lease_s == 3' ||
		fail "$output"
}

@test "a record of another service under ibahprobe's ServiceID is not a responder" {
	start_service other H2 -N "someone-else" 0x123 0x1ab4e0be
	run -0 saquery_services
	assert_line "ServiceName someone-else"
	run -1 --separate-stderr iba_on H1 -v probe --discover --list
	[ -z "$output" ]
	[[ $stderr == *"ServiceRecord 0 skipped: service name 'someone-else' is not 'ibahprobe[:HOST]'"* ]] ||
		fail "$stderr"
	[[ $stderr == *"no ibahprobe responder is registered in the SA"* ]] || fail "$stderr"
	run -1 iba_on H1 probe --discover --list -j "gid:$(sim_gid H2)"
	echo "$output" | jq -e '.[0].status == "error" and
		(.[0].error | test("is not an ibahprobe responder.s: service name .someone-else."))'
}

@test "a ServiceName with escapes, bidi overrides and bytes that are no UTF-8 reaches no terminal raw" {
	# Ours by its prefix, so its host is shown: ESC [31m, RIGHT-TO-LEFT
	# OVERRIDE (U+202E), a C1 CSI (U+009B), a lone 0xff, a backslash.
	start_service evil H2 -N $'ibahprobe:ev\e[31mil\u202egpj\u009b2J\xff\\' 0x123 0x1ab4e0be
	run -0 --separate-stderr iba_on H1 probe --discover --list
	assert_output --partial 'host ev\x1b[31mil\u{202e}gpj\u{9b}2J\xff\\: ok'
	[[ $output != *$'\e'* && $output != *$'\u202e'* && $output != *$'\xff'* ]] ||
		fail "raw control bytes on stdout: $(od -c <<<"$output" | head)"
	run -0 --separate-stderr iba_on H1 probe --discover --list -j
	echo "$output" | jq -e '.[0].host == "ev\\x1b[31mil\\u{202e}gpj\\u{9b}2J\\xff\\\\"' ||
		fail "$output"
	iconv -f UTF-8 -t UTF-8 <<<"$output" >/dev/null || fail "JSON is not UTF-8"
}

@test "a foreign ServiceName with escapes is named escaped in the warning" {
	start_service other H3 -N $'someone\e]0;owned\a' 0x123 0x1ab4e0be
	run -1 --separate-stderr iba_on H1 -v probe --discover --list
	[[ $stderr == *"service name 'someone\x1b]0;owned\x07' is not 'ibahprobe[:HOST]'"* ]] ||
		fail "$stderr"
	[[ $stderr != *$'\e'* ]] || fail "raw ESC on stderr"
}

@test "SM restarted: a holder keeps renewing, warns once, and its record is back in the new SA" {
	start_service h2 H2 -l 3 0x123 0x1ab4e0be
	sim_kill_sm
	_sim_wait 10 grep -q "renewal failed" "$SIM_DIR/h2.out" ||
		fail "no failed renewal: $(cat "$SIM_DIR/h2.out")"
	sleep 3		# the lease would have run out by now
	sim_restart_sm
	_sim_wait 10 grep -q "^registered again after [0-9]* failed renewals" "$SIM_DIR/h2.out" ||
		fail "not registered again: $(cat "$SIM_DIR/h2.out")"
	run -0 iba_on H1 probe --discover --list -j "gid:$(sim_gid H2)"
	echo "$output" | jq -e '.[0].status == "ok" and .[0].qpn == 291'
	[ "$(grep -c "renewal failed" "$SIM_DIR/h2.out")" -eq 1 ] ||
		fail "warned more than once: $(cat "$SIM_DIR/h2.out")"
}

@test "SM killed: register, discover and delete fail within the deadline, exit 3, no hang" {
	local start
	start_service h2 H2 0x123 0x1ab4e0be
	sim_kill_sm
	start=$SECONDS
	run -3 --separate-stderr iba_on H1 probe --discover --list -t 100
	[ -z "$output" ]
	[[ $stderr == "ibahprobe: error: cannot ask the SA (SM LID "*"no answer from the SA within 100 ms (3 tries; an SM that restricts SA access may leave untrusted requests unanswered); is the subnet manager running?" ]] ||
		fail "$stderr"
	run -3 --separate-stderr iba_on H1 probe --discover --list -j -t 100 "gid:$(sim_gid H2)"
	echo "$output" | jq -e '.exit_status == 3 and (.error | test("is the subnet manager running"))'
	run -3 --separate-stderr sim_run H3 "$SA_SERVICE" -t 100 0x456 0x1ab4e0be
	[[ $stderr == *"cannot register with the SA (SM LID "*"no answer from the SA within 100 ms"* ]] ||
		fail "$stderr"
	[ $((SECONDS - start)) -lt 10 ] || fail "took $((SECONDS - start)) s"
	stop_service h2
	grep -q "cannot remove the record from the SA" "$SIM_DIR/h2.out" ||
		fail "$(cat "$SIM_DIR/h2.out")"
}
