#!/usr/bin/env bats
# The source tree itself: what a merge or an editor can leave behind and no
# compiler catches everywhere (a conflict in a man page, a README, a test
# data file or a script only shows when someone reads it).

load helpers

@test "no tracked file holds a merge-conflict marker" {
	git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
		skip "not a git checkout"
	# The two unambiguous markers; '=======' alone is also a Markdown
	# heading underline.
	run git -C "$TOP" grep -I -n -E '^(<<<<<<<|>>>>>>>)( |$)'
	[ "$status" -eq 1 ] || fail "conflict markers: $output"
}

@test "lib/ stands in floors: no file includes a header from a floor above its own" {
	run -0 "$TOP/tools/check-layers"
	assert_output ""
}

@test "the layering check fails on a header from a higher floor, a bare name and a file on no floor" {
	local tree=$BATS_TEST_TMPDIR/tree
	mkdir -p "$tree"
	cp -r "$TOP/lib" "$tree/"
	echo '#include "probe/probe_engine.h"' >>"$tree/lib/verbs/device.h"
	echo '#include "diag.h"' >>"$tree/lib/base/gid.c"
	touch "$tree/lib/stray.c"
	run -1 "$TOP/tools/check-layers" "$tree"
	assert_line --regexp '^lib/verbs/device.h:[0-9]+: verbs/ includes "probe/probe_engine.h" from the floor above it \(probe/\)$'
	assert_line --regexp '^lib/base/gid.c:[0-9]+: "diag.h" names no floor$'
	assert_line --partial 'lib/stray.c: not on a floor'
	[ "${#lines[@]}" -eq 3 ] || fail "$output"
}

