#!/usr/bin/env bats
# The man pages, the completion scripts and the README agree with the
# binary's own option tables (`ibahprobe __complete`), so neither can drift.

load helpers

# The SYNOPSIS section of a man page, with roff's escaped dashes undone.
synopsis() {
	awk '/^\.SH SYNOPSIS/ { on = 1; next } /^\.SH/ { on = 0 } on' "$1" |
		sed 's/\\-/-/g'
}

# Every --long option a page mentions anywhere.
page_long_options() {
	sed 's/\\-/-/g' "$1" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

@test "every command has a man page that renders without warnings" {
	local cmd
	for cmd in $(commands); do
		[ -f "$TOP/man/ibahprobe-$cmd.8" ] || fail "no man/ibahprobe-$cmd.8"
		run --separate-stderr man --warnings -l -E UTF-8 "$TOP/man/ibahprobe-$cmd.8"
		[ "$status" -eq 0 ] || fail "man ibahprobe-$cmd: $stderr"
		[ -z "$stderr" ] || fail "man ibahprobe-$cmd warns: $stderr"
		[[ $output == *"ibahprobe-$cmd"* ]] || fail "ibahprobe-$cmd.8 does not name itself"
	done
}

@test "every synopsis lists exactly the command's options, long and short" {
	local cmd page opt short syn
	for cmd in $(commands); do
		page=$TOP/man/ibahprobe-$cmd.8
		syn=$(synopsis "$page")
		while IFS="|" read -r opt short _; do
			[[ $syn == *"$opt"* ]] || fail "ibahprobe-$cmd.8 synopsis lacks $opt"
			[ -z "$short" ] || [[ $syn == *"$short"* ]] ||
				fail "ibahprobe-$cmd.8 synopsis lacks $short"
		done < <("$IBAHPROBE" __complete options "$cmd" | tr "\t" "|")
		for opt in $(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$syn" | sort -u); do
			long_options "$cmd" | grep -qxF -- "$opt" ||
				fail "ibahprobe-$cmd.8 synopsis shows $opt, which $cmd does not take"
		done
	done
}

@test "no page documents an option the binary does not have" {
	local page cmd opt known
	known=$( { long_options; for cmd in $(commands); do long_options "$cmd"; done; } | sort -u)
	for page in "$TOP"/man/*.8; do
		for opt in $(page_long_options "$page"); do
			grep -qxF -- "$opt" <<<"$known" ||
				fail "$(basename "$page") mentions $opt, unknown to ibahprobe"
		done
	done
}

@test "ibahprobe.8 lists every command and every common option" {
	local page=$TOP/man/ibahprobe.8 text cmd opt short
	text=$(sed 's/\\-/-/g' "$page")
	for cmd in $(commands); do
		grep -q "ibahprobe-$cmd" <<<"$text" || fail "ibahprobe.8 does not point to ibahprobe-$cmd(8)"
	done
	while IFS="|" read -r opt short _; do
		[[ $text == *"$opt"* ]] || fail "ibahprobe.8 lacks $opt"
		[ -z "$short" ] || [[ $text == *"$short"* ]] || fail "ibahprobe.8 lacks $short"
	done < <("$IBAHPROBE" __complete options | tr "\t" "|")
}

@test "ibahprobe -h and COMMAND -h show every option of the table" {
	local cmd opt
	for cmd in "" $(commands); do
		run "$IBAHPROBE" $cmd -h
		assert_success
		for opt in $(long_options $cmd); do
			[[ $output == *"$opt"* ]] || fail "'ibahprobe $cmd -h' lacks $opt"
		done
	done
}

@test "the README names every command" {
	local cmd
	for cmd in $(commands); do
		grep -qE "\`$cmd[ \`]" "$TOP/README.md" || fail "README.md never mentions $cmd"
	done
}

@test "bash completion offers the commands, then each command's options" {
	local cmd
	run bash_complete "$IBAHPROBE" ""
	assert_output "$(commands | sort)"
	run bash_complete "$IBAHPROBE" -j ""
	assert_output "$(commands | sort)"
	for cmd in $(commands); do
		run bash_complete "$IBAHPROBE" "$cmd" --
		assert_output "$( { long_options; long_options "$cmd"; } | sort)"
	done
	run bash_complete "$IBAHPROBE" -d x path --m
	assert_output "--mtu"
	run bash_complete "$IBAHPROBE" path --mtu ""
	assert_output "$(printf '%s\n' 1024 2048 256 4096 512)"
	run bash_complete "$IBAHPROBE" ah --link-layer ""
	assert_output "$(printf '%s\n' eth ib)"
	run bash_complete "$IBAHPROBE" -g ""
	assert_output "auto"
}

@test "bash completion offers file names after check and report, none as destinations of probe" {
	mkdir -p "$BATS_TEST_TMPDIR/c"
	touch "$BATS_TEST_TMPDIR/c/rack12.chk" "$BATS_TEST_TMPDIR/c/results.jsonl"
	run bash_complete "$IBAHPROBE" check "$BATS_TEST_TMPDIR/c/rack"
	assert_output "$BATS_TEST_TMPDIR/c/rack12.chk"
	run bash_complete "$IBAHPROBE" -j report "$BATS_TEST_TMPDIR/c/results.jsonl" "$BATS_TEST_TMPDIR/c/"
	assert_output "$(printf '%s\n' "$BATS_TEST_TMPDIR/c/rack12.chk" "$BATS_TEST_TMPDIR/c/results.jsonl")"
	run bash_complete "$IBAHPROBE" probe "$BATS_TEST_TMPDIR/c/rack"
	assert_output ''
	run -0 "$IBAHPROBE" __complete operands report
	assert_output file
	run -2 --separate-stderr "$IBAHPROBE" __complete operands nosuch
}

@test "zsh completion is valid zsh and turns every table row into a spec" {
	command -v zsh >/dev/null || missing "zsh is not installed"
	run zsh -n "$TOP/completions/_ibahprobe"
	assert_success
	# Run the function with _arguments replaced by one that prints its
	# specs: every option of the table must become one.
	local cmd
	for cmd in path ah; do
		run zsh -f -c '
			_arguments() { print -l -- "$@"; }
			words=("$1" "$2" ""); CURRENT=3
			source "$3"' _ "$IBAHPROBE" "$cmd" "$TOP/completions/_ibahprobe"
		assert_success
		for opt in $( { long_options; long_options "$cmd"; }); do
			grep -q -- "^$opt\b" <<<"$output" || fail "zsh: no spec for $cmd $opt"
		done
		grep -q '^--mtu:BYTES:(256 512 1024 2048 4096)$' <<<"$output" ||
			[ "$cmd" != path ] || fail "zsh: --mtu values missing: $output"
	done
	run zsh -f -c '
		_arguments() { print -l -- "$@"; }
		words=("$1" check ""); CURRENT=3
		source "$2"' _ "$IBAHPROBE" "$TOP/completions/_ibahprobe"
	assert_success
	assert_line '*:file:_files'
}
