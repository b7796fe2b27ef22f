/* Destinations to path records through the SA: guid: and node: specs are
 * looked up with NodeRecord GetTable queries first (a node description
 * matches one record per CA port: a Get of a dual-port CA is answered
 * "too many records", opensm's osm_sa_respond(), C15-0.1.30), then one
 * PathRecord Get per destination, all through one windowed SA client. */
#ifndef IBAHPROBE_PATH_RESOLVE_H
#define IBAHPROBE_PATH_RESOLVE_H

#include "verbs/ah_attr.h"
#include "base/dest.h"
#include "verbs/device.h"
#include "base/diag.h"
#include "wire/pathrec.h"
#include "sa/sa_client.h"

#define PATH_DEFAULT_WINDOW 16
#define PATH_MAX_WINDOW 256
#define PATH_DEFAULT_RETRIES 2

enum path_status {
	PATH_OK,
	PATH_ERROR,	/* an SA answer said no, or the spec cannot be asked */
	PATH_TIMEOUT,	/* no SA answer */
};

struct path_result {
	enum path_status status;
	char error[DIAG_MSG_MAX];
	struct path_record record;
	size_t dest_index;	/* the destination this result is for */
	/* guid: and node: destinations: the port the path goes to, from its
	 * NodeRecord (port_num 0: not looked up), and how many ports of the
	 * node the SA's answer named. */
	uint8_t port_num;
	uint64_t port_guid;
	size_t node_ports;
};

/* The ports a NodeRecord table names, in port order. */
struct node_port {
	uint16_t lid;
	uint8_t port_num;
	uint64_t port_guid;
};
struct node_ports {
	size_t count;
	struct node_port *ports;
	bool truncated;		/* the answer arrived cut (no RMPP) */
	size_t expected;	/* records the whole answer held; 0 unknown */
};
/* The ports of a NodeRecord GetTableResp message (one MAD, or a whole
 * RMPP message as the kernel reassembles it): sorted by port number, one
 * per port GUID. -1 with err set when the message is malformed. */
int node_ports_from_table(const uint8_t *msg, size_t len,
			  struct node_ports *np, char *err, size_t errlen);
void node_ports_free(struct node_ports *np);

struct path_session {
	struct sa_client sa;
};

/* Returns SA_CLIENT_OK, or the reason with err set. */
enum sa_client_error path_session_open(struct path_session *s,
				       const char *ca, uint8_t port,
				       char *err, size_t errlen);
void path_session_close(struct path_session *s);

/* Fills one result per destination, in input order; a node: destination
 * with several ports in the subnet gets a path to the lowest-numbered one.
 * Returns 0; -1 with err set when the port failed, the SA answered none of
 * them, or it redirects to where the client cannot follow. */
int path_resolve_all(struct path_session *s, struct dest_list *dests,
		     const struct path_constraints *want, unsigned window,
		     uint32_t timeout_ms, unsigned retries,
		     struct path_result *results, char *err, size_t errlen);
/* As path_resolve_all, but a node: destination gets one result per port
 * the SA names (dest_index tells whose, in input order, ports in port
 * order): *results (free() it) holds *count of them. */
int path_resolve_every_port(struct path_session *s, struct dest_list *dests,
			    const struct path_constraints *want,
			    unsigned window, uint32_t timeout_ms,
			    unsigned retries, struct path_result **results,
			    size_t *count, char *err, size_t errlen);

/* Whether a path query named any selector (--sl, --pkey, --mtu, --rate,
 * ...) beyond the two ends. */
bool path_constraints_select(const struct path_constraints *want);
/* The selectors of want that the record found without them does not
 * meet, as words for a "no records" answer: "--mtu 4096 (the path's MTU is
 * 2048)"; "" when it meets them all. */
void path_selectors_missed(const struct path_constraints *want,
			   const struct path_record *found, char *buf,
			   size_t len);

/* The RoCE port a path query was asked on, when that is why no SA port
 * could be opened: the port asked for (-d/-P) is RoCE, or none was asked
 * for and the devices have RoCE ports and no InfiniBand one. NULL when an
 * InfiniBand port is there (its failure is another one). RoCE ports have
 * no SA: the kernel's ib_sa_add_one() registers no SA agent where
 * rdma_cap_ib_sa() is false, rdma_resolve_route() resolves RoCE routes
 * without one (cma_resolve_iboe_route()), and libibumad's
 * resolve_ca_port() skips or refuses ports whose link layer is not
 * InfiniBand. */
const struct port_info *path_roce_port(const struct device_list *list,
				       uint8_t port,
				       const struct device_info **dev_out);

/* path_roce_port over the devices found now (device: -d, NULL: all):
 * true with the RoCE device's name and port number, for the message of a
 * command that needed an SA port and could open none. */
bool path_port_is_roce(const char *device, uint8_t port, char *name,
		       size_t len, uint8_t *port_num);

/* The fields of a path record an AH is built from. */
void path_record_to_ah_path(const struct path_record *p, struct ah_path *a);

#endif
