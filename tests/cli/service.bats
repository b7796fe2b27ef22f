#!/usr/bin/env bats
# serve as a service: `make install` puts the systemd units and their
# options file in place, systemd-analyze accepts the units, and serve's
# --pidfile (for launchers without systemd) refuses bad input and a file a
# running process holds. Serve under the units' options, with a real
# device: tests/vm/service.bats.

load helpers

setup_file() {
	export DEST=$BATS_FILE_TMPDIR/root
	# Real paths (no DESTDIR): systemd-analyze verify checks that
	# ExecStart's binary and the Documentation= man page exist. -o all:
	# install what was built, never rebuild it here.
	make -s -C "$TOP" -o all install PREFIX="$DEST/usr" SYSCONFDIR="$DEST/etc" \
		SYSTEMDUNITDIR="$DEST/lib/systemd/system" >/dev/null
}

units() {
	printf '%s\n' "$DEST/lib/systemd/system/ibahprobe-serve.service" \
		"$DEST/lib/systemd/system/ibahprobe-serve@.service" \
		"$DEST/lib/systemd/system/ibahprobe-monitor.service" \
		"$DEST/lib/systemd/system/ibahprobe-monitor@.service" \
		"$DEST/lib/systemd/system/ibahprobe-plan.service"
}

# The value of VAR in the installed options file (VAR="value" lines).
default_var() {
	sed -n "s/^$1=\"\\(.*\\)\"\$/\\1/p" "$DEST/etc/default/ibahprobe"
}

@test "make install: the units, with the installed binary and options file in them, and the options file" {
	local unit
	for unit in $(units); do
		[ -f "$unit" ] || fail "not installed: $unit"
		[ "$(stat -c %a "$unit")" = 644 ] || fail "$unit mode $(stat -c %a "$unit")"
		grep -qxF "EnvironmentFile=-$DEST/etc/default/ibahprobe" "$unit" || fail "$(cat "$unit")"
		grep -q "^ExecStart=$DEST/usr/bin/ibahprobe " "$unit" || fail "$(grep ExecStart "$unit")"
		run -1 grep -E '@(BINDIR|SYSCONFDIR)@' "$unit"
	done
	grep -q '^ExecStart=.* -d %i serve ' "$DEST/lib/systemd/system/ibahprobe-serve@.service"
	grep -qxF "EnvironmentFile=-$DEST/etc/default/ibahprobe.%i" \
		"$DEST/lib/systemd/system/ibahprobe-serve@.service"
	[ -n "$(default_var IBAHPROBE_SERVE_OPTS)" ] || fail "$(cat "$DEST/etc/default/ibahprobe")"
	[ -x "$DEST/usr/bin/ibahprobe" ]
	[ -f "$DEST/usr/share/man/man8/ibahprobe-serve.8" ]
}

@test "make install keeps an admin's options file" {
	echo 'IBAHPROBE_SERVE_OPTS="--listen 19000"' >"$DEST/etc/default/ibahprobe"
	make -s -C "$TOP" -o all install PREFIX="$DEST/usr" SYSCONFDIR="$DEST/etc" \
		SYSTEMDUNITDIR="$DEST/lib/systemd/system" >/dev/null
	[ "$(cat "$DEST/etc/default/ibahprobe")" = 'IBAHPROBE_SERVE_OPTS="--listen 19000"' ]
	install -m 0644 "$TOP/systemd/ibahprobe.default" "$DEST/etc/default/ibahprobe"
}

@test "systemd-analyze verify passes every unit and the timer without a word" {
	command -v systemd-analyze >/dev/null || missing "no systemd-analyze (Debian package systemd)"
	# Verify warns and still exits 0 on a misspelt setting: its output
	# must be empty too.
	run -0 env MANPATH="$DEST/usr/share/man" systemd-analyze verify $(units) \
		"$DEST/lib/systemd/system/ibahprobe-plan.timer"
	[ -z "$output" ] || fail "$output"
}

@test "the units' hardening: systemd-analyze security rates each 2.5 or better" {
	command -v systemd-analyze >/dev/null || missing "no systemd-analyze (Debian package systemd)"
	local unit
	for unit in $(units); do
		# --threshold is on a scale of 100: 25 is systemd's 2.5.
		run -0 systemd-analyze security --offline=yes --threshold=25 --no-pager "$unit"
		[[ $output == *"Overall exposure level"*" OK "* ]] || fail "$output"
	done
	# What the verbs need, and nothing wider.
	unit=$DEST/lib/systemd/system/ibahprobe-serve.service
	grep -qx 'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK' "$unit"
	grep -qx 'DeviceAllow=char-infiniband_verbs rw' "$unit"
	grep -qx 'DevicePolicy=closed' "$unit"
	grep -qx 'DynamicUser=yes' "$unit"
	grep -qx 'Restart=on-failure' "$unit"
	grep -qx 'RestartPreventExitStatus=2' "$unit"
}

@test "the monitor units: probe --continuous --metrics into the textfile directory, from the targets; the plan rotation" {
	local sys=$DEST/lib/systemd/system
	grep -qxF "ExecStart=$DEST/usr/bin/ibahprobe \$IBAHPROBE_OPTS probe --continuous --metrics \${IBAHPROBE_TEXTFILE_DIR}/ibahprobe.prom -f \${IBAHPROBE_TARGETS} \$IBAHPROBE_MONITOR_OPTS" \
		"$sys/ibahprobe-monitor.service" || fail "$(grep ExecStart "$sys/ibahprobe-monitor.service")"
	grep -q '^ExecStart=.* -d %i probe --continuous --metrics ${IBAHPROBE_TEXTFILE_DIR}/ibahprobe-%i.prom ' \
		"$sys/ibahprobe-monitor@.service"
	grep -qxF "EnvironmentFile=-$DEST/etc/default/ibahprobe.%i" "$sys/ibahprobe-monitor@.service"
	# Stopped, a continuous run exits 1 (interrupted): no failure.
	grep -qx 'SuccessExitStatus=1' "$sys/ibahprobe-monitor.service"
	grep -qx 'ReadWritePaths=-/var/lib/prometheus/node-exporter' "$sys/ibahprobe-monitor.service"
	[ "$(default_var IBAHPROBE_TEXTFILE_DIR)" = /var/lib/prometheus/node-exporter ]
	grep -qF "plan --round-every \${IBAHPROBE_PLAN_PERIOD} -o \${IBAHPROBE_PLAN_DIR} " "$sys/ibahprobe-plan.service"
	grep -qx 'OnCalendar=\*:0/10:05 UTC' "$sys/ibahprobe-plan.timer"
	[ "$(default_var IBAHPROBE_PLAN_PERIOD)" = 600 ]
	run -0 systemd-analyze calendar --iterations=2 '*:0/10:05 UTC'
}

@test "the monitor's options are probe's: without a device they get as far as the device (exit 3, not 2)" {
	has_rdma_device && skip "this machine has an RDMA device"
	local opts mon_opts dir=$BATS_TEST_TMPDIR/textfile
	mkdir -p "$dir"
	echo host-b >"$BATS_TEST_TMPDIR/targets"
	opts=$(default_var IBAHPROBE_OPTS)
	mon_opts=$(default_var IBAHPROBE_MONITOR_OPTS)
	# shellcheck disable=SC2086
	run -3 --separate-stderr "$IBAHPROBE" $opts probe --continuous \
		--metrics "$dir/ibahprobe.prom" -f "$BATS_TEST_TMPDIR/targets" $mon_opts
	[[ $stderr == *"no RDMA device"* ]] || fail "$stderr"
}

@test "the plan rotation's options are plan's, and its round is the clock's" {
	local before after round opts
	printf 'h1\nh2\nh3\n' >"$BATS_TEST_TMPDIR/hosts"
	opts=$(default_var IBAHPROBE_PLAN_OPTS)
	printf 'h1 r1\nh2 r1\nh3 r2\n' >"$BATS_TEST_TMPDIR/groups"
	before=$(($(date +%s) / 600))
	# The defaults name /etc/ibahprobe/groups: here a file of our own.
	# shellcheck disable=SC2086
	run -0 --separate-stderr "$IBAHPROBE" -j plan --round-every "$(default_var IBAHPROBE_PLAN_PERIOD)" \
		-o "$BATS_TEST_TMPDIR/plan" ${opts/\/etc\/ibahprobe\/groups/$BATS_TEST_TMPDIR/groups} "$BATS_TEST_TMPDIR/hosts"
	after=$(($(date +%s) / 600))
	round=$(jq -r .round <<<"$output")
	[ "$round" = "$before" ] || [ "$round" = "$after" ] || fail "round $round, clock $before..$after"
	[ -s "$BATS_TEST_TMPDIR/plan/h1" ] || fail "no file for h1"
	grep -qx h2 "$BATS_TEST_TMPDIR/plan/h1" || fail "$(cat "$BATS_TEST_TMPDIR/plan/h1")"
}

@test "plan --round-every: with --round refused, out of range refused" {
	printf 'h1\nh2\n' >"$BATS_TEST_TMPDIR/hosts"
	run -2 --separate-stderr "$IBAHPROBE" plan --round 3 --round-every 600 "$BATS_TEST_TMPDIR/hosts"
	[ -z "$output" ] && [[ $stderr == *"--round and --round-every exclude each other"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" plan --round-every 0 "$BATS_TEST_TMPDIR/hosts"
	[ -z "$output" ] || fail "$output"
}

@test "the options file's options are serve's: without a device they get as far as the device (exit 3, not 2)" {
	has_rdma_device && skip "this machine has an RDMA device"
	local opts serve_opts
	opts=$(default_var IBAHPROBE_OPTS)
	serve_opts=$(default_var IBAHPROBE_SERVE_OPTS)
	# Unquoted on purpose: systemd splits $VAR at white space as well.
	# shellcheck disable=SC2086
	run -3 --separate-stderr "$IBAHPROBE" $opts serve $serve_opts
	assert_json_error 3
	[[ $stderr == *"no RDMA device"* ]] || fail "$stderr"
}

@test "serve --pidfile refuses an empty name: exit 2, message, empty stdout, JSON error" {
	refuses_bad_values serve <<<'--pidfile||pidfile'
}

@test "serve --pidfile held by a running process: exit 3 naming its pid, the file left as it was" {
	local pf=$BATS_TEST_TMPDIR/serve.pid holder
	# flock(1) holds the lock as a running serve does, and writes a pid.
	flock "$pf" sh -c 'echo $$ >"$1"; exec sleep 30' sh "$pf" &
	holder=$!
	for ((n = 0; n < 50; n++)); do [ -s "$pf" ] && break; sleep 0.1; done
	run -3 --separate-stderr "$IBAHPROBE" serve --pidfile "$pf"
	[ -z "$output" ] || fail "stdout: $output"
	[ "$stderr" = "ibahprobe: error: --pidfile $pf is held by pid $(cat "$pf"), which is running: stop it (kill -TERM $(cat "$pf")) or give another file" ] ||
		fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" -j serve --pidfile "$pf"
	assert_json_error 3
	[ -s "$pf" ] || fail "the holder's file was emptied or removed"
	kill "$holder"
	wait "$holder" 2>/dev/null || true
}

@test "serve --pidfile left by a dead serve is taken over, and removed when serve exits" {
	has_rdma_device && skip "this machine has an RDMA device"
	local pf=$BATS_TEST_TMPDIR/stale.pid
	# The pid of a live process, but no lock: left by a SIGKILLed serve
	# whose pid was reused.
	echo $$ >"$pf"
	run -3 --separate-stderr "$IBAHPROBE" serve --pidfile "$pf"
	[[ $stderr == *"no RDMA device"* ]] || fail "not taken over: $stderr"
	[ ! -e "$pf" ] || fail "left behind: $(cat "$pf")"
}

@test "serve --pidfile in a directory that does not exist: exit 3 naming the file and the cause" {
	run -3 --separate-stderr "$IBAHPROBE" serve --pidfile "$BATS_TEST_TMPDIR/no/such.pid"
	[ -z "$output" ]
	[ "$stderr" = "ibahprobe: error: --pidfile $BATS_TEST_TMPDIR/no/such.pid: cannot create or open it: No such file or directory" ] ||
		fail "$stderr"
}
