#!/usr/bin/env bats
# Loss with a cause the prober names from its side: a responder that
# restarted mid-run (another QPN), a responder that is up (its rendezvous
# answers over TCP) while UDP 4791 is dropped on the way, and probes too
# large for a narrower router link (an MTU blackhole: R1's route to C).
# Rendezvous ports 18591-18593, serve on c.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
}

teardown_file() {
	ip netns exec r1 nft delete table inet loss_causes 2>/dev/null
	restore_c_route
	stop_serves "$BATS_FILE_TMPDIR"
	true
}

probe_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe "$@"; }

# R1's IPv4 route to C's subnet with an MTU of 700: IPv4 only, since an
# interface MTU under 1280 would remove the link's IPv6 addresses for good
# (and break every later IPv6 test towards C).
C_NET=${FABRIC_C_IP4%.*}.0/24
narrow_c_route() {
	/usr/sbin/ip -n r1 -4 route show exact "$C_NET" >"$BATS_FILE_TMPDIR/c-route"
	# shellcheck disable=SC2046
	/usr/sbin/ip -n r1 route replace $(cat "$BATS_FILE_TMPDIR/c-route") mtu lock 700
}
restore_c_route() {
	[ -s "$BATS_FILE_TMPDIR/c-route" ] || return 0
	# shellcheck disable=SC2046
	/usr/sbin/ip -n r1 route replace $(cat "$BATS_FILE_TMPDIR/c-route")
	rm -f "$BATS_FILE_TMPDIR/c-route"
}

@test "a responder restarted mid-run: the finding names both QPNs" {
	local d=$BATS_FILE_TMPDIR
	start_serve c "$d/serve.c1" 18591
	timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe -c 1 -t 3000 c:18591 >/dev/null
	# 6 s of probing: the second responder is up (and its rendezvous
	# answers the recheck) even when serve starts slowly on a loaded host.
	probe_a -c 60 -i 100 -t 500 -j c:18591 >"$d/restart.json" 2>"$d/restart.err" &
	local ppid=$!
	sleep 1
	kill "$(cat "$d/serve.c1.pid")"
	sleep 0.3
	start_serve c "$d/serve.c2" 18591
	local rc=0
	wait "$ppid" || rc=$?
	cat "$d/restart.json" "$d/restart.err"
	[ "$rc" -eq 1 ] || fail "exit $rc"
	jq -e '.[0] | (.verdicts | index("responder_restarted")) and
		any(.findings[]; test("the responder restarted during the run [(]QPN [0-9]+, now [0-9]+[)]"))' \
		"$d/restart.json"
}

@test "UDP 4791 dropped on the way while the rendezvous answers: the data path is named" {
	start_serve c "$BATS_FILE_TMPDIR/serve.c3" 18592
	ip netns exec r1 nft -f - <<'NFT'
table inet loss_causes {
	chain forward {
		type filter hook forward priority 0;
		oifname "r1-c" udp dport 4791 drop
	}
}
NFT
	run -1 probe_a -c 3 -t 500 -j c:18592
	ip netns exec r1 nft delete table inet loss_causes
	echo "$output"
	echo "$output" | jq -e '.[0] | .status == "unreachable" and
		(.verdicts | index("data_path_blocked")) and
		any(.findings[]; test("the responder is up .*UDP 4791"))'
}

@test "an MTU blackhole: 1000-byte probes lost over a 700-byte route, named; 136 bytes pass" {
	start_serve c "$BATS_FILE_TMPDIR/serve.c4" 18593
	timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe -c 1 -t 3000 c:18593 >/dev/null
	narrow_c_route
	run -1 probe_a -c 3 -t 500 --size 1000 -j c:18593
	local small
	small=$(probe_a -c 3 -t 500 -j c:18593) || true
	restore_c_route
	echo "$output"
	echo "$output" | jq -e '.[0] | .status == "unreachable" and
		(.verdicts | index("size_suspect")) and
		any(.findings[]; test("every 1000-byte probe was lost"))'
	echo "$small" | jq -e '.[0] | .status == "reachable"'
}
