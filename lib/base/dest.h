/* Destination specs as the user types them (DESIGN.md "DEST forms"):
 *   lid:N, or a bare number          a LID (decimal or 0x hex)
 *   gid:ADDR                         a GID in IPv6 text form
 *   guid:0x...                       a port GUID, looked up in the SA
 *   node:NAME                        a node description, looked up in the SA
 *   mcast:MGID                       an InfiniBand multicast group (ff..)
 *   mcast:ipoib[:PKEY]               IPoIB's IPv4 broadcast group of a
 *                                    partition (default P_Key 0xffff)
 *   mcast:ipoib6[:PKEY]              IPoIB's IPv6 all-nodes group
 *                                    (base/mgid.h has both layouts)
 *   mcast:239.1.2.3, mcast:ff0e::1   RoCE: an IP multicast group (its GID
 *                                    is the IPv4-mapped or IPv6 address)
 *   IPv4 / IPv6 address              RoCE: the IPv4-mapped or IPv6 GID
 *   host name                        resolved to an address
 * An address or host name may carry a port, "host:PORT" or "[v6]:PORT",
 * where a responder's rendezvous listens. An IPv6 link-local address may
 * carry its scope, "fe80::2%eth1" or "[fe80::2%eth1]:PORT": the local
 * interface it is reached through (the kernel's route needs it). */
#ifndef IBAHPROBE_DEST_H
#define IBAHPROBE_DEST_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <infiniband/verbs.h>

#include "base/dest_flow_label.h"

enum dest_kind {
	DEST_LID,
	DEST_GID,	/* gid:ADDR */
	DEST_GUID,
	DEST_NODE,
	DEST_ADDR,	/* IPv4 or IPv6 literal; gid holds its GID form */
	DEST_HOST,	/* host name, resolved by dest_resolve_host() */
	DEST_MCAST,	/* mcast:...; gid holds the MGID, has_gid stays
			 * false: a group has no PathRecord */
};

struct dest {
	enum dest_kind kind;
	char *text;		/* as given, for reports */
	char *name;		/* DEST_NODE, DEST_HOST */
	uint16_t lid;		/* DEST_LID */
	uint16_t pkey;		/* DEST_MCAST of IPoIB: the partition named */
	uint64_t guid;		/* DEST_GUID */
	union ibv_gid gid;	/* DEST_GID, DEST_ADDR, resolved DEST_HOST */
	bool has_gid;
	bool has_port;
	uint16_t port;		/* rendezvous port, when given */
	char scope[IF_NAMESIZE];	/* link-local scope, "" when none */
	/* Set: text did not parse, and this is why (a list that keeps
	 * such destinations, keep_invalid); nothing else is set. */
	char *error;
};

const char *dest_kind_name(enum dest_kind kind);
int dest_parse(const char *text, struct dest *dest, char *err, size_t errlen);
/* getaddrinfo for DEST_HOST; fills gid (IPv4-mapped for IPv4). */
int dest_resolve_host(struct dest *dest, char *err, size_t errlen);
void dest_clear(struct dest *dest);

struct dest_list {
	size_t count;
	size_t capacity;
	struct dest *items;
	/* Set by the caller: a spec that does not parse is kept, with
	 * text and error only, for a command that makes it that
	 * destination's error row (probe: one typo in a list of 1,000
	 * does not lose the round). Else it fails the whole list. */
	bool keep_invalid;
	/* Set by the caller: a file's "# flow-label LIST" line (plan's
	 * policy, base/dest_flow_label.h) is read into flow_label, and a
	 * malformed one, or two that differ, fail the file. Else it is a
	 * comment like any other. */
	bool read_flow_label;
	struct dest_flow_label flow_label;
};
/* Appends one parsed spec; on a parse error nothing is appended (with
 * keep_invalid: the spec with its error, and 0 is returned). */
int dest_list_add(struct dest_list *list, const char *text, char *err,
		  size_t errlen);
/* One spec per line; '#' starts a comment, blank lines are skipped (with
 * read_flow_label, a flow-label line is read first). Errors
 * name the file (label) and line: a line over 256 characters, a NUL byte
 * (with its column), more than 1,000,000 lines; a spec that does not
 * parse too (with keep_invalid: in that destination's error). */
int dest_list_read(struct dest_list *list, FILE *in, const char *label,
		   char *err, size_t errlen);
/* The destinations of a command line: the operands, then the lines of
 * file (NULL: none; "-": stdin). Errors name the operand, or the file and
 * line, or why the file could not be opened. */
int dest_list_collect(struct dest_list *list, int argc, char **argv,
		      const char *file, char *err, size_t errlen);
void dest_list_free(struct dest_list *list);

#endif
