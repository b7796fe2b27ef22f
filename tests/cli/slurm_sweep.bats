#!/usr/bin/env bats
# contrib/slurm/ibahprobe-sweep without Slurm: its help, and bad input
# refused with exit 2 (3 outside an allocation) before anything is
# started or written. The sweep itself on a real Slurm: tests/vm/slurm.bats.

load helpers

SWEEP=$TOP/contrib/slurm/ibahprobe-sweep

setup() {
	printf '%s\n' n1 n2 n3 >"$BATS_TEST_TMPDIR/hosts.txt"
	# An allocation as the script sees one; srun is never reached in
	# these tests (each fails before the first step).
	export SLURM_JOB_ID=7 SLURM_JOB_NODELIST='n[1-3]'
}

@test "ibahprobe-sweep -h: usage on stdout, exit 0, every option it parses" {
	run -0 --separate-stderr "$SWEEP" -h
	[ -z "$stderr" ]
	assert_line --index 0 --regexp '^Usage: ibahprobe-sweep \[OPTIONS\] -o DIR \[HOSTS\]$'
	# The labels of the option loop's case, each a word of the help.
	local opts opt
	opts=$(sed -n '/^while (($# > 0)); do/,/^done/p' "$SWEEP" | grep -oE '^\s+-[^)]*\)' |
		grep -oE -- '-{1,2}[a-z][a-z-]*')
	[ "$(wc -l <<<"$opts")" -ge 15 ] || fail "options not found in the script: $opts"
	for opt in $opts; do
		grep -qE -- "(^|[ ,])$opt([ ,]|\$)" <<<"$output" || fail "$opt is parsed but not in the help"
	done
}

@test "ibahprobe-sweep bad input: exit 2, the cause on stderr, nothing on stdout, nothing made" {
	local out=$BATS_TEST_TMPDIR/out
	run -2 --separate-stderr "$SWEEP" "$BATS_TEST_TMPDIR/hosts.txt"
	[ -z "$output" ]
	[ "$stderr" = "ibahprobe-sweep: error: no output directory: -o DIR (shared by every node) is needed" ]
	run -2 --separate-stderr "$SWEEP" -o
	[[ $stderr == *"-o needs a value"* ]] || fail "$stderr"
	run -2 --separate-stderr "$SWEEP" --bogus -o "$out"
	[[ $stderr == *"unknown option '--bogus'"* ]] || fail "$stderr"
	run -2 --separate-stderr "$SWEEP" -o "$out" "$BATS_TEST_TMPDIR/hosts.txt" other.txt
	[[ $stderr == *"one HOSTS file"* ]] || fail "$stderr"
	run -2 --separate-stderr "$SWEEP" -o "$out" "$BATS_TEST_TMPDIR/nonexistent"
	[[ $stderr == *"cannot read HOSTS file"* ]] || fail "$stderr"
	run -2 --separate-stderr "$SWEEP" -o "$out" --groups "$BATS_TEST_TMPDIR/nonexistent"
	[[ $stderr == *"cannot read groups file"* ]] || fail "$stderr"
	local opt
	for opt in --duration --ready-wait --probe-timeout; do
		run -2 --separate-stderr "$SWEEP" -o "$out" "$opt" 0
		[[ $stderr == *"$opt '0' is no number of seconds (1-86400)"* ]] || fail "$opt: $stderr"
		run -2 --separate-stderr "$SWEEP" -o "$out" "$opt" 5s
		[[ $stderr == *"$opt '5s' is no number"* ]] || fail "$opt: $stderr"
	done
	# Responders that end before the probe step would fail every pair.
	run -2 --separate-stderr "$SWEEP" -o "$out" --duration 300 "$BATS_TEST_TMPDIR/hosts.txt"
	[[ $stderr == *"--duration 300 is shorter than --ready-wait + --probe-timeout (330)"* ]] ||
		fail "$stderr"
	[ -z "$output" ]
	[ ! -e "$out" ]
	# An earlier sweep's results would be merged with the new ones.
	mkdir "$out" && touch "$out/old.jsonl"
	run -2 --separate-stderr "$SWEEP" -o "$out" "$BATS_TEST_TMPDIR/hosts.txt"
	[[ $stderr == *"exists and is not an empty directory"* ]] || fail "$stderr"
	[ -z "$output" ]
	[ "$(ls "$out")" = old.jsonl ]
}

@test "ibahprobe-sweep outside an allocation: exit 3, says to use salloc or sbatch" {
	unset SLURM_JOB_ID
	run -3 --separate-stderr "$SWEEP" -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/hosts.txt"
	[ -z "$output" ]
	[[ $stderr == *"not inside a Slurm allocation (no SLURM_JOB_ID); run it with salloc or sbatch"* ]] ||
		fail "$stderr"
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}
