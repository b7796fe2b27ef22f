#!/usr/bin/env bats
# The monitoring chain with its real parts (issue 24): a continuous probe
# run on the rxe fabric writes --metrics into the textfile directory of
# Debian's prometheus-node-exporter, a prometheus server scrapes it and
# evaluates contrib/prometheus/ibahprobe.rules.yml, and the Prometheus
# HTTP API shows the series with their labels, the loss alert pending and
# firing while netem drops on R2's link to D and resolved after, the stale
# alert once the prober stops, and data for every query of the Grafana
# dashboard. The rules run with their durations and windows shortened
# (minutes to seconds, by sed on the shipped file): the expressions are
# the shipped ones. Rendezvous ports 18791-18792.

bats_require_minimum_version 1.5.0
load lib

IBAHPROBE=${IBAHPROBE:-$BATS_TEST_DIRNAME/../../ibahprobe}
RULES=$BATS_TEST_DIRNAME/../../contrib/prometheus/ibahprobe.rules.yml
DASHBOARD=$BATS_TEST_DIRNAME/../../contrib/grafana/ibahprobe.json

# A free TCP port on 127.0.0.1 (nothing listens on it now).
free_port() {
	local p
	for ((;;)); do
		p=$((20000 + RANDOM % 30000))
		ss -Hltn "sport = :$p" | grep -q . || { echo "$p"; return; }
	done
}

# The API's answer to a PromQL query, as JSON.
query() {
	curl -sf --max-time 5 "http://127.0.0.1:$PROM_PORT/api/v1/query" \
		--data-urlencode "query=$1"
}

# The state of alert NAME for destination DEST ("" when not active).
alert_state() {
	curl -sf --max-time 5 "http://127.0.0.1:$PROM_PORT/api/v1/alerts" |
		jq -r --arg n "$1" --arg d "${2:-}" '[.data.alerts[] |
			select(.labels.alertname == $n and
			       ($d == "" or .labels.dest == $d)) | .state] | first // ""'
}

# wait_for SECONDS CMD...: polls CMD every half second until it succeeds.
wait_for() {
	local limit=$1 i
	shift
	for ((i = 0; i < limit * 2; i++)); do
		"$@" && return 0
		sleep 0.5
	done
	return 1
}

setup_file() {
	require_vm_fabric || return 1
	local d=$BATS_FILE_TMPDIR
	for tool in prometheus prometheus-node-exporter curl jq; do
		command -v "$tool" >/dev/null ||
			missing "$tool is not installed (tests/vm/packages.txt; make deps)"
	done
	mkdir -p "$d/textfile" "$d/tsdb"
	# The shipped rules, their minutes made seconds.
	sed -e 's/for: [0-9]*m$/for: 4s/' -e 's/\[5m\]/[8s]/g' -e 's/\[15m\]/[30s]/g' \
		-e 's/> 600)/> 8)/' -e 's/< 120)/< 30)/' \
		-e 's/round_interval_seconds, 120)/round_interval_seconds, 3)/' \
		"$RULES" >"$d/rules.yml"
	grep -q 'for: 4s' "$d/rules.yml" && ! grep -q 'for: [0-9]*m$' "$d/rules.yml" ||
		fail "the rules' durations were not shortened: $(cat "$d/rules.yml")"
	NE_PORT=$(free_port)
	timeout 600 prometheus-node-exporter --web.listen-address="127.0.0.1:$NE_PORT" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$d/textfile" >"$d/ne.log" 2>&1 &
	echo $! >"$d/ne.pid"
	PROM_PORT=$(free_port)
	cat >"$d/prometheus.yml" <<-EOF
		global:
		  scrape_interval: 1s
		  evaluation_interval: 1s
		rule_files:
		  - $d/rules.yml
		scrape_configs:
		  - job_name: node
		    static_configs:
		      - targets: ['127.0.0.1:$NE_PORT']
		        labels: {instance: host-a}
	EOF
	timeout 600 prometheus --config.file="$d/prometheus.yml" --storage.tsdb.path="$d/tsdb" \
		--web.listen-address="127.0.0.1:$PROM_PORT" >"$d/prom.log" 2>&1 &
	echo $! >"$d/prom.pid"
	export NE_PORT PROM_PORT
	wait_for 60 curl -sf --max-time 2 "http://127.0.0.1:$PROM_PORT/-/ready" >/dev/null ||
		fail "prometheus did not get ready: $(tail -5 "$d/prom.log")"
	start_serve b "$d/serve.b" 18791
	start_serve d "$d/serve.d" 18792
	# The monitor: rounds of 1 s, 10 probes per destination each.
	timeout 300 "$IBAHPROBE" -d "$FABRIC_A_RXE" -g auto probe --continuous \
		--interval-round 1 -i 100 --metrics "$d/textfile/ibahprobe.prom" \
		b:18791 d:18792 >"$d/probe.out" 2>"$d/probe.err" &
	echo $! >"$d/probe.pid"
}

teardown_file() {
	local d=$BATS_FILE_TMPDIR pid
	ip netns exec r2 tc qdisc del dev r2-d root 2>/dev/null || true
	for pid in probe prom ne; do
		[ -f "$d/$pid.pid" ] && kill "$(cat "$d/$pid.pid")" 2>/dev/null
	done
	stop_serves "$d"
	true
}

series_of_d() {
	query 'ibahprobe_probes_sent_total{dest="d:18792"}' |
		jq -e '.data.result | length == 1' >/dev/null
}

@test "chain: node_exporter exports the monitor's file, prometheus scrapes it with every label" {
	wait_for 60 series_of_d || fail "no series for d: $(query ibahprobe_probes_sent_total)
$(tail -5 "$BATS_FILE_TMPDIR/ne.log")"
	query 'ibahprobe_probes_sent_total{dest="d:18792"}' | jq -e --arg dev "$FABRIC_A_RXE" '
		.data.result[0].metric | .instance == "host-a" and .job == "node" and
		.source_device == $dev and .source_port == "1" and
		(.dest_device | startswith("rxe_d"))' >/dev/null ||
		fail "$(query 'ibahprobe_probes_sent_total')"
	# The file's families are all there (node_exporter took the file whole).
	local name
	for name in ibahprobe_loss_ratio ibahprobe_rtt_seconds ibahprobe_hops \
		ibahprobe_traffic_class_remarked ibahprobe_flow_label_changed \
		ibahprobe_last_success_timestamp_seconds ibahprobe_rounds_total; do
		query "count($name)" | jq -e '.data.result[0].value[1] | tonumber > 0' >/dev/null ||
			fail "no $name: $(cat "$BATS_FILE_TMPDIR/textfile/ibahprobe.prom")"
	done
	# node_exporter read the file without error.
	query 'node_textfile_scrape_error' | jq -e '.data.result[0].value[1] == "0"' >/dev/null ||
		fail "$(query node_textfile_scrape_error)"
}

@test "chain: every query of the Grafana dashboard returns data" {
	local expr n=0
	wait_for 30 bash -c "curl -sf 'http://127.0.0.1:$PROM_PORT/api/v1/query' --data-urlencode \
		'query=ibahprobe:loss_ratio:rate5m' | jq -e '.data.result | length >= 2' >/dev/null" ||
		fail "the recording rule has no data: $(query 'ibahprobe:loss_ratio:rate5m')"
	while IFS= read -r expr; do
		n=$((n + 1))
		query "$expr" | jq -e '.status == "success" and (.data.result | length > 0)' >/dev/null ||
			fail "panel query without data: $expr: $(query "$expr")"
	done < <(jq -r '.panels[].targets[].expr' "$DASHBOARD")
	[ "$n" -ge 8 ] || fail "only $n panel queries in $DASHBOARD"
}

@test "chain: netem loss on R2's link to D makes IbahprobeLoss pending, then firing, for d only; it resolves after" {
	local state seen_pending=0 i
	[ -z "$(alert_state IbahprobeLoss)" ] || fail "an alert before the fault: $(alert_state IbahprobeLoss)"
	ip netns exec r2 tc qdisc add dev r2-d root netem loss 40%
	for ((i = 0; i < 120; i++)); do
		state=$(alert_state IbahprobeLoss d:18792)
		[ "$state" = pending ] && seen_pending=1
		[ "$state" = firing ] && break
		sleep 0.5
	done
	[ "$state" = firing ] || fail "IbahprobeLoss for d: '$state' after 60 s"
	[ "$seen_pending" = 1 ] || fail "never seen pending before firing"
	[ -z "$(alert_state IbahprobeLoss b:18791)" ] || fail "b alerting too"
	ip netns exec r2 tc qdisc del dev r2-d root
	wait_for 60 bash -c "[ -z \"\$(curl -sf 'http://127.0.0.1:$PROM_PORT/api/v1/alerts' |
		jq -r '.data.alerts[] | select(.labels.alertname == \"IbahprobeLoss\") | .state')\" ]" ||
		fail "IbahprobeLoss still $(alert_state IbahprobeLoss d:18792) a minute after the fault"
}

@test "chain: the prober stopped, its file ages and IbahprobeStale fires" {
	[ -z "$(alert_state IbahprobeStale)" ] || fail "stale while running"
	kill -INT "$(cat "$BATS_FILE_TMPDIR/probe.pid")"
	wait_for 60 bash -c "curl -sf 'http://127.0.0.1:$PROM_PORT/api/v1/alerts' |
		jq -e '.data.alerts[] | select(.labels.alertname == \"IbahprobeStale\" and
			.state == \"firing\" and .labels.instance == \"host-a\")' >/dev/null" ||
		fail "IbahprobeStale did not fire: $(curl -sf "http://127.0.0.1:$PROM_PORT/api/v1/alerts")"
}
