#!/usr/bin/env bats
# What opensm never answers: a busy SA and a ClassPortInfo redirect. After
# the subnet is up, opensm is stopped and tests/tools/sa_fake takes its
# place on the SM's node (the ports keep the SM LID), answering busy or
# redirect; a second sa_fake on another node is where a redirect points.

load helpers

SA_FAKE=$(dirname "$IBAHPROBE")/tests/tools/sa_fake
[ -x "$SA_FAKE" ] || SA_FAKE=$TOP/build/tests/tools/sa_fake

setup_file() {
	[ -x "$SA_FAKE" ] || missing "tests/tools/sa_fake is not built (make check-build)"
	sim_setup_file two-switch.topo
	sim_kill_sm
}
teardown_file() { sim_stop; }

FAKES=()

# Starts sa_fake on NODE as the SA there; waits until it listens.
start_fake() {	# NAME NODE SA_FAKE_ARGS...
	local name=$1 node=$2
	shift 2
	(cd "$SIM_DIR" && SIM_HOST=$node LD_PRELOAD=$SIM_PRELOAD \
		exec timeout "$SIM_CMD_TIMEOUT" "$SA_FAKE" -p "$SIM_DIR/$name.pid" "$@" \
		>"$SIM_DIR/$name.out" 2>&1) &
	FAKES+=("$name")
	_sim_wait 10 grep -q '^listening' "$SIM_DIR/$name.out" ||
		fail "sa_fake $name did not start: $(cat "$SIM_DIR/$name.out")"
}

teardown() {
	local name pid
	for name in "${FAKES[@]}"; do
		pid=$(cat "$SIM_DIR/$name.pid" 2>/dev/null) || continue
		kill -TERM "$pid" 2>/dev/null
		_sim_wait 5 bash -c "! kill -0 $pid 2>/dev/null"
		rm -f "$SIM_DIR/$name.pid"
	done
}

@test "busy SA: asked again with growing backoff, answered within the deadline" {
	start_fake sa "$SIM_SM_NODE" -b 3 -s 7
	run -0 --separate-stderr iba_on H2 path -j -t 200 "$(sim_lid H3)"
	echo "$output" | jq -e --argjson lid "$(sim_lid H3)" \
		'.[0].status == "ok" and .[0].dlid == $lid and .[0].sl == 7' || fail "$output"
	[ "$(grep -c ' busy$' "$SIM_DIR/sa.out")" -eq 3 ] || fail "$(cat "$SIM_DIR/sa.out")"
	[ "$(grep -c ' path$' "$SIM_DIR/sa.out")" -eq 1 ] || fail "$(cat "$SIM_DIR/sa.out")"
	# The gaps between the requests double: 25, 50, 100 ms for -t 200.
	awk '{ t[NR] = $1 } END {
		for (i = 2; i <= NR; i++) g[i] = t[i] - t[i - 1]
		exit !(g[2] >= 20 && g[3] >= 45 && g[4] >= 95 && g[4] > g[3] && g[3] > g[2]) }' \
		<(grep ' ms attr ' "$SIM_DIR/sa.out") || fail "$(cat "$SIM_DIR/sa.out")"
}

@test "an SA that stays busy: the destination fails once its deadline is over, named busy" {
	local start=$SECONDS
	start_fake sa "$SIM_SM_NODE" -b 1000
	run -1 --separate-stderr iba_on H2 path -j -t 100 -r 1 "$(sim_lid H3)"
	echo "$output" | jq -e '.[0].status == "error" and
		(.[0].error | test("the SA stayed busy \\(status 0x0001, [0-9]+ busy answers"))' ||
		fail "$output"
	[ $((SECONDS - start)) -lt 5 ] || fail "took $((SECONDS - start)) s"
}

@test "redirect by LID: followed to the SA it names, for every later query too" {
	start_fake sa "$SIM_SM_NODE" -r "$(sim_lid H4)"
	start_fake other H4 -s 5
	run -0 --separate-stderr iba_on H2 path -j "$(sim_lid H3)" "$(sim_lid H1)"
	echo "$output" | jq -e 'map(.status) == ["ok", "ok"] and map(.sl) == [5, 5]' ||
		fail "$output"
	[ "$(grep -c ' redirect$' "$SIM_DIR/sa.out")" -ge 1 ] || fail "$(cat "$SIM_DIR/sa.out")"
	[ "$(grep -c ' path$' "$SIM_DIR/other.out")" -eq 2 ] || fail "$(cat "$SIM_DIR/other.out")"
}

@test "redirect by GID: not followed, exit 3 with the reason" {
	start_fake sa "$SIM_SM_NODE" -G
	run -3 --separate-stderr iba_on H2 path "$(sim_lid H3)"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: the SA (LID "*") redirects its clients elsewhere (MAD status \"redirect required\"), and the redirect names a GID and no LID: a redirect by GID is not supported; ibahprobe cannot follow this redirect" ]] ||
		fail "$stderr"
	run -3 --separate-stderr iba_on H2 path -j "$(sim_lid H3)"
	echo "$output" | jq -e '.exit_status == 3 and (.error | test("redirect by GID is not supported"))'
}
