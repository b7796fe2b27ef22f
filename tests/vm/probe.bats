#!/usr/bin/env bats
# serve and probe on the real rxe driver across the routed fabric: hops
# from the hop limit, hop-limit expiry, DSCP remarking on R2, flow labels
# on IPv6, the reverse AH, malformed packets, a responder killed mid-run,
# and our GRH decoding against tshark's of the same packets.
# Runs in the guest (tests/vm/run). Responders: b, c, d (one rendezvous
# port each: all endpoints share the guest's network namespace).

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
INJECT=$BATS_TEST_DIRNAME/../../build/tests/tools/ud_inject

port_of() { case $1 in b) echo 18516 ;; c) echo 18517 ;; d) echo 18518 ;; esac; }

setup_file() {
	require_vm_fabric || return 1
	local x
	for x in b c d; do
		start_serve "$x" "$BATS_FILE_TMPDIR/serve.$x" "$(port_of "$x")"
	done
}

teardown_file() { stop_serves "$BATS_FILE_TMPDIR"; }

# probe from endpoint a, bounded.
probe_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe "$@"; }

@test "serve prints one ready line: device, QPN, Q_Key, rendezvous, GIDs" {
	jq -e --arg dev "$FABRIC_B_RXE" --arg gid "::ffff:$FABRIC_B_IP4" '
		select(.event == "ready") | .device == $dev and .qpn > 0 and
		.qkey == 448061630 and (.rendezvous | endswith(":18516")) and
		any(.gids[]; .gid == $gid and .type == "RoCE v2")' \
		"$BATS_FILE_TMPDIR/serve.b"
}

@test "IPv4: hops 0, 1 and 2 from the hop limit that left the sender; replies over the reverse AH" {
	run -0 probe_a -c 3 -j b:18516 c:18517 d:18518
	echo "$output" | jq -e --arg a "::ffff:$FABRIC_A_IP4" '
		map(.status) == ["reachable", "reachable", "reachable"] and
		map(.hops) == [0, 1, 2] and
		all(.[]; .hop_limit_source == "route" and .hop_limit_sent == 64 and
			.received == 3 and .reverse_ah.grh.dgid == $a and
			.observed.grh_present and .rtt_us.min > 0) and
		map(.observed.hop_limit) == [64, 63, 62]'
}

@test "the reply AH: hop limit 255 (not the decremented one), the asked SL, no wc.sl on RoCE" {
	run -0 probe_a -c 2 --sl 3 -j b:18516 d:18518
	echo "$output" | jq -e '
		all(.[]; .reverse_ah.grh.hop_limit == 255 and .reverse_ah.sl == 3 and
			.observed.sl == null and .source.provider == "rxe" and
			(.hop_limit_rule | test("rxe creates AHs in the kernel"))) and
		map(.observed.hop_limit) == [64, 62]'
}

@test "IPv6: hops as well; the flow label is not carried by rxe, and the report says so" {
	# First IPv6 contact: the responders' reverse AHs resolve their
	# neighbours (~1 s on rxe) while the probes wait: see probe(8) NOTES.
	run probe_a -c 2 -t 3000 -j --flow-label 0x12345 b6:18516 c6:18517 d6:18518
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e 'map(.hops) == [0, 1, 2] and
		all(.[]; .observed.ip_version == 6 and .observed.flow_label == 0 and
			(.verdicts | index("flow_label_not_carried")) and
			any(.findings[]; startswith("flow label not carried: sent 0x12345, seen 0")))'
}

@test "a requested hop limit the sending stack ignores is named, with both values" {
	run -0 probe_a -c 2 -j --hop-limit 5 c:18517
	echo "$output" | jq -e '.[0] | .hops == 1 and
		(.verdicts | index("hop_limit_not_honoured")) and
		any(.findings[]; . == "hop limit not honoured by the sending stack: asked 5, sent 64 (the route'"'"'s), arrived 63")'
}

@test "route hop limit 1 across a router: every probe lost, expiry named; 2 arrives with 1 left" {
	tests/vm/set-hoplimit a "$FABRIC_C_IP4" 1
	run -1 probe_a -c 3 -t 300 -j c:18517
	tests/vm/set-hoplimit a "$FABRIC_C_IP4" 2
	local two
	two=$(probe_a -c 2 -j c:18517) || true
	tests/vm/set-hoplimit a "$FABRIC_C_IP4" reset
	echo "$output" | jq -e '.[0] | .status == "unreachable" and .lost == 3 and
		.hop_limit_sent == 1 and (.verdicts | index("hop_limit_expired"))'
	echo "$two" | jq -e '.[0] | .status == "reachable" and .hop_limit_sent == 2 and
		.observed.hop_limit == 1 and .hops == 1'
}

@test "R2 remarks DSCP towards d: traffic class sent 0x28, seen 0x30, both in the report" {
	run -0 probe_a -c 2 --tclass 0,0x28 -j c:18517 d:18518
	echo "$output" | jq -e '
		(map(select(.dest == "d:18518") | .observed.traffic_class) == [48, 48]) and
		(map(select(.dest == "c:18517") | .observed.traffic_class) == [0, 40]) and
		(.[] | select(.dest == "d:18518" and .params.traffic_class == 40) |
			(.verdicts | index("tclass_remarked")) and
			any(.findings[]; . == "traffic class remarked: sent 0x28 (DSCP 10), seen 0x30 (DSCP 12)"))'
	run -0 probe_a -c 1 --tclass 0x28 d:18518
	[[ $output == *"traffic class remarked: sent 0x28 (DSCP 10), seen 0x30 (DSCP 12)"* ]] ||
		fail "$output"
}

@test "our decoded GRH agrees with tshark's decoding of the same packets on the wire" {
	local qpn wire ours
	qpn=$(jq -r 'select(.event == "ready") | .qpn' "$BATS_FILE_TMPDIR/serve.d")
	# IPv4 on D's link, after both routers and R2's remarking.
	pcap_start "" "$FABRIC_D_NETDEV" "udp dst port 4791 and dst host $FABRIC_D_IP4"
	run -0 probe_a -c 3 --tclass 0x28 -j d:18518
	wire=$(pcap_fields ip.ttl ip.dsfield infiniband.bth.destqp | sort -u)
	ours=$(echo "$output" | jq -r --argjson qpn "$qpn" \
		'.[0].observed | "\(.hop_limit),\(.traffic_class),\($qpn)"')
	[ "$wire" = "$ours" ] || fail "tshark: '$wire', ibahprobe: '$ours'"
	# IPv6: hop limit, traffic class and flow label.
	pcap_start "" "$FABRIC_D_NETDEV" "ip6 and udp dst port 4791 and dst host $FABRIC_D_IP6"
	run -0 probe_a -c 3 --tclass 0x28 --flow-label 0x12345 -j d6:18518
	wire=$(pcap_fields ipv6.hlim ipv6.tclass ipv6.flow infiniband.bth.destqp | sort -u)
	ours=$(echo "$output" | jq -r --argjson qpn "$qpn" \
		'.[0].observed | "\(.hop_limit),\(.traffic_class),\(.flow_label),\($qpn)"')
	[ "$wire" = "$ours" ] || fail "tshark: '$wire', ibahprobe: '$ours'"
}

# rxe's port comes from the prober's QPN (rxe_qp_init_req): what probe
# says it sends must be what the wire carries, for every flow label.
@test "wire_udp_sport: rxe's own port of the run's QP, as on the wire, whatever the flow label" {
	local wire ours
	pcap_start "" "$FABRIC_B_NETDEV" "udp dst port 4791 and dst host $FABRIC_B_IP4"
	run -0 probe_a -c 2 --flow-label 0,0x12345 -j b:18516
	wire=$(pcap_fields udp.srcport | sort -u)
	ours=$(echo "$output" | jq -r '[.[].params.wire_udp_sport] | unique | .[]')
	[ -n "$wire" ] && [ "$wire" = "$ours" ] || fail "tcpdump: '$wire', ibahprobe: '$ours'"
	echo "$output" | jq -e '.[1].params.udp_sport == 58177 and .[0].params.udp_sport == null' >/dev/null ||
		fail "$output"
	# -v names it (a new run, a new QP: its own port).
	run -0 probe_a -v -c 1 --flow-label 0x12345 b:18516
	[[ $output =~ UDP\ source\ port\ 0x[0-9a-f]{4}\ \([0-9]+\):\ rxe\'s\ own\ for\ QP\ 0x[0-9a-f]+\ \(flow\ label\ 0x12345\ asks\ 0xe341\) ]] ||
		fail "$output"
}

@test "JSON Lines: one object per destination and set, as each completes, then a summary" {
	run -0 probe_a -c 1 --jsonl --tclass 0,0x28 b:18516 d:18518
	[ "${#lines[@]}" -eq 5 ] || fail "$output"
	for line in "${lines[@]:0:4}"; do
		jq -e '.record == "result" and .status == "reachable"' <<<"$line" >/dev/null || fail "$line"
	done
	jq -e '.record == "summary" and .counts.reachable == 4 and .exit_status == 0 and
		.interrupted == false and .destinations == 2 and .sets == 2' <<<"${lines[4]}" ||
		fail "${lines[4]}"
	[ "$(printf '%s\n' "${lines[@]}" | jq -r .run_id | sort -u | wc -l)" -eq 1 ] || fail "one run id"
}

@test "the summary's probing_usec: the probing phase alone, inside the whole run" {
	local start wall_us
	start=$(date +%s%N)
	# 5 probes 50 ms apart: the phase spans at least the 4 gaps.
	run -0 probe_a -c 5 -i 50 --jsonl b:18516
	wall_us=$((($(date +%s%N) - start) / 1000))
	jq -e --argjson wall "$wall_us" 'select(.record == "summary") |
		.probes_sent == 5 and .probing_usec >= 200000 and .probing_usec < $wall' \
		<<<"${lines[1]}" || fail "whole run $wall_us us: ${lines[1]}"
}

@test "malformed and truncated packets are counted and dropped; valid probes still answered" {
	local log=$BATS_FILE_TMPDIR/serve.inject qpn kind
	start_serve b "$log" 18520
	qpn=$(jq -r 'select(.event == "ready") | .qpn' "$log")
	for kind in truncated bad_magic bad_version bad_kind bad_length reply; do
		timeout 30 "$INJECT" -d "$FABRIC_A_RXE" -g "$(fabric_gid_index a 4)" \
			"::ffff:$FABRIC_B_IP4" "$qpn" 0x1ab4e0be "$kind" 3 ||
			fail "ud_inject $kind failed"
	done
	run -0 probe_a -c 2 -j b:18520
	echo "$output" | jq -e '.[0].status == "reachable"'
	kill -TERM "$(cat "$log.pid")"
	wait "$(cat "$log.pid")" || fail "serve exited with $?"
	jq -e 'select(.event == "summary") | .stopped_by == "SIGTERM" and .answered == 2 and
		.dropped.truncated == 3 and .dropped.bad_magic == 3 and
		.dropped.bad_version == 3 and .dropped.bad_kind == 3 and
		.dropped.bad_length == 3 and .dropped.not_request == 3 and
		.dropped_total == 18' "$log" || fail "$(cat "$log")"
}

@test "a responder killed mid-run: loss reported for it, the others probed on, exit 1, no hang" {
	local log=$BATS_FILE_TMPDIR/serve.victim
	start_serve c "$log" 18521 -vv
	# Killed once it has answered (its -vv lines say so), not after a
	# fixed time: on a loaded machine the prober's set-up alone can take
	# longer than the run. The pid file holds timeout(1)'s pid, which
	# cannot pass SIGKILL on.
	(for ((i = 0; i < 600; i++)); do
		grep -q "answered seq" "$log" && break
		sleep 0.05
	done
	sleep 0.5
	pkill -KILL -P "$(cat "$log.pid")") &
	run -1 probe_a -c 20 -i 200 -t 500 -j b:18516 c:18521
	wait
	echo "$output" | jq -e '.[0].status == "reachable" and .[0].received == 20 and
		(.[1].status == "partial_loss" or .[1].status == "unreachable") and
		.[1].lost > 0'
}

@test "serve --count exits after answering N probes, with a summary" {
	local log=$BATS_FILE_TMPDIR/serve.count
	start_serve d "$log" 18522 --count 2
	run -0 probe_a -c 2 -j d:18522
	timeout 20 tail --pid="$(cat "$log.pid")" -f /dev/null
	jq -e 'select(.event == "summary") | .answered == 2 and (.stopped_by | test("count"))' "$log" ||
		fail "$(cat "$log")"
}

@test "serve --duration stops on time with a summary" {
	local log=$BATS_FILE_TMPDIR/serve.duration
	start_serve d "$log" 18523 --duration 2
	timeout 20 tail --pid="$(cat "$log.pid")" -f /dev/null
	jq -e 'select(.event == "summary") | .stopped_by == "duration"' "$log" ||
		fail "$(cat "$log")"
}

@test "a flood of requests is absorbed: replies capped, memory flat, probes still answered" {
	local log=$BATS_FILE_TMPDIR/serve.flood qpn pid rss_before rss_after
	start_serve b "$log" 18524 --max-rate 500
	qpn=$(jq -r 'select(.event == "ready") | .qpn' "$log")
	pid=$(pgrep -P "$(cat "$log.pid")")
	rss_before=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
	timeout 120 "$INJECT" -d "$FABRIC_A_RXE" -g "$(fabric_gid_index a 4)" \
		"::ffff:$FABRIC_B_IP4" "$qpn" 0x1ab4e0be request 20000 ||
		fail "ud_inject request failed"
	rss_after=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
	sleep 0.5	# the 100 ms burst allowance refills
	run -0 probe_a -c 3 -j b:18524
	echo "$output" | jq -e '.[0].status == "reachable"'
	kill -TERM "$pid"
	timeout 20 tail --pid="$pid" -f /dev/null
	echo "VmRSS before $rss_before kB, after 20,000 requests $rss_after kB"
	[ "$rss_after" -le $((rss_before + 1024)) ]
	jq -e 'select(.event == "summary") | .dropped.rate_limited > 0 and
		.answered >= 3 and .answered + .dropped.rate_limited <= 20003' "$log" ||
		fail "$(cat "$log")"
}

@test "gid: with --qpn and --qkey needs no rendezvous; a size over the MTU is refused" {
	local qpn
	qpn=$(jq -r 'select(.event == "ready") | .qpn' "$BATS_FILE_TMPDIR/serve.c")
	run -0 probe_a -c 2 -j --qpn "$qpn" --qkey 0x1ab4e0be "gid:::ffff:$FABRIC_C_IP4"
	echo "$output" | jq -e '.[0].status == "reachable" and .[0].hops == 1'
	run -2 --separate-stderr probe_a -c 1 --size 2048 c:18517
	[ -z "$output" ]
	[[ $stderr == *"probe size 2048 exceeds the path MTU 1024 of $FABRIC_A_RXE port 1"* ]] ||
		fail "$stderr"
}

@test "a long run shows a progress line when stderr is a terminal, none when it is not" {
	run -0 script -qec "$IBAHPROBE -d $FABRIC_A_RXE -g auto probe -c 15 -i 200 b:18516 2>&1 >/dev/null" /dev/null
	[[ $output == *"probe: "*"/15 sent, "*" answered"* ]] || fail "$output"
	run -0 --separate-stderr probe_a -c 15 -i 200 b:18516
	[[ $stderr != *" sent, "* ]] || fail "$stderr"
}

@test "silent and dead destinations among live ones: each named with its cause, the live ones probed" {
	local s1=${FABRIC_A_IP4%.*}.91 s2=${FABRIC_A_IP4%.*}.92 s3=${FABRIC_A_IP4%.*}.93
	local qpn
	qpn=$(jq -r 'select(.event == "ready") | .qpn' "$BATS_FILE_TMPDIR/serve.b")
	# --qpn: no rendezvous; the AHs towards silent next hops time out on ARP.
	run -1 probe_a --qpn "$qpn" -c 2 -j "$s1" "$s2" "$FABRIC_B_IP4" "$s3"
	echo "$output" | jq -e '
		map(.status) == ["error", "error", "reachable", "error"] and
		all(.[0, 1, 3]; .error | test("neighbour")) and .[2].received == 2'
	# Rendezvous: dead hosts time out, the live one answers.
	run -1 probe_a -t 700 -c 2 -j "$s1:18516" b:18516 "$s2:18516"
	echo "$output" | jq -e '
		map(.status) == ["error", "reachable", "error"] and
		(.[0].error | test("no answer from .* within 700 ms")) and
		(.[2].error | test("no answer from .* within 700 ms"))'
}
