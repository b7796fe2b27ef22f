#!/usr/bin/env bats
# report --traces names the routers and links that the failing results
# share (report(8), SUSPECTS ON THE PATH). tests/cli/data/report-ecmp.jsonl:
# host a (mlx5) probes d-ecmp with flow labels 1-8, the odd ones with loss;
# tests/cli/data/trace-ecmp.json: a's traces of the same labels, the odd
# ones through R3 (198.18.13.3, then R2 as 198.18.23.2), the even ones
# through R4 (198.18.14.4, R2 as 198.18.24.2), as the VM fabric's ECMP
# branch routes them.

load helpers

DATA=$BATS_TEST_DIRNAME/data
PROBE=$DATA/report-ecmp.jsonl
TRACE=$DATA/trace-ecmp.json

@test "text: the R3 branch as one segment named by its ends, with its evidence; aligned, < 100 columns" {
	run -1 --separate-stderr "$IBAHPROBE" report "$PROBE" --traces "$TRACE"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_line "suspects on the path:"
	assert_line "  from 8 traces: they explain 4 of 4 failing results"
	assert_line "  1. segment      198.18.1.1 -> 198.18.10.4  explains 4 failing results"
	assert_line "       via 198.18.13.3, 198.18.23.2"
	assert_line "       4 failing results through it, 0 passing"
	refute_line --partial "198.18.14.4"
	[ "$(awk 'length > 99' <<<"$output" | wc -l)" -eq 0 ] || fail "long lines: $output"
}

@test "-j: a suspect of kind segment with its elements in path order and counts; path_tomography" {
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces "$TRACE"
	jq -e '
		(.suspects | length == 1) and
		(.suspects[0] == {rank: 1, kind: "segment",
			name: "198.18.1.1 -> 198.18.10.4", address: null,
			explained: 4, as_destination: null, as_source: null,
			members: [], explained_by: [],
			results: {failing: 4, passing: 0},
			elements: [
				{kind: "link", name: "198.18.1.1 -> 198.18.13.3"},
				{kind: "router", name: "198.18.13.3"},
				{kind: "link", name: "198.18.13.3 -> 198.18.23.2"},
				{kind: "router", name: "198.18.23.2"},
				{kind: "link", name: "198.18.23.2 -> 198.18.10.4"}]}) and
		(.path_tomography == {traces: 8, results: 8, failing: 4,
			explained: 4, failing_without_trace: 0,
			failing_ecmp_unknown: 0})' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "-j without --traces: path_tomography null, suspects as before" {
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE"
	jq -e '.path_tomography == null and .suspects == []' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "rxe does not send the flow label's port: failing results on several ECMP paths are not placed, and said" {
	sed 's/"provider": "mlx5"/"provider": "rxe"/' "$PROBE" >"$BATS_TEST_TMPDIR/rxe.jsonl"
	grep -q '"rxe"' "$BATS_TEST_TMPDIR/rxe.jsonl"
	run -1 --separate-stderr "$IBAHPROBE" report "$BATS_TEST_TMPDIR/rxe.jsonl" --traces "$TRACE"
	assert_line "  from 8 traces: they explain 0 of 4 failing results;"
	assert_output --partial "4 cannot be placed (their traces take several paths: the provider does not"
	refute_line --regexp '^  1\. '
}

@test "a failing result without a trace is counted as such" {
	jq -c '[.[] | select(.flow_label != 3)]' "$TRACE" >"$BATS_TEST_TMPDIR/t.json"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces "$BATS_TEST_TMPDIR/t.json"
	jq -e '.path_tomography.failing_without_trace == 1 and
		.path_tomography.explained == 3 and
		.suspects[0].explained == 3' <<<"$output" >/dev/null || fail "$output"
}

@test "--traces twice, and the traces of one file concatenated, read alike" {
	jq -c '.[0:4]' "$TRACE" >"$BATS_TEST_TMPDIR/t1.json"
	jq -c '.[4:8]' "$TRACE" >"$BATS_TEST_TMPDIR/t2.json"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" \
		--traces "$BATS_TEST_TMPDIR/t1.json" --traces "$BATS_TEST_TMPDIR/t2.json"
	jq -e '.path_tomography.traces == 8 and .suspects[0].explained == 4' <<<"$output" >/dev/null ||
		fail "$output"
	cat "$BATS_TEST_TMPDIR/t1.json" "$BATS_TEST_TMPDIR/t2.json" >"$BATS_TEST_TMPDIR/both.json"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces "$BATS_TEST_TMPDIR/both.json"
	jq -e '.path_tomography.traces == 8 and .suspects[0].explained == 4' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "--html: the suspects on the path listed, every name escaped" {
	jq '(.[] | select(.flow_label % 2 == 1) | .hops[1].answers[].from) = "<b>x</b>"' \
		"$TRACE" >"$BATS_TEST_TMPDIR/t.json"
	run -1 --separate-stderr "$IBAHPROBE" report --html "$PROBE" --traces "$TRACE"
	assert_output --partial "<b>Suspects on the path</b> (from 8 traces: they explain 4 of 4 failing results; the strongest first)"
	assert_output --partial '<li value="1">segment <b>198.18.1.1 -&gt; 198.18.10.4</b>: explains 4 failing results; via 198.18.13.3, 198.18.23.2; 4 failing results through it, 0 passing</li>'
	run -1 --separate-stderr "$IBAHPROBE" report --html "$PROBE" --traces "$BATS_TEST_TMPDIR/t.json"
	assert_output --partial "&lt;b&gt;x&lt;/b&gt;"
	refute_output --partial "<b>x</b>"
}

@test "bad --traces input: exit 2, the file and what is wrong on stderr, nothing on stdout" {
	run -2 --separate-stderr "$IBAHPROBE" report "$PROBE" --traces "$BATS_TEST_TMPDIR/none.json"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"--traces: cannot open $BATS_TEST_TMPDIR/none.json: No such file or directory"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces "$PROBE"
	assert_json_error 2
	[[ $stderr == *"report-ecmp.jsonl: trace 1: \"schema\" is no ibahprobe.trace.v1"* ]] || fail "$stderr"
	jq 'del(.[2].host)' "$TRACE" >"$BATS_TEST_TMPDIR/old.json"
	run -2 --separate-stderr "$IBAHPROBE" report "$PROBE" --traces "$BATS_TEST_TMPDIR/old.json"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"old.json: trace 3: no \"host\""* ]] || fail "$stderr"
	: >"$BATS_TEST_TMPDIR/empty.json"
	run -2 --separate-stderr "$IBAHPROBE" report "$PROBE" --traces "$BATS_TEST_TMPDIR/empty.json"
	[[ $stderr == *"empty.json: no trace in it"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report "$PROBE" --traces ""
	[[ $stderr == *"--traces needs the file of trace -j output"* ]] || fail "$stderr"
}

# past CMD...: runs CMD under a time limit, expects exit 2 and nothing on
# stdout.
past() {
	run --separate-stderr timeout 60 "$@"
	[ "$status" -ne 124 ] || fail "did not end within 60 s"
	[ "$status" -eq 2 ] || fail "exit $status, expected 2: $stderr"
	[ -z "$output" ] || fail "stdout: ${output:0:200}"
}

@test "--traces past its bounds (report(8), LIMITS): exit 2, the file, the trace and the bound on stderr, nothing on stdout" {
	local t=$BATS_TEST_TMPDIR
	jq '.[1].hops = [range(1025) | {hop_limit: 1, answers: []}]' "$TRACE" >"$t/hops.json"
	past "$IBAHPROBE" report "$PROBE" --traces "$t/hops.json"
	[[ $stderr == *"hops.json: trace 2: 1025 hops, more than the 1024 report reads of one trace"* ]] || fail "$stderr"
	# 1024 hops are read.
	jq '.[1].hops = [range(1024) | {hop_limit: 1, answers: []}]' "$TRACE" >"$t/hops.json"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces "$t/hops.json"
	jq -e '.path_tomography.traces == 8' <<<"$output" >/dev/null || fail "$output"
	jq --arg h "$(printf 'h%.0s' {1..1025})" '.[2].host = $h' "$TRACE" >"$t/name.json"
	past "$IBAHPROBE" report "$PROBE" --traces "$t/name.json"
	[[ $stderr == *"name.json: trace 3: \"host\" is longer than 1024 bytes"* ]] || fail "$stderr"
	# One trace of 100,000 hops (some 4 MB): refused by its size, at once.
	awk 'BEGIN {
		printf "[{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":\"d\",\"status\":\"reached\",\"flow_label\":1,\"hops\":["
		for (i = 1; i <= 100000; i++)
			printf "{\"answers\":[{\"from\":\"10.0.0.%d\",\"kind\":\"time_exceeded\"}]},", i % 250
		printf "{\"answers\":[]}]}]"
	}' >"$t/big.json"
	past "$IBAHPROBE" report "$PROBE" --traces "$t/big.json"
	[[ $stderr == *"big.json: trace 1: more than 4096 KiB in one trace"* ]] || fail "$stderr"
}

@test "--traces excludes --svg and --baseline; - only when the results are not on stdin" {
	run -2 --separate-stderr "$IBAHPROBE" report --svg "$PROBE" --traces "$TRACE"
	[ -z "$output" ] || fail "stdout: $output"
	[[ $stderr == *"--traces and --svg exclude each other"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report --baseline "$PROBE" "$PROBE" --traces "$TRACE"
	[[ $stderr == *"--traces and --baseline exclude each other"* ]] || fail "$stderr"
	run -2 --separate-stderr "$IBAHPROBE" report --traces - <"$PROBE"
	[[ $stderr == *"--traces -: the results are read from stdin too"* ]] || fail "$stderr"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces - <"$TRACE"
	jq -e '.path_tomography.traces == 8' <<<"$output" >/dev/null || fail "$output"
}

@test "help and completion list --traces" {
	run -0 "$IBAHPROBE" report -h
	assert_output --partial "--traces FILE"
	long_options report | grep -qx -- --traces
}

@test "localisation: the suspects with cause, confidence, evidence; every failing result on one path: cannot localise, in all three forms" {
	run -1 --separate-stderr "$IBAHPROBE" report -j "$PROBE" --traces "$TRACE"
	jq -e '
		(.localisation.suspects | length == 1) and
		(.localisation.suspects[0] | .kind == "link" and
			.name == "198.18.1.1 -> 198.18.13.3" and
			.cause == "loss" and .explained == 4 and
			.results == {failing: 4, passing: 0} and
			.confidence > 0 and .confidence < 0.5 and
			.evidence.failing == 4 and .evidence.loss_rate == 0.5 and
			.evidence.log_likelihood_ratio > 25 and
			(.alternatives | index("198.18.23.2 -> 198.18.10.4") != null) and
			(.cannot_localise | startswith("cannot localise: all 4 failing results took the same path; trace other flow labels (trace --flow-label ...)"))) and
		(.localisation | .results == 8 and .traced == 8 and
			.failing == 4 and .explained == 4 and .verdict == null)' \
		<<<"$output" >/dev/null || fail "$output"
	run -1 --separate-stderr "$IBAHPROBE" report "$PROBE" --traces "$TRACE"
	assert_line "suspects (localised; they explain 4 of 4 failing results):"
	assert_line "  1. link    198.18.1.1 -> 198.18.13.3"
	assert_line --partial "      cannot localise: all 4 failing results took the same path;"
	run -1 --separate-stderr "$IBAHPROBE" report --html "$PROBE" --traces "$TRACE"
	assert_output --partial "<li>link <b>198.18.1.1 -&gt; 198.18.13.3</b>; confidence"
	assert_output --partial "cannot localise: all 4 failing results took the same path"
}

@test "localisation: nothing stands out when no result can be placed and one pair fails" {
	sed 's/"provider": "mlx5"/"provider": "rxe"/' "$PROBE" >"$BATS_TEST_TMPDIR/rxe.jsonl"
	run -1 --separate-stderr "$IBAHPROBE" report -j "$BATS_TEST_TMPDIR/rxe.jsonl" --traces "$TRACE"
	jq -e '.localisation.suspects == [] and .localisation.verdict == "no element stands out" and
		.localisation.traced == 0' <<<"$output" >/dev/null || fail "$output"
	run -1 --separate-stderr "$IBAHPROBE" report "$BATS_TEST_TMPDIR/rxe.jsonl" --traces "$TRACE"
	assert_line "  no element stands out"
}
