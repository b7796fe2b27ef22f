/* What a RoCE trace reproduces of the NIC's packets: see
 * trace_fidelity.h. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "base/small_file.h"
#include "trace/flowlabel_lease.h"
#include "trace/roce_sock.h"
#include "trace/trace_fidelity.h"
#include "verbs/provider_flow_label.h"

bool trace_fidelity_wire_label(const struct trace_fidelity_input *in,
			       uint32_t *label, char *why, size_t len)
{
	enum wire_flow_label_rule rule =
		provider_wire_flow_label(in->provider, in->ah_flow_label, label);

	if (len)
		why[0] = '\0';
	if (rule == WIRE_FLOW_LABEL_ZERO)
		return true;	/* the port does not matter: always 0 */
	if (rule == WIRE_FLOW_LABEL_UNKNOWN) {
		snprintf(why, len, "which flow label %s's packets carry is "
			 "not known; the AH's (0x%05x) was sent",
			 provider_name(in->provider), *label);
		return false;
	}
	if (in->port_given) {
		snprintf(why, len, "%s sends the AH's flow label, which a "
			 "UDP source port does not tell", provider_name(
							       in->provider));
		return false;
	}
	return true;
}

void trace_fidelity_socket(int fd, struct sockaddr_storage *dest,
			   const struct trace_fidelity_input *in,
			   struct trace_fidelity *out)
{
	struct flowlabel_facts facts;
	uint32_t label;
	char why[sizeof(out->flow_label_why)];
	bool known;

	memset(out, 0, sizeof(*out));
	out->method = TRACE_METHOD_SOCKET;
	out->priority = roce_sock_priority_of_tclass(in->traffic_class);
	if (in->netdev)
		out->lag = netdev_is_lag(in->netdev, out->lag_netdev,
					 sizeof(out->lag_netdev));
	if (dest->ss_family != AF_INET6)
		return;	/* no flow label in IPv4 */
	out->flow_label_applies = true;
	known = trace_fidelity_wire_label(in, &label, why, sizeof(why));
	flowlabel_facts_read(label, &facts);
	out->flow_label = label;
	out->flow_label_reproduced =
		flowlabel_apply(fd, &facts, dest, out->flow_label_why,
				sizeof(out->flow_label_why)) &&
		known;
	if (!known)
		snprintf(out->flow_label_why, sizeof(out->flow_label_why),
			 "%s", why);
}

bool netdev_level_is_lag(const char *devtype, unsigned lowers)
{
	return strcmp(devtype, "bond") == 0 || strcmp(devtype, "team") == 0 ||
	       lowers >= 2;
}

/* The DEVTYPE of a netdev's uevent ("" for a plain Ethernet port). */
static void netdev_devtype(const char *ifname, char *type, size_t len)
{
	char path[128], text[512];
	const char *at;

	type[0] = '\0';
	snprintf(path, sizeof(path), "/sys/class/net/%s/uevent", ifname);
	if (small_file_read(path, text, sizeof(text)) < 0)
		return;
	at = strstr(text, "DEVTYPE=");
	if (at)
		snprintf(type, len, "%.*s", (int)strcspn(at + 8, "\n"), at + 8);
}

/* How many lower devices (lower_NAME links) ifname has; the first's name. */
static unsigned netdev_lowers(const char *ifname, char *first, size_t len)
{
	char path[128];
	struct dirent *e;
	unsigned n = 0;
	DIR *dir;

	first[0] = '\0';
	snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((e = readdir(dir)))
		if (strncmp(e->d_name, "lower_", 6) == 0 && n++ == 0)
			snprintf(first, len, "%s", e->d_name + 6);
	closedir(dir);
	return n;
}

bool netdev_is_lag(const char *ifname, char *lag, size_t len)
{
	char name[64], lower[64], type[32];

	snprintf(name, sizeof(name), "%s", ifname);
	/* A VLAN on a VLAN on a bond is as deep as it gets in practice. */
	for (int depth = 0; depth < 4 && name[0]; depth++) {
		unsigned lowers = netdev_lowers(name, lower, sizeof(lower));

		netdev_devtype(name, type, sizeof(type));
		if (netdev_level_is_lag(type, lowers)) {
			snprintf(lag, len, "%s", name);
			return true;
		}
		if (lowers != 1)
			break;
		snprintf(name, sizeof(name), "%s", lower);
	}
	if (len)
		lag[0] = '\0';
	return false;
}

size_t trace_fidelity_gaps(const struct trace_fidelity *f,
			   enum trace_gap *gaps)
{
	size_t n = 0;

	if (f->flow_label_applies && !f->flow_label_reproduced)
		gaps[n++] = TRACE_GAP_FLOW_LABEL;
	/* Real sends from our QP leave by the member the NIC chose for it
	 * (mlx5 get_tx_affinity_rr): the very packets. */
	if (f->lag && f->method == TRACE_METHOD_SOCKET)
		gaps[n++] = TRACE_GAP_LAG_MEMBER;
	return n;
}

const char *trace_gap_key(enum trace_gap gap)
{
	switch (gap) {
	case TRACE_GAP_FLOW_LABEL: return "flow_label";
	case TRACE_GAP_LAG_MEMBER: return "lag_member";
	case TRACE_GAP_COUNT: break;
	}
	return "unknown";
}

const char *trace_method_key(enum trace_method method)
{
	return method == TRACE_METHOD_NIC ? "nic" : "socket";
}
