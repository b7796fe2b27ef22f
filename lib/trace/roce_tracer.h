/* The RoCE v2 trace engine: per flow (source GID and UDP source port,
 * destination, traffic class: one 5-tuple) a kernel UDP socket sends RoCE
 * v2 UD datagrams with hop limit 1, 2, ... as lib/trace/roce_trace.h
 * schedules them, many flows and hops at once as lib/trace/roce_sweep.h
 * allows; the answers come back as ICMP on the socket's error queue
 * (routers' quotes on a raw ICMP socket) or as serve's reply on our UD QP,
 * each placed with the query it answers by what it carries. Then each
 * flow's router path, numbered among a destination's. */
#ifndef IBAHPROBE_ROCE_TRACER_H
#define IBAHPROBE_ROCE_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <infiniband/verbs.h>

#include "base/diag.h"
#include "base/parse.h"
#include "wire/icmp_errqueue.h"
#include "wire/icmp_quote.h"
#include "wire/probe_wire.h"
#include "wire/roce_packet.h"
#include "verbs/device.h"
#include "verbs/provider.h"
#include "verbs/ud_endpoint.h"
#include "trace/roce_sock.h"
#include "trace/roce_sweep.h"
#include "trace/roce_trace.h"
#include "trace/tclass_locate.h"
#include "trace/trace_fidelity.h"
#include "trace/trace_paths.h"

/* One flow of one destination. */
struct roce_flow {
	/* Where it goes, as the probe engine set the destination up (the
	 * caller fills these in before tracing or printing it): the
	 * destination as given, its GID, the responder's QP and Q_Key, the
	 * request's parameters. */
	const char *dest;
	union ibv_gid dgid;
	uint32_t dest_qpn, qkey;
	/* Whether they are known: a destination that failed first (no
	 * address for its name, no rendezvous answer) has neither. */
	bool dgid_known, qpn_known;
	struct probe_params asked;
	/* The source GID of the AH (its netdev sends) and its index;
	 * has_grh false: none was chosen (the destination failed first). */
	const struct gid_info *sgid;
	unsigned sgid_index;
	bool has_grh;

	uint32_t flow_label;
	uint16_t udp_sport;
	bool port_given;	/* --udp-sport: no flow label stands for it */
	struct roce_trace trace;
	char error[DIAG_MSG_MAX * 2];	/* could not be traced: why */
	/* While it runs: its socket (-1 otherwise) and its addresses; when
	 * its first query went. */
	int fd;
	struct roce_sock_params sock;
	uint64_t started_ns;
	uint64_t sent_ns;	/* --nic: the query under way's send time */
	/* Its router path (roce_flow_path), and the path's number among the
	 * destination's distinct paths (0: not traced). */
	const char *path[ROCE_TRACE_MAX_HOPS];
	size_t path_len;
	unsigned path_index;
	/* The traffic class each query arrived with at the router that
	 * answered it, from the raw ICMP socket (per hop, per query). */
	struct tclass_seen quoted[ROCE_TRACE_MAX_HOPS][ROCE_TRACE_MAX_QUERIES];
	bool per_hop;	/* the raw socket was read: routers' quotes known */
	/* How it was traced, and what of the NIC's packets it could not
	 * reproduce (lib/trace/trace_fidelity.h). */
	struct trace_fidelity fidelity;
};

/* What a run traces with, the same for all its flows. */
struct roce_tracer {
	/* The probe session's endpoint: its QP sends as source QPN and
	 * takes serve's replies, which carry probe_id. */
	struct ud_endpoint *ep;
	uint32_t probe_id;
	/* The run's answers carry this in their PSN, so another run's late
	 * ICMP is not taken for ours. */
	uint8_t nonce;
	unsigned max_hops, queries;
	/* Silent hops after the last that answered that end a flow's
	 * trace (roce_trace_settings); 0: on to max_hops. */
	unsigned silent_after;
	uint32_t wait_ms;	/* a query's deadline */
	/* Queries in flight at once over all flows (1: one at a time, the
	 * serial trace) and sent per second (roce_sweep.h). */
	unsigned max_in_flight;
	uint32_t rate;
	/* Raw ICMP sockets (IPv4, IPv6) for the routers' quotes; -1 when
	 * not open (yet, or refused). */
	int raw_fd[2];
	bool raw_tried[2];
	/* The probing device's provider: the flow label its packets carry
	 * (trace_fidelity_socket). */
	enum provider provider;
};

/* A tracer on ep that opened no socket yet. */
void roce_tracer_init(struct roce_tracer *tr, struct ud_endpoint *ep,
		      uint32_t probe_id, unsigned max_hops, unsigned queries,
		      uint32_t wait_ms);
/* Closes the raw sockets it opened. */
void roce_tracer_close(struct roce_tracer *tr);

/* Told after a flow ended (its trace, or f->error: no netdev to send
 * from, no socket, a send that failed), and once at the very end; quiet:
 * no query is in flight. Returns 0 to go on, 1 to be told again once
 * quiet (nothing new is sent meanwhile: the caller has blocking work,
 * such as asking a responder, that would stretch the round trips of
 * answers in flight), -1 to stop. */
typedef int (*roce_tracer_progress_fn)(void *ctx, bool quiet);

/* Traces the n flows side by side (a flow with error set already is not
 * traced). Returns 0, -1 when out of memory or progress said stop. */
int roce_tracer_run(struct roce_tracer *tr, struct roce_flow *flows, size_t n,
		    roce_tracer_progress_fn progress, void *ctx);

/* Takes every reply waiting on our QP: serve's answer to the query under
 * way is the flow's destination line (any send backend: the socket's
 * here, lib/trace/nic_tracer.h's). */
void roce_tracer_take_replies(const struct roce_tracer *tr, struct roce_flow *f);

/* The flow's router path (f->path): per hop the first address that
 * answered; when the responder's hop limit tells that the silent hops
 * before its line were the responder's own, the path ends at the
 * responder right after the last router. None (path_len 0) for a flow
 * that was not traced. */
void roce_flow_path(struct roce_flow *f, unsigned queries);

/* Numbers the distinct paths of one destination's n flows (path_index;
 * pf and index are scratch arrays of n); returns the count, or -1 when
 * out of memory. */
long roce_flows_number_paths(struct roce_flow *flows, size_t n,
			     struct trace_path_flow *pf, unsigned *index);

/* What each flow of a destination stands for: a UDP source port as given
 * (*by_port, when udp_sports has any), else a flow label (its port); NULL:
 * flow label 0 alone. */
const struct value_list *roce_flow_keys(const struct value_list *udp_sports,
					const struct value_list *flow_labels,
					bool *by_port);

/* The decisions of the engine, pure (tests/unit/test_roce_tracer.c). */

/* The GID's address as a socket address (IPv4 for an IPv4-mapped GID). */
void roce_gid_sockaddr(const union ibv_gid *gid, struct sockaddr_storage *sa);
/* The IP fields of a datagram from src to dst (the addresses, the
 * version; the rest zero). */
void roce_ip_fields_of(const struct sockaddr_storage *src,
		       const struct sockaddr_storage *dst,
		       struct roce_ip_fields *ip);
/* An error queue message as the answer of a hop. false: nothing a trace
 * shows (a local error, a parameter problem). */
bool roce_error_answer(const struct icmp_err *e, struct roce_answer *a);
/* Whether a router's quote is of a datagram of this run to dst from
 * udp_sport: the destination, the ports and, as far as quoted, the UD
 * opcode, the responder's QP and the run's PSN nonce. */
bool roce_quote_is_ours(const struct icmp_quote *q,
			const struct sockaddr_storage *dst, uint16_t udp_sport,
			uint32_t dest_qpn, uint8_t nonce);

/* Which query of a flow an error queue message answers, of the n in
 * flight (tags, as roce_trace_in_flight_tags gives them), for datagrams
 * to target (port 4791) and dest_qpn with the run's nonce. */
enum roce_error_place {
	ROCE_ERROR_NOT_OURS,	/* another datagram's, or late: ignore */
	ROCE_ERROR_PLACED,	/* *tag; *named: by the quoted PSN */
	/* Ours, but the router quoted no BTH and several are in flight:
	 * roce_trace_answer_unplaced. */
	ROCE_ERROR_UNPLACED,
};
enum roce_error_place roce_error_place(const struct icmp_err *e,
				       const struct sockaddr_storage *target,
				       uint32_t dest_qpn, uint8_t nonce,
				       const uint32_t *tags, size_t n,
				       uint32_t *tag, bool *named);
/* The 32-bit sequence of a query's probe request: the flow's number in
 * the run (low 16 bits: flows in flight together differ there) above the
 * query's tag, so serve's reply names both. */
uint32_t roce_query_sequence(size_t flow, uint32_t tag);

#endif
