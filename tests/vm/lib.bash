# Helpers for the VM bats suites (tests/vm/*.bats): load with `load lib`.
# They run inside the guest, where tests/vm/run has exported the fabric's
# variables (FABRIC_*, see README.md).
# shellcheck shell=bash

# shellcheck source=tests/missing.bash
. "$(dirname "${BASH_SOURCE[0]}")/../missing.bash"

# fail MESSAGE: fails the test with MESSAGE on its output (as bats-assert's).
fail() {
	echo "$*" >&2
	return 1
}

# require_vm_fabric: a bats file's setup_file runs only inside the guest.
require_vm_fabric() {
	[ -n "${FABRIC_ENDPOINTS:-}" ] && return 0
	echo "not inside the VM fabric: run tests/vm/run" >&2
	return 1
}

# fabric_var X NAME: value of FABRIC_<X>_<NAME>, e.g. fabric_var a IP4.
fabric_var() {
	local v="FABRIC_${1^^}_$2"
	printf '%s' "${!v}"
}

# fabric_gid_index X 4|6: the index of endpoint X's RoCE v2 GID for its IPv4
# (IPv4-mapped) or global IPv6 address, read from the GID table in sysfs.
fabric_gid_index() {
	local x=$1 fam=$2 dev want g i v t
	dev=$(fabric_var "$x" RXE)
	want=$(fabric_var "$x" "GID$fam")
	for g in /sys/class/infiniband/"$dev"/ports/1/gids/*; do
		i=${g##*/}
		read -r v <"$g" 2>/dev/null || continue
		[ "$v" = "$want" ] || continue
		read -r t <"/sys/class/infiniband/$dev/ports/1/gid_attrs/types/$i" 2>/dev/null || continue
		[ "$t" = "RoCE v2" ] || continue
		echo "$i"
		return 0
	done
	echo "no RoCE v2 GID $want on $dev" >&2
	return 1
}

# start_serve X LOGFILE PORT [ARGS...]: `ibahprobe serve -j` on endpoint X
# in the background (bounded by timeout(1): SERVE_TIMEOUT seconds, default
# 600; its pid goes to LOGFILE.pid),
# its output to LOGFILE; returns once it printed its ready line.
start_serve() {
	local x=$1 log=$2 port=$3 i
	shift 3
	timeout "${SERVE_TIMEOUT:-600}" "${IBAHPROBE:-./ibahprobe}" -d "$(fabric_var "$x" RXE)" serve -j -l "$port" "$@" \
		>"$log" 2>&1 &
	echo $! >"$log.pid"
	for ((i = 0; i < 100; i++)); do
		grep -q '"event":"ready"' "$log" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "serve on $x did not come up: $(cat "$log")" >&2
	return 1
}

# stop_serves DIR: ends every responder start_serve left a LOGFILE.pid for
# in DIR (a bats file's teardown_file).
stop_serves() {
	local f
	for f in "$1"/*.pid; do
		[ -e "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	wait 2>/dev/null || true
}

# serve_summary LOGFILE: ends the responder start_serve started with
# LOGFILE and prints the summary line it writes on its way out.
serve_summary() {
	local log=$1
	kill "$(cat "$log.pid")"
	for _ in $(seq 50); do
		grep -q '"event":"summary"' "$log" && break
		sleep 0.1
	done
	grep '"event":"summary"' "$log"
}

# wait_listen PORT [SECONDS]: until a TCP socket listens on PORT.
wait_listen() {
	local port=$1 end=$((SECONDS + ${2:-10}))
	while [ $SECONDS -lt "$end" ]; do
		ss -Hltn "sport = :$port" 2>/dev/null | grep -q . && return 0
		sleep 0.2
	done
	echo "nothing listens on TCP port $port" >&2
	return 1
}

# ud_pingpong SRC DST FAM [ITERS]: ibv_ud_pingpong from endpoint SRC to DST
# over RoCE v2 with GRH (IPv4-mapped GIDs for FAM 4, IPv6 GIDs for 6).
# Sets $output to the client's output; returns non-zero if either side fails.
# Both sides are bounded with timeout (ibv_ud_pingpong hangs on loss):
# UD_TIMEOUT seconds (default 30; lower it where loss is expected). -e waits
# on completion events instead of busy polling: on 2 vCPUs two polling peers
# cost ~110 ms a round trip, with events ~8 ms.
ud_pingpong() {
	local src=$1 dst=$2 fam=$3 iters=${4:-10} sidx didx port spid rc src_rc
	sidx=$(fabric_gid_index "$src" "$fam") || return 1
	didx=$(fabric_gid_index "$dst" "$fam") || return 1
	port=$((20000 + RANDOM % 20000))
	timeout "${UD_TIMEOUT:-30}" ibv_ud_pingpong -d "$(fabric_var "$dst" RXE)" -g "$didx" \
		-e -s 512 -n "$iters" -p "$port" >"$BATS_TEST_TMPDIR/server.out" 2>&1 &
	spid=$!
	wait_listen "$port" || { kill "$spid" 2>/dev/null; return 1; }
	output=$(timeout "${UD_TIMEOUT:-30}" ibv_ud_pingpong -d "$(fabric_var "$src" RXE)" -g "$sidx" \
		-e -s 512 -n "$iters" -p "$port" "$(fabric_var "$dst" IP4)" 2>&1)
	rc=$?
	wait "$spid"
	src_rc=$?
	echo "client ($src -> $dst, IPv$fam, gid $sidx -> $didx): status $rc"
	echo "$output"
	echo "server: status $src_rc"
	cat "$BATS_TEST_TMPDIR/server.out"
	[ $rc -eq 0 ] && [ $src_rc -eq 0 ]
}

# tcpdump_start NETNS ARGS...: tcpdump in a namespace ("" = init_net) in
# the background, bounded; returns once it listens. Its stderr goes to
# $BATS_TEST_TMPDIR/tcpdump.err; CAPTURE_PID is set.
tcpdump_start() {
	local ns=$1 i
	shift
	local -a pre=()
	[ -n "$ns" ] && pre=(ip netns exec "$ns")
	: >"$BATS_TEST_TMPDIR/tcpdump.err"
	timeout 120 "${pre[@]}" tcpdump -n "$@" 2>"$BATS_TEST_TMPDIR/tcpdump.err" &
	CAPTURE_PID=$!
	for ((i = 0; i < 100; i++)); do
		grep -q 'listening on' "$BATS_TEST_TMPDIR/tcpdump.err" && return 0
		sleep 0.1
	done
	echo "tcpdump did not start:" >&2
	cat "$BATS_TEST_TMPDIR/tcpdump.err" >&2
	return 1
}

# capture_start NETNS DEV FILTER: tcpdump's verbose decoding of the first
# 4 packets to $BATS_TEST_TMPDIR/cap.txt.
capture_start() {
	tcpdump_start "$1" -i "$2" -v -l --immediate-mode -c 4 "$3" \
		>"$BATS_TEST_TMPDIR/cap.txt"
}

# tcpdump_stop: ends the capture started last, after the last packets of
# the traffic under test had time to arrive.
tcpdump_stop() {
	sleep 0.5
	kill "$CAPTURE_PID" 2>/dev/null
	wait "$CAPTURE_PID" 2>/dev/null
}

# capture_stop: ends the capture and prints what it saw.
capture_stop() {
	tcpdump_stop
	cat "$BATS_TEST_TMPDIR/cap.txt"
}

# icmp_time_exceeded NETNS [4|6]: how many ICMP time-exceeded messages the
# router in NETNS has sent (its drops of packets whose hop limit ran out).
icmp_time_exceeded() {
	local ns=$1 fam=${2:-4}
	if [ "$fam" = 4 ]; then
		ip netns exec "$ns" awk '/^Icmp:/ { if (!h) { for (i = 1; i <= NF; i++) if ($i == "OutTimeExcds") c = i; h = 1 } else print $c }' /proc/net/snmp
	else
		ip netns exec "$ns" awk '$1 == "Icmp6OutTimeExcds" { print $2 }' /proc/net/snmp6
	fi
}

# pcap_start NETNS DEV FILTER: raw packets to $BATS_TEST_TMPDIR/cap.pcap,
# for tshark to decode. --immediate-mode: without it libpcap hands packets
# over in blocks after up to a second, and tcpdump_stop's kill half a
# second after the traffic loses what is still in the ring.
pcap_start() {
	tcpdump_start "$1" -i "$2" -U --immediate-mode \
		-w "$BATS_TEST_TMPDIR/cap.pcap" "$3"
}

# pcap_fields FIELD...: stops the capture, then prints one line per packet
# with tshark's decoding of the FIELDs, comma-separated, numbers in decimal.
pcap_fields() {
	local args=() f
	tcpdump_stop
	for f in "$@"; do args+=(-e "$f"); done
	HOME=$BATS_TEST_TMPDIR tshark -r "$BATS_TEST_TMPDIR/cap.pcap" -T fields \
		-E separator=, "${args[@]}" 2>/dev/null |
		while IFS=, read -r -a vals; do
			local out=() v
			for v in "${vals[@]}"; do out+=("$((v))"); done
			(IFS=,; echo "${out[*]}")
		done
}

# gid_index_on DEV NETDEV GID: the index of the RoCE v2 GID GID (sysfs form)
# whose netdev, as the kernel records it in gid_attrs/ndevs, is NETDEV. A
# VLAN netdev's GIDs sit on the rxe device of its lower veth, each with the
# VLAN netdev as ndev.
gid_index_on() {
	local dev=$1 ndev=$2 want=$3 g i v t n
	for g in /sys/class/infiniband/"$dev"/ports/1/gids/*; do
		i=${g##*/}
		read -r v <"$g" 2>/dev/null || continue
		[ "$v" = "$want" ] || continue
		read -r t <"/sys/class/infiniband/$dev/ports/1/gid_attrs/types/$i" 2>/dev/null || continue
		read -r n <"/sys/class/infiniband/$dev/ports/1/gid_attrs/ndevs/$i" 2>/dev/null || continue
		[ "$t" = "RoCE v2" ] && [ "$n" = "$ndev" ] || continue
		echo "$i"
		return 0
	done
	echo "no RoCE v2 GID $want with netdev $ndev on $dev" >&2
	return 1
}

# gid_sysfs ADDR4: the IPv4-mapped GID of ADDR4 as sysfs writes it.
gid_sysfs() {
	local IFS=.
	# shellcheck disable=SC2086
	set -- $1
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4"
}
