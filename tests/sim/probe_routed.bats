#!/usr/bin/env bats
# probe --dry-run across the IB router of router.topo: a responder whose
# advertised port GID lies under a routed prefix gets an AH with a GRH
# (the path's hop limit 255, the router's LID, the source GID index of the
# path's SGID); a responder inside the subnet gets none.

load helpers


setup_file() {
	[ -x "$RENDEZVOUS_PEER" ] || missing "tests/tools/rendezvous_peer is not built (make check-build)"
	local conf=$BATS_FILE_TMPDIR/opensm.conf
	echo "prefix_routes_file $BATS_TEST_DIRNAME/topo/router-prefix-routes.conf" >"$conf"
	sim_setup_file router.topo -F "$conf"
}
teardown_file() { sim_stop; }

teardown() {
	local f
	for f in "$SIM_DIR"/peer*.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
		rm -f "$f"
	done
}

start_peer() {	# NAME ADDR GID
	local i
	"$RENDEZVOUS_PEER" -l "$2:0" -p "$SIM_DIR/$1.pid" "$3" >"$SIM_DIR/$1.out" 2>&1 &
	for ((i = 0; i < 50; i++)); do
		PEER=$(sed -n 's/^listening //p' "$SIM_DIR/$1.out" 2>/dev/null || true)
		[ -n "$PEER" ] && return 0
		sleep 0.1
	done
	fail "rendezvous_peer did not start: $(cat "$SIM_DIR/$1.out")"
}

@test "GRH only via the router: off-subnet DGID gets one (hop limit 255, router LID), H2 none" {
	start_peer peer1 127.0.0.11 fec0:0:0:2::1
	local far=$PEER
	start_peer peer2 127.0.0.12 "$(sim_gid H2)"
	run -0 --separate-stderr iba_on H1 probe --dry-run -j "$far" "$PEER"
	echo "$output" | jq -e --argjson r "$(sim_lid R1)" --argjson h2 "$(sim_lid H2)" '
		(.[0] | .path.hop_limit == 255 and .path.dlid == $r and
		 (.ahs[0].ah_attr | .is_global == 1 and .dlid == $r and
		  .grh.dgid == "fec0:0:0:2::1" and .grh.sgid_index == 0 and
		  .grh.hop_limit == 64)) and
		(.[1] | .path.hop_limit == 0 and .ahs[0].ah_attr.is_global == 0 and
		 .ahs[0].ah_attr.dlid == $h2)'
	run -0 sim_run H1 saquery -p --sgid-to-dgid "fe80::10:1-fec0:0:0:2::1"
	[[ $output == *"dlid....................$(sim_lid R1)"* ]] || fail "$output"
}

@test "an off-subnet prefix without a route: no records, that destination only" {
	start_peer peer3 127.0.0.13 fec0:0:0:9::1
	local none=$PEER
	start_peer peer4 127.0.0.14 "$(sim_gid H2)"
	run -1 --separate-stderr iba_on H1 probe --dry-run -j "$none" "$PEER"
	echo "$output" | jq -e '(.[0] | .status == "error" and (.error | test("no records"))) and
		.[1].status == "resolved"'
}
