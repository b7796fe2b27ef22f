#!/usr/bin/env bats
# ibahprobe plan: hosts and groups files in, per host the destinations of
# one round out (text, JSON, one file per host for probe -f). Coverage over
# R rounds and the load bounds are checked here on the binary's output, as
# the unit tests check them on the algorithm; and every bad input is
# refused with exit 2 and nothing on stdout.

load helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	# 11 hosts: racks of 4, 3 and 2 (uneven), node11 and node12 in no rack.
	printf 'node%s\n' 1 2 3 4 5 6 7 8 9 10 11 > hosts
	printf '# rack layout\nnode1 r1\nnode2 r1\nnode3 r1\nnode4 r1\n' > groups
	printf 'node5 r2\nnode6 r2 # a comment\n\nnode7 r2\nnode8 r3\nnode9 r3\n' >> groups
	printf 'node10 r4\n' >> groups
}

# Every line of a text plan as "a b" pairs, over rounds 0 .. R-1.
pairs_over_rounds() {	# rounds, then plan options
	local rounds=$1 r
	shift
	for ((r = 0; r < rounds; r++)); do
		"$IBAHPROBE" -q plan "$@" --round "$r" |
			awk '{ for (i = 2; i <= NF; i++) print $1, $i }'
	done
}

@test "plan -h shows its options" {
	run -0 "$IBAHPROBE" plan -h
	assert_line --partial "Usage: ibahprobe [OPTIONS] plan [OPTIONS] HOSTS"
	for opt in --groups --per-round --rounds --round --seed --output \
		--ecmp-width --ecmp-confidence --traces --traces-per-round; do
		assert_line --partial -- "$opt"
	done
}

@test "text: one line per host, in host order: the host, its group, then peers outside it" {
	run -0 --separate-stderr "$IBAHPROBE" plan hosts --groups groups --per-round 3
	[ "${#lines[@]}" -eq 11 ] || fail "not one line per host: $output"
	[ "$(cut -d' ' -f1 <<<"$output" | tr '\n' ' ')" = "node1 node2 node3 node4 node5 node6 node7 node8 node9 node10 node11 " ]
	# node1's rack first, in host order, then at most K = 3 others.
	[[ ${lines[0]} == "node1 node2 node3 node4"* ]] || fail "${lines[0]}"
	[[ ${lines[4]} == "node5 node6 node7"* ]] || fail "${lines[4]}"
	local line
	for line in "${lines[@]}"; do
		local words=($line) n
		case ${words[0]} in
		node[1-4]) n=3 ;; node[5-7]) n=2 ;; node[89]) n=1 ;; *) n=0 ;;
		esac
		[ $(( ${#words[@]} - 1 )) -le $((n + 3)) ] || fail "more than group - 1 + K: $line"
	done
	# The host without a group is warned about, and alone in its group.
	[[ $stderr == *"warning: groups: 1 host has no group, is a group of its own (the first: 'node11')"* ]] ||
		fail "$stderr"
}

@test "every ordered pair is covered within R rounds; per round no host sends or receives more than group - 1 + K" {
	local rounds
	rounds=$("$IBAHPROBE" -q plan hosts --groups groups --per-round 2 -j | jq .rounds)
	[ "$rounds" -ge 5 ] || fail "rounds $rounds: 10 hosts outside node10's group need at least 5 at K 2"
	pairs_over_rounds "$rounds" hosts --groups groups --per-round 2 | sort -u > covered
	for a in $(seq 1 11); do for b in $(seq 1 11); do
		[ "$a" = "$b" ] || echo "node$a node$b"
	done; done | sort > all
	run diff all covered
	assert_success
	# Load: group size - 1 + K, both ways (incoming counted per round).
	local size='{"node1": 4, "node2": 4, "node3": 4, "node4": 4, "node5": 3, "node6": 3,
		"node7": 3, "node8": 2, "node9": 2, "node10": 1, "node11": 1}'
	for ((r = 0; r < rounds; r++)); do
		"$IBAHPROBE" -q plan hosts --groups groups --per-round 2 --round "$r" -j |
			jq -e --argjson size "$size" '
				(.hosts | to_entries | all((.value | length) <= $size[.key] - 1 + 2)) and
				([.hosts[][]] | group_by(.) | all(length <= $size[.[0]] - 1 + 2))' >/dev/null ||
			fail "round $r over the load bound"
	done
}

@test "-j: one document with schema, round, rounds, per_round, seed, groups, ungrouped, output, hosts" {
	run -0 --separate-stderr "$IBAHPROBE" plan hosts --groups groups --per-round 3 --round 2 --seed 9 -j
	echo "$output" | jq -e '
		(keys == ["groups", "hosts", "output", "per_round", "round", "rounds", "schema",
			"seed", "ungrouped"]) and
		(.schema == "ibahprobe.plan.v1") and (.round == 2) and (.per_round == 3) and
		(.seed == 9) and (.rounds == 4) and (.output == null) and
		(.groups == {r1: ["node1", "node2", "node3", "node4"], r2: ["node5", "node6", "node7"],
			r3: ["node8", "node9"], r4: ["node10"]}) and
		(.ungrouped == ["node11"]) and
		(.hosts | keys_unsorted == ["node1", "node2", "node3", "node4", "node5", "node6",
			"node7", "node8", "node9", "node10", "node11"]) and
		(.hosts.node1[:3] == ["node2", "node3", "node4"])' >/dev/null || fail "$output"
	# The text form is the same plan.
	run -0 "$IBAHPROBE" -q plan hosts --groups groups --per-round 3 --round 2 --seed 9
	[ "$output" = "$("$IBAHPROBE" -q plan hosts --groups groups --per-round 3 --round 2 --seed 9 -j |
		jq -r '.hosts | to_entries[] | ([.key] + .value) | join(" ")')" ] || fail "text and JSON differ"
}

@test "the same seed gives the same plan, another seed another; round N + R is round N" {
	local a b c
	a=$("$IBAHPROBE" -q plan hosts --groups groups --seed 5 --per-round 2)
	b=$("$IBAHPROBE" -q plan hosts --groups groups --seed 5 --per-round 2)
	c=$("$IBAHPROBE" -q plan hosts --groups groups --seed 6 --per-round 2)
	[ "$a" = "$b" ] || fail "seed 5 twice differs"
	[ "$a" != "$c" ] || fail "seeds 5 and 6 give the same plan"
	local rounds
	rounds=$("$IBAHPROBE" -q plan hosts --groups groups --per-round 2 -j | jq .rounds)
	[ "$("$IBAHPROBE" -q plan hosts --groups groups --per-round 2 --round 1)" = \
	  "$("$IBAHPROBE" -q plan hosts --groups groups --per-round 2 --round $((1 + rounds)))" ] ||
		fail "round 1 and round 1 + R differ"
}

@test "without --groups every host is its own group; --rounds alone sets K; HOSTS from stdin" {
	run -0 --separate-stderr "$IBAHPROBE" plan - --rounds 2 -j < hosts
	[ -z "$stderr" ] || fail "a warning without --groups: $stderr"
	echo "$output" | jq -e '(.groups == {}) and (.ungrouped | length == 11) and
		(.rounds == 2) and (.per_round == 5) and
		all(.hosts[]; length <= 5)' >/dev/null || fail "$output"
}

@test "one group: the full mesh every round" {
	printf '%s g\n' node1 node2 node3 node4 node5 node6 node7 node8 node9 node10 node11 > one
	run -0 "$IBAHPROBE" plan hosts --groups one -j
	echo "$output" | jq -e '(.rounds == 1) and all(.hosts[]; length == 10)' >/dev/null || fail "$output"
}

@test "-o DIR: one file per host that probe -f reads; with -j the document names DIR" {
	run -0 --separate-stderr "$IBAHPROBE" plan hosts --groups groups --per-round 3 -o plan.d
	[ -z "$output" ] || fail "text with -o wrote to stdout: $output"
	[ "$(ls plan.d | sort -V | tr '\n' ' ')" = "node1 node2 node3 node4 node5 node6 node7 node8 node9 node10 node11 " ] ||
		fail "$(ls -a plan.d)"
	[ "$(head -1 plan.d/node1)" = "# ibahprobe plan: round 0 of 4 (seed 0) for node1" ]
	[ "$(sed 1d plan.d/node1 | tr '\n' ' ')" = "$("$IBAHPROBE" -q plan hosts --groups groups --per-round 3 |
		awk '$1 == "node1" { $1 = ""; print substr($0, 2) " " }')" ] || fail "$(cat plan.d/node1)"
	# A second round replaces the files; nothing is left over.
	run -0 "$IBAHPROBE" -q plan hosts --groups groups --per-round 3 --round 1 -o plan.d -j
	echo "$output" | jq -e '.output == "plan.d" and .round == 1' >/dev/null || fail "$output"
	[ "$(ls -A plan.d | wc -l)" -eq 11 ] || fail "$(ls -A plan.d)"
	# probe -f takes the file: what stops it here is the missing device
	# (exit 3), not the destination list (exit 2).
	has_rdma_device && skip "an RDMA device is present: probe would run"
	run -3 --separate-stderr "$IBAHPROBE" probe -f plan.d/node1
	[[ $stderr == *"no RDMA device"* ]] || fail "$stderr"
}

@test "a host in the groups file but not in HOSTS is warned about and left out" {
	printf 'ghost r1\nnode11 r5\n' >> groups
	run -0 --separate-stderr "$IBAHPROBE" plan hosts --groups groups -j
	[[ $stderr == *"warning: groups: 1 host is not in the host list, left out (the first: 'ghost', line 13)"* ]] ||
		fail "$stderr"
	echo "$output" | jq -e '(.hosts | has("ghost") | not) and (.ungrouped == []) and
		(.groups.r5 == ["node11"])' >/dev/null || fail "$output"
	run -0 --separate-stderr "$IBAHPROBE" -q plan hosts --groups groups
	[ -z "$stderr" ] || fail "-q: $stderr"
}

@test "K x R too small: exit 2 with the fewest rounds that cover every pair" {
	run -2 --separate-stderr "$IBAHPROBE" -q plan hosts --groups groups --per-round 2 --rounds 4
	[ -z "$output" ] || fail "stdout: $output"
	assert_equal "$stderr" "ibahprobe: error: 4 rounds of 2 peers outside the group cannot cover 10 ring offsets; at least 5 rounds are needed (--rounds 5, or a larger --per-round)"
	run -2 --separate-stderr "$IBAHPROBE" -q plan hosts --groups groups --per-round 2 --rounds 4 -j
	assert_json_error 2
	run -0 "$IBAHPROBE" -q plan hosts --groups groups --per-round 2 --rounds 5
}

@test "bad values of every option: exit 2, the value named, nothing on stdout" {
	refuses_bad_values plan hosts <<-'EOF'
		--per-round|0|100001|x|-1|--per-round
		--rounds|0|1000001|2x|--rounds
		--round|-1|18446744073709551616|r|--round
		--seed|-5|0x|--seed
		--ecmp-width|0|257|w|--ecmp-width
		--ecmp-confidence|0|100|-1|99x|--ecmp-confidence
		--traces-per-round|0|100001|x|--traces-per-round
		EOF
	run -2 --separate-stderr "$IBAHPROBE" plan hosts --bogus
	[[ $stderr == "ibahprobe: error: unknown option '--bogus' for plan"* ]] || fail "$stderr"
	[ -z "$output" ]
	run -2 --separate-stderr "$IBAHPROBE" plan hosts --bogus -j
	assert_json_error 2
}

@test "bad host lists: none, missing, empty, one host, a host twice, no host name" {
	local cases=(
		"|plan takes one HOSTS file (- for stdin), got 0 operands"
		"hosts hosts|plan takes one HOSTS file (- for stdin), got 2 operands"
		"nosuchfile|cannot open host file 'nosuchfile': No such file or directory"
		"empty|empty names no host; a plan needs at least two"
		"single|single names one host; a plan needs at least two"
		"twice|twice:4: host 'b' is listed twice (first on line 2)"
		"blank|blank:1: 'a b' is no host name (one host per line)"
		"notahost|notahost:2: destination 'x,y' is not a LID"
	)
	printf '# only a comment\n\n' > empty
	printf 'a\n' > single
	printf 'a\nb\nc\nb\na\n' > twice
	printf 'a b\nc\n' > blank
	printf 'a\nx,y\n' > notahost
	local c args want
	for c in "${cases[@]}"; do
		args=${c%%|*} want=${c#*|}
		run -2 --separate-stderr "$IBAHPROBE" plan $args
		[ -z "$output" ] || fail "$args: stdout: $output"
		[[ $stderr == "ibahprobe: error: $want"* ]] || fail "$args: $stderr"
		run -2 --separate-stderr "$IBAHPROBE" plan $args -j
		assert_json_error 2
	done
}

@test "bad groups files and -o targets: exit 2 with FILE:LINE or the reason" {
	printf 'node1 r1\nnode2\n' > nogroup
	printf 'node1 r1\nnode1 r2\n' > twice
	printf '# none\n' > none
	printf 'x\n' > afile
	local cases=(
		"--groups nogroup|--groups: nogroup:2: 'node2' has no group; a line is HOST GROUP"
		"--groups twice|--groups: twice:2: host 'node1' is listed twice (first on line 1)"
		"--groups none|--groups: none names no host"
		"--groups missing|--groups: cannot open groups file 'missing': No such file or directory"
		"--groups -|HOSTS and --groups cannot both be stdin"
		"-o afile|-o afile is no directory"
		"--traces afile|--traces afile is no directory"
		"-o same.d --traces ./same.d|-o same.d and --traces ./same.d are one directory: both write a file per host; give two"
		"--ecmp-width 256 --ecmp-confidence 99.9999|--ecmp-width 256 at 99.9999% needs more than 4096 flow labels per destination (what probe takes)"
		"--ecmp-width 128 --traces t.d|--ecmp-width 128 at 99% needs more than 1024 flow labels per destination (what trace takes)"
	)
	local c args want
	for c in "${cases[@]}"; do
		args=${c%%|*} want=${c#*|}
		if [[ $args == *"-" ]]; then
			run -2 --separate-stderr "$IBAHPROBE" plan - $args < hosts
		else
			run -2 --separate-stderr "$IBAHPROBE" plan hosts $args
		fi
		[ -z "$output" ] || fail "$args: stdout: $output"
		[[ $stderr == "ibahprobe: error: $want"* ]] || fail "$args: $stderr"
	done
	# A host that cannot name a file: refused before any file is written.
	printf 'node:sw1/p2\nnode2\n' > slash
	run -2 --separate-stderr "$IBAHPROBE" plan slash -o out.d
	[[ $stderr == "ibahprobe: error: -o: host 'node:sw1/p2' (line 1) cannot name a file in out.d"* ]] ||
		fail "$stderr"
	[ ! -e out.d ] || fail "out.d created: $(ls -A out.d)"
	run -2 --separate-stderr "$IBAHPROBE" plan slash --traces out.d
	[[ $stderr == "ibahprobe: error: --traces: host 'node:sw1/p2' (line 1) cannot name a file in out.d"* ]] ||
		fail "$stderr"
	[ ! -e out.d ] || fail "out.d created: $(ls -A out.d)"
}

@test "a round that leaves a host nothing to probe: its plan file makes probe -f exit 0 with a warning, -j []" {
	# h3 is alone in its rack; with 10 rounds for its 2 outside peers
	# most of its rounds are empty.
	printf 'h1 r1\nh2 r1\nh3 r2\n' > racks
	printf 'h1\nh2\nh3\n' > three
	run -0 "$IBAHPROBE" plan three --groups racks --per-round 1 --rounds 10 --round 0 -o round0
	! grep -qv '^#' round0/h3 || fail "h3 has destinations in round 0: $(cat round0/h3)"
	run -0 --separate-stderr "$IBAHPROBE" probe -f round0/h3
	[ -z "$output" ] || fail "stdout: $output"
	[ "$stderr" = "ibahprobe: warning: round0/h3 lists no destination: nothing to probe" ] || fail "$stderr"
	run -0 --separate-stderr "$IBAHPROBE" probe -j -f round0/h3
	[ "$output" = "[]" ] || fail "$output"
	run -0 --separate-stderr "$IBAHPROBE" -q probe --jsonl -f round0/h3
	[ -z "$output$stderr" ] || fail "$output / $stderr"
	# Only a file may say there is nothing to do: no destination at all
	# is still a usage error.
	run -2 --separate-stderr "$IBAHPROBE" probe
	[[ $stderr == *"probe needs at least one destination"* ]] || fail "$stderr"
}

@test "--ecmp-width: the coupon collector's count of flow labels, in text, JSON and the -o files" {
	# Without it the plan names no flow labels (the text is host lines only).
	run -0 --separate-stderr "$IBAHPROBE" plan hosts --groups groups
	refute_line --partial "flow-label"
	"$IBAHPROBE" -q plan hosts --groups groups -j | jq -e 'has("flow_labels") | not' >/dev/null ||
		fail "flow_labels without asking"
	# W 4 at 99%: 21 labels (P(20) = 0.9873, P(21) = 0.9905).
	run -0 --separate-stderr "$IBAHPROBE" plan hosts --groups groups --ecmp-width 4
	assert_line --index 0 "# flow-label 1-21 (4 ECMP branches, each crossed with probability >= 99%)"
	[ "${#lines[@]}" -eq 12 ] || fail "not one line per host after the labels: $output"
	# W 2 at 99%: 8; at 50%: 2. W 1: one label.
	run -0 "$IBAHPROBE" -q plan hosts --ecmp-width 2 -j
	jq -e '.flow_labels == {ecmp_width: 2, confidence: 0.99, count: 8, list: "1-8"}' <<<"$output" >/dev/null ||
		fail "$output"
	run -0 "$IBAHPROBE" -q plan hosts --ecmp-width 2 --ecmp-confidence 50 -j
	jq -e '.flow_labels.count == 2' <<<"$output" >/dev/null || fail "$output"
	run -0 "$IBAHPROBE" -q plan hosts --ecmp-width 1 -j
	jq -e '.flow_labels.list == "1"' <<<"$output" >/dev/null || fail "$output"
	# --ecmp-confidence alone: W 4.
	run -0 "$IBAHPROBE" -q plan hosts --ecmp-confidence 99.9 -j
	jq -e '.flow_labels == {ecmp_width: 4, confidence: 0.999, count: 29, list: "1-29"}' <<<"$output" >/dev/null ||
		fail "$output"
	# -o: the label line second, the destinations as before.
	run -0 "$IBAHPROBE" -q plan hosts --groups groups --per-round 3 --ecmp-width 8 -o plan.d
	[ -z "$output" ] || fail "stdout: $output"
	[ "$(sed -n 2p plan.d/node1)" = "# flow-label 1-51 (8 ECMP branches, each crossed with probability >= 99%)" ] ||
		fail "$(cat plan.d/node1)"
	[ "$(awk '$2 == "flow-label" { print $3 }' plan.d/node1)" = "1-51" ]
	[ "$(sed 1,2d plan.d/node1 | tr '\n' ' ')" = "$("$IBAHPROBE" -q plan hosts --groups groups --per-round 3 |
		awk '$1 == "node1" { $1 = ""; print substr($0, 2) " " }')" ] || fail "$(cat plan.d/node1)"
}

@test "--traces DIR: per host the destinations to trace while passing, T per round in rotation, for trace -f" {
	run -0 --separate-stderr "$IBAHPROBE" plan hosts --groups groups --per-round 3 --traces t.d
	[ "$(ls t.d | sort -V | tr '\n' ' ')" = "node1 node2 node3 node4 node5 node6 node7 node8 node9 node10 node11 " ] ||
		fail "$(ls -a t.d)"
	# The labels (W 4 at 99% by default) and the rule for failing flows.
	run cat t.d/node1
	assert_line --index 0 "# ibahprobe plan: traces of round 0 of 4 (seed 0) for node1"
	assert_line --index 1 "# flow-label 1-21 (4 ECMP branches, each crossed with probability >= 99%)"
	assert_line --index 2 "# failing: trace each failing flow at once: trace -j --failed RESULTS"
	# T 1: round 0 traces the first destination of node1's round, node2.
	[ "$(grep -v '^#' t.d/node1)" = node2 ] || fail "$(cat t.d/node1)"
	# The JSON names the same, and node1's rack (node2..node4, first in
	# every round) is traced whole in 3 rounds at T 1.
	local r traced=""
	for r in 0 1 2; do
		traced+=" $("$IBAHPROBE" -q plan hosts --groups groups --per-round 3 --round "$r" \
			--traces t.d -j | jq -r '.traces.node1[]')"
		[ "$(grep -v '^#' t.d/node1)" = "${traced##* }" ] || fail "round $r: file and JSON differ"
	done
	[ "$traced" = " node2 node3 node4" ] || fail "$traced"
	# T 2: two per round, distinct, from this round's destinations.
	run -0 "$IBAHPROBE" -q plan hosts --groups groups --per-round 3 --round 1 --traces t.d \
		--traces-per-round 2 -j
	jq -e '.traces_output == "t.d" and
		(.traces | to_entries | all((.value | length) == ([2, (.value | length)] | min))) and
		(. as $d | .traces | to_entries | all(.value - $d.hosts[.key] == [])) and
		(.traces.node1 | length == 2 and .[0] != .[1])' <<<"$output" >/dev/null || fail "$output"
}
