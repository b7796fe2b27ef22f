#!/usr/bin/env bats
# trace on RoCE v2 with the real rxe driver: hop by hop with crafted RoCE
# UD datagrams from a kernel UDP socket, R1 and R2 answering time exceeded,
# the destination's rxe taking the last datagram (its ICRC right, or rxe
# drops it) and serve answering it on our UD QP; R2's DSCP rewrite seen at
# the responder; a destination without serve; the hop limit running out.
# Runs in the guest (tests/vm/run). Rendezvous ports 18701-18709.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
# The routers' transit addresses (R2 answers from its leg towards R1).
# shellcheck source=tests/vm/fabric.conf
. "$BATS_TEST_DIRNAME/fabric.conf"
R2_T4_ADDR=$R2_T4

setup_file() {
	[ -n "${FABRIC_ENDPOINTS:-}" ] || {
		echo "not inside the VM fabric: run tests/vm/run" >&2
		return 1
	}
	start_serve b "$BATS_FILE_TMPDIR/serve.b" 18701
	start_serve c "$BATS_FILE_TMPDIR/serve.c" 18702
	start_serve d "$BATS_FILE_TMPDIR/serve.d" 18703
}

teardown_file() { stop_serves "$BATS_FILE_TMPDIR"; }

trace_a() { "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 1000 trace "$@"; }

# Received packets of an rxe port: the counter rxe bumps only for a
# datagram whose headers and ICRC it took (rxe_rcv).
rcvd_pkts() { rdma statistic show link "$1/1" | grep -o 'rcvd_pkts [0-9]*' | awk '{ print $2 }'; }

@test "A -> D over R1 and R2: each router by its address, then the responder, R2's remarking named" {
	local before after
	before=$(rcvd_pkts "$FABRIC_D_RXE")
	run -0 --separate-stderr trace_a d:18703
	after=$(rcvd_pkts "$FABRIC_D_RXE")
	[[ ${lines[0]} == "d:18703 ($FABRIC_D_IP4, QPN "*"): flow label 0x00000 (UDP source port 49152), tclass 0x00" ]] ||
		fail "${lines[0]}"
	[[ ${lines[1]} =~ ^\ +1\ +$FABRIC_A_GW4\ +[0-9.]+\ ms ]] || fail "hop 1: ${lines[1]}"
	[[ ${lines[2]} =~ ^\ +2\ +$R2_T4_ADDR\ +[0-9.]+\ ms ]] || fail "hop 2: ${lines[2]}"
	[[ ${lines[3]} =~ ^\ +3\ +$FABRIC_D_IP4\ +[0-9.]+\ ms.*responder:\ tclass\ 0x00\ remarked\ on\ the\ way\ to\ 0x30 ]] ||
		fail "hop 3: ${lines[3]}"
	[[ $output == *"1 flow: 1 reached the responder, 0 did not"* ]] || fail "$output"
	# The three datagrams of the last hop passed rxe's checks (ICRC).
	[ $((after - before)) -ge 3 ] || fail "rxe_d took $((after - before)) datagrams"
}

@test "-j: one object per flow with its hops, the routers' reply TTLs and what the responder saw" {
	run -0 --separate-stderr trace_a -j --queries 1 d:18703
	echo "$output" | jq -e 'length == 1 and .[0].schema == "ibahprobe.trace.v1" and .[0].status == "reached"' >/dev/null ||
		fail "$output"
	echo "$output" | jq -e --arg gw "$FABRIC_A_GW4" --arg r2 "$R2_T4_ADDR" --arg d "$FABRIC_D_IP4" '
		.[0].hops | length == 3
		and .[0].answers[0].from == $gw and .[0].answers[0].kind == "time_exceeded"
		and .[0].answers[0].reply_ttl == 64
		and .[1].answers[0].from == $r2 and .[1].answers[0].reply_ttl == 63
		and .[2].answers[0].from == $d and .[2].answers[0].kind == "responder"
		and .[2].answers[0].seen_traffic_class == 48 and .[2].answers[0].seen_hop_limit == 1' >/dev/null ||
		fail "$output"
}

@test "A -> C over R1 keeps the traffic class; A -> B on the same LAN is one hop" {
	run -0 --separate-stderr trace_a --tclass 0x28 --queries 1 c:18702 b:18701
	[[ $output =~ \ +1\ +$FABRIC_A_GW4 ]] || fail "$output"
	[[ $output =~ \ +2\ +$FABRIC_C_IP4\ .*responder:\ tclass\ kept ]] || fail "$output"
	[[ $output =~ b:18701.*$'\n'\ +1\ +$FABRIC_B_IP4\ .*responder: ]] || fail "$output"
	[[ $output == *"2 flows: 2 reached the responder, 0 did not"* ]] || fail "$output"
}

@test "--max-hops 1 towards D: not reached, exit 1, status max_hops" {
	run -1 --separate-stderr trace_a -j --queries 1 --max-hops 1 d:18703
	echo "$output" | jq -e '.[0].status == "max_hops" and (.[0].hops | length) == 1' >/dev/null ||
		fail "$output"
}

@test "a destination without serve: an error line, exit 1, the other destination still traced" {
	run -1 --separate-stderr trace_a --queries 1 c:18709 d:18703
	[[ $output == *"c:18709"* ]] || fail "$output"
	[[ $output == *"2 flows: 1 reached the responder, 1 did not"* ]] || fail "$output"
}

@test "a flow-label sweep: each label its own UDP source port, every flow reaches D" {
	run -0 --separate-stderr trace_a -j --queries 1 --flow-label 1-3 d:18703
	echo "$output" | jq -e 'map(.udp_sport) == [49153, 49154, 49155] and all(.status == "reached")' >/dev/null ||
		fail "$output"
}
