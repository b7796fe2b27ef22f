#!/usr/bin/env bats
# The HTML report in a real browser: headless Chromium parses the page
# (--dump-dom) and renders it (--screenshot); the screenshot must be a PNG
# of the window size that shows the heat map's status colours.

load helpers

DATA=$BATS_TEST_DIRNAME/data

# Colours of the statuses in lib/report/render/report_render_style.c.
GREEN='#2e7d32' AMBER='#f9a825' RED='#c62828' PURPLE='#5e35b1'

chromium_run() {	# ARGS...: headless, bounded, its own profile
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --force-device-scale-factor=1 \
		--user-data-dir="$BATS_FILE_TMPDIR/profile" "$@"
}

setup_file() {
	command -v chromium >/dev/null || return 0
	# The page of the four recorded hosts; exit 1: not every pair is fine.
	"$IBAHPROBE" report --html --title "Fabric A" "$DATA"/report-node0* \
		>"$BATS_FILE_TMPDIR/page.html" || [ $? -eq 1 ]
}

setup() {
	command -v chromium >/dev/null ||
		missing "chromium is not installed (Debian package chromium; make deps)"
	chromium_run --dump-dom about:blank >/dev/null 2>"$BATS_TEST_TMPDIR/chromium.err" ||
		skip "chromium cannot run here: $(tail -n 1 "$BATS_TEST_TMPDIR/chromium.err")"
}

@test "Chromium parses the page: title, 16 SVG cells, the findings table" {
	run -0 --separate-stderr chromium_run --dump-dom "file://$BATS_FILE_TMPDIR/page.html"
	[[ $output == *"<title>Fabric A</title>"* ]] || fail "no title: $output"
	[ "$(grep -o '<g class="cell ' <<<"$output" | wc -l)" -eq 16 ] || fail "cells: $output"
	[ "$(grep -o '<tr>' <<<"$output" | wc -l)" -eq 6 ] || fail "table rows: $output"
	[[ $output == *'<span class="st partial">partial loss</span>'* ]] || fail "status badge"
}

@test "Chromium renders the heat map: a PNG of the window size, not blank, in the status colours" {
	local png=$BATS_TEST_TMPDIR/shot.png
	run -0 --separate-stderr chromium_run --window-size=1100,700 \
		--screenshot="$png" "file://$BATS_FILE_TMPDIR/page.html"
	[ -s "$png" ] || fail "no screenshot: $stderr"
	run -0 python3 "$BATS_TEST_DIRNAME/png_colours.py" "$png" \
		"$GREEN" "$AMBER" "$RED" "$PURPLE"
	read -r width height distinct <<<"${lines[0]}"
	[ "$width" -eq 1100 ] && [ "$height" -eq 700 ] || fail "size: ${lines[0]}"
	# Text, anti-aliasing and four status colours: far more than a blank
	# or single-colour page has.
	[ "$distinct" -gt 100 ] || fail "only $distinct colours: blank?"
	# 9 reachable cells of 112x44 (less their text), 1 of each other
	# status plus its badge in the table.
	count() { awk -v c="$1" '$1 == c { print $2 }' <<<"$output"; }
	[ "$(count "$GREEN")" -gt 30000 ] || fail "reachable: $output"
	[ "$(count "$AMBER")" -gt 3500 ] || fail "partial loss: $output"
	[ "$(count "$RED")" -gt 3500 ] || fail "unreachable: $output"
	[ "$(count "$PURPLE")" -gt 3500 ] || fail "error: $output"
}
