#!/usr/bin/env bats
# probe --paths all on InfiniBand under LMC > 0, up to the AHs it would
# create (--dry-run: there are no verbs here): a destination of LMC 2
# answers four DLIDs, and our port of LMC 2 sends from four source LIDs,
# so each destination becomes sixteen paths, each with its AH (dlid,
# src_path_bits) and the SA's PathRecord, compared with saquery's for
# the same SLID and DLID. --qpn: no rendezvous peer is needed.

load helpers

teardown() { sim_stop; }

# saquery -p SLID:DLID on H11, the fields both show.
saquery_fields() {	# SLID DLID
	sim_saquery_path H11 "$1" "$2" | jq -S -c \
		'{slid, dlid, sgid, dgid, sl, pkey, mtu, rate_gbps, hop_limit, flow_label, traffic_class}'
}

@test "--dry-run --paths all under LMC 2: every DLID from every source path bits, each AH and PathRecord as saquery has it" {
	sim_setup_file ring.topo -l 2
	local slid h31 h41 out i obj bits dlid want got
	slid=$(sim_lid H11)
	h31=$(sim_lid H31)
	h41=$(sim_lid H41)
	[ $((slid % 4)) -eq 0 ] || fail "H11's LID $slid is not aligned to LMC 2"
	run -0 --separate-stderr iba_on H11 probe --dry-run -j --qpn 0x99 --paths all "$h31" "$h41"
	out=$output
	jq -e --argjson b1 "$h31" --argjson b2 "$h41" '
		length == 2 and all(.[]; .status == "resolved" and (.ahs | length) == 16) and
		([.[0].ahs[].dlid_path.dlid] == [range(0; 16) | $b1 + (. / 4 | floor)]) and
		([.[1].ahs[].dlid_path.dlid] == [range(0; 16) | $b2 + (. / 4 | floor)]) and
		all(.[].ahs[]; .status == "valid" and .dlid_path.of == 16 and
			.ah_attr.dlid == .dlid_path.dlid and
			.ah_attr.src_path_bits == .dlid_path.src_path_bits and
			.ah_attr.sl == .path.sl and .path.dlid == .dlid_path.dlid) and
		all(.[]; [.ahs[].dlid_path | [.index, .src_path_bits]] ==
			[range(0; 16) | [. + 1, . % 4]])' <<<"$out" ||
		fail "$out"
	for i in $(seq 0 15); do
		for d in 0 1; do
			obj=$(jq -c ".[$d].ahs[$i]" <<<"$out")
			bits=$(jq .dlid_path.src_path_bits <<<"$obj")
			dlid=$(jq .dlid_path.dlid <<<"$obj")
			want=$(saquery_fields $((slid + bits)) "$dlid")
			got=$(jq -S -c .path <<<"$obj")
			[ -n "$want" ] && [ "$want" = "$got" ] ||
				fail "SLID $((slid + bits)) -> DLID $dlid: saquery says $want, probe $got"
		done
	done
	run -0 --separate-stderr iba_on H11 probe --dry-run --qpn 0x99 --paths all "$h31"
	assert_output --partial "$(printf 'path 6 of 16: DLID 0x%x src_path_bits 1' $((h31 + 1)))"
	assert_output --regexp "is_global 0 dlid $((h31 + 3)) sl [0-9]+ src_path_bits 3 "
}

@test "--paths all under LMC 0: one path a destination, as without it; --paths base: no dlid_path" {
	sim_setup_file two-switch.topo
	local h3
	h3=$(sim_lid H3)
	run -0 --separate-stderr iba_on H1 probe --dry-run -j --qpn 0x99 --paths all "$h3"
	jq -e --argjson l "$h3" '.[0].ahs == [.[0].ahs[0]] and
		.[0].ahs[0].dlid_path == {index: 1, of: 1, dlid: $l, src_path_bits: 0} and
		.[0].ahs[0].ah_attr.dlid == $l' <<<"$output" || fail "$output"
	run -0 --separate-stderr iba_on H1 probe --dry-run -j --qpn 0x99 --paths base "$h3"
	jq -e '.[0].ahs | length == 1 and (.[0] | has("dlid_path") | not)' <<<"$output" ||
		fail "$output"
}

PATH_TRACE=$(dirname "$IBAHPROBE")/tests/tools/path_trace
[ -x "$PATH_TRACE" ] || PATH_TRACE=$TOP/build/tests/tools/path_trace

@test "failing paths traced (probe/probe_path_trace over the real SA): a link down is named for exactly the paths through it; a fine path is not traced" {
	[ -x "$PATH_TRACE" ] || missing "tests/tools/path_trace is not built (make check-build)"
	# As trace.bats' test of the same link (helpers.bash).
	local dlid over other h31 h11 all=() some=()
	sim_unlink_lmc2_s1_port8
	h31=$(sim_lid H31)
	h11=$(sim_lid H11)
	over=("${S1_PORT8_DLIDS[@]}")
	other=("${OTHER_DLIDS[@]}")
	for ((dlid = h31; dlid < h31 + 4; dlid++)); do
		all+=("$dlid:0:10:0")
		if [[ " ${over[*]} " == *" $dlid "* ]]; then
			some+=("$dlid:0:10:0")
		else
			some+=("$dlid:0:10:10")
		fi
	done
	# Every path lost all its probes: each is traced, and only those
	# through the link end there; the others' walks are complete.
	run -0 --separate-stderr sim_run H11 "$PATH_TRACE" -j "lid:$h31" "${all[@]}"
	jq -e --argjson over "$(printf '%s\n' "${over[@]}" | jq -s .)" --argjson slid "$h11" '
		all(.[].dlid_path; .trace.dlid == .dlid and .trace.slid == $slid and
			.trace.hops[0].lid == $slid) and
		[.[].dlid_path | select(.trace.status != "complete") | .dlid] == $over and
		all(.[].dlid_path | select(.trace.status != "complete");
			.trace.status == "dead_end" and
			(.trace.error | test("S1 \\(LID [0-9]+\\) port 8")) and
			.trace.hops[.trace.broken_at].out_port == 8) and
		all(.[].dlid_path | select(.trace.status == "complete");
			.trace.error == null and .trace.hops[-1].out_port == null)' <<<"$output" ||
		fail "$output"
	# Only the paths through the link lost probes: only they are traced.
	run -0 --separate-stderr sim_run H11 "$PATH_TRACE" -j "lid:$h31" "${some[@]}"
	jq -e --argjson over "$(printf '%s\n' "${over[@]}" | jq -s .)" '
		[.[].dlid_path | select(has("trace")) | .dlid] == $over and
		all(.[].dlid_path | select(has("trace")); .trace.status == "dead_end")' <<<"$output" ||
		fail "$output"
	run -0 --separate-stderr sim_run H11 "$PATH_TRACE" "lid:$h31" "${some[@]}"
	local k=$((over[0] - h31 + 1))
	[[ $output == "paths of lid:$h31: DLID $(printf '0x%x' "${over[0]}") (path $k of 4) lost 10 of 10"* ]] ||
		fail "$output"
	[[ $output == *$'\n'"  path $k traced, SLID $h11 -> DLID ${over[0]}, dead end:"$'\n'* ]] ||
		fail "$output"
	[[ $output == *"S1 (LID "*") port 8"* ]] || fail "$output"
	[ "$(grep -c ' traced, ' <<<"$output")" -eq "${#over[@]}" ] || fail "$output"
	sim_console 'ReLink "S1"[8]'
}
