#!/usr/bin/env bats
# A next hop that moves (issue 25, item 2): serve's reply AHs hold the
# next hop's MAC from when they were made (rdma-core mlx5_create_ah
# copies the kernel's dmac), so a gateway failover needs them made again.
# Here R1's leg toward C takes another MAC mid-run (as a VRRP failover
# would), announcing it with a gratuitous ARP (arp_notify); C's kernel
# updates its neighbour entry, serve's rtnetlink watch sees RTM_NEWNEIGH
# with the new MAC for its reply AH's next hop, and the AH is made again
# on the next request. This test exercises the neighbour event, not the
# age bound: serve runs with --ah-max-age 86400.
#
# What rxe shows, honestly: rxe routes each packet through the kernel's
# neighbour table (rxe_net.c prepare4 -> ip_local_out), not the AH's
# dmac, so on rxe replies would resume even with a stale AH; what fails
# here without the watch is that the AH is never made again (serve's
# reverse_ahs_remade stays 0). Replies before and after must all come
# back. Rendezvous port 18761, serve on c.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
NEW_MAC=02:25:02:00:00:01

setup_file() {
	require_vm_fabric || return 1
	OLD_MAC=$(ip -n r1 -br link show r1-c | awk '{ print $3 }')
	OLD_NOTIFY=$(ip netns exec r1 sysctl -n net.ipv4.conf.r1-c.arp_notify)
	echo "$OLD_MAC $OLD_NOTIFY" >"$BATS_FILE_TMPDIR/restore"
	start_serve c "$BATS_FILE_TMPDIR/serve.c" 18761 -v --ah-max-age 86400 ||
		return 1
}

# The fabric as it was, even after a failure: R1's MAC back (announced,
# so C's neighbour entry follows), arp_notify as it was.
teardown_file() {
	local old_mac old_notify
	read -r old_mac old_notify <"$BATS_FILE_TMPDIR/restore" || true
	if [ -n "$old_mac" ]; then
		ip netns exec r1 sysctl -qw net.ipv4.conf.r1-c.arp_notify=1
		ip -n r1 link set r1-c address "$old_mac"
		ip netns exec r1 sysctl -qw net.ipv4.conf.r1-c.arp_notify="${old_notify:-0}"
	fi
	ip neigh del "$FABRIC_C_GW4" dev "$FABRIC_C_NETDEV" 2>/dev/null
	stop_serves "$BATS_FILE_TMPDIR"
	true
}

probe_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe "$@"; }

@test "R1 takes another MAC toward C mid-run: the neighbour event makes the reply AH again, replies go on" {
	run -0 --separate-stderr probe_a -c 3 -t 3000 -j c:18761
	echo "$output"
	ip netns exec r1 sysctl -qw net.ipv4.conf.r1-c.arp_notify=1
	ip -n r1 link set r1-c address "$NEW_MAC"
	# C's kernel took the new MAC (from the gratuitous ARP).
	for _ in $(seq 30); do
		ip neigh show "$FABRIC_C_GW4" dev "$FABRIC_C_NETDEV" | grep -qi "$NEW_MAC" && break
		sleep 0.1
	done
	ip neigh show "$FABRIC_C_GW4" dev "$FABRIC_C_NETDEV"
	# serve reads the watch at least once a second.
	sleep 1.5
	run -0 --separate-stderr probe_a -c 5 -i 200 -t 3000 -j c:18761
	echo "$output"
	echo "$output" | jq -e '.[0] | .status == "reachable" and .received == 5'
	cat "$BATS_FILE_TMPDIR/serve.c"
	grep -q "made again (its age or its next hop's change)" "$BATS_FILE_TMPDIR/serve.c" ||
		fail "serve did not make the reply AH again"
	kill "$(cat "$BATS_FILE_TMPDIR/serve.c.pid")"
	for _ in $(seq 50); do
		grep -q '"event":"summary"' "$BATS_FILE_TMPDIR/serve.c" && break
		sleep 0.1
	done
	grep '"event":"summary"' "$BATS_FILE_TMPDIR/serve.c" | jq -e \
		'.reverse_ahs_remade >= 1 and .next_hop_changes >= 1'
}

@test "probe --continuous makes its AH again at its age bound, and loses nothing over the swaps" {
	local out=$BATS_TEST_TMPDIR/out err=$BATS_TEST_TMPDIR/err rc
	# The serve of the first test was stopped: a fresh one, its reply AH
	# made before the measured run.
	start_serve c "$BATS_FILE_TMPDIR/serve.cont" 18762 || return 1
	probe_a -c 1 -t 3000 c:18762 >/dev/null || true
	timeout --preserve-status -s INT 6 "$IBAHPROBE" -v -d "$FABRIC_A_RXE" -g auto \
		probe --continuous --interval-round 1 --ah-max-age 2 -i 50 --jsonl \
		c:18762 >"$out" 2>"$err" && rc=0 || rc=$?
	cat "$err"
	cat "$out"
	[ "$rc" -eq 0 ] || fail "exit $rc"
	grep -q "c:18762: AH made again (its age or a round with loss)" "$err" ||
		fail "the AH was not made again at its 2 s bound"
	# Every probe of every whole round answered across the swaps (the
	# old AH is destroyed only after its sends completed).
	jq -e -s 'map(select(.record == "result" and .running)) |
		length >= 3 and all(.[]; .round.sent > 0 and .round.lost == 0)' "$out"
}
