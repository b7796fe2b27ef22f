#!/usr/bin/env bats
# The report --groups canvas page in a real browser at 1,000 hosts: 1,000
# sources in ten racks of 100, each probing 20 destinations spread over
# every rack (20,000 results from tests/cli/report_groups_gen.py, not the
# full 1,000 x 999: that is report-scale's benchmark; the page's cost is
# in the cells, 1,000 x 1,000 here either way). Known failing blocks:
# rack03 -> rack07 unreachable, rack05 -> rack01 partial loss, rack08 ->
# rack02 error. The page writes where it drew the canvas and the block or
# cell size (data-rect="X Y PX") so the screenshot is read at known points.

load helpers

GREEN='#2e7d32' AMBER='#f9a825' RED='#c62828' PURPLE='#5e35b1' GREY='#eceff1'
SIZE=1000,900

chromium_run() {	# ARGS...: headless, bounded, its own profile
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --force-device-scale-factor=1 \
		--window-size=$SIZE --virtual-time-budget=5000 \
		--user-data-dir="$BATS_FILE_TMPDIR/profile" "$@"
}

setup_file() {
	command -v chromium >/dev/null || return 0
	local dir=$BATS_FILE_TMPDIR
	python3 "$BATS_TEST_DIRNAME/report_groups_gen.py" 1000 20 "$dir/racks.txt" >"$dir/results.jsonl"
	"$IBAHPROBE" report --html --groups "$dir/racks.txt" -o "$dir/page.html" \
		"$dir/results.jsonl" || [ $? -eq 1 ]
}

setup() {
	command -v chromium >/dev/null ||
		missing "chromium is not installed (Debian package chromium; make deps)"
	chromium_run --dump-dom about:blank >/dev/null 2>"$BATS_TEST_TMPDIR/chromium.err" ||
		skip "chromium cannot run here: $(tail -n 1 "$BATS_TEST_TMPDIR/chromium.err")"
}

# layout FRAGMENT: sets X Y PX from the drawn page's data-rect, VIEW from
# its data-view.
layout() {
	local dom
	dom=$(chromium_run --dump-dom "file://$BATS_FILE_TMPDIR/page.html$1" 2>/dev/null)
	read -r X Y PX < <(grep -o 'data-rect="[0-9 ]*"' <<<"$dom" | tr -dc '0-9 \n')
	VIEW=$(grep -o 'data-view="[^"]*"' <<<"$dom")
	HEADING=$(grep -o '<span id="view">[^<]*' <<<"$dom")
	[ -n "$PX" ] || fail "no data-rect: the script did not draw"
}

shot() {	# FRAGMENT: the screenshot in $PNG
	PNG=$BATS_TEST_TMPDIR/shot.png
	run -0 --separate-stderr chromium_run --screenshot="$PNG" \
		"file://$BATS_FILE_TMPDIR/page.html$1"
	[ -s "$PNG" ] || fail "no screenshot: $stderr"
}

@test "the page of 1,000 hosts is small enough and self-contained" {
	local bytes
	bytes=$(stat -c %s "$BATS_FILE_TMPDIR/page.html")
	# 1M cells: a character each, 2.7 base64 characters of RTT each
	[ "$bytes" -lt 5000000 ] || fail "$bytes bytes"
	! grep -Eq '(src|href)="https?:' "$BATS_FILE_TMPDIR/page.html" || fail "a network resource"
}

@test "block view: 10 x 10 blocks, the failing ones in their colours where expected, the others green" {
	layout ""
	[ "$VIEW" = 'data-view="groups"' ] || fail "$VIEW"
	shot ""
	# the centre of every block, row by row
	local args=() a b
	for a in $(seq 0 9); do
		for b in $(seq 0 9); do
			args+=($((X + b * PX + PX / 2)) $((Y + a * PX + PX / 2)))
		done
	done
	run -0 python3 "$BATS_TEST_DIRNAME/report_groups_png.py" "$PNG" "${args[@]}"
	[ "${#lines[@]}" -eq 100 ] || fail "$output"
	for a in $(seq 0 9); do
		for b in $(seq 0 9); do
			local want=$GREEN got=${lines[a * 10 + b]}
			[ "$a$b" = 37 ] && want=$RED
			[ "$a$b" = 51 ] && want=$AMBER
			[ "$a$b" = 82 ] && want=$PURPLE
			[ "$got" = "$want" ] || fail "block $a,$b: $got, not $want"
		done
	done
}

@test "drill-down by URL fragment: #block=3,7 draws rack03 x rack07, its probed cells red, nothing green" {
	layout "#block=3,7"
	[ "$VIEW" = 'data-view="block 3,7"' ] || fail "$VIEW"
	[[ $HEADING == *"rack03 → rack07: 100 sources x 100 destinations"* ]] || fail "$HEADING"
	shot "#block=3,7"
	run -0 python3 "$BATS_TEST_DIRNAME/report_groups_png.py" "$PNG" --count \
		"$X" "$Y" $((X + 100 * PX)) $((Y + 100 * PX)) "$RED" "$GREEN" "$GREY"
	count() { awk -v c="$1" '$1 == c { print $2 }' <<<"$output"; }
	# 200 probed pairs of 10,000 cells, all unreachable, the rest not probed
	[ "$(count "$RED")" -gt $((150 * (PX - 1) * (PX - 1))) ] || fail "unreachable: $output"
	[ "$(count "$GREEN")" -eq 0 ] || fail "green in an unreachable block: $output"
	[ "$(count "$GREY")" -gt $((9000 * (PX - 1) * (PX - 1))) ] || fail "not probed: $output"
	# source h0300 (row 0) probes h0351 and h0701 (column 1 of rack07)
	run -0 python3 "$BATS_TEST_DIRNAME/report_groups_png.py" "$PNG" \
		$((X + PX / 2)) $((Y + PX / 2)) $((X + PX + PX / 2)) $((Y + PX / 2))
	assert_line --index 0 "$GREY"
	assert_line --index 1 "$RED"
}

@test "drill-down of a healthy block: green cells, no red" {
	layout "#block=0,4"
	shot "#block=0,4"
	run -0 python3 "$BATS_TEST_DIRNAME/report_groups_png.py" "$PNG" --count \
		"$X" "$Y" $((X + 100 * PX)) $((Y + 100 * PX)) "$RED" "$GREEN"
	count() { awk -v c="$1" '$1 == c { print $2 }' <<<"$output"; }
	[ "$(count "$RED")" -eq 0 ] || fail "$output"
	[ "$(count "$GREEN")" -gt $((150 * (PX - 1) * (PX - 1))) ] || fail "$output"
}

@test "a user's mouse: hover over a block shows its numbers, a click drills down, hover over a cell shows its numbers, all groups goes back" {
	# block rack05 -> rack01; its cell 0,1 is h0500 -> h0101, 7 of 10 answered
	run -0 python3 "$BATS_TEST_DIRNAME/report_groups_click.py" \
		"$BATS_FILE_TMPDIR/page.html" 5 1 0 1
	assert_line "block tip: rack05 → rack01: 200 pairs, 0 reachable, 200 partial loss, 0 unreachable, 0 error, 0 remarked; median RTT 25.0 us"
	assert_line "view: block 5,1"
	assert_line "heading: rack05 → rack01: 100 sources x 100 destinations"
	assert_line --regexp '^cell tip: h0500 → h0101: partial loss, 7 of 10 answered, median RTT [0-9.]+ us$'
	assert_line "back: groups"
}
