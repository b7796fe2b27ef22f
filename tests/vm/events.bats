#!/usr/bin/env bats
# serve reads the device's asynchronous events: a GID table change (an
# address added to its netdev) drops the cached reply AHs and reloads the
# port, so the rendezvous advertises the new GID and probes to the new
# address are answered; probes to the old one still are. Rendezvous port
# 18581, serve on b; the extra address 198.18.1.99 on vethb.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
EXTRA=198.18.1.99

setup_file() {
	require_vm_fabric || return 1
	start_serve b "$BATS_FILE_TMPDIR/serve.b" 18581
}

teardown_file() {
	/usr/sbin/ip addr del "$EXTRA/24" dev "$FABRIC_B_NETDEV" 2>/dev/null
	stop_serves "$BATS_FILE_TMPDIR"
}

probe_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe "$@"; }

@test "a GID change: serve drops its reply AHs, advertises the new GID, answers on old and new" {
	local log=$BATS_FILE_TMPDIR/serve.b i
	run -0 probe_a -c 2 -t 3000 -j b:18581
	/usr/sbin/ip addr add "$EXTRA/24" dev "$FABRIC_B_NETDEV"
	for ((i = 0; i < 100; i++)); do
		grep -q "GID table change; cached reply AHs dropped" "$log" && break
		sleep 0.1
	done
	grep -q "$(fabric_var b RXE) port 1: GID table change; cached reply AHs dropped" "$log" ||
		fail "no GID change event seen by serve: $(cat "$log")"
	# The GID itself appears a moment after the event.
	for ((i = 0; i < 50; i++)); do
		grep -qx '0000:0000:0000:0000:0000:ffff:c612:0163' \
			/sys/class/infiniband/"$(fabric_var b RXE)"/ports/1/gids/* 2>/dev/null && break
		sleep 0.1
	done
	run -0 --separate-stderr probe_a -c 3 -t 3000 -j "$EXTRA:18581" b:18581
	echo "$output $stderr"
	[[ $stderr != *"does not list"* ]] || fail "rendezvous without the new GID: $stderr"
	echo "$output" | jq -e --arg extra "::ffff:$EXTRA" '
		map(.status) == ["reachable", "reachable"] and
		.[0].ah_attr.grh.dgid == $extra and .[0].observed.dgid == $extra'
}
