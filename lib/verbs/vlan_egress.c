/* VLAN netdevs from /proc/net/vlan and the PCP a probe leaves with; see
 * vlan_egress.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/small_file.h"
#include "verbs/vlan_egress.h"

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A decimal number of at most max, its end in *end. */
static int parse_number(const char *s, unsigned long max, unsigned long *v,
			const char **end)
{
	char *e;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoul(s, &e, 10);
	if (errno || *v > max)
		return -1;
	*end = e;
	return 0;
}

/* " EGRESS priority mappings: 0:2 3:3 " (vlandev_seq_show prints each
 * mapping as "%u:%d " of skb priority and PCP). */
static int parse_egress(const char *s, struct vlan_netdev *out, char *err,
			size_t errlen)
{
	for (s = skip_blanks(s); *s && *s != '\n'; s = skip_blanks(s)) {
		unsigned long prio, pcp;

		if (parse_number(s, UINT32_MAX, &prio, &s) || *s != ':' ||
		    parse_number(s + 1, 7, &pcp, &s) ||
		    (*s && *s != ' ' && *s != '\t' && *s != '\n')) {
			snprintf(err, errlen,
				 "an egress mapping is not PRIORITY:PCP (PCP 0-7)");
			return -1;
		}
		if (out->egress_count < VLAN_EGRESS_MAX)
			out->egress[out->egress_count++] =
				(struct vlan_egress_mapping){
					.skb_priority = (uint32_t)prio,
					.pcp = (uint8_t)pcp,
				};
	}
	return 0;
}

static const char *next_line(const char *line)
{
	const char *nl = strchr(line, '\n');

	return nl && nl[1] ? nl + 1 : NULL;
}

static void copy_word(const char *s, char *dst, size_t size)
{
	size_t n = strcspn(s, " \t\n");

	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

int vlan_proc_parse(const char *text, struct vlan_netdev *out, char *err,
		    size_t errlen)
{
	const char *line, *vid = strstr(text, "VID:");
	unsigned long v;

	memset(out, 0, sizeof(*out));
	out->vid = VLAN_ID_NONE;
	/* The first line: "eth0.100  VID: 100\t REORDER_HDR: 1 ...". */
	if (!vid || (memchr(text, '\n', (size_t)(vid - text)) != NULL) ||
	    parse_number(skip_blanks(vid + 4), 4095, &v, &line)) {
		snprintf(err, errlen, "no \"VID: N\" (0-4095) on the first line");
		return -1;
	}
	out->is_vlan = true;
	out->vid = (uint16_t)v;
	for (line = text; line; line = next_line(line)) {
		const char *s = skip_blanks(line);

		if (strncmp(s, "Device:", 7) == 0)
			copy_word(skip_blanks(s + 7), out->real_dev,
				  sizeof(out->real_dev));
		else if (strncmp(s, "EGRESS priority mappings:", 25) == 0 &&
			 parse_egress(s + 25, out, err, errlen))
			return -1;
	}
	return 0;
}

int vlan_netdev_read(const char *netdev, struct vlan_netdev *out, char *err,
		     size_t errlen)
{
	char path[64 + IF_NAMESIZE], text[4096];

	memset(out, 0, sizeof(*out));
	out->vid = VLAN_ID_NONE;
	if (!netdev[0] || strlen(netdev) >= IF_NAMESIZE ||
	    strchr(netdev, '/') || strcmp(netdev, ".") == 0 ||
	    strcmp(netdev, "..") == 0) {
		snprintf(err, errlen, "\"%s\" is no netdev name", netdev);
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/net/vlan/%s", netdev);
	if (small_file_read(path, text, sizeof(text)) < 0)
		return 0;	/* no 8021q file: no VLAN */
	if (vlan_proc_parse(text, out, err, errlen)) {
		char why[160];

		/* Half a parse is no VLAN: nothing is claimed from it. */
		memset(out, 0, sizeof(*out));
		out->vid = VLAN_ID_NONE;
		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s: %s", path, why);
		return -1;
	}
	return 0;
}

uint8_t vlan_egress_pcp(const struct vlan_netdev *nd, uint32_t skb_priority)
{
	for (size_t i = 0; i < nd->egress_count; i++)
		if (nd->egress[i].skb_priority == skb_priority)
			return nd->egress[i].pcp;
	return 0;
}

enum pcp_rule provider_pcp_rule(enum provider p)
{
	switch (p) {
	case PROVIDER_MLX4:
	case PROVIDER_MLX5:
		return PCP_RULE_AH_SL;
	case PROVIDER_RXE:
		return PCP_RULE_EGRESS_MAP;
	default:
		return PCP_RULE_UNKNOWN;
	}
}

void vlan_priority_sent(enum provider p, uint8_t ah_sl, const char *netdev,
			const struct vlan_netdev *nd,
			struct priority_sent *out)
{
	memset(out, 0, sizeof(*out));
	if (!nd || !nd->is_vlan) {
		snprintf(out->why, sizeof(out->why),
			 "the source GID's netdev %s is no VLAN: the probes "
			 "leave untagged, with no PCP",
			 netdev && netdev[0] ? netdev : "(none)");
		return;
	}
	out->on_vlan = true;
	out->vid = nd->vid;
	switch (provider_pcp_rule(p)) {
	case PCP_RULE_AH_SL:
		out->known = true;
		out->pcp = ah_sl & 7;
		snprintf(out->why, sizeof(out->why),
			 "%s puts the AH's SL %u into the VLAN %u tag",
			 provider_name(p), ah_sl, nd->vid);
		return;
	case PCP_RULE_EGRESS_MAP:
		out->known = true;
		out->pcp = vlan_egress_pcp(nd, 0);
		snprintf(out->why, sizeof(out->why),
			 "%s sends through %s, whose egress map gives skb "
			 "priority 0 PCP %u",
			 provider_name(p), netdev, out->pcp);
		return;
	case PCP_RULE_UNKNOWN:
		break;
	}
	snprintf(out->why, sizeof(out->why),
		 "how %s chooses the PCP on VLAN %u is not known",
		 provider_name(p), nd->vid);
}
