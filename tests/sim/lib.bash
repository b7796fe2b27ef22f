# Harness for a simulated InfiniBand subnet: ibsim + opensm under
# libumad2sim.so, all in user space. Sourced by the sim bats files and the
# benchmarks. Every run is isolated (its own socket name, run directory and
# opensm files) and always torn down.
#
#   sim_start TOPOLOGY [OPENSM_ARGS...]   ibsim + opensm; waits for SUBNET UP
#   sim_run NODE CMD...                   CMD attached to NODE (bounded)
#   sim_console CMD                       an ibsim console command
#   sim_lid NODE / sim_guid NODE / sim_gid NODE   from opensm's dumps
#   sim_kill_sm                           stop opensm (the SA goes away)
#   sim_restart_sm                        start it again (same node and LIDs)
#   sim_stop                              tear everything down
#
# Exported: SIM_DIR (run directory), IBSIM_SOCKNAME, SIM_SM_NODE.

SIM_PRELOAD=${SIM_PRELOAD:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
SIM_TOPO_DIR=${SIM_TOPO_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/topo}
SIM_CMD_TIMEOUT=${SIM_CMD_TIMEOUT:-60}

sim_available() {
	command -v ibsim >/dev/null && command -v opensm >/dev/null &&
		[ -r "$SIM_PRELOAD" ]
}

# Waits up to $1 seconds for a command to succeed.
_sim_wait() {
	local secs=$1 i
	shift
	for ((i = 0; i < secs * 20; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

_sim_socket_up() {
	grep -q "@${IBSIM_SOCKNAME}:ctl" /proc/net/unix
}

_sim_subnet_up() {
	grep -q "SUBNET UP" "$SIM_DIR/opensm.log" 2>/dev/null
}

sim_start() {
	local topo=$1
	shift
	[ -f "$topo" ] || topo=$SIM_TOPO_DIR/$topo
	[ -f "$topo" ] || { echo "sim_start: no topology $1" >&2; return 2; }
	SIM_DIR=$(mktemp -d "${BATS_TEST_TMPDIR:-${TMPDIR:-/tmp}}/sim.XXXXXX")
	export SIM_DIR
	export IBSIM_SOCKNAME="ibahprobe-$$-${RANDOM}${RANDOM}"
	SIM_SM_NODE=${SIM_SM_NODE:-$(_sim_first_hca "$topo")}
	export SIM_SM_NODE
	mkfifo "$SIM_DIR/console"
	# The console reads a FIFO held open read-write: on /dev/null ibsim
	# spins at full CPU.
	(cd "$SIM_DIR" && exec ibsim -s "$topo" <>"$SIM_DIR/console" \
		>"$SIM_DIR/ibsim.log" 2>&1) &
	echo $! >"$SIM_DIR/ibsim.pid"
	if ! _sim_wait 10 _sim_socket_up; then
		echo "sim_start: ibsim did not come up; log:" >&2
		cat "$SIM_DIR/ibsim.log" >&2
		sim_stop
		return 1
	fi
	mkdir -p "$SIM_DIR/osm"
	: >"$SIM_DIR/opensm.args"
	[ $# -eq 0 ] || printf '%s\0' "$@" >"$SIM_DIR/opensm.args"
	_sim_start_opensm "$@" || { sim_stop; return 1; }
}

# opensm on SIM_SM_NODE with its files in SIM_DIR; waits for SUBNET UP.
_sim_start_opensm() {
	(cd "$SIM_DIR" && SIM_HOST=$SIM_SM_NODE LD_PRELOAD=$SIM_PRELOAD \
		OSM_CACHE_DIR=$SIM_DIR/osm OSM_TMP_DIR=$SIM_DIR/osm \
		exec opensm -f "$SIM_DIR/opensm.log" -d2 \
		--dump_files_dir "$SIM_DIR/osm" -s 0 "$@" \
		>"$SIM_DIR/opensm.out" 2>&1) &
	echo $! >"$SIM_DIR/opensm.pid"
	if ! _sim_wait 30 _sim_subnet_up; then
		echo "sim_start: opensm did not bring the subnet up; log:" >&2
		tail -n 30 "$SIM_DIR/opensm.log" >&2 2>/dev/null
		cat "$SIM_DIR/opensm.out" >&2
		return 1
	fi
}

_sim_first_hca() {
	awk '/^Hca/ { gsub(/"/, "", $3); print $3; exit }' "$1"
}

# HCA node names of a topology, one per line.
sim_hcas() {
	local topo=$1
	[ -f "$topo" ] || topo=$SIM_TOPO_DIR/$topo
	awk '/^Hca/ { gsub(/"/, "", $3); print $3 }' "$topo"
}

sim_run() {
	local node=$1
	shift
	(cd "$SIM_DIR" && SIM_HOST=$node LD_PRELOAD=$SIM_PRELOAD \
		timeout "$SIM_CMD_TIMEOUT" "$@")
}

sim_console() {
	printf '%s\n' "$*" >"$SIM_DIR/console"
	sleep 0.2
}

# Node facts from opensm's subnet dump (written at SUBNET UP): saquery's
# whole-table answers are cut under the simulator (no RMPP). Lines hold
# "{ CA Ports:01 ... PortGUID:0000000000100001 ... {H1} LID:0001 PN:01 }".
_sim_node_field() {	# NODE FIELD
	grep -o "PortGUID:[0-9A-Fa-f]* [^{]*{$1} LID:[0-9A-Fa-f]*" \
		"$SIM_DIR/osm/opensm-subnet.lst" | head -n 1 |
		sed -n "s/.*$2:\([0-9A-Fa-f]*\).*/\1/p"
}

sim_lid() {
	local hex
	hex=$(_sim_node_field "$1" LID)
	[ -n "$hex" ] || { echo "sim_lid: no node $1" >&2; return 1; }
	echo $((16#$hex))
}

sim_guid() {
	local hex
	hex=$(_sim_node_field "$1" PortGUID)
	[ -n "$hex" ] || { echo "sim_guid: no node $1" >&2; return 1; }
	printf '0x%016x\n' $((16#$hex))
}

sim_gid() {
	local guid
	guid=$(sim_guid "$1") || return 1
	printf 'fe80::%x:%x:%x:%x\n' $((guid >> 48 & 0xffff)) \
		$((guid >> 32 & 0xffff)) $((guid >> 16 & 0xffff)) \
		$((guid & 0xffff)) | sed 's/::\(0:\)*/::/'	# canonical form
}

# sim_kill_sm [-KILL]: stops opensm. SIGTERM first; an opensm busy
# answering a flood of queries has been seen to outlive it by more than
# 5 s, so SIGKILL follows (its ibsim slot stays taken: few tests do this).
# -KILL: at once, for tests that need the SA gone at a given moment.
sim_kill_sm() {
	local pid
	pid=$(cat "$SIM_DIR/opensm.pid" 2>/dev/null) || return 0
	if [ "${1:-}" != -KILL ]; then
		kill "$pid" 2>/dev/null
		_sim_wait 5 bash -c "! kill -0 $pid 2>/dev/null" ||
			kill -KILL "$pid" 2>/dev/null
	else
		kill -KILL "$pid" 2>/dev/null
	fi
	_sim_wait 5 bash -c "! kill -0 $pid 2>/dev/null" || return 1
	rm -f "$SIM_DIR/opensm.pid"
}

# A new opensm after sim_kill_sm, with sim_start's arguments: same node,
# same LIDs (its cache), an SA that starts empty.
sim_restart_sm() {
	local args=()
	mapfile -d '' -t args <"$SIM_DIR/opensm.args"
	mv "$SIM_DIR/opensm.log" "$SIM_DIR/opensm.log.old" 2>/dev/null
	_sim_start_opensm "${args[@]}"
}

sim_stop() {
	local pid f
	[ -n "${SIM_DIR:-}" ] && [ -d "$SIM_DIR" ] || return 0
	for f in opensm ibsim; do
		pid=$(cat "$SIM_DIR/$f.pid" 2>/dev/null) || continue
		kill "$pid" 2>/dev/null
		_sim_wait 5 bash -c "! kill -0 $pid 2>/dev/null" ||
			kill -9 "$pid" 2>/dev/null
	done
	# umad2sim's fake sysfs trees are removed on clean exits only.
	rm -rf "$SIM_DIR"/sys-* "$SIM_DIR"
	unset SIM_DIR
}

# Every LID of the subnet (HCAs and switches), from opensm's dump.
# A leaf-spine subnet for ibsim: LEAVES leaf switches with HOSTS HCAs each
# (named H<leaf>_<host>) and two spines; big enough to fill several LFT
# blocks.
sim_write_leaf_spine() {	# FILE LEAVES HOSTS
	local file=$1 leaves=$2 hosts=$3 l h s
	{
		for s in 1 2; do
			echo "Switch $((leaves + 1)) \"SP$s\""
			for ((l = 1; l <= leaves; l++)); do
				echo "[$l] \"L$l\"[$((hosts + s))]"
			done
			echo
		done
		for ((l = 1; l <= leaves; l++)); do
			echo "Switch $((hosts + 2)) \"L$l\""
			for ((h = 1; h <= hosts; h++)); do
				echo "[$h] \"H${l}_$h\"[1]"
			done
			echo "[$((hosts + 1))] \"SP1\"[$l]"
			echo "[$((hosts + 2))] \"SP2\"[$l]"
			echo
		done
		for ((l = 1; l <= leaves; l++)); do
			for ((h = 1; h <= hosts; h++)); do
				echo "Hca 1 \"H${l}_$h\""
				echo "[1] \"L$l\"[$h]"
				echo
			done
		done
	} >"$file"
}

sim_all_lids() {
	grep -o '} LID:[0-9A-Fa-f]*' "$SIM_DIR/osm/opensm-subnet.lst" |
		sort -u | while read -r _ lid; do echo $((16#${lid#LID:})); done |
		sort -n
}

# `saquery -p --src-to-dst SLID:DLID` run on NODE, as one JSON object with
# the keys of `ibahprobe path -j`: the reference the sim tests compare to.
# The raw fields are decoded here, independently of ibahprobe's codec:
# hop_flow_raw = flow label << 8 | hop limit, num_path_revers = reversible
# << 7 | numb_path, and mtu/rate/pkt_life carry a 2-bit selector on top.
sim_saquery_path() {	# NODE SLID DLID
	sim_run "$1" saquery -p --src-to-dst "$2:$3" 2>/dev/null |
		sed -n 's/^[[:space:]]*\([a-z_0-9]*\)\.\.*\(.*\)$/\1 \2/p' |
		jq -R -s -c '
		def num: if startswith("0x") or startswith("0X") then
			.[2:] | ascii_downcase | explode |
			reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end))
			else tonumber end;
		# IBA MTU codes and enum ibv_rate codes (not monotonic) in units.
		{"1":256,"2":512,"3":1024,"4":2048,"5":4096} as $mtu |
		{"2":2.5,"3":10,"4":30,"5":5,"6":20,"7":40,"8":60,"9":80,"10":120,
		 "11":14,"12":56,"13":112,"14":168,"15":25,"16":100,"17":200,"18":300,
		 "19":28,"20":50,"21":400,"22":600,"23":800,"24":1200} as $rate |
		[split("\n")[] | select(length > 0) | split(" ") | {(.[0]): .[1]}] | add // {} |
		if has("dlid") | not then {status: "error"} else
		(.hop_flow_raw | num) as $hf | (.num_path_revers | num) as $np |
		{status: "ok", slid: (.slid | num), dlid: (.dlid | num),
		 sgid, dgid, sl: (.sl | num), pkey: (.pkey | num),
		 mtu: $mtu[(.mtu | num) % 64 | tostring],
		 rate_gbps: $rate[(.rate | num) % 64 | tostring],
		 hop_limit: ($hf % 256), flow_label: (($hf / 256 | floor) % 1048576),
		 traffic_class: (.tclass | num), packet_life: ((.pkt_life | num) % 64),
		 reversible: (($np / 128 | floor) % 2 == 1), numb_path: ($np % 128)}
		end'
}
