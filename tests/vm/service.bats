#!/usr/bin/env bats
# serve as the systemd units run it, without systemd (the guest has none):
# the templated unit's ExecStart with its options files, as systemd
# expands them, plus --pidfile for launchers without systemd. The pidfile
# holds serve's pid once it is ready, goes on SIGTERM, refuses a second
# serve while the first lives (exit 3), and is taken over after a
# SIGKILL. Rendezvous ports 18651-18659, apart from the other files'.

bats_require_minimum_version 1.5.0
load lib

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
IBAHPROBE=$TOP/ibahprobe

setup_file() {
	[ -n "${FABRIC_ENDPOINTS:-}" ] || {
		echo "not inside the VM fabric: run tests/vm/run" >&2
		return 1
	}
	# What an admin of b writes beside the options file for its device:
	# the same variables, this device's rendezvous port.
	export ETC=$BATS_FILE_TMPDIR/etc
	mkdir -p "$ETC/default"
	cp "$TOP/systemd/ibahprobe.default" "$ETC/default/ibahprobe"
	echo 'IBAHPROBE_SERVE_OPTS="--listen 18651"' >"$ETC/default/ibahprobe.$FABRIC_B_RXE"
}

teardown_file() {
	stop_serves "$BATS_FILE_TMPDIR"
}

# unit_command DEVICE: the words ibahprobe-serve@DEVICE.service runs, one
# per line: its ExecStart with %i and the install paths filled in, and the
# options files read as systemd reads them (later files override earlier
# ones; an unbraced $VAR splits at white space).
unit_command() {
	local line
	line=$(sed -n 's/^ExecStart=//p' "$TOP/systemd/ibahprobe-serve@.service.in")
	line=${line//%i/$1}
	line=${line//@BINDIR@/$TOP}
	(
		set -a
		# shellcheck source=/dev/null
		. "$ETC/default/ibahprobe"
		# shellcheck source=/dev/null
		[ ! -e "$ETC/default/ibahprobe.$1" ] || . "$ETC/default/ibahprobe.$1"
		set -f
		eval "printf '%s\n' $line"
	)
}

# unit_serve X LOG PIDFILE [ARGS]: serve on endpoint X as its unit runs
# it, with --pidfile and ARGS, in the background ($! is serve itself);
# SERVE_PID is set.
unit_serve() {
	local x=$1 log=$2 pf=$3 cmd
	shift 3
	mapfile -t cmd < <(unit_command "$(fabric_var "$x" RXE)")
	[ "${cmd[0]}" = "$IBAHPROBE" ] || fail "ExecStart: ${cmd[*]}"
	"${cmd[@]}" --pidfile "$pf" --duration 300 "$@" >"$log" 2>&1 </dev/null &
	SERVE_PID=$!
	echo "$SERVE_PID" >"$log.pid"
}

# serve_exit PID: waits for serve PID (a child of this shell, so not
# through `run`) and fails unless it exited 0.
serve_exit() {
	local rc=0
	wait "$1" || rc=$?
	[ "$rc" -eq 0 ] || fail "serve $1 exited $rc"
}

# wait_ready LOG PIDFILE: the ready line, then the pid in the file.
wait_ready() {
	local n
	for ((n = 0; n < 100; n++)); do
		grep -q '"event":"ready"' "$1" 2>/dev/null && [ -s "$2" ] && return 0
		sleep 0.1
	done
	fail "not ready: $(cat "$1") pidfile: $(cat "$2" 2>&1)"
}

@test "the unit's command line: -j and --listen from the options files, -d from the instance" {
	local dev=$FABRIC_B_RXE
	mapfile -t cmd < <(unit_command "$dev")
	[ "${cmd[*]}" = "$IBAHPROBE -j -d $dev serve --listen 18651" ] || fail "${cmd[*]}"
}

@test "serve under the unit's options with --pidfile: ready, the pid in the file, probed; SIGTERM removes the file" {
	local log=$BATS_FILE_TMPDIR/serve.b pf=$BATS_FILE_TMPDIR/b.pid
	unit_serve b "$log" "$pf"
	wait_ready "$log" "$pf"
	[ "$(cat "$pf")" = "$SERVE_PID" ] || fail "pidfile $(cat "$pf"), serve $SERVE_PID"
	[ "$(stat -c %a "$pf")" = 644 ]
	jq -e --arg pf "$pf" --arg dev "$FABRIC_B_RXE" 'select(.event == "ready") |
		.pidfile == $pf and .device == $dev and
		(.rendezvous | endswith(":18651"))' "$log" >/dev/null || fail "$(cat "$log")"
	# It answers as any serve does.
	run -0 timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -j probe -c 2 -t 3000 b:18651
	jq -e '.[0].status == "reachable" and .[0].received == 2' <<<"$output" >/dev/null || fail "$output"
	kill -TERM "$(cat "$pf")"
	serve_exit "$SERVE_PID"
	[ ! -e "$pf" ] || fail "pidfile left after SIGTERM: $(cat "$pf")"
	jq -e 'select(.event == "summary") | .stopped_by == "SIGTERM" and .answered == 2' \
		"$log" >/dev/null || fail "$(cat "$log")"
}

@test "a second serve with the same pidfile is refused while the first lives: exit 3, its pid named, the first untouched" {
	local log=$BATS_FILE_TMPDIR/serve.b2 pf=$BATS_FILE_TMPDIR/b2.pid first
	unit_serve b "$log" "$pf"
	first=$SERVE_PID
	wait_ready "$log" "$pf"
	# Another port, so that only the pidfile stands in its way.
	mapfile -t cmd < <(unit_command "$FABRIC_B_RXE")
	run -3 --separate-stderr "${cmd[@]}" --listen 18652 --pidfile "$pf"
	jq -e --arg want "--pidfile $pf is held by pid $first, which is running: stop it (kill -TERM $first) or give another file" \
		'.exit_status == 3 and .error == $want' <<<"$output" >/dev/null || fail "$output $stderr"
	[ "$(cat "$pf")" = "$first" ] || fail "pidfile now $(cat "$pf")"
	kill -0 "$first"
	run -0 wait_listen 18651 1
	run -1 wait_listen 18652 1
	kill -TERM "$first"
	serve_exit "$first"
	[ ! -e "$pf" ]
}

@test "after a SIGKILL the pidfile stays, and the next serve takes it over" {
	local log=$BATS_FILE_TMPDIR/serve.b3 pf=$BATS_FILE_TMPDIR/b3.pid old
	unit_serve b "$log" "$pf"
	old=$SERVE_PID
	wait_ready "$log" "$pf"
	kill -KILL "$old"
	wait "$old" 2>/dev/null || true
	[ "$(cat "$pf")" = "$old" ] || fail "pidfile $(cat "$pf" 2>&1)"
	unit_serve b "$log.new" "$pf"
	wait_ready "$log.new" "$pf"
	[ "$(cat "$pf")" = "$SERVE_PID" ] || fail "pidfile $(cat "$pf"), new serve $SERVE_PID"
	kill -TERM "$SERVE_PID"
	serve_exit "$SERVE_PID"
	[ ! -e "$pf" ]
}
