#!/usr/bin/env bats
# First contact (issue 26): a fresh responder parks its first replies to
# a new sender while its reply AH is made (on rxe the kernel resolves the
# neighbour toward the prober); probes lost that way are the responder's
# first contact, named so, never a blocked data path. Rendezvous ports
# 18697-18699, serve on d.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

setup_file() {
	require_vm_fabric || return 1
}

teardown_file() {
	stop_serves "$BATS_FILE_TMPDIR"
	true
}

probe_a() { timeout 120 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe "$@"; }

# A fresh serve on PORT after D's neighbours are flushed, probed once:
# 0 when nothing came back in time (the first contact to judge), 1 when
# the reply AH was made before the deadline after all (the kernel may
# resolve the neighbour for the rendezvous' TCP first): then a fresh
# serve on another port is tried, three at most.
first_contact_run() {
	local port
	for port in 18697 18698 18699; do
		# No neighbour known on D's side: its reply AH has to resolve one.
		ip neigh flush dev "$FABRIC_D_NETDEV"
		start_serve d "$BATS_FILE_TMPDIR/serve.$port" "$port" -v
		run probe_a -c 5 -j "d6:$port"
		if [ "$status" -eq 1 ]; then
			FC_PORT=$port
			return 0
		fi
		echo "a fresh serve on $port answered in time (status $status)"
	done
	return 1
}

@test "first contact: a fresh serve's unanswered probes are named first contact, not a blocked path" {
	local d=$BATS_FILE_TMPDIR
	first_contact_run || fail "three fresh serves answered their first probes in time"
	echo "$output"
	cat "$d/serve.$FC_PORT"
	# What the responder says it did, with the reason (serve -v).
	grep -q "parked the reply to seq 0 from qp 0x[0-9a-f]*: its reply AH is being made" "$d/serve.$FC_PORT" ||
		fail "serve -v did not log the parked reply"
	# Unanswered while serve made its AH, or answered once it was made,
	# after the prober stopped waiting: either way none lost, first
	# contact. (When the responder's final count came too late as well,
	# how many it answered is not known, null: its late replies then
	# account for all it saw.)
	echo "$output" | jq -e '.[0] | .status == "unreachable" and
		.responder_received == 5 and .lost_there == 0 and
		.lost_back == 0 and
		(.responder_answered == .late_first_contact or
		 (.responder_answered == null and
		  .late_first_contact == .responder_received)) and
		(.verdicts | index("lost_back") | not) and
		(.verdicts | index("first_contact")) and
		(.verdicts | index("data_path_blocked") | not) and
		any(.findings[]; test("the responder was still resolving its way back to you [(]first contact[)]: it saw 5 of 5")) and
		all(.findings[]; test("UDP 4791") | not)' >/dev/null ||
		fail "not named first contact"
	# Its AH made meanwhile, a rerun at once is answered in full.
	run -0 probe_a -c 5 -j "d6:$FC_PORT"
	echo "$output" | jq -e '.[0].status == "reachable"' >/dev/null || fail "$output"
}
