#!/usr/bin/env bats
# The hardware validation kit (tests/hw/run) end to end between two rxe
# devices of one guest, as "hosts" run here (local:DEVICE): every step, the
# Markdown report, our decoded GRH against tcpdump/tshark's capture on B's
# netdev, and the failure path. Rendezvous ports 18564-18566 (serve on b).

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/ibahprobe
KIT=$BATS_TEST_DIRNAME/../hw/run

setup_file() {
	require_vm_fabric || return 1
}

kit() {
	timeout 300 "$KIT" --ibahprobe "$IBAHPROBE" --duration 120 --count 3 "$@" \
		"local:$FABRIC_A_RXE" "local:$FABRIC_B_RXE"
}

# row STEP: the report's table row of that step (by its beginning).
row() { grep -F "| $1" <<<"$output" | head -n1; }

@test "kit, IPv4: ports, ah, serve, probe and sweeps, check, capture compared; report; exit 0" {
	run -0 --separate-stderr kit --port 18564 -o "$BATS_TEST_TMPDIR/report.md"
	echo "$output"
	echo "$stderr"
	[[ ${lines[0]} == "## ibahprobe hardware validation: "* ]] || fail "heading: ${lines[0]}"
	[[ $output == *"result: **"*" ok, 0 failed, 0 skipped**"* ]] || fail "summary line"
	local s
	for s in "ports on A: $FABRIC_A_RXE | ok" "ports on B: $FABRIC_B_RXE | ok" \
		"ah from A to $FABRIC_B_IP4 | ok" "serve on B: $FABRIC_B_RXE | ok" \
		"probe A -> B | ok" "probe A -> B, hop-limit sweep 1,2,3,64,255 | ok" \
		"probe A -> B, traffic-class sweep | ok" "check on A | ok | 4 expectations held" \
		"capture on B: IPv4 hop limit, traffic class on $FABRIC_B_NETDEV | ok | wire and ibahprobe agree: 64,40" \
		"serve summary | ok"; do
		[[ $output == *"| $s"* ]] || fail "no row '| $s'"
	done
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
	[[ $output == *"result: **"*" ok, 0 failed, 0 skipped**"* ]] || fail "summary line"
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
