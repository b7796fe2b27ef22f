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

@test "--paths all is refused on RoCE (no LIDs): exit 2, the flow labels named" {
	run -2 --separate-stderr trace_a --paths all d:18703
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"--paths all walks the DLIDs of an InfiniBand LMC"*"--flow-label"* ]] ||
		fail "$stderr"
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

# The routers' quotes (raw ICMP socket, root here) say which traffic class
# each hop received: R2 rewrites on its way out towards D, so hops 1 and
# 2 saw 0x00 and only the responder 0x30.
@test "R2's DSCP rewrite located between hop 2 (R2) and the responder, per hop in -j" {
	run -0 --separate-stderr trace_a -j --queries 1 d:18703
	echo "$output" | jq -e --arg gw "$FABRIC_A_GW4" --arg r2 "$R2_T4_ADDR" --arg d "$FABRIC_D_IP4" '
		.[0].per_hop_traffic_class == true
		and .[0].hops[0].answers[0].seen_traffic_class == 0
		and .[0].hops[1].answers[0].seen_traffic_class == 0
		and .[0].hops[2].answers[0].seen_traffic_class == 48
		and (.[0].traffic_class_changes | length) == 1
		and .[0].traffic_class_changes[0] == {field: "dscp", sent: 0, seen: 12,
			after_hop: 2, after: $r2, before_hop: 3, before: $d,
			before_is_responder: true}' >/dev/null || fail "$output"
	run -0 --separate-stderr trace_a --queries 1 d:18703
	[[ $output == *"DSCP 0 became 12 between hop 2 ($R2_T4_ADDR) and hop 3 (the responder, $FABRIC_D_IP4)"* ]] ||
		fail "$output"
}

# Another rewrite, on R1's way out towards R2 (DSCP 20, and ECN CE): R2
# already receives it changed, so the change lies between R1 and R2, not
# where the responder alone would put it.
@test "a rewrite on R1 towards R2 located between hop 1 and hop 2; an ECN CE mark apart" {
	ip netns exec "$FABRIC_R1_NETNS" nft -f - <<-NFT
		table ip trace_remark {
			chain post {
				type filter hook postrouting priority mangle; policy accept;
				oifname "r1-r2" ip dscp set 20 ip ecn set ce
			}
		}
	NFT
	run --separate-stderr trace_a -j --queries 1 --tclass 0x02 d:18703
	ip netns exec "$FABRIC_R1_NETNS" nft delete table ip trace_remark
	[ "$status" -eq 0 ] || fail "exit $status: $output $stderr"
	echo "$output" | jq -e --arg gw "$FABRIC_A_GW4" --arg r2 "$R2_T4_ADDR" '
		.[0].hops[0].answers[0].seen_traffic_class == 2
		and .[0].hops[1].answers[0].seen_traffic_class == 83
		and (.[0].traffic_class_changes | map({(.field): .}) | add) as $c
		| $c.dscp.sent == 0 and $c.dscp.seen == 20
		and $c.dscp.after_hop == 1 and $c.dscp.after == $gw
		and $c.dscp.before_hop == 2 and $c.dscp.before == $r2
		and $c.dscp.before_is_responder == false
		and $c.ecn.sent == 2 and $c.ecn.seen == 3 and $c.ecn.after_hop == 1' >/dev/null ||
		fail "$output"
}

@test "without CAP_NET_RAW: no per-hop traffic class, the change placed anywhere up to the responder" {
	command -v setpriv >/dev/null || skip "no setpriv"
	run -0 --separate-stderr setpriv --bounding-set -net_raw "$IBAHPROBE" -d "$FABRIC_A_RXE" \
		-g auto -t 1000 trace -j --queries 1 d:18703
	echo "$output" | jq -e '.[0].per_hop_traffic_class == false
		and .[0].hops[0].answers[0].seen_traffic_class == null
		and .[0].traffic_class_changes[0].after_hop == 0
		and .[0].traffic_class_changes[0].after == null
		and .[0].traffic_class_changes[0].before_is_responder' >/dev/null || fail "$output"
	run -0 --separate-stderr setpriv --bounding-set -net_raw "$IBAHPROBE" -d "$FABRIC_A_RXE" \
		-g auto -t 1000 trace --queries 1 d:18703
	[[ $output == *"DSCP 0 became 12 between this host and hop 3 (the responder, $FABRIC_D_IP4) (per hop: needs CAP_NET_RAW)"* ]] ||
		fail "$output"
}

# Three queries a hop: the responder's first IPv6 reply can go while D's
# neighbour entry for R2 is still being resolved, and be dropped.
@test "IPv6: R2's rewrite located the same way over the IPv6 routes" {
	run -0 --separate-stderr trace_a -j d6:18703
	echo "$output" | jq -e --arg r2 "$R2_T6" --arg d "$FABRIC_D_IP6" '
		.[0].status == "reached" and (.[0].hops | length) == 3
		and .[0].hops[1].answers[0].from == $r2
		and .[0].hops[1].answers[0].seen_traffic_class == 0
		and .[0].traffic_class_changes[0].after == $r2
		and .[0].traffic_class_changes[0].before == $d' >/dev/null || fail "$output"
}
