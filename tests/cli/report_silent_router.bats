#!/usr/bin/env bats
# report --traces names a router that answers no trace and drops what it
# forwards (report(8), LOCALISATION, "What traces cannot see"): its
# unseen hop looks silent by policy, as passing traces find it silent
# too, and is withdrawn; when nothing else explains the failing flows
# over it, it is put back and named once, the hops after its other
# neighbours its aliases.

load helpers

setup() {
	ALT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/tests/tools/fabric_alt
	OUT=$BATS_TEST_TMPDIR/f
}

@test "a spine that answers no trace and drops 89% of what it forwards: named once, as the hop after a neighbour" {
	# 2,048-host clos, seed 10: p6spine0, which never answers traces,
	# drops 89%; its hop looks silent by policy after each of its
	# neighbours (pod 6's leaves and plane 0's super-spines)
	"$ALT" --hosts 2048 --seed 10 --fault router_drop "$OUT"
	jq -e '.faults[0].silent' "$OUT/truth.json" >/dev/null ||
		fail "$(head -c 600 "$OUT/truth.json")"
	cat "$OUT"/*.trace.json >"$BATS_TEST_TMPDIR/traces.json"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$OUT"/*.probe.jsonl \
		--traces "$BATS_TEST_TMPDIR/traces.json"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	jq -e --slurpfile t "$OUT/truth.json" '
		($t[0].faults[0].neighbours) as $near |
		.localisation.suspects | length == 1 and
		(.[0] | .kind == "hop" and .cause == "unseen" and
			(.name | startswith("after ")) and
			(.aliases | length >= 2) and
			all(([.name] + .aliases)[];
				ltrimstr("after ") as $n |
				$near | index($n) != null))' \
		<<<"$output" >/dev/null ||
		fail "$(jq -c '.localisation.suspects' <<<"$output" | head -c 1500)"
}
