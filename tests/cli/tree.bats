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
