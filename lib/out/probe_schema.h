/* The record format of probe's JSON ("ibahprobe.probe.v1"), named once:
 * the schema, the record kinds, the keys of a result that `report` reads,
 * the statuses and the verdict names. lib/probe/probe_print.c writes with
 * these names and lib/report/ reads with them, so the two cannot drift. */
#ifndef IBAHPROBE_PROBE_SCHEMA_H
#define IBAHPROBE_PROBE_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#define PROBE_SCHEMA "ibahprobe.probe.v1"

/* "record": what a line of a run is. */
#define PROBE_RECORD_RESULT "result"
#define PROBE_RECORD_SUMMARY "summary"
#define PROBE_RECORD_ERROR "error"	/* the prober could not run */
/* A multicast probe's records: one per member of the group (answered or
 * silent), then one for the group. report counts them in a note and
 * merges neither into its matrix. */
#define PROBE_RECORD_MCAST_MEMBER "mcast_member"
#define PROBE_RECORD_MCAST_GROUP "mcast_group"

/* Keys of every record (run_info_print). */
#define PROBE_KEY_SCHEMA "schema"
#define PROBE_KEY_RECORD "record"
#define PROBE_KEY_RUN_ID "run_id"
#define PROBE_KEY_START_TIME "start_time"
#define PROBE_KEY_RUN_PARAMS "run_params"
#define PROBE_KEY_INTERRUPTED "interrupted"
#define PROBE_KEY_ERROR "error"
#define PROBE_KEY_EXIT_STATUS "exit_status"

/* Keys of a result; the source's also of a summary. */
#define PROBE_KEY_DEST "dest"
#define PROBE_KEY_SOURCE "source"
#define PROBE_KEY_HOST "host"
#define PROBE_KEY_DEVICE "device"
#define PROBE_KEY_PORT_NUM "port_num"
#define PROBE_KEY_LID "lid"
#define PROBE_KEY_SGID "sgid"
#define PROBE_KEY_PROVIDER "provider"
#define PROBE_KEY_PARAMS "params"
#define PROBE_KEY_HOP_LIMIT "hop_limit"
#define PROBE_KEY_TRAFFIC_CLASS "traffic_class"
#define PROBE_KEY_FLOW_LABEL "flow_label"
#define PROBE_KEY_UDP_SPORT "udp_sport"
#define PROBE_KEY_WIRE_UDP_SPORT "wire_udp_sport"
#define PROBE_KEY_SL "sl"
#define PROBE_KEY_STATUS "status"
#define PROBE_KEY_SENT "sent"
#define PROBE_KEY_RECEIVED "received"
#define PROBE_KEY_RTT "rtt_us"
#define PROBE_KEY_RTT_MEDIAN "median"
#define PROBE_KEY_RTT_MAX "max"
/* The round trip less the responder's dwell, the dwell, and what the
 * stamps were (stamp_source_name). */
#define PROBE_KEY_NETWORK_RTT "network_rtt_us"
#define PROBE_KEY_RESPONDER_US "responder_us"
#define PROBE_KEY_STAMPS "stamps"
#define PROBE_KEY_OBSERVED "observed"
#define PROBE_KEY_HOPS "hops"
#define PROBE_KEY_VERDICTS "verdicts"
#define PROBE_KEY_FINDINGS "findings"
/* ah_attr_print's (lib/verbs/ah_print.c), the same in `ah -j`. */
#define PROBE_KEY_AH_ATTR "ah_attr"
#define PROBE_KEY_GRH "grh"
#define PROBE_KEY_DGID "dgid"

/* A result's "status", also the first of its "verdicts". */
enum probe_status {
	PROBE_STATUS_REACHABLE,		/* every probe answered */
	PROBE_STATUS_PARTIAL,		/* some lost */
	PROBE_STATUS_UNREACHABLE,	/* none answered */
	PROBE_STATUS_ERROR,		/* no responder, or no AH: not probed */
	/* Nothing resolved yet (a running row before its first answer or
	 * deadline): the text table shows "-"; JSON, which has no word
	 * for it, says unreachable (none answered), and summaries count it
	 * so. */
	PROBE_STATUS_PENDING,
};
#define PROBE_STATUS_COUNT (PROBE_STATUS_PENDING + 1)

#define PROBE_STATUS_NAME_REACHABLE "reachable"
#define PROBE_STATUS_NAME_PARTIAL "partial_loss"
#define PROBE_STATUS_NAME_UNREACHABLE "unreachable"
#define PROBE_STATUS_NAME_ERROR "error"

/* Its name in "status" and "verdicts": one of the four above. */
const char *probe_status_name(enum probe_status status);
/* The status a name stands for; -1 for any other text (never PENDING). */
int probe_status_parse(const char *name, size_t len,
		       enum probe_status *status);

/* The names of the findings among "verdicts" (verdict_flag_name). */
#define PROBE_VERDICT_HOP_LIMIT_NOT_HONOURED "hop_limit_not_honoured"
#define PROBE_VERDICT_HOP_LIMIT_EXPIRED "hop_limit_expired"
#define PROBE_VERDICT_TCLASS_REMARKED "tclass_remarked"
#define PROBE_VERDICT_ECN_CHANGED "ecn_changed"
#define PROBE_VERDICT_FLOW_LABEL_NOT_CARRIED "flow_label_not_carried"
#define PROBE_VERDICT_FLOW_LABEL_CHANGED "flow_label_changed"
#define PROBE_VERDICT_NO_GRH "no_grh"
#define PROBE_VERDICT_SL_CHANGED "sl_changed"
#define PROBE_VERDICT_RESPONDER_RESTARTED "responder_restarted"
#define PROBE_VERDICT_DATA_PATH_BLOCKED "data_path_blocked"
#define PROBE_VERDICT_SIZE_SUSPECT "size_suspect"
#define PROBE_VERDICT_LOST_THERE "lost_there"
#define PROBE_VERDICT_LOST_BACK "lost_back"
#define PROBE_VERDICT_ASYMMETRIC_HOPS "asymmetric_hops"
#define PROBE_VERDICT_FIRST_CONTACT "first_contact"
#define PROBE_VERDICT_RESPONDER_QUEUE "responder_queue"

#endif
