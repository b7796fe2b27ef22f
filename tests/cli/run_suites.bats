#!/usr/bin/env bats
# tools/run-suites itself, on a tree of fake suites: a suite that cannot
# run (exit 77) is one skip for a developer and one failure where every
# suite must run (CI=true, IBAHPROBE_STRICT=1 from make check), with its
# reason; the line before the last counts what each suite ran, and the
# last line stays "N passed, N failed, N skipped". tests/missing.bash turns
# a test's missing build product or tool into a failure the same way.

load helpers

setup() {
	T=$BATS_TEST_TMPDIR/tree
	mkdir -p "$T/tools" "$T/build/tests/unit" "$T/tests/fuzz" "$T/tests/vm"
	cp "$TOP/tools/run-suites" "$T/tools/"
	# unit: two passes and a skip, and the strictness it was handed.
	cat >"$T/build/tests/unit/test_fake" <<-'EOS'
		#!/bin/sh
		echo "1..3"
		echo "ok 1 - one"
		echo "ok 2 - two"
		echo "ok 3 - three # SKIP not here"
		echo "# strict=$IBAHPROBE_STRICT"
	EOS
	# fuzz cannot run here: a reason on stderr, then 77.
	cat >"$T/tests/fuzz/run" <<-'EOS'
		#!/bin/sh
		echo "tests/fuzz/run: building the fuzzers" >&2
		echo "clang cannot build fuzzers here" >&2
		echo >&2
		exit 77
	EOS
	# vm: one pass, one failure.
	cat >"$T/tests/vm/run" <<-'EOS'
		#!/bin/sh
		echo "1..2"
		echo "ok 1 - up"
		echo "not ok 2 - down"
		exit 1
	EOS
	chmod +x "$T/build/tests/unit/test_fake" "$T/tests/fuzz/run" "$T/tests/vm/run"
}

# run-suites of the fake tree, CI and strictness only as given in "$@".
suites() {	# [VAR=VALUE...] -- SUITES...
	local vars=()
	while [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	run --separate-stderr env -u CI -u IBAHPROBE_STRICT "${vars[@]}" "$T/tools/run-suites" "$@"
}

last_line() { tail -n 1 <<<"$output"; }
before_last() { tail -n 2 <<<"$output" | head -n 1; }

@test "run-suites: a developer's run skips a suite that cannot run, says why and that CI would fail, exits 0" {
	suites -- unit fuzz
	[ "$status" -eq 0 ] || fail "status $status: $output"
	[ "$(last_line)" = "2 passed, 0 failed, 2 skipped" ] || fail "last line: $(last_line)"
	[ "$(before_last)" = "# suites: unit 2 (+1 skipped), fuzz did not run" ] || fail "$(before_last)"
	[[ $output == *"# suite fuzz skipped: clang cannot build fuzzers here"* ]] || fail "$output"
	[[ $output == *"CI=true, make check and make check-vm-all fail here"* ]] || fail "$output"
	[[ $output != *"not ok - suite"* ]] || fail "$output"
	[[ $output == *"# strict=0"* ]] || fail "the suite was not told: $output"
}

@test "run-suites: IBAHPROBE_STRICT=1 (make check) fails a suite that cannot run, with its reason" {
	suites IBAHPROBE_STRICT=1 -- unit fuzz
	[ "$status" -eq 1 ] || fail "status $status: $output"
	[ "$(last_line)" = "2 passed, 1 failed, 1 skipped" ] || fail "last line: $(last_line)"
	[ "$(before_last)" = "# suites: unit 2 (+1 skipped), fuzz could not run" ] || fail "$(before_last)"
	grep -qx "not ok - suite fuzz could not run: clang cannot build fuzzers here" <<<"$output" ||
		fail "$output"
	[[ $output == *"# strict=1"* ]] || fail "the suite was not told: $output"
}

@test "run-suites: CI=true is strict too, whatever IBAHPROBE_STRICT says" {
	suites CI=true IBAHPROBE_STRICT=0 -- fuzz unit
	[ "$status" -eq 1 ] || fail "status $status: $output"
	[ "$(last_line)" = "2 passed, 1 failed, 1 skipped" ] || fail "last line: $(last_line)"
	[ "$(before_last)" = "# suites: fuzz could not run, unit 2 (+1 skipped)" ] || fail "$(before_last)"
	grep -qx "not ok - suite fuzz could not run: clang cannot build fuzzers here" <<<"$output" ||
		fail "$output"
}

@test "run-suites: nothing built is a suite that cannot run; failures inside a suite count as ran" {
	rm "$T/build/tests/unit/test_fake"
	suites IBAHPROBE_STRICT=1 -- unit vm
	[ "$status" -eq 1 ] || fail "status $status: $output"
	[ "$(last_line)" = "1 passed, 2 failed, 0 skipped" ] || fail "last line: $(last_line)"
	[ "$(before_last)" = "# suites: unit could not run, vm 2" ] || fail "$(before_last)"
	grep -qx "not ok - suite unit could not run: no unit tests built in build (run make check-build)" \
		<<<"$output" || fail "$output"
	suites -- unit vm
	[ "$status" -eq 1 ] || fail "status $status: $output"
	[ "$(last_line)" = "1 passed, 1 failed, 1 skipped" ] || fail "last line: $(last_line)"
	[ "$(before_last)" = "# suites: unit did not run, vm 2" ] || fail "$(before_last)"
}

@test "make check and check-vm-all hand run-suites IBAHPROBE_STRICT=1, 0 with IBAHPROBE_ALLOW_SKIP=1" {
	local target
	for target in check check-vm-all; do
		run -0 make -s -n -C "$TOP" -o deps -o vm-build "$target"
		grep -q "^IBAHPROBE_STRICT=1 tools/run-suites" <<<"$output" || fail "$target: $output"
		run -0 make -s -n -C "$TOP" -o deps -o vm-build IBAHPROBE_ALLOW_SKIP=1 "$target"
		grep -q "^IBAHPROBE_STRICT=0 tools/run-suites" <<<"$output" || fail "$target: $output"
	done
}

@test "missing (tests/missing.bash): a skip with the reason, a failure with the reason when strict" {
	# bats would count a test written out here as one of this file's.
	local f=$BATS_TEST_TMPDIR/needs.bats at=@
	cat >"$f" <<-EOS
		. "$TOP/tests/missing.bash"
		${at}test "needs a tool" {
			[ -x /nonexistent/tool ] || missing "tool is not built (make check-build)"
		}
	EOS
	run -0 env -u IBAHPROBE_STRICT bats --tap "$f"
	[[ $output == *"ok 1 needs a tool # skip tool is not built (make check-build)"* ]] || fail "$output"
	run -1 env IBAHPROBE_STRICT=1 bats --tap "$f"
	[[ $output == *"not ok 1 needs a tool"* ]] || fail "$output"
	[[ $output == *"cannot run: tool is not built (make check-build)"* ]] || fail "$output"
}
