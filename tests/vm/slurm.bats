#!/usr/bin/env bats
# The Slurm recipe (contrib/slurm/ibahprobe-sweep) on a real one-machine
# Slurm from Debian's packages: munged, slurmctld and one slurmd per
# endpoint (slurmd -N a ... d, all on 127.0.0.1; tests/vm/slurm-cluster),
# so each srun task runs on "node" X and slurm-node gives it X's rxe
# device. An allocation of 3 nodes serves, probes its round of plan and
# reports; then one whose node lost its responder ends in bounded time.
# Ports 18851 (slurmctld), 18852-18855 (slurmd a-d), 18856-18859
# (rendezvous a-d), apart from the other files'.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/ibahprobe
SWEEP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/contrib/slurm/ibahprobe-sweep
NODE=$BATS_TEST_DIRNAME/slurm-node
CLUSTER=$BATS_TEST_DIRNAME/slurm-cluster

setup_file() {
	require_vm_fabric || return 1
	local cmd
	for cmd in munged slurmctld slurmd salloc srun squeue; do
		command -v "$cmd" >/dev/null || {
			echo "$cmd is not installed (Debian packages munge, slurmctld, slurmd, slurm-client; make deps)" >&2
			return 1
		}
	done
	export IBAHPROBE SLURM_CONF=$BATS_FILE_TMPDIR/slurm/slurm.conf
	"$CLUSTER" up "$BATS_FILE_TMPDIR/slurm" 18851 a:18852 b:18853 c:18854 d:18855
	printf '%s\n' a:18856 b:18857 c:18858 d:18859 >"$BATS_FILE_TMPDIR/hosts.txt"
	printf '%s\n' 'a:18856 rack1' 'b:18857 rack1' 'c:18858 rack2' 'd:18859 rack2' \
		>"$BATS_FILE_TMPDIR/racks.txt"
}

teardown_file() {
	# Jobs first: their steps (and a responder in one) end with them.
	scancel --full --user=root 2>/dev/null
	"$CLUSTER" down "$BATS_FILE_TMPDIR/slurm"
}

# sweep OUT [SWEEP OPTIONS...]: the recipe in an allocation of a, c and d
# (b's line of HOSTS is left out), each node probing its round 1 of 2.
sweep() {
	local out=$1
	shift
	timeout -k 10 240 salloc -N 3 -w a,c,d "$SWEEP" --ibahprobe "$NODE" -o "$out" \
		--groups "$BATS_FILE_TMPDIR/racks.txt" --per-round 1 --rounds 2 --round 1 \
		"$@" "$BATS_FILE_TMPDIR/hosts.txt" -- -c 3 -t 3000
}

# No step of any job, no job: the responders went with their step.
no_steps_left() {
	local steps
	steps=$(squeue -h -s -o '%i %j' 2>&1)
	[ -z "$steps" ] || fail "steps left: $steps"
}

# The plan's pairs as "SOURCE_DEVICE DESTINATION" lines, sorted (the
# destination as HOSTS names it; the endpoints share one host name, so a
# source is its device).
plan_pairs() {
	jq -r '.hosts | to_entries[] | .key as $s | .value[] | "\($s) \(.)"' "$1/plan.json" |
		while read -r s d; do
			echo "$(fabric_var "${s%%:*}" RXE) $d"
		done | sort
}

# The report's pairs with STATUS, the same form.
report_pairs() {
	jq -r --arg st "$2" '
		(.sources | map({(.name): .device}) | add) as $dev |
		.cells[] | select(.status == $st) | "\($dev[.source]) \(.destination)"' \
		"$1/report.json" | sort
}

@test "the sweep on an allocation of 3 nodes: every responder up until SIGTERM, every round file probed, report has the plan's pairs" {
	local out=$BATS_FILE_TMPDIR/sweep x want
	run -0 --separate-stderr sweep "$out" --ports --probe-timeout 90
	echo "$output" >"$BATS_FILE_TMPDIR/sweep.out"
	grep -q 'not in this allocation, left out: b' <<<"$stderr" || fail "$stderr"
	jq -e '.hosts | keys == ["a:18856", "c:18858", "d:18859"]' "$out/plan.json" >/dev/null ||
		fail "$(cat "$out/plan.json")"
	want=$(jq '[.hosts[] | length] | add' "$out/plan.json")
	# A real subset of the 6 ordered pairs: the plan, not a full mesh.
	((want >= 3 && want < 6)) || fail "plan of $want pairs: $(cat "$out/plan.json")"
	for x in a c d; do
		[ -s "$out/results/$x.jsonl" ] || fail "no results of $x: $stderr"
		# -s: jq -e judges only the last document's output.
		jq -s -e 'map(.event) == ["ready", "summary"] and .[1].stopped_by == "SIGTERM"' \
			"$out/serve/$x" >/dev/null || fail "$x did not serve until SIGTERM: $(cat "$out/serve/$x")"
		jq -e --arg d "$(fabric_var "$x" RXE)" '[.. | .device? // empty] | index($d) != null' \
			"$out/ports/$x.json" >/dev/null || fail "$x's ports: $(cat "$out/ports/$x.json")"
	done
	[ ! -e "$out/serve/b" ] && [ ! -e "$out/results/b.jsonl" ]
	jq -e --argjson n "$want" '.summary | .sources == 3 and .pairs == $n and .reachable == $n' \
		"$out/report.json" >/dev/null || fail "$(cat "$out/report.json")"
	diff <(plan_pairs "$out") <(report_pairs "$out" reachable) || fail "pairs differ from the plan"
	jq -e '.' "$out/ports-report.json" >/dev/null || fail "no port audit: $stderr"
	no_steps_left
}

@test "a node whose responder died: the sweep waits --ready-wait, its pairs fail, exit 1, no step left" {
	local out=$BATS_FILE_TMPDIR/dead start
	start=$SECONDS
	SLURM_TEST_DEAD=d run -1 --separate-stderr sweep "$out" --ready-wait 3 --probe-timeout 60
	grep -q 'no responder on d after 3s' <<<"$stderr" || fail "$stderr"
	((SECONDS - start < 120)) || fail "took $((SECONDS - start)) s"
	[ ! -s "$out/serve/d" ]
	[ -s "$out/results/d.jsonl" ] || fail "d still probes: $stderr"
	# Every pair towards d fails, every other one is reachable.
	# d's name as HOSTS gives it: its address stays unknown (refused).
	jq -e '.summary.error >= 1 and
		all(.cells[]; (.destination == "d:18859") == (.status != "reachable"))' \
		"$out/report.json" >/dev/null || fail "$(cat "$out/report.json")"
	no_steps_left
}
