# Shared setup of the simulated-subnet bats files: the binary under test,
# bats-assert, the harness, and one subnet per file (setup_file).
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load
load lib

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
IBAHPROBE=${IBAHPROBE:-$TOP/ibahprobe}
export IBAHPROBE
# shellcheck source=tests/missing.bash
. "$TOP/tests/missing.bash"

# Rendezvous peers (tests/tools/rendezvous_peer) answer as a responder's
# rendezvous would; a test starts them, sim_stop_peers (its teardown)
# stops them.
RENDEZVOUS_PEER=$(dirname "$IBAHPROBE")/tests/tools/rendezvous_peer
[ -x "$RENDEZVOUS_PEER" ] || RENDEZVOUS_PEER=$TOP/build/tests/tools/rendezvous_peer
SIM_PEERS=()

# A peer on ADDR (port chosen by the kernel) answering with the given
# options and GIDs; its ADDR:PORT lands in PEER.
sim_start_peer() {	# ADDR RENDEZVOUS_PEER_ARGS...
	local addr=$1 name i
	shift
	name=peer${#SIM_PEERS[@]}
	"$RENDEZVOUS_PEER" -l "$addr:0" -p "$SIM_DIR/$name.pid" "$@" \
		>"$SIM_DIR/$name.out" 2>&1 &
	SIM_PEERS+=("$name")
	for ((i = 0; i < 50; i++)); do
		PEER=$(sed -n 's/^listening //p' "$SIM_DIR/$name.out" 2>/dev/null || true)
		[ -n "$PEER" ] && return 0
		sleep 0.1
	done
	fail "rendezvous_peer on $addr did not start: $(cat "$SIM_DIR/$name.out")"
}

sim_stop_peers() {
	local name
	for name in "${SIM_PEERS[@]}"; do
		[ -f "$SIM_DIR/$name.pid" ] && kill "$(cat "$SIM_DIR/$name.pid")" 2>/dev/null
		rm -f "$SIM_DIR/$name.pid"
	done
	SIM_PEERS=()
}

# Starts the file's subnet, or skips (strict: fails) every test of the file
# with the reason.
sim_setup_file() {	# TOPOLOGY [OPENSM_ARGS...]
	sim_available || missing "ibsim, opensm or libumad2sim is not installed (make deps)"
	sim_start "$@"
	export SIM_DIR IBSIM_SOCKNAME SIM_SM_NODE
}

# `ibahprobe ARGS` run on NODE.
iba_on() {	# NODE ARGS...
	local node=$1
	shift
	sim_run "$node" "$IBAHPROBE" "$@"
}

# Compares `ibahprobe path -j` from NODE to each LID, answered in one call,
# with `saquery -p` for the same pair, field by field.
assert_paths_match_saquery() {	# NODE LID...
	local node=$1 slid answers i want got
	shift
	slid=$(sim_lid "$node")
	answers=$(iba_on "$node" path -j "$@") || fail "ibahprobe path from $node failed: $answers"
	for ((i = 0; i < $#; i++)); do
		local dlid=${*:i+1:1}
		want=$(sim_saquery_path "$node" "$slid" "$dlid")
		got=$(jq -c --argjson i "$i" '.[$i] | del(.dest, .qos_class, .error, .port_num, .port_guid)' <<<"$answers")
		[ "$(jq -S . <<<"$want")" = "$(jq -S . <<<"$got")" ] ||
			fail "$node -> LID $dlid: saquery says $want, ibahprobe says $got"
	done
}

# two-switch.topo under opensm's QoS policy (H3 on SL 3, H4 on SL 5) and
# a storage partition 0x0012 (H1, H3 full members, H4 limited), as the
# probe --dry-run tests want it: probe_ib.bats and golden.bats.
sim_setup_qos_partition_subnet() {
	local parts=$BATS_FILE_TMPDIR/partitions.conf
	# Port GUIDs of two-switch.topo: H1 0x100001, H3 0x100005, H4 0x100007.
	printf '%s\n' 'Default=0x7fff, ipoib : ALL=full ;' \
		'storage=0x0012 : 0x0000000000100001=full, 0x0000000000100005=full, 0x0000000000100007=limited ;' >"$parts"
	sim_setup_file two-switch.topo -Q -Y "$BATS_TEST_DIRNAME/topo/qos-policy.conf" -P "$parts"
}

# ring.topo under opensm -l 2, its routes computed once with every link
# up and kept as a file (opensm's file routing engine) while S1's port 8
# goes down: H31's DLIDs routed over that link break, the others of the
# same port do not. Sets S1_PORT8_DLIDS (over it, by the SM's dump) and
# OTHER_DLIDS; waits until H11's trace sees the dead end. The caller
# relinks ('ReLink "S1"[8]').
sim_unlink_lmc2_s1_port8() {
	local lfts=$BATS_TEST_TMPDIR/lfts.dump dlid i h31
	sim_setup_file ring.topo -l 2 -D 0x43
	cp "$SIM_DIR/osm/opensm-lfts.dump" "$lfts"
	h31=$(sim_lid H31)
	S1_PORT8_DLIDS=()
	OTHER_DLIDS=()
	for ((i = 0; i < 4; i++)); do
		dlid=$((h31 + i))
		if awk -v l="$(printf '0x%04x' "$dlid")" '
			/^Unicast lids/ { s1 = /\(.S1.\)/ } s1 && $1 == l { print $2; exit }' "$lfts" |
			grep -qx 008; then
			S1_PORT8_DLIDS+=("$dlid")
		else
			OTHER_DLIDS+=("$dlid")
		fi
	done
	[ "${#S1_PORT8_DLIDS[@]}" -gt 0 ] && [ "${#OTHER_DLIDS[@]}" -gt 0 ] ||
		fail "H31's DLIDs do not split over S1's ports: over ${S1_PORT8_DLIDS[*]}, other ${OTHER_DLIDS[*]}"
	sim_kill_sm
	printf '%s\0' -l 2 -R file -U "$lfts" >"$SIM_DIR/opensm.args"
	sim_restart_sm
	sim_console 'Unlink "S1"[8]'
	for ((i = 0; i < 50; i++)); do
		iba_on H11 trace -j --paths all "$h31" 2>/dev/null |
			jq -e 'any(.status == "dead_end")' >/dev/null && break
		sleep 0.2
	done
}
