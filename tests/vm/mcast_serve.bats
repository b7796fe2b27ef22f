#!/usr/bin/env bats
# serve --mcast on RoCE (rxe): the IPv4 and IPv6 groups are held by a
# socket on b's netdev (IP_ADD_MEMBERSHIP / IPV6_JOIN_GROUP), so `ip maddr`
# lists them and b sends IGMP and MLD reports onto the LAN; the ready line
# names them; on exit the memberships are gone. A request sent to the
# group (tests/tools/ud_inject, QPN 0xffffff) is answered unicast, over
# the reply AH serve builds itself (ibv_init_ah_from_wc refuses the
# multicast DGID). Rendezvous ports 18791-18793. probe mcast: is the
# prober's to test.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
INJECT=$BATS_TEST_DIRNAME/../../build/tests/tools/ud_inject
GROUP4=239.1.2.3
GROUP6=ff0e::1:2:3

setup_file() {
	require_vm_fabric || return 1
}

teardown_file() {
	stop_serves "$BATS_FILE_TMPDIR"
}

maddr_b() { /usr/sbin/ip maddr show dev "$FABRIC_B_NETDEV"; }

@test "serve --mcast 239.1.2.3,ff0e::1:2:3 on b: ip maddr lists both, IGMP and MLD reports on the LAN, the ready line names them; gone on exit" {
	local log=$BATS_FILE_TMPDIR/serve.b ready i
	tcpdump_start "" -i "$FABRIC_B_NETDEV" -v -l --immediate-mode \
		'igmp or ip6 dst ff02::16' >"$BATS_TEST_TMPDIR/reports.txt"
	start_serve b "$log" 18791 --mcast "$GROUP4,$GROUP6"
	ready=$(grep '"event":"ready"' "$log")
	jq -e --arg dev "$FABRIC_B_NETDEV" '. as $r | .mcast | length == 2
		and .[0].group == "239.1.2.3" and .[0].mgid == "::ffff:239.1.2.3"
		and .[0].mlid == 0 and .[0].join == "igmp" and .[0].netdev == $dev
		and .[0].qkey == $r.qkey
		and .[1].group == "ff0e::1:2:3" and .[1].join == "mld"
		and .[1].netdev == $dev' <<<"$ready" >/dev/null ||
		fail "ready line: $ready"
	maddr_b | grep -q "inet  *$GROUP4\$" || fail "no $GROUP4: $(maddr_b)"
	maddr_b | grep -q "inet6 *$GROUP6\$" || fail "no $GROUP6: $(maddr_b)"
	for ((i = 0; i < 50; i++)); do
		grep -q "$GROUP4" "$BATS_TEST_TMPDIR/reports.txt" &&
			grep -q "$GROUP6" "$BATS_TEST_TMPDIR/reports.txt" && break
		sleep 0.1
	done
	tcpdump_stop
	grep -q "igmp v[23] report.*$GROUP4\|gaddr $GROUP4" "$BATS_TEST_TMPDIR/reports.txt" ||
		fail "no IGMP report for $GROUP4: $(cat "$BATS_TEST_TMPDIR/reports.txt")"
	grep -q "multicast listener report.*$GROUP6\|$GROUP6.*is_ex\|gaddr $GROUP6" "$BATS_TEST_TMPDIR/reports.txt" ||
		fail "no MLD report for $GROUP6: $(cat "$BATS_TEST_TMPDIR/reports.txt")"
	run -0 serve_summary "$log"
	for ((i = 0; i < 20; i++)); do
		maddr_b | grep -q "$GROUP4\|$GROUP6" || break
		sleep 0.1
	done
	! maddr_b | grep -q "$GROUP4\|$GROUP6" || fail "still members after exit: $(maddr_b)"
}

@test "serve --mcast on RoCE refuses an IPoIB group: exit 3, said, no ready line" {
	run -3 --separate-stderr timeout 60 "$IBAHPROBE" -d "$FABRIC_B_RXE" serve -l 18792 --mcast ipoib
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"ipoib is an IPoIB group, for InfiniBand: this port is RoCE"* ]] || fail "$stderr"
}

# IPv4 only: a's policy routing (table 101) sends ff0e::/16 to its
# gateway's MAC (`ip -6 route get ff0e::1:2:3 oif vetha`), so an IPv6
# group datagram from a never reaches b's LAN; the IPv6 reply AH is
# tested with byte vectors (tests/unit/test_reverse_mcast_ah.c).
@test "a request sent to the group is answered unicast over serve's own reply AH" {
	local log=$BATS_FILE_TMPDIR/serve.inject qkey
	[ -x "$INJECT" ] || missing "tests/tools/ud_inject is not built (make check-build)"
	start_serve b "$log" 18793 --mcast "$GROUP4"
	qkey=$(jq -r 'select(.event == "ready") | .qkey' "$log")
	run -0 timeout 60 "$INJECT" -r -d "$FABRIC_A_RXE" -g "$(fabric_gid_index a 4)" \
		"::ffff:$GROUP4" 0xffffff "$qkey" request 2
	[[ $output == *"reply "* ]] || fail "no reply through $GROUP4: $output"
	run -0 serve_summary "$log"
	jq -e '.answered == 2 and .dropped.reverse_ah == 0 and .reverse_ahs_created == 1' <<<"$output" >/dev/null ||
		fail "summary: $output"
}
