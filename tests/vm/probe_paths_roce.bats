#!/usr/bin/env bats
# probe --paths all on RoCE: refused (no LIDs, so no LMC paths; RoCE's
# paths are flows, swept with --flow-label), exit 2, before any rendezvous
# or AH: it needs no responder. No rendezvous port.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() { require_vm_fabric || return 1; }

@test "probe --paths all is refused on RoCE (no LIDs): exit 2, the flow labels named, nothing on stdout" {
	run -2 --separate-stderr timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" probe --paths all "$FABRIC_B_IP4"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == "ibahprobe: error: --paths all probes the DLIDs of an InfiniBand LMC; RoCE has no LIDs: probe its ECMP paths with --flow-label"* ]] ||
		fail "$stderr"
	run -2 --separate-stderr timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" probe --dry-run -j --paths all "$FABRIC_B_IP4"
	jq -e '.exit_status == 2 and (.error | test("--paths all probes the DLIDs"))' <<<"$output" ||
		fail "$output"
	run -0 --separate-stderr timeout 60 "$IBAHPROBE" -d "$FABRIC_A_RXE" probe --dry-run --qpn 0x99 --paths base "$FABRIC_B_IP4"
}
