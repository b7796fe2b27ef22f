#!/usr/bin/env bats
# probe on InfiniBand, up to the AHs it would create (--dry-run: there are
# no verbs here): a destination by name or address finds a rendezvous peer
# (tests/tools/rendezvous_peer on 127.0.0.x, answering like serve), whose
# advertised IB port GID is the DGID; DLID, SL (opensm's QoS policy: H3 SL
# 3, H4 SL 5), rate and P_Key come from the SA's PathRecords, compared
# with saquery -p; a partition (0x0012: H1, H3 full, H4 limited; opensm
# answers paths among them in it) gives the QP's P_Key index. The last
# test kills the SM.

load helpers


setup_file() {
	[ -x "$RENDEZVOUS_PEER" ] || missing "tests/tools/rendezvous_peer is not built (make check-build)"
	sim_setup_qos_partition_subnet
}
teardown_file() { sim_stop; }

teardown() { sim_stop_peers; }

# The PathRecord fields both show, from saquery -p H1 -> LID.
saquery_fields() {	# DLID
	sim_saquery_path H1 "$(sim_lid H1)" "$1" | jq -S -c \
		'{slid, dlid, sgid, dgid, sl, pkey, mtu, rate_gbps, hop_limit, flow_label, traffic_class}'
}

@test "by name and address: the responder's IB GID, the PathRecord's DLID and SL, as saquery says" {
	local h3 h4
	# The rendezvous LIDs are wrong on purpose: the DLID is the SA's.
	sim_start_peer 127.0.0.1 -L 999 -q 0x33 "$(sim_gid H3)" "::ffff:10.0.0.3,RoCE v2,1"
	h3=localhost:${PEER##*:}
	sim_start_peer 127.0.0.2 -L 998 -q 0x44 "::ffff:10.0.0.4,IB,0" "$(sim_gid H4),IB,1"
	h4=$PEER
	run -0 --separate-stderr iba_on H1 probe --dry-run -j "$h3" "$h4"
	echo "$output" | jq -e --arg g3 "$(sim_gid H3)" --arg g4 "$(sim_gid H4)" \
		--argjson l3 "$(sim_lid H3)" --argjson l4 "$(sim_lid H4)" '
		(.[0] | .status == "resolved" and .dgid == $g3 and .qpn == 51 and
		 .rendezvous.lid == 999 and .path.dlid == $l3 and
		 .ahs[0].ah_attr.dlid == $l3 and .ahs[0].ah_attr.sl == 3 and
		 .ahs[0].params.sl == 3 and .ahs[0].ah_attr.grh == null and
		 (.ahs[0].params | has("udp_sport") and .udp_sport == null) and
		 .ahs[0].ah_attr.static_rate == 3 and .ahs[0].status == "valid") and
		(.[1] | .status == "resolved" and .dgid == $g4 and
		 .path.dlid == $l4 and .ahs[0].ah_attr.dlid == $l4 and
		 .ahs[0].ah_attr.sl == 5)'
	[ "$(jq -S -c '.[0].path' <<<"$output")" = "$(saquery_fields "$(sim_lid H3)")" ] ||
		fail "H3: saquery says $(saquery_fields "$(sim_lid H3)")"
	[ "$(jq -S -c '.[1].path' <<<"$output")" = "$(saquery_fields "$(sim_lid H4)")" ] ||
		fail "H4: saquery says $(saquery_fields "$(sim_lid H4)")"
	run -0 --separate-stderr iba_on H1 probe --dry-run "$h3"
	assert_line --index 0 "$h3: resolved"
	assert_output --partial "dgid $(sim_gid H3) (the responder's port GID, index 0)"
	assert_output --regexp "is_global 0 dlid $(sim_lid H3) sl 3 "
}

@test "-g N naming no GID of the port (its table has one entry): exit 2, one message, nothing resolved; -g 0 resolves" {
	sim_start_peer 127.0.0.20 -L "$(sim_lid H3)" "$(sim_gid H3)"
	run -2 --separate-stderr iba_on H1 probe --dry-run -g 9 "$PEER" "$PEER"
	[ -z "$output" ] || fail "stdout: $output"
	[ "$stderr" = "ibahprobe: error: sgid_index 9 is beyond the GID table of ibsim0 port 1 (1 entry); 'ibahprobe ports' lists the valid ones" ] ||
		fail "stderr: $stderr"
	run -2 --separate-stderr iba_on H1 probe --dry-run -j -g 1 "$PEER"
	jq -e '.error | test("sgid_index 1 is beyond")' <<<"$output" >/dev/null || fail "stdout: $output"
	run -0 --separate-stderr iba_on H1 probe --dry-run -j -g 0 "$PEER"
	jq -e '.[0].status == "resolved"' <<<"$output" >/dev/null || fail "stdout: $output"
}

@test "a destination that does not parse is that row's error, exit 1; the others resolve; -f names its line; options stay exit 2" {
	sim_start_peer 127.0.0.21 -L "$(sim_lid H3)" "$(sim_gid H3)"
	run -1 --separate-stderr iba_on H1 probe --dry-run -j "$PEER" c:185170 lid:0
	echo "$output" | jq -e --arg p "$PEER" '
		length == 3 and (.[0] | .dest == $p and .status == "resolved") and
		(.[1] | .dest == "c:185170" and .status == "error" and
		 .error == "port '"'185170'"' is out of range: expected 1-65535") and
		(.[2] | .dest == "lid:0" and .status == "error" and
		 (.error | test("^lid '"'0'"' is out of range")))' >/dev/null ||
		fail "$output; stderr: $stderr"
	run -1 --separate-stderr iba_on H1 probe --dry-run c:185170 "$PEER"
	assert_line --index 0 "c:185170: error port '185170' is out of range: expected 1-65535"
	assert_line "$PEER: resolved"
	printf '%s\nc:185170\n' "$PEER" >"$SIM_DIR/dests.txt"
	run -1 --separate-stderr iba_on H1 probe --dry-run -j -f "$SIM_DIR/dests.txt"
	echo "$output" | jq -e '.[0].status == "resolved" and
		.[1].error == "'"$SIM_DIR"'/dests.txt:2: port '"'185170'"' is out of range: expected 1-65535"' >/dev/null ||
		fail "$output; stderr: $stderr"
	# The command line's own options are still refused as a whole.
	run -2 --separate-stderr iba_on H1 probe --dry-run --hop-limit 300 "$PEER" c:185170
	[ -z "$output" ] || fail "stdout: $output"
}

@test "--sl overrides the path's SL; the other parameters sweep as given" {
	sim_start_peer 127.0.0.3 -L "$(sim_lid H4)" "$(sim_gid H4)"
	run -0 --separate-stderr iba_on H1 probe --dry-run -j --sl 0,7 "$PEER"
	echo "$output" | jq -e '.[0].path.sl == 5 and
		([.[0].ahs[].ah_attr.sl] == [0, 7]) and ([.[0].ahs[].params.sl] == [0, 7])'
}

@test "-f FILE's flow-label line (plan's) is the sweep's --flow-label; a given one wins" {
	sim_start_peer 127.0.0.3 -L "$(sim_lid H4)" "$(sim_gid H4)"
	printf '# ibahprobe plan: round 0 of 4 (seed 0) for H1\n# flow-label 1-3 (4 ECMP branches, each crossed with probability >= 99%%)\n%s\n' \
		"$PEER" >"$SIM_DIR/plan-h1"
	# -t 5000: on a busy machine the SA answer is slow
	run -0 --separate-stderr iba_on H1 -t 5000 -v probe --dry-run -j -f "$SIM_DIR/plan-h1"
	# One AH per label, as --flow-label 1-3 gives (no GRH inside one
	# subnet, so the label is the set's, not the AH's).
	echo "$output" | jq -e '[.[0].ahs[].params.flow_label] == [1, 2, 3]' >/dev/null ||
		fail "$output"
	[[ $stderr == *"probe: flow labels 1-3 from $SIM_DIR/plan-h1:2 (its flow-label line)"* ]] ||
		fail "$stderr"
	run -0 --separate-stderr iba_on H1 -t 5000 probe --dry-run -j --flow-label 9 -f "$SIM_DIR/plan-h1"
	echo "$output" | jq -e '[.[0].ahs[].params.flow_label] == [9]' >/dev/null || fail "$output"
}

@test "a destination whose PathRecord fails is that row's error, exit 1; the others resolve" {
	sim_start_peer 127.0.0.4 -L 77 fe80::dead:beef
	local bad=$PEER
	sim_start_peer 127.0.0.5 -L "$(sim_lid H2)" "$(sim_gid H2)"
	# -t 5000: on a busy machine (the ASan build) the SA answer is slow
	run -1 --separate-stderr iba_on H1 -t 5000 probe --dry-run -j "$bad" "$PEER"
	echo "$output" | jq -e '(.[0] | .status == "error" and
		(.error | test("no records")) and .dgid == "fe80::dead:beef" and
		.ahs == []) and .[1].status == "resolved"' >/dev/null || fail "$output; stderr: $stderr"
	run -1 --separate-stderr iba_on H1 -t 5000 probe --dry-run "$bad"
	assert_line --index 0 --regexp "^$bad: error path record: SA answered no records"
}

@test "a RoCE responder has no DGID for an IB port; the IPv4-mapped entry is never used" {
	sim_start_peer 127.0.0.6 -t Ethernet "fe80::1,RoCE v1,0" "::ffff:127.0.0.6,RoCE v2,1"
	run -1 --separate-stderr iba_on H1 probe --dry-run -j "$PEER"
	echo "$output" | jq . >/dev/null || fail "stdout is not JSON: $output; stderr: $stderr"
	echo "$output" | jq -e '.[0].status == "error" and .[0].dgid == null and
		(.[0].error | test("no InfiniBand GID: it is on RoCE"))'
}

@test "partition: the first path's P_Key sets the QP's P_Key index; another partition is that row's error; --pkey chooses" {
	sim_start_peer 127.0.0.7 "$(sim_gid H3)"
	local h3=$PEER
	sim_start_peer 127.0.0.8 "$(sim_gid H2)"
	# opensm answers H1 -> H3 in 0x8012 (both full members), H1 -> H2
	# in the default partition: one QP cannot be in both.
	run -1 --separate-stderr iba_on H1 probe --dry-run -j "$h3" "$PEER"
	echo "$output" | jq -e '(.[0] | .status == "resolved" and
		.path.pkey == 32786 and .pkey == 32786 and .pkey_index == 1) and
		(.[1] | .status == "error" and .path.pkey == 65535 and
		 (.error | test("P_Key 0xffff is another partition than the QP.s 0x8012.*--pkey 0xffff")))'
	run -0 --separate-stderr iba_on H1 probe --dry-run -j --pkey 0xffff "$h3" "$PEER"
	echo "$output" | jq -e 'map(.status == "resolved" and .path.pkey == 65535 and
		.pkey_index == 0) | all'
	run -1 --separate-stderr iba_on H1 probe --dry-run -j --pkey 0x0012 "$h3" "$PEER"
	echo "$output" | jq -e '(.[0] | .status == "resolved" and .pkey_index == 1) and
		(.[1] | .status == "error" and (.error | test("no records")))'
}

@test "--qpn: gid:, lid: and node: resolve through the SA; an address is refused" {
	run -1 --separate-stderr iba_on H1 probe --dry-run -j --qpn 0x10 \
		"gid:$(sim_gid H3)" "lid:$(sim_lid H4)" node:H3 10.0.0.9
	echo "$output" | jq -e --argjson l3 "$(sim_lid H3)" --arg g4 "$(sim_gid H4)" '
		(.[0] | .status == "resolved" and .dgid_source == "as given" and
		 .ahs[0].ah_attr.dlid == $l3 and .ahs[0].ah_attr.sl == 3) and
		(.[1] | .status == "resolved" and .dgid == $g4 and .ahs[0].ah_attr.sl == 5) and
		(.[2] | .status == "resolved" and .ahs[0].ah_attr.dlid == $l3) and
		(.[3] | .status == "error" and
		 (.error | test("only finds the responder.s rendezvous")))'
}

@test "ah: an IPv4-mapped DGID on the IB port is refused by its named rule" {
	run -1 --separate-stderr iba_on H1 ah --dry-run -j --dlid "$(sim_lid H3)" 10.0.0.3
	echo "$output" | jq -e '.[0].status == "invalid" and
		(.[0].violations | map(.rule) | index("dgid_not_ipv4_mapped_on_ib") != null)'
}

@test "without the SM: lid: with --qpn falls back to the LID alone, the others fail" {
	sim_kill_sm
	run -1 --separate-stderr iba_on H1 -t 200 probe --dry-run -j --qpn 0x10 \
		"lid:$(sim_lid H3)" "gid:$(sim_gid H3)"
	echo "$output" | jq -e --argjson l3 "$(sim_lid H3)" '
		(.[0] | .status == "resolved" and .path == null and
		 (.path_note | test("no PathRecord")) and
		 .ahs[0].ah_attr.dlid == $l3 and .ahs[0].ah_attr.grh == null) and
		(.[1] | .status == "error" and (.error | test("needs an SA PathRecord")))'
	[[ $stderr == *"lid:$(sim_lid H3): no PathRecord"* ]] || fail "no warning: $stderr"
}
