#!/usr/bin/env python3
"""Synthetic probe results (schema ibahprobe.probe.v1, JSON Lines) for the
report --groups tests: HOSTS hosts h0000.. in racks of 100 (rack00, ...),
each probing PER destinations spread over every rack ((h + 1 + 50k) mod
HOSTS). Known failing blocks: rack03 -> rack07 unreachable, rack05 ->
rack01 partial loss (7 of 10), rack08 -> rack02 error. Usage:
report_groups_gen.py HOSTS PER GROUPS_FILE > results.jsonl"""
import sys

hosts, per, groups_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]


def addr(h):
    return f"::ffff:10.0.{h // 256}.{h % 256}"


def rack(h):
    return h // 100


with open(groups_file, "w") as f:
    for h in range(hosts):
        f.write(f"h{h:04d} rack{rack(h):02d}\n")

out = sys.stdout
head = ('{"schema":"ibahprobe.probe.v1","record":"result","run_id":"run-%04d",'
        '"start_time":"2026-11-23T18:12:27Z",')
for h in range(hosts):
    src = ('"source":{"host":"h%04d","device":"mlx5_0","port_num":1,"lid":0,'
           '"sgid":"%s"},' % (h, addr(h)))
    for k in range(per):
        d = (h + 1 + 50 * k) % hosts
        pair = (rack(h), rack(d))
        status, received, rtt = "reachable", 10, 10.0 + (h + d) % 30
        if pair == (3, 7):
            status, received = "unreachable", 0
        elif pair == (5, 1):
            status, received = "partial_loss", 7
        elif pair == (8, 2):
            status, received = "error", 0
        rtt_json = ('{"min":%.1f,"median":%.1f,"p99":%.1f,"max":%.1f}'
                    % (rtt, rtt, rtt, rtt) if received else "null")
        extra = ',"error":"ibv_create_ah: Invalid argument"' if status == "error" else ""
        out.write(head % h + '"dest":"h%04d",' % d + src +
                  '"params":{"hop_limit":64,"traffic_class":0,"flow_label":0,"sl":0},'
                  '"status":"%s","sent":10,"received":%d,"lost":%d,"late":0,'
                  '"rtt_us":%s,"hops":0,"verdicts":["%s"],"findings":[]%s,'
                  '"ah_attr":{"is_global":1,"grh":{"dgid":"%s","flow_label":0,'
                  '"sgid_index":3,"hop_limit":64,"traffic_class":0}}}\n'
                  % (status, received, 10 - received, rtt_json, status,
                     extra, addr(d)))
