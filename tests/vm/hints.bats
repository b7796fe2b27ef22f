#!/usr/bin/env bats
# Hints that point the right way (issue 12), on the real rxe driver: a
# name that does not resolve, a rendezvous that times out (-t) or is
# refused, a link-local address without %IFACE, a wrong Q_Key with --qpn,
# a port given with --qpn, and probe warning as `ah` does for sl 8 on RoCE
# and a hop limit of 0 towards another subnet. Responders: b and c, on
# rendezvous ports 18601 and 18602 (18601-18609 are this file's).
# Runs in the guest (tests/vm/run).

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
	start_serve b "$BATS_FILE_TMPDIR/serve.b" 18601
	start_serve c "$BATS_FILE_TMPDIR/serve.c" 18602
}

teardown_file() { stop_serves "$BATS_FILE_TMPDIR"; }

probe_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe "$@"; }

# The responder's QPN on b, from its ready line.
qpn_of_b() {
	jq -r 'select(.event == "ready") | .qpn' "$BATS_FILE_TMPDIR/serve.b"
}

# err_of: the error of the first result of a probe -j run.
err_of() { jq -r '.[0].status + ": " + .[0].error' <<<"$output"; }

@test "a host name that does not resolve: 'cannot resolve host', not 'start serve'" {
	run -1 --separate-stderr probe_a -c 1 -t 500 -j no-such-host.invalid
	[[ $(err_of) == "error: cannot resolve host 'no-such-host.invalid'"* ]] || fail "$output"
	[[ $output$stderr != *"start 'ibahprobe serve'"* ]] || fail "blames serve: $output $stderr"
	# Text: the cause in the destination's row; exit 1 (a destination's
	# failure, not this host's).
	run -1 --separate-stderr probe_a -c 1 -t 500 no-such-host.invalid
	[[ $output == *"no-such-host.invalid  error  cannot resolve host 'no-such-host.invalid'"* ]] ||
		fail "$output"
}

@test "-t shorter than the rendezvous needs: 'no answer within 1 ms (-t)', not 'is serve running'" {
	# .77 is on A's subnet and nobody owns it: no SYN-ACK, ever.
	local silent=${FABRIC_A_IP4%.*}.77
	run -1 --separate-stderr probe_a -c 1 -t 1 -j "$silent"
	[[ $(err_of) == *"no answer from $silent port 18515 within 1 ms (-t)"* ]] || fail "$output"
	[[ $(err_of) != *"serve"* ]] || fail "blames serve: $output"
	# A closed port is told apart: refused, and then serve is the hint.
	run -1 --separate-stderr probe_a -c 1 -t 2000 -j "$FABRIC_B_IP4:18609"
	[[ $(err_of) == *"nothing listens on $FABRIC_B_IP4 port 18609 (connection refused)"* ]] ||
		fail "$output"
	[[ $(err_of) == *"is 'ibahprobe serve' running there"* ]] || fail "$output"
}

@test "fe80:: without a scope: 'a link-local address needs %IFACE'" {
	run -1 --separate-stderr probe_a -c 1 -t 2000 -j fe80::1
	[[ $(err_of) == *"a link-local address needs %IFACE"* ]] || fail "$output"
	[[ $(err_of) == *"fe80::1%eth1"* ]] || fail "no example form: $output"
	[[ $output$stderr != *"start 'ibahprobe serve'"* ]] || fail "blames serve: $output $stderr"
}

@test "a wrong Q_Key with --qpn: unreachable, and the hint says the Q_Key must match serve's" {
	local qpn
	qpn=$(qpn_of_b)
	[ -n "$qpn" ] || fail "no QPN in serve's ready line"
	run -1 --separate-stderr probe_a -c 2 -t 500 -j --qpn "$qpn" \
		--qkey 0x11111111 "$FABRIC_B_IP4"
	echo "$output" | jq -e --arg q "$qpn" '
		.[0].status == "unreachable" and
		any(.[0].findings[]; contains("--qpn \($q) --qkey 0x11111111 must both match the responder'"'"'s") and
			contains("serve prints them"))' || fail "$output"
	# The right Q_Key (serve's default): answered, and no such hint.
	run -0 --separate-stderr probe_a -c 2 -t 2000 -j --qpn "$qpn" "$FABRIC_B_IP4"
	echo "$output" | jq -e '.[0].status == "reachable" and
		all(.[0].findings[]; contains("--qkey") | not)' || fail "$output"
}

@test "--qpn with host:PORT: the port is said to be ignored" {
	local qpn
	qpn=$(qpn_of_b)
	run -0 --separate-stderr probe_a -c 1 -t 2000 --qpn "$qpn" "$FABRIC_B_IP4:18601"
	[[ $stderr == *"$FABRIC_B_IP4:18601: --qpn skips the rendezvous, so its port 18601 is ignored"* ]] ||
		fail "$stderr"
	# Without a port, nothing to say.
	run -0 --separate-stderr probe_a -c 1 -t 2000 --qpn "$qpn" "$FABRIC_B_IP4"
	[[ $stderr != *"is ignored"* ]] || fail "$stderr"
}

@test "probe --sl 8 on RoCE warns as ah does, once for a sweep" {
	local said
	# ah's status is its own business here: its words are what counts.
	run --separate-stderr timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto \
		ah -j --sl 8 "$FABRIC_B_IP4"
	said=$(echo "$output" | jq -r '.[0].violations[] |
		select(.rule == "sl_fits_roce_pcp") | .message')
	[ -n "$said" ] || fail "ah gave no sl_fits_roce_pcp warning: $output"
	run --separate-stderr probe_a -c 1 -t 2000 --sl 8 --tclass 0,0x28 b:18601
	[ "$status" -ne 2 ] || fail "refused: $stderr"
	[[ $stderr == *"b:18601: $said"* ]] || fail "probe did not say '$said': $stderr"
	[ "$(grep -c "sl 8" <<<"$stderr")" -eq 1 ] || fail "said more than once: $stderr"
}

@test "probe --hop-limit 0 towards another subnet warns as ah does" {
	local said
	run --separate-stderr timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto \
		ah -j --hop-limit 0 "$FABRIC_C_IP6"
	said=$(echo "$output" | jq -r '.[0].violations[] |
		select(.rule == "hop_limit_crosses_routers") | .message')
	[ -n "$said" ] || fail "ah gave no hop limit warning: $output"
	run --separate-stderr probe_a -c 1 -t 2000 --hop-limit 0 "[$FABRIC_C_IP6]:18602"
	[ "$status" -ne 2 ] || fail "refused: $stderr"
	[[ $stderr == *"[$FABRIC_C_IP6]:18602: $said"* ]] || fail "probe did not say '$said': $stderr"
}
