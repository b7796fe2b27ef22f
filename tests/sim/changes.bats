#!/usr/bin/env bats
# The fabric changes under the tool: links go down and come back, the SM
# dies before or during a run. ibahprobe reports each destination honestly
# and never hangs (every run below is bounded by `timeout`; status 124
# would be a hang).

load helpers

setup_file() { sim_setup_file two-switch.topo; }
teardown_file() { sim_stop; }

# Waits until `path -j` from NODE to LID has the given status.
wait_path_status() {	# NODE LID ok|error
	local i
	for ((i = 0; i < 50; i++)); do
		iba_on "$1" path -j "$2" 2>/dev/null | jq -e --arg s "$3" '.[0].status == $s' >/dev/null &&
			return 0
		sleep 0.1
	done
	return 1
}

@test "a destination unlinked: that destination fails, the others answer; back after ReLink" {
	local h4
	h4=$(sim_lid H4)
	sim_console 'Unlink "H4"'
	# The SM sweeps on the link-down trap and drops H4's port.
	wait_path_status H1 "$h4" error || fail "H4 still answered after Unlink"
	run -1 iba_on H1 path -j 4 "$h4" 5
	echo "$output" | jq -e 'map(.status) == ["ok", "error", "ok"] and
		(.[1].error | test("no records"))'
	run -1 iba_on H1 path -j node:H4
	echo "$output" | jq -e '.[0].error | test("no node named .H4.")'
	sim_console 'ReLink "H4"'
	wait_path_status H1 "$h4" ok || fail "H4 did not answer after ReLink"
	run -0 iba_on H1 path -j "$h4" node:H4
	echo "$output" | jq -e --argjson l "$h4" 'map(.dlid) == [$l, $l]'
}

@test "the querying node unlinked: exit 3 at once, the port named; answers after ReLink" {
	sim_console 'Unlink "H3"'
	run -3 --separate-stderr iba_on H3 path -t 200 4
	[[ $stderr == *"ibsim0 port 1 is not ACTIVE"* ]] || fail "$stderr"
	sim_console 'ReLink "H3"'
	wait_path_status H3 4 ok || fail "no answers after ReLink"
}

@test "the SM killed mid-run: answered destinations stay, the rest fail fast, exit 1" {
	local f=$BATS_TEST_TMPDIR/dests start elapsed
	# Enough queries to outlast the 1 s before the kill even on a fast,
	# idle machine (~0.05-0.11 ms each at window 1). The SM dies by
	# SIGKILL: busy with this flood, opensm has outlived a SIGTERM.
	for ((i = 0; i < 60000; i++)); do echo $((i % 6 + 1)); done >"$f"
	start=$SECONDS
	(sleep 1; sim_kill_sm -KILL) &
	run -1 timeout 60 env SIM_HOST=H3 LD_PRELOAD="$SIM_PRELOAD" \
		bash -c 'cd "$SIM_DIR" && "$IBAHPROBE" path -j --window 1 -t 100 -r 2 -f "$1"' _ "$f"
	wait
	elapsed=$((SECONDS - start))
	echo "$output" | jq -e 'length == 60000 and
		(map(select(.status == "ok")) | length) > 0 and
		(map(select(.status == "error")) | length) > 0 and
		all(.[] | select(.status == "error"); .error | test("no answer|went silent"))' ||
		fail "unexpected answers: $(echo "$output" | jq -c 'group_by(.status) | map([.[0].status, length])')"
	# Ordered: every answer before the first failure.
	echo "$output" | jq -e '(map(.status) | index("error")) as $e |
		all(.[$e:][]; .status == "error")'
	[ "$elapsed" -lt 30 ] || fail "took ${elapsed}s to give up"
}

@test "no SM at all: exit 3 within the retry budget, a clear message, JSON error" {
	sim_kill_sm
	run -3 --separate-stderr iba_on H1 path -t 100 -r 2 4 5 6
	[ -z "$output" ]
	[[ $stderr == *"no answer from the SA (SM LID "*"is the subnet manager running?"* ]] ||
		fail "$stderr"
	run -3 --separate-stderr iba_on H1 path -j -t 100 -r 1 node:H2
	echo "$output" | jq -e '.exit_status == 3 and (.error | test("SA"))'
}
