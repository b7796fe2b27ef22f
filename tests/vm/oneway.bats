#!/usr/bin/env bats
# probe localises by itself (issue 14): which way probes were lost, from
# the responder's per-set count (in each reply, and asked over the
# rendezvous after the run), and the routers on the way back, from the
# hop limit each reply left with and the one it arrived with. nft rules in
# R1's namespace drop RoCE v2 (UDP 4791) toward D only, back toward A
# only, or every other datagram (numgen); a policy route in R1 sends A's
# traffic for C over R2 and back (3 hops there, 1 back).
# Rendezvous ports 18681-18682, serve on c and d.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
	start_serve c "$BATS_FILE_TMPDIR/serve.c" 18681 || return 1
	start_serve d "$BATS_FILE_TMPDIR/serve.d" 18682 || return 1
	# First contact (neighbours, reply AHs) outside the measured runs.
	timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe -c 1 -t 3000 \
		c:18681 d:18682 >/dev/null || true
}

teardown_file() {
	drop_off
	asymmetric_off
	stop_serves "$BATS_FILE_TMPDIR"
	true
}

probe_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe "$@"; }

# drop_on MATCH...: R1 drops the forwarded RoCE v2 datagrams that MATCH
# (nft words before "udp dport 4791 ... drop"), and only those: a rule
# left from before goes first (with two numgen rules each dropping every
# other datagram, three in four would go).
drop_on() {
	drop_off
	printf 'table inet oneway {\n chain forward {\n  type filter hook forward priority 0;\n  %s udp dport 4791 drop\n }\n}\n' \
		"$*" | ip netns exec r1 nft -f -
}
drop_off() { ip netns exec r1 nft delete table inet oneway 2>/dev/null || true; }

R2_T4=$(awk '$2 == "r2" { print $1; exit }' /etc/hosts 2>/dev/null)

# A's IPv4 traffic for C leaves R1 toward R2, which sends it back to R1
# (its default route), which delivers it: R1, R2, R1 there; C's replies
# take R1 only. R2 sends no redirect for the hairpin meanwhile.
asymmetric_on() {
	ip -n r1 route replace "$FABRIC_C_IP4" via "$R2_T4" table 250
	ip -n r1 rule add pref 50 iif r1-lan to "$FABRIC_C_IP4" lookup 250
	ip netns exec r2 sh -c 'for f in /proc/sys/net/ipv4/conf/*/send_redirects; do echo 0 >$f; done'
}
asymmetric_off() {
	ip -n r1 rule del pref 50 2>/dev/null
	ip -n r1 route flush table 250 2>/dev/null
	ip netns exec r2 sh -c 'for f in /proc/sys/net/ipv4/conf/*/send_redirects; do echo 1 >$f; done' 2>/dev/null
	true
}

@test "hops there and back on the routed destinations: 1 and 1 to c, 2 and 2 to d" {
	run -0 --separate-stderr probe_a -c 3 -t 2000 -j c:18681 d:18682
	echo "$output"
	echo "$output" | jq -e --arg c "$FABRIC_HOPS_A_C" --arg d "$FABRIC_HOPS_A_D" '
		(.[] | select(.dest == "c:18681") | .hops == ($c | tonumber) and
			.hops_back == ($c | tonumber)) and
		(.[] | select(.dest == "d:18682") | .hops == ($d | tonumber) and
			.hops_back == ($d | tonumber)) and
		all(.[]; (.verdicts | index("asymmetric_hops")) == null and
			.loss_direction == "none" and .lost_there == 0 and
			.lost_back == 0)'
}

@test "every probe to d dropped on the way there: lost on the way there, the responder saw 0 of 5" {
	drop_on "ip daddr $FABRIC_D_IP4"
	run -1 --separate-stderr probe_a -c 5 -t 500 -j d:18682
	drop_off
	echo "$output"
	echo "$output" | jq -e '.[0] | .status == "unreachable" and
		.loss_direction == "there" and .responder_received == 0 and
		.lost_there == 5 and .lost_back == 0 and
		(.verdicts | index("lost_there")) and
		any(.findings[]; . == "lost on the way there: the responder saw 0 of 5")'
}

@test "every reply from d dropped on the way back: lost on the way back, 5 of 5 answered" {
	drop_on "ip saddr $FABRIC_D_IP4 ip daddr $FABRIC_A_IP4"
	run -1 --separate-stderr probe_a -c 5 -t 500 -j d:18682
	drop_off
	echo "$output"
	echo "$output" | jq -e '.[0] | .status == "unreachable" and
		.loss_direction == "back" and .responder_received == 5 and
		.responder_answered == 5 and .lost_there == 0 and .lost_back == 5 and
		(.verdicts | index("lost_back")) and
		any(.findings[]; . == "lost on the way back: the responder answered 5 of 5, 5 replies lost")'
}

@test "every other probe dropped there (nft numgen): the responder saw 5 of 10, in JSON and text" {
	drop_on "ip daddr $FABRIC_D_IP4 numgen inc mod 2 == 0"
	run -1 --separate-stderr probe_a -c 10 -i 20 -t 1000 -j d:18682
	local json=$output
	drop_on "ip daddr $FABRIC_D_IP4 numgen inc mod 2 == 0"
	run -1 --separate-stderr probe_a -c 10 -i 20 -t 1000 d:18682
	drop_off
	echo "$json"
	echo "$output"
	echo "$json" | jq -e '.[0] | .status == "partial_loss" and
		.loss_direction == "there" and .responder_received == 5 and
		.lost_there == 5 and .lost_back == 0 and
		any(.findings[]; . == "lost on the way there: the responder saw 5 of 10")'
	[[ $output == *"lost on the way there: the responder saw 5 of 10"* ]] ||
		fail "the text names the direction"
}

@test "every other reply dropped back (nft numgen): answered 10 of 10, 5 replies lost" {
	drop_on "ip saddr $FABRIC_D_IP4 ip daddr $FABRIC_A_IP4 numgen inc mod 2 == 0"
	run -1 --separate-stderr probe_a -c 10 -i 20 -t 1000 -j d:18682
	drop_off
	echo "$output"
	echo "$output" | jq -e '.[0] | .status == "partial_loss" and
		.loss_direction == "back" and .responder_received == 10 and
		.responder_answered == 10 and .lost_back == 5 and .lost_there == 0 and
		any(.findings[]; . == "lost on the way back: the responder answered 10 of 10, 5 replies lost")'
}

@test "an asymmetric route (A to C over R1, R2, R1; back over R1): 3 hops there, 1 back, named" {
	[ -n "$R2_T4" ] || fail "no address for r2 in /etc/hosts"
	asymmetric_on
	run -0 --separate-stderr probe_a -c 3 -t 2000 -j c:18681
	local text
	text=$(probe_a -c 3 -t 2000 c:18681 2>&1) || true
	asymmetric_off
	echo "$output"
	echo "$text"
	echo "$output" | jq -e '.[0] | .hops == 3 and .hops_back == 1 and
		(.verdicts | index("asymmetric_hops")) and
		any(.findings[]; . == "asymmetric routing: 3 hops there, 1 back")'
	[[ $text == *"asymmetric routing: 3 hops there, 1 back"* ]] ||
		fail "the text names it"
}

# check from a, the checklist on stdin: the same engine as probe_a.
check_a() {
	cat >"$BATS_TEST_TMPDIR/list.chk"
	timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto -t 1000 -v check \
		"$BATS_TEST_TMPDIR/list.chk"
}

# Issue 26: with d on two lines of a checklist, the responder counted
# both lines' probes as one set, and check read 10 of 10 seen where 5
# came: "lost on the way back" for requests dropped on the way there.
@test "check and probe name the way the probes were lost, each way, as nft dropped them" {
	local way rule check_words probe_words
	for way in there back; do
		if [ $way = there ]; then
			rule="ip daddr $FABRIC_D_IP4 numgen inc mod 2 == 0"
			probe_words="lost on the way there: the responder saw 5 of 10"
		else
			rule="ip saddr $FABRIC_D_IP4 ip daddr $FABRIC_A_IP4 numgen inc mod 2 == 0"
			probe_words="lost on the way back: the responder answered 10 of 10, 5 replies lost"
		fi
		drop_on "$rule"
		run -1 --separate-stderr check_a <<-EOF
			d:18682 count=10 loss<=0
			d:18682 count=10 reachable
		EOF
		drop_on "$rule"
		local probe_text
		probe_text=$(probe_a -c 10 -i 20 -t 1000 d:18682 2>&1) || true
		drop_off
		echo "$output"
		echo "$probe_text"
		check_words="not ok 1 - d:18682 loss<=0 # got 50% (5 of 10 lost on the way $way)"
		[[ $output == *"$check_words"* ]] || fail "check: no '$check_words'"
		[[ $output == *"ok 2 - d:18682 reachable"* ]] || fail "check: line 2"
		[[ $output == *"#   $probe_words"* ]] || fail "check -v: no '$probe_words'"
		[[ $probe_text == *"$probe_words"* ]] || fail "probe: no '$probe_words'"
	done
}
