#!/usr/bin/env bats
# probe --mtu: MTU discovery across the VM fabric. R1's IPv4 route to C
# gets an MTU of 700 (as in loss_causes.bats), so the largest UD payload
# that reaches C is 700 - 20 (IPv4) - 8 (UDP) - 12 (BTH) - 8 (DETH) - 4
# (ICRC) = 648; B (same LAN) carries the port MTU; a destination without
# a responder and one whose UDP 4791 is dropped are unreachable.
# Rendezvous ports 18721-18729.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

C_NET=${FABRIC_C_IP4%.*}.0/24

setup_file() {
	require_vm_fabric || return 1
	local d=$BATS_FILE_TMPDIR
	start_serve b "$d/serve.b" 18722
	start_serve c "$d/serve.c" 18721
	start_serve d "$d/serve.d" 18723
	# The first probe to C resolves its next hop (ARP) before the
	# route narrows: what follows measures the MTU only.
	timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe -c 1 -t 3000 \
		c:18721 d:18723 >/dev/null
	/usr/sbin/ip -n r1 -4 route show exact "$C_NET" >"$d/c-route"
	# shellcheck disable=SC2046
	/usr/sbin/ip -n r1 route replace $(cat "$d/c-route") mtu lock 700
}

teardown_file() {
	local d=$BATS_FILE_TMPDIR
	ip netns exec r2 nft delete table inet mtu_test 2>/dev/null
	if [ -s "$d/c-route" ]; then
		# shellcheck disable=SC2046
		/usr/sbin/ip -n r1 route replace $(cat "$d/c-route")
	fi
	stop_serves "$d"
	true
}

probe_a() { timeout 300 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe "$@"; }

# Text lines wrap at 99 columns: the verdict is read as one line.
joined() { echo "$output" | tr -s ' \n' ' '; }

@test "C behind a 700-byte route: 648 arrives, 649 lost, the blackhole named with its IP MTU" {
	run -1 probe_a --mtu -t 500 c:18721
	echo "$output"
	joined | grep -q "blackhole: 648 arrives, 649 lost; port MTU 1024; a link on the way is narrower (IP MTU 700 with IPv4 RoCE v2 headers)"
	[[ "$output" =~ c:18721\ +648\ +649\ +1024\ +port ]]
	joined | grep -q "1 destination: 0 carry its bound, 1 blackhole, 0 unreachable, 0 errors; replies are 160 bytes, so only the way there is measured"
}

@test "B on the same LAN carries the port MTU in one step: exit 0" {
	run -0 probe_a --mtu -t 500 -v b:18722
	echo "$output"
	joined | grep -q "no blackhole: the port MTU 1024 arrives"
	[[ "$output" =~ step\ +1:\ 1024\ bytes:\ 3\ of\ 3\ answered,\ arrives ]]
	! [[ "$output" =~ step\ +2: ]]
}

@test "--size max is --mtu; -v shows every step, the edge tried again" {
	run -1 probe_a --size max -c 2 -t 500 -v c:18721
	echo "$output"
	[[ "$output" =~ step\ +1:\ 1024\ bytes:\ 0\ of\ 2\ answered,\ lost ]]
	[[ "$output" =~ step\ +2:\ \ 208\ bytes:\ 2\ of\ 2\ answered,\ arrives ]]
	[[ "$output" =~ 649\ bytes:\ 0\ of\ 2\ answered,\ lost\ \(tried\ again\) ]]
	[[ "$output" =~ bounds:\ port\ MTU\ 1024,\ netdev\ MTU\ [0-9]+\ \(payload\ [0-9]+\),\ responder\'s\ port\ MTU\ 1024 ]]
}

@test "JSON: one document with the numbers, verdict keys and steps of C and B" {
	run -1 probe_a --mtu -t 500 -j c:18721 b:18722
	echo "$output"
	echo "$output" | jq -e '
		.schema == "ibahprobe.probe_mtu.v1" and .reply_size == 160 and
		.probes_per_size == 3 and .source.port_mtu == 1024 and
		(.destinations | length) == 2 and
		.summary == {"destinations": 2, "no_blackhole": 1,
			     "blackhole": 1, "unreachable": 0, "error": 0,
			     "interrupted": 0}'
	echo "$output" | jq -e '.destinations[0] |
		.dest == "c:18721" and .status == "blackhole" and
		.largest_arrived == 648 and .smallest_lost == 649 and
		.ip_mtu == 700 and .bound == 1024 and .bound_source == "port" and
		.responder_mtu == 1024 and .error == null and
		.steps[0] == {"size": 1024, "sent": 3, "answered": 0,
			      "arrived": false, "retry": false} and
		.steps[1].size == 208 and .steps[1].arrived and
		(.steps[-1] | .size == 649 and .retry and (.arrived | not)) and
		([.steps[] | select(.arrived) | .size] | max) == 648 and
		([.steps[] | select(.arrived | not) | .size] | min) == 649'
	echo "$output" | jq -e '.destinations[1] |
		.status == "no_blackhole" and .largest_arrived == 1024 and
		.smallest_lost == null and .ip_mtu == null and
		(.steps | length) == 1'
}

@test "unreachable: no responder at all, and UDP 4791 dropped on the way; exit 1" {
	ip netns exec r2 nft -f - <<'NFT'
table inet mtu_test {
	chain forward {
		type filter hook forward priority 0;
		oifname "r2-d" udp dport 4791 drop
	}
}
NFT
	run -1 probe_a --mtu -t 500 -j d:18723 b:18729
	ip netns exec r2 nft delete table inet mtu_test
	echo "$output"
	echo "$output" | jq -e '.destinations[0] |
		.status == "unreachable" and .largest_arrived == null and
		.smallest_lost == 208 and
		([.steps[].size] == [1024, 208, 208]) and
		.verdict == "unreachable: not even 208 bytes arrive"'
	echo "$output" | jq -e '.destinations[1] |
		.status == "unreachable" and (.steps | length) == 0 and
		(.error | test("18729"))'
	echo "$output" | jq -e '.summary.unreachable == 2'
}

# Issue 26: `check path_mtu>=1024` passed here on the port's MTU while
# everything over 648 bytes was dropped on the way to C. On RoCE it is
# not measured, so it fails, naming the form that measures.
@test "check path_mtu>=1024 to C behind the 700-byte route: not passed on the port's MTU, probe --mtu named" {
	printf 'c:18721 path_mtu>=1024\nc:18721 reachable\n' >"$BATS_TEST_TMPDIR/list.chk"
	run -1 timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 1000 check \
		"$BATS_TEST_TMPDIR/list.chk"
	echo "$output"
	[ "${lines[1]}" = "not ok 1 - c:18721 path_mtu>=1024" ] || fail "${lines[1]}"
	echo "$output" | sed 's/^# *//' | tr -s ' \n' ' ' | grep -qF \
		"got not measured: RoCE has no path record and the port's MTU (1024 bytes) is not the path's; \`ibahprobe probe --mtu c:18721\` measures it" ||
		fail "no reason naming probe --mtu"
	grep -qx "ok 2 - c:18721 reachable" <<<"$output" || fail "reachable"
}
