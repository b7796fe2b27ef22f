#!/usr/bin/env bats
# A continuous run follows a responder whose host was renumbered (issue
# 24): B's IPv4 address moves mid-run (the new one added, /etc/hosts
# changed, the old one taken away, so its RoCE v2 GID changes); the run
# that names B by a host name resolves it again after a round without a
# reply, follows the new GID with a new AH, and says so in its JSON Lines,
# on stderr and in its metrics; the run that gave the old address says
# once that the responder no longer answers there. Rendezvous port 18821.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}

# B's address before and after; the host name the run probes.
OLD4=
NEW4=
NAME=rb-renumber

setup_file() {
	require_vm_fabric || return 1
}

setup() {
	OLD4=$(fabric_var b IP4)
	NEW4=${OLD4%.*}.22
}

# The sysfs form of the RoCE v2 GID of an IPv4 address.
sysfs_gid4() {
	local IFS=.
	# shellcheck disable=SC2086
	set -- $1
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4"
}

# wait_gid GID [absent]: until rxe_b's GID table holds GID (or no longer).
wait_gid() {
	local dev want=$1 i
	dev=$(fabric_var b RXE)
	for ((i = 0; i < 50; i++)); do
		if grep -qxF "$want" /sys/class/infiniband/"$dev"/ports/1/gids/* 2>/dev/null; then
			[ -z "${2:-}" ] && return 0
		else
			[ -n "${2:-}" ] && return 0
		fi
		sleep 0.1
	done
	echo "GID $want on $dev: not ${2:-present} after 5 s" >&2
	return 1
}

# B as the fabric made it, whatever the test left: its address back (its
# RoCE v2 GID with it), the new one gone, the name out of /etc/hosts.
restore_b() {
	local old new
	old=$(fabric_var b IP4)
	new=${old%.*}.22
	ip addr del "$new/32" dev vethb 2>/dev/null || true
	ip -4 addr show dev vethb | grep -qF "inet $old/" ||
		ip addr add "$old/24" dev vethb
	sed -i "/ $NAME\$/d" /etc/hosts
	wait_gid "$(sysfs_gid4 "$old")"
}

teardown_file() {
	stop_serves "$BATS_FILE_TMPDIR"
	restore_b
}

@test "continuous: B renumbered mid-run is followed by its name to its new GID; an old address literal is said unanswered" {
	local d=$BATS_FILE_TMPDIR out=$BATS_FILE_TMPDIR/run.jsonl pid pid_lit
	local old_gid new_gid
	old_gid=::ffff:$OLD4
	new_gid=::ffff:$NEW4
	echo "$OLD4 $NAME" >>/etc/hosts
	start_serve b "$d/serve" 18821
	# Rounds of 1 s, a probe every 100 ms: 10 per round.
	timeout -s INT 18 "$IBAHPROBE" -v -d "$FABRIC_A_RXE" -g auto probe --continuous \
		--interval-round 1 -i 100 --metrics "$d/m.prom" --jsonl "$NAME:18821" \
		>"$out" 2>"$d/run.err" &
	pid=$!
	timeout -s INT 18 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe --continuous \
		--interval-round 1 -i 100 "$OLD4:18821" >"$d/lit.out" 2>"$d/lit.err" &
	pid_lit=$!
	sleep 4
	# The renumbering as an admin does it: the new address first, the
	# name moved, the old address taken away.
	ip addr add "$NEW4/32" dev vethb
	wait_gid "$(sysfs_gid4 "$NEW4")"
	sed -i "s/^$OLD4 $NAME\$/$NEW4 $NAME/" /etc/hosts
	ip addr del "$OLD4/24" dev vethb
	wait "$pid" || true
	wait "$pid_lit" || true
	restore_b
	# Followed: the last record names both GIDs, and the last rounds
	# are answered in full at the new one.
	jq -se --arg a "$old_gid" --arg b "$new_gid" 'map(select(.record == "result")) | last |
		.responder_renumbered.count == 1 and .responder_renumbered.from == $a and
		.responder_renumbered.to == $b and
		(.responder_renumbered.last_at | test("^[0-9]{2}:[0-9]{2}:[0-9]{2}$"))' \
		"$out" >/dev/null || fail "$(jq -c 'select(.record == "result") | .responder_renumbered' "$out" | tail -1)
$(cat "$d/run.err")"
	jq -se 'map(select(.record == "result")) | .[-3:] | all(.round.lost == 0 and .round.received > 0)' \
		"$out" >/dev/null || fail "the last rounds lost probes: $(jq -c '.round' "$out" | tail -5)
$(cat "$d/run.err")"
	# The loss is the downtime: the rest of the round in which the old
	# address went away and the next, without a reply, at whose end the
	# run asks and follows, or under a slow guest (TCG) whose answer
	# comes after that end's wait, at the next (at the rate the prober
	# really sent: a loaded guest sends fewer than 10 a round).
	local lost per_round
	lost=$(jq -s 'map(select(.record == "result")) | last | .sent - .received' "$out")
	per_round=$(jq -s 'map(select(.record == "result") | .round.sent // 0) | sort | .[length / 2 | floor]' "$out")
	echo "lost $lost, $per_round a round (median); lost by round:" \
		"$(jq -s -r 'map(select(.record == "result") | .round.lost) | join(" ")' "$out")" >&3
	grep -F -e renumber -e answer "$d/run.err" >&3 || true
	[ "$lost" -ge 1 ] || fail "nothing lost: the old address was never left"
	[ "$lost" -le $((per_round * 3 + 2)) ] ||
		fail "lost $lost: not followed within two rounds without a reply"
	grep -q "$NAME:18821: responder renumbered at [0-9:]* (GID $old_gid -> $new_gid): following it" \
		"$d/run.err" || fail "$(cat "$d/run.err")"
	grep -q "^ibahprobe_responder_renumbered_total{dest=\"$NAME:18821\".*} 1$" "$d/m.prom" ||
		fail "$(grep renumbered "$d/m.prom")"
	# The address given stays the address probed: said once, not followed.
	[ "$(grep -c "^$OLD4:18821: the responder no longer answers at $OLD4$" "$d/lit.out")" -eq 1 ] ||
		fail "$(cat "$d/lit.out" "$d/lit.err")"
	run -1 grep -q "renumbered at" "$d/lit.out"
}
