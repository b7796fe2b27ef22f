# shellcheck shell=bash
# R1 routing a multicast group from A's LAN to C's link, for the VM's
# multicast tests: smcrouted in R1's namespace with an mroute from r1-lan
# to r1-c (its own join on r1-lan tells a snooping bridge that R1 wants
# the group). Each bats file names its own socket and pid file (NAME).

# mcast_r1_route GROUP NAME DIR: starts smcrouted (log in DIR) and routes
# GROUP.
mcast_r1_route() {
	local group=$1 sock=/run/ibahprobe-$2.sock pid=/run/ibahprobe-$2.pid dir=$3
	command -v smcrouted >/dev/null ||
		missing "smcrouted is not installed (smcroute; make deps)"
	: >"$dir/smcroute.conf"
	ip netns exec r1 timeout 300 smcrouted -n -l none -i "ibahprobe-$2" \
		-f "$dir/smcroute.conf" -u "$sock" \
		-P "$pid" >"$dir/smcrouted.log" 2>&1 &
	for _ in $(seq 50); do
		[ -S "$sock" ] && break
		sleep 0.1
	done
	ip netns exec r1 smcroutectl -u "$sock" add r1-lan "$group" r1-c &&
		ip netns exec r1 smcroutectl -u "$sock" join r1-lan "$group"
}

# mcast_r1_unroute NAME: ends it (every mroute and join goes with it).
mcast_r1_unroute() {
	local sock=/run/ibahprobe-$1.sock pid=/run/ibahprobe-$1.pid
	[ -S "$sock" ] && ip netns exec r1 smcroutectl -u "$sock" kill 2>/dev/null
	[ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null
	rm -f "$sock" "$pid"
	return 0
}
