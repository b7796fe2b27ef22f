/* GIDs: text form and the classifications AH rules and source-GID choice
 * need (IPv4-mapped, link-local, multicast, empty). */
#ifndef IBAHPROBE_GID_H
#define IBAHPROBE_GID_H

#include <stdbool.h>
#include <stddef.h>

#include <infiniband/verbs.h>

/* INET6_ADDRSTRLEN; IPv4-mapped GIDs print as ::ffff:a.b.c.d. */
#define GID_TEXT_MAX 46

const char *gid_format(const union ibv_gid *gid, char *buf, size_t len);
/* The address a RoCE GID stands for, as people and getaddrinfo write it:
 * a.b.c.d for an IPv4-mapped GID, else the IPv6 text. */
const char *gid_format_address(const union ibv_gid *gid, char *buf,
			       size_t len);
bool gid_is_zero(const union ibv_gid *gid);
bool gid_is_ipv4_mapped(const union ibv_gid *gid);
bool gid_is_link_local(const union ibv_gid *gid);
bool gid_is_multicast(const union ibv_gid *gid);

#endif
