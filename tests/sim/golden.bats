#!/usr/bin/env bats
# Golden outputs on the simulated subnet: probe --dry-run, path, ah, trace
# and ports from H1, compared byte for byte with tests/sim/golden/expected
# (tests/golden/run; GOLDEN_UPDATE=1 records them anew after a deliberate
# change). Ports, run ids and times are normalised (golden/normalise.sed).

load helpers


# A rendezvous peer on ADDR; its ADDR:PORT on stdout.
golden_peer() {	# ADDR RENDEZVOUS_PEER_ARGS...
	local addr=$1 name i peer
	shift
	name=peer-${addr##*.}
	"$RENDEZVOUS_PEER" -l "$addr:0" -p "$SIM_DIR/$name.pid" "$@" \
		>"$SIM_DIR/$name.out" 2>&1 &
	for ((i = 0; i < 50; i++)); do
		peer=$(sed -n 's/^listening //p' "$SIM_DIR/$name.out" 2>/dev/null || true)
		[ -n "$peer" ] && { echo "$peer"; return 0; }
		sleep 0.1
	done
	echo "rendezvous_peer on $addr did not start" >&2
	return 1
}

setup_file() {
	[ -x "$RENDEZVOUS_PEER" ] || missing "tests/tools/rendezvous_peer is not built (make check-build)"
	sim_setup_qos_partition_subnet
	export L2 L3 L4 G2 G3 G4 PEER2 PEER3 PEER4 PEERBAD PEERROCE
	L2=$(sim_lid H2) L3=$(sim_lid H3) L4=$(sim_lid H4)
	G2=$(sim_gid H2) G3=$(sim_gid H3) G4=$(sim_gid H4)
	PEER2=$(golden_peer 127.0.0.12 "$G2")
	PEER3=$(golden_peer 127.0.0.13 -L 999 -q 0x33 "$G3" "::ffff:10.0.0.3,RoCE v2,1")
	PEER4=$(golden_peer 127.0.0.14 -L 998 -q 0x44 "::ffff:10.0.0.4,IB,0" "$G4,IB,1")
	PEERBAD=$(golden_peer 127.0.0.15 -L 77 fe80::dead:beef)
	PEERROCE=$(golden_peer 127.0.0.16 -t Ethernet "fe80::1,RoCE v1,0" "::ffff:127.0.0.16,RoCE v2,1")
	# The runner calls the binary as H1 of the subnet, as iba_on does.
	cat >"$BATS_FILE_TMPDIR/on-h1" <<-WRAP
	#!/bin/bash
	cd "$SIM_DIR" && SIM_HOST=H1 LD_PRELOAD=$SIM_PRELOAD exec timeout "$SIM_CMD_TIMEOUT" "$IBAHPROBE" "\$@"
	WRAP
	chmod +x "$BATS_FILE_TMPDIR/on-h1"
}

teardown_file() {
	local pid
	for pid in "$SIM_DIR"/peer-*.pid; do
		[ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null
	done
	sim_stop
}

@test "probe --dry-run, path, ah, trace and ports print what they printed before lib/ moved" {
	run -0 env IBAHPROBE="$BATS_FILE_TMPDIR/on-h1" "$TOP/tests/golden/run" \
		"$BATS_TEST_DIRNAME/golden/cases" "$BATS_TEST_DIRNAME/golden/expected" \
		"$BATS_TEST_DIRNAME/golden/normalise.sed"
}
