#!/usr/bin/env bats
# probe --continuous --metrics without a device: the exposition text of
# fixed rounds (tests/tools/metrics_fixture, through lib/out/openmetrics as
# probe uses it) passes `promtool check metrics`, the man page's alert
# rules pass `promtool check rules`, many rounds keep the heap flat, and
# bad --metrics/--interval-round are refused before any probe. The file
# of a real run is checked in tests/vm/monitor.bats.

load helpers

# The fixture of the build under test (build/ or build-san/).
fixture() {
	local dir
	dir=$(dirname "$IBAHPROBE")
	[ "$dir" != "$TOP" ] || dir=$TOP/build
	echo "$dir/tests/tools/metrics_fixture"
}

# Without check-build there is no fixture: say so, not "command not found".
need_fixture() {
	[ -x "$(fixture)" ] || missing "$(fixture) is not built (make check-build)"
}

need_promtool() {
	command -v promtool >/dev/null || missing "promtool is not installed (prometheus; make deps)"
}

@test "the metrics text passes promtool check metrics (format and lint)" {
	need_fixture
	need_promtool
	run -0 --separate-stderr "$(fixture)"
	echo "$output" >"$BATS_TEST_TMPDIR/m.prom"
	run -0 promtool check metrics <"$BATS_TEST_TMPDIR/m.prom"
	[ -z "$output" ] || fail "promtool: $output"
	# The check can fail: a counter without _total is refused.
	sed 's/ibahprobe_probes_sent_total/ibahprobe_probes_sent/' "$BATS_TEST_TMPDIR/m.prom" |
		{ run -3 promtool check metrics; [[ $output == *'should have "_total" suffix'* ]] || fail "$output"; }
	# What a scraper needs: every family typed, no OpenMetrics end marker.
	grep -q '^# TYPE ibahprobe_rtt_seconds summary$' "$BATS_TEST_TMPDIR/m.prom"
	grep -q '^ibahprobe_loss_ratio{dest="host-b",dest_device="mlx5_0",source_device="rxe0",source_port="1",traffic_class="184"} 0.3$' \
		"$BATS_TEST_TMPDIR/m.prom" || fail "$(cat "$BATS_TEST_TMPDIR/m.prom")"
	run -1 grep -q '^# EOF' "$BATS_TEST_TMPDIR/m.prom"
}

@test "the man page's example alert rules pass promtool check rules" {
	need_promtool
	MANWIDTH=200 run -0 --separate-stderr man -l -E UTF-8 "$TOP/man/ibahprobe-probe.8"
	# The block from "groups:" to the end of the METRICS section.
	awk '/^ *groups:$/ { on = 1; indent = index($0, "g") - 1 }
	     /^(SYSTEMD|NOTES)$/ { on = 0 }
	     on { print substr($0, indent + 1) }' <<<"$output" >"$BATS_TEST_TMPDIR/rules.yml"
	grep -q 'alert: IbahprobeNoSuccess' "$BATS_TEST_TMPDIR/rules.yml" ||
		fail "no rules in the page: $(cat "$BATS_TEST_TMPDIR/rules.yml")"
	run -0 promtool check rules "$BATS_TEST_TMPDIR/rules.yml"
	[[ $output == *"SUCCESS: 5 rules found"* ]] || fail "$output"
}

@test "contrib/prometheus: the rules pass promtool check rules and their own promtool test rules" {
	need_promtool
	run -0 promtool check rules "$TOP/contrib/prometheus/ibahprobe.rules.yml"
	[[ $output == *"SUCCESS: 10 rules found"* ]] || fail "$output"
	# The tests name the rules file relative to themselves.
	cd "$TOP/contrib/prometheus"
	run -0 promtool test rules ibahprobe.rules.test.yml
	[[ $output == *SUCCESS* ]] || fail "$output"
}

@test "contrib/prometheus: every series the rules read is one probe --metrics writes" {
	need_fixture
	local name used=0
	"$(fixture)" >"$BATS_TEST_TMPDIR/m.prom"
	for name in $(grep -o 'ibahprobe_[a-z_]*' "$TOP/contrib/prometheus/ibahprobe.rules.yml" | sort -u); do
		used=$((used + 1))
		grep -q "^# TYPE ${name%_count} \|^# TYPE ${name%_sum} \|^# TYPE $name " "$BATS_TEST_TMPDIR/m.prom" ||
			fail "the rules read $name, which --metrics does not write: $(grep '^# TYPE' "$BATS_TEST_TMPDIR/m.prom")"
	done
	[ "$used" -ge 8 ] || fail "only $used series names found in the rules"
}

@test "many rounds: the heap stays flat and the file is whole, no .tmp left" {
	need_fixture
	local f=$BATS_TEST_TMPDIR/ibahprobe.prom
	run -0 --separate-stderr env ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=0" \
		"$(fixture)" --rounds 1000 "$f"
	read -r _ heap1 heap2 _ rss1 rss2 <<<"$output"
	[ "$heap1" -gt 0 ] || skip "the allocator hides the heap (sanitizer build): $output"
	[ "$heap1" -eq "$heap2" ] || fail "heap grew from round 100 to 1000: $output"
	[ $((rss2 - rss1)) -le 256 ] || fail "RSS grew by $((rss2 - rss1)) KiB: $output"
	[ ! -e "$f.tmp" ] || fail "$f.tmp left behind"
	grep -q '^ibahprobe_rounds_total{source_device="rxe0",source_port="1"} 1000$' "$f" || fail "$(head "$f")"
	grep -q '^ibahprobe_probes_sent_total{dest="host-b",dest_device="mlx5_0",source_device="rxe0",source_port="1",traffic_class="0"} 10000$' "$f"
}

@test "--metrics needs --continuous: exit 2, nothing on stdout" {
	run -2 --separate-stderr "$IBAHPROBE" probe --metrics "$BATS_TEST_TMPDIR/m.prom" h1
	[[ $stderr == *"--metrics writes a file after each round of a continuous run"* ]] || fail "$stderr"
	[ -z "$output" ]
	run -2 --separate-stderr "$IBAHPROBE" probe -c 5 --metrics "$BATS_TEST_TMPDIR/m.prom" h1
	run -2 --separate-stderr "$IBAHPROBE" -j probe --metrics "$BATS_TEST_TMPDIR/m.prom" h1
	assert_json_error 2
	[ ! -e "$BATS_TEST_TMPDIR/m.prom" ]
}

@test "--metrics where no file can be written: exit 3 at the start, before any device" {
	: >"$BATS_TEST_TMPDIR/plain"
	run -3 --separate-stderr "$IBAHPROBE" probe --continuous --metrics "$BATS_TEST_TMPDIR/missing/m.prom" h1
	[[ $stderr == "ibahprobe: error: cannot write the metrics file $BATS_TEST_TMPDIR/missing/m.prom: No such file or directory"* ]] ||
		fail "$stderr"
	[ -z "$output" ]
	run -3 --separate-stderr "$IBAHPROBE" probe -c 0 --metrics "$BATS_TEST_TMPDIR/plain/m.prom" h1
	[[ $stderr == *"cannot write the metrics file"*"Not a directory"* ]] || fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" probe --continuous --metrics "$BATS_TEST_TMPDIR" h1
	[[ $stderr == *"is a directory: name a file in it"* ]] || fail "$stderr"
	run -3 --separate-stderr "$IBAHPROBE" probe --continuous --metrics "" h1
	[[ $stderr == *"--metrics needs a file name"* ]] || fail "$stderr"
	if [ "$(id -u)" -ne 0 ]; then
		mkdir "$BATS_TEST_TMPDIR/ro" && chmod 555 "$BATS_TEST_TMPDIR/ro"
		run -3 --separate-stderr "$IBAHPROBE" probe --continuous --metrics "$BATS_TEST_TMPDIR/ro/m.prom" h1
		[[ $stderr == *"Permission denied"* ]] || fail "$stderr"
	fi
	# A writable place passes the check and leaves nothing: what fails
	# next is the missing device (or, with one, nothing).
	if ! has_rdma_device; then
		run -3 --separate-stderr "$IBAHPROBE" probe --continuous --metrics "$BATS_TEST_TMPDIR/m.prom" h1
		[[ $stderr != *metrics* ]] || fail "$stderr"
		[ -z "$(ls "$BATS_TEST_TMPDIR" | grep m.prom)" ]
	fi
}

@test "--interval-round needs --continuous and is the round of the help and man page" {
	run -2 --separate-stderr "$IBAHPROBE" probe --interval-round 5 h1
	[[ $stderr == *"--interval-round needs --continuous (or -c 0)"* ]] || fail "$stderr"
	run -0 "$IBAHPROBE" probe -h
	[[ $output == *"--interval-round SECONDS"* && $output == *"--metrics FILE"* ]] || fail "$output"
	[[ $output != *"--stats-interval"* ]] || fail "two names for one round: $output"
}
