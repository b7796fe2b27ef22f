#!/usr/bin/env bats
# Golden outputs: report, plan, ah --dry-run and help over fixed inputs,
# compared byte for byte with tests/cli/golden/expected (tests/golden/run;
# GOLDEN_UPDATE=1 records them anew after a deliberate change).

load helpers

@test "report, plan, ah --dry-run and help print what they printed before lib/ moved" {
	run -0 env IBAHPROBE="$IBAHPROBE" "$TOP/tests/golden/run" "$BATS_TEST_DIRNAME/golden/cases" \
		"$BATS_TEST_DIRNAME/golden/expected"
}

@test "the golden runner fails on a changed byte" {
	local dir=$BATS_TEST_TMPDIR/g
	mkdir -p "$dir"
	printf 'one\thelp plan\n' >"$dir/cases"
	IBAHPROBE=$IBAHPROBE GOLDEN_UPDATE=1 "$TOP/tests/golden/run" "$dir/cases" "$dir/expected" >/dev/null
	run -0 env IBAHPROBE="$IBAHPROBE" "$TOP/tests/golden/run" "$dir/cases" "$dir/expected"
	sed -i 's/plan/plam/' "$dir/expected/one"
	run -1 env IBAHPROBE="$IBAHPROBE" "$TOP/tests/golden/run" "$dir/cases" "$dir/expected"
	assert_line --partial "not ok 1 - one"
}
