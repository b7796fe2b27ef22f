#!/usr/bin/env bats
# The hardware validation kit (tests/hw/run) end to end between two rxe
# devices of one guest, as "hosts" run here (local:DEVICE): every step, the
# Markdown report, our decoded GRH against tcpdump/tshark's capture on B's
# netdev, the RTT section, and the failure path. Rendezvous ports 18564-18567
# (serve on b; the RTT section also takes each port + 1 and + 2).

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/ibahprobe
KIT=$BATS_TEST_DIRNAME/../hw/run

setup_file() {
	require_vm_fabric || return 1
}

kit() {
	timeout 300 "$KIT" --ibahprobe "$IBAHPROBE" --duration 120 --count 3 --rtt-count 50 "$@" \
		"local:$FABRIC_A_RXE" "local:$FABRIC_B_RXE"
}

# row STEP: the report's table row of that step (by its beginning).
row() { grep -F "| $1" <<<"$output" | head -n1; }

@test "kit, IPv4: ports, ah, serve, probe and sweeps, check, capture compared; report; exit 0" {
	run -0 --separate-stderr kit --port 18564 -o "$BATS_TEST_TMPDIR/report.md"
	echo "$output"
	echo "$stderr"
	[[ ${lines[0]} == "## ibahprobe hardware validation: "* ]] || fail "heading: ${lines[0]}"
	# One skip, and only this one: rxe does not put the AH's hop limit on
	# the wire, so trace --nic is refused there (trace(8)).
	[[ $output == *"result: **"*" ok, 0 failed, 1 skipped**"* ]] || fail "summary line"
	[[ $(row "trace A -> B (--nic)") == *"| skipped | ibahprobe: error: --nic needs a provider that sends the AH's hop limit"* ]] ||
		fail "$(row "trace A -> B (--nic)")"
	[[ $(row "trace A -> B (socket)") =~ \|\ ok\ \|\ reached.*method\ socket ]] ||
		fail "$(row "trace A -> B (socket)")"
	local s
	for s in "ports on A: $FABRIC_A_RXE | ok" "ports on B: $FABRIC_B_RXE | ok" \
		"ah from A to $FABRIC_B_IP4 | ok" "serve on B: $FABRIC_B_RXE | ok" \
		"probe A -> B | ok" "probe A -> B, hop-limit sweep 1,2,3,64,255 | ok" \
		"probe A -> B, traffic-class sweep | ok" "check on A | ok | 4 expectations held" \
		"capture on B: IPv4 hop limit, traffic class on $FABRIC_B_NETDEV | ok | wire and ibahprobe agree: 64,40" \
		"serve summary | ok"; do
		[[ $output == *"| $s"* ]] || fail "no row '| $s'"
	done
	# The RTT section: ibahprobe's rows and the peer's, with figures and
	# ratios against ib_send_lat in the RTT table.
	[[ $(row "RTT A -> B: ibahprobe, events at both ends") =~ \|\ ok\ \|\ rtt\ median\ [0-9.]+\ us,\ P99\ [0-9.]+\ us ]] ||
		fail "$(row "RTT A -> B: ibahprobe, events")"
	[[ $(row "RTT A -> B: ib_send_lat -c UD (busy polling)") =~ \|\ ok\ \|\ rtt\ median\ [0-9.]+\ us ]] ||
		fail "$(row "RTT A -> B: ib_send_lat -c UD (busy")"
	[[ $(row "RTT A -> B: ib_send_lat -c UD -e (events)") == *"| ok |"* ]] || fail "no ib_send_lat -e row"
	[[ $output == *"### RTT A -> B: 50 round trips per row, one in flight"* ]] || fail "no RTT table"
	[[ $(row "ibahprobe, events at both ends |") =~ \|\ [0-9.]+\ \|\ [^|]+\ \|$ ]] ||
		fail "no ratios: $(row "ibahprobe, events at both ends |")"
	# Versions: this guest's kernel, rxe's devices (no PCI driver: the netdev).
	[[ $(row kernel) == "| kernel | $(uname -r) | $(uname -r) |" ]] || fail "$(row kernel)"
	[[ $(row driver) == *"software device on $FABRIC_A_NETDEV"*"software device on $FABRIC_B_NETDEV"* ]] ||
		fail "$(row driver)"
	[[ $(row "link layer") == "| link layer | Ethernet | Ethernet |" ]] || fail "$(row "link layer")"
	# Details: the commands as run, the serve's JSON, the decoded capture.
	[[ $output == *"\$ $IBAHPROBE -d $FABRIC_A_RXE -g auto probe -j -c 3 --hop-limit 1-3,64,255 $FABRIC_B_IP4:18564"* ]] ||
		fail "no command line of the sweep in the details"
	[[ $output == *'"event":"summary"'* ]] || fail "no serve summary in the details"
	# (Both without trailing newlines: bats' $output has none.)
	[ "$output" = "$(cat "$BATS_TEST_TMPDIR/report.md")" ] || fail "-o FILE differs from stdout"
}

@test "kit, IPv6 destination: the flow label is compared with the capture too" {
	run -0 --separate-stderr kit --port 18565 --dest "$FABRIC_B_IP6"
	echo "$output"
	[[ $output == *"| capture on B: IPv6 hop limit, traffic class, flow label on $FABRIC_B_NETDEV | ok | wire and ibahprobe agree: 64,40,0"* ]] ||
		fail "no IPv6 capture row"
	[[ $output == *"result: **"*" ok, 0 failed, 1 skipped**"* ]] || fail "summary line"
	[[ $(row "trace A -> B (--nic)") == *"| skipped |"* ]] || fail "$(row "trace A -> B (--nic)")"
}

@test "kit: a destination nobody serves fails the probe steps: exit 1, FAIL rows, still a full report" {
	# C has no responder on this port; the kit's serve runs on B.
	run -1 --separate-stderr kit --port 18566 --dest "$FABRIC_C_IP4" --no-capture
	echo "$output"
	[[ $(row "probe A -> B |") == *"| FAIL |"* ]] || fail "$(row "probe A -> B |")"
	[[ $(row "check on A") == *"| FAIL |"* ]] || fail "$(row "check on A")"
	[[ $(row "capture on B") == *"| skipped | --no-capture |"* ]] || fail "$(row "capture on B")"
	[[ $output == *"| serve summary | ok |"* ]] || fail "serve not stopped with a summary"
	[[ $output =~ result:\ \*\*[0-9]+\ ok,\ [1-9][0-9]*\ failed ]] || fail "summary line"
}

@test "kit: no perftest on the hosts: the RTT peer's step is skipped with that reason, ibahprobe's rows still run" {
	# A PATH with every command of this guest but ib_send_lat.
	local bin=$BATS_TEST_TMPDIR/bin d
	mkdir "$bin"
	# Last in PATH first: a name found earlier in PATH replaces its link.
	for d in /bin /sbin /usr/bin /usr/sbin /usr/local/bin /usr/local/sbin; do
		if [ -d "$d" ]; then ln -sfn -t "$bin" "$d"/* 2>/dev/null || true; fi
	done
	rm -f "$bin/ib_send_lat"
	[ -x "$bin/jq" ] && [ ! -e "$bin/ib_send_lat" ] || fail "the PATH without ib_send_lat"
	run -0 --separate-stderr env PATH="$bin" timeout 300 "$KIT" --ibahprobe "$IBAHPROBE" --duration 120 \
		--count 2 --rtt-count 20 --no-capture --port 18567 "local:$FABRIC_A_RXE" "local:$FABRIC_B_RXE"
	echo "$output"
	[[ $(row "RTT A -> B: ib_send_lat -c UD") == *"| skipped | perftest (ib_send_lat) is not installed on "* ]] ||
		fail "$(row "RTT A -> B: ib_send_lat")"
	[[ $(row "RTT A -> B: ibahprobe, events at both ends") == *"| ok |"* ]] || fail "no ibahprobe RTT row"
	[[ $output == *"### RTT A -> B: 20 round trips per row, one in flight"* ]] || fail "no RTT table"
}
