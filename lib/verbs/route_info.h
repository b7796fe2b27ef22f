/* The kernel's route towards a RoCE destination, as the sending stack
 * sees it: rxe (and the kernel's RoCE v2 path) takes the IP hop limit /
 * TTL from the route, not from the AH, so the prober learns the value that
 * actually leaves the host here. */
#ifndef IBAHPROBE_ROUTE_INFO_H
#define IBAHPROBE_ROUTE_INFO_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

struct route_info {
	int family;		/* AF_INET or AF_INET6 */
	char oif[IF_NAMESIZE];	/* outgoing interface */
	bool has_gateway;	/* false: on link */
	char gateway[INET6_ADDRSTRLEN];
	char source[INET6_ADDRSTRLEN];	/* preferred source, "" when none */
	bool local;		/* RTN_LOCAL: the destination is this host */
	uint8_t hop_limit;	/* the route's hoplimit metric, else the default */
	bool hop_limit_from_route;	/* true: a hoplimit metric on the route */
};

/* Asks the kernel (rtnetlink RTM_GETROUTE) for the route to address (an
 * IPv4, IPv4-mapped or IPv6 literal), leaving through oif when given (as
 * rxe asks; for a link-local IPv6 address oif is its scope). The source is
 * the answer's RTA_PREFSRC (the kernel's own choice: rt_fill_info puts
 * fl4->saddr there, rt6_fill_node ip6_route_get_saddr's); when the answer
 * has none and no oif binds the lookup (or oif is a link-local address's
 * scope), the local address of a UDP socket connected to the destination.
 * The default hop limit comes from net.ipv4.ip_default_ttl or
 * net.ipv6.conf.OIF.hop_limit. Returns 0, or -1 with err set. */
int route_lookup(const char *address, const char *oif, struct route_info *info,
		 char *err, size_t errlen);

#endif
