#!/usr/bin/env bats
# report --traces folds the addresses of routers that answer traces from
# the address of each interface (report(8), LOCALISATION, "Routers under
# several addresses"): on tests/tools/fabric_alt --per-interface the
# lossy link is named by its routers, its other texts as aliases, and
# the folding is said; routers answering from one address (fabric_model,
# fabric_alt without --per-interface) are left as they are.

load helpers

setup() {
	TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	ALT=$TOP/tests/tools/fabric_alt
	MODEL=$(dirname "$IBAHPROBE")/build/tests/tools/fabric_model
	[ -x "$MODEL" ] || MODEL=$TOP/build/tests/tools/fabric_model
	[ -x "$MODEL" ] || missing "fabric_model not built (make check-build)"
	OUT=$BATS_TEST_TMPDIR/f
}

# report -j over the scenario in $OUT, into $output.
report_scenario() {
	cat "$OUT"/*.trace.json >"$BATS_TEST_TMPDIR/traces.json"
	run -1 --separate-stderr "$IBAHPROBE" report "$@" "$OUT"/*.probe.jsonl \
		--traces "$BATS_TEST_TMPDIR/traces.json"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "per-interface routers: folded, the lossy link named first by its routers with its other texts as aliases" {
	"$ALT" --hosts 64 --seed 5 --fault lossy_link --per-interface "$OUT"
	report_scenario -j
	jq -e --slurpfile truth "$OUT/truth.json" '
		($truth[0].faults[0]) as $f |
		.localisation.folded_routers > 1 and
		.localisation.folded_addresses > 2 * .localisation.folded_routers and
		(.localisation.suspects[0] | .kind == "link" and .cause == "loss" and
			(.name as $n | $f.names | index($n) != null) and
			(.aliases | length > 0) and
			all(.aliases[]; split(" -> ") as [$a, $b] |
				($f.ends[0] | index($a) != null) and
				($f.ends[1] | index($b) != null)))' <<<"$output" >/dev/null ||
		fail "$(jq -c .localisation <<<"$output" | head -c 1500)"
	report_scenario
	# The localisation's section (the matrix above is 64 columns wide).
	section=$(sed -n '/^suspects (localised/,/^suspects on the path/p' <<<"$output")
	[[ $section == *$'\n'"  routers answer traces from the address of each interface: "[0-9]*" addresses belong to "[0-9]*" routers,"$'\n'"    each named by the address most traces show"$'\n'"  1. link    "* ]] ||
		fail "$section"
	[[ $section == *$'\n'"      traces show it also as "*" -> "* ]] || fail "$section"
	[ "$(awk 'length > 99' <<<"$section" | wc -l)" -eq 0 ] || fail "long lines: $section"
}

@test "routers answering from one address: nothing folded, no aliases (fabric_model, fabric_alt)" {
	"$MODEL" --hosts 64 --seed 5 --fault lossy_link "$OUT"
	report_scenario -j
	jq -e '.localisation.folded_routers == 0 and .localisation.folded_addresses == 0 and
		all(.localisation.suspects[]; .aliases == [])' <<<"$output" >/dev/null ||
		fail "$(jq -c .localisation <<<"$output" | head -c 1500)"
	rm -rf "$OUT"
	"$ALT" --hosts 64 --seed 5 --fault lossy_link "$OUT"
	report_scenario -j
	jq -e '.localisation.folded_routers == 0 and
		all(.localisation.suspects[]; .aliases == [])' <<<"$output" >/dev/null ||
		fail "$(jq -c .localisation <<<"$output" | head -c 1500)"
	report_scenario
	refute_output --partial "routers answer traces from the address of each interface"
}

@test "per-interface edge that drops what it carries: its hosts' access links named as one edge, not one by one" {
	# 64-host rail, seed 152: rail1leaf1 drops nearly all it forwards
	# and answers each of its hosts from its own address; so little gets
	# past it that those addresses are not folded, and the fit took the
	# hosts' access links into them one by one
	"$ALT" --hosts 64 --shape rail --seed 152 --fault router_drop \
		--fault lossy_nic --per-interface "$OUT"
	report_scenario -j
	jq -e --slurpfile truth "$OUT/truth.json" '
		($truth[0].faults[0].hosts) as $hosts |
		.localisation.suspects |
		any(.[]; .kind == "hop" and (.name | startswith("edge of ")) and
			(.elements | length >= 3) and
			all(.elements[]; .kind == "host" and
				(.name as $n | $hosts | index($n) != null))) and
		all(.[]; .kind != "link" or
			(.name | split(" -> ")[0] as $a | $hosts | index($a) == null))' \
		<<<"$output" >/dev/null ||
		fail "$(jq -c '.localisation.suspects' <<<"$output" | head -c 1500)"
}

@test "per-interface spine that forwards almost nothing: named alone, the stops one hop past it part of it" {
	# 64-host clos, seed 31: p0spine0 drops 89% of what it forwards; the
	# few flows it let through lost their later trace queries to it, so
	# their traces stop after its next hops
	"$ALT" --hosts 64 --seed 31 --fault router_drop --per-interface "$OUT"
	report_scenario -j
	jq -e --slurpfile truth "$OUT/truth.json" '
		($truth[0].faults[0].names) as $names |
		.localisation.suspects | length == 1 and
		.[0].kind == "router" and
		([.[0].name] + .[0].aliases | any(.[]; . as $n |
			$names | index($n) != null))' <<<"$output" >/dev/null ||
		fail "$(jq -c '.localisation.suspects' <<<"$output" | head -c 1500)"
}
