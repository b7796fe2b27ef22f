#!/usr/bin/env bats
# The UD endpoint's completion stamps on the real rxe driver: hardware
# timestamps asked for on a device that has none fall back to software
# stamps and still carry traffic; busy polling spins, the default sleeps;
# each completion has its own stamp and each send completion its tag.
# Runs in the guest (tests/vm/run), endpoint a sending to endpoint b.

bats_require_minimum_version 1.5.0
load lib

STAMPS=$BATS_TEST_DIRNAME/../../build/tests/tools/ud_stamps

setup_file() { require_vm_fabric || return 1; }

setup() { [ -x "$STAMPS" ] || missing "build/tests/tools/ud_stamps (make vm-build)"; }

# ud_stamps a -> b over IPv4, with the given flags.
stamps_a_to_b() {
	timeout 60 "$STAMPS" "$@" -d "$FABRIC_A_RXE" -g "$(fabric_gid_index a 4)" \
		-D "$FABRIC_B_RXE" "::ffff:$FABRIC_B_IP4"
}

@test "hw stamps asked on rxe: software stamps, the reason said, traffic still flows" {
	run stamps_a_to_b -H -c 32
	# (its checks, failed ones too, before the status is judged)
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"stamp_source sw-event"* ]]
	[[ "$output" == *"hw no"* ]]
	[[ "$output" == *"why_not the device reports no completion timestamps (completion_timestamp_mask 0)"* ]]
	[[ "$output" == *"received 32"* ]]
}

@test "busy poll with hw stamps asked on rxe: sw-busy, spins through an idle wait" {
	run stamps_a_to_b -H -b -c 32
	# (its checks, failed ones too, before the status is judged)
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"stamp_source sw-busy"* ]]
	[[ "$output" == *"received 32"* ]]
}

@test "the default: sw-event, no hw stamps asked, sleeps through an idle wait" {
	run stamps_a_to_b -c 32
	# (its checks, failed ones too, before the status is judged)
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"stamp_source sw-event"* ]]
	[[ "$output" == *"why_not hardware completion timestamps were not asked for"* ]]
	[[ "$output" == *"received 32"* ]]
}
