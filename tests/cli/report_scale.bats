#!/usr/bin/env bats
# report on fabric-sized inputs from tests/tools/gen_results (synthetic
# results in the probe.v1 schema): InfiniBand results without a GRH and
# error records, whose merge was quadratic (a scan of every record per
# record), and report -j, which held the whole document as a json-c tree.
# The bounds are generous (a sanitizer build, a busy machine): what they
# catch is an order of magnitude, not a few percent.

load helpers

setup() {
	GEN=$(dirname "$IBAHPROBE")/build/tests/tools/gen_results
	[ -x "$GEN" ] || GEN=$(dirname "$IBAHPROBE")/tests/tools/gen_results
	[ -x "$GEN" ] || missing "gen_results not built (make check-build)"
}

@test "400 IB hosts without a GRH (159,600 results): merged in minutes, not hours, into a square matrix" {
	"$GEN" --ib 400 >"$BATS_TEST_TMPDIR/ib.jsonl"
	run -1 --separate-stderr timeout 180 "$IBAHPROBE" report -j "$BATS_TEST_TMPDIR/ib.jsonl"
	# Each destination learnt its host's source GID: one node per host.
	echo "$output" | jq -e '.summary.sources == 400 and .summary.destinations == 400 and
		.summary.pairs == 159600 and
		([.destinations[].address] | all(startswith("fe80::")))' >/dev/null ||
		fail "$(head -c 600 <<<"$output") $stderr"
}

@test "1% error records among 400 hosts: each in the row of its port, no row of their own" {
	"$GEN" --errors 1 400 >"$BATS_TEST_TMPDIR/err.jsonl"
	run -1 --separate-stderr timeout 180 "$IBAHPROBE" report -j "$BATS_TEST_TMPDIR/err.jsonl"
	echo "$output" | jq -e '.summary.sources == 400 and .summary.destinations == 400 and
		.summary.pairs == 159600 and .summary.error > 1000' >/dev/null ||
		fail "$(head -c 600 <<<"$output") $stderr"
}

@test "report -j of 300 hosts x 299 is written as it goes: no more memory than the text form (a json-c tree took 9 times more)" {
	command -v /usr/bin/time >/dev/null || missing "/usr/bin/time is not installed (Debian package time; make deps)"
	"$GEN" 300 >"$BATS_TEST_TMPDIR/mesh.jsonl"
	# Against the text form of the same binary: a sanitizer build has
	# peaks of its own, in both.
	run -1 --separate-stderr /usr/bin/time -f "%M" -o "$BATS_TEST_TMPDIR/text.rss" \
		"$IBAHPROBE" report "$BATS_TEST_TMPDIR/mesh.jsonl"
	run -1 --separate-stderr /usr/bin/time -f "%M" -o "$BATS_TEST_TMPDIR/json.rss" \
		"$IBAHPROBE" report -j "$BATS_TEST_TMPDIR/mesh.jsonl"
	echo "$output" | jq -e '.summary.pairs == 89700' >/dev/null || fail "$stderr"
	local text json
	text=$(tail -n 1 "$BATS_TEST_TMPDIR/text.rss")
	json=$(tail -n 1 "$BATS_TEST_TMPDIR/json.rss")
	[ "$json" -lt $((text * 3 / 2 + 20 * 1024)) ] ||
		fail "peak RSS of -j $json kB, of the text $text kB"
}
