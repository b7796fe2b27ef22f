/* The SA's rule for joining a multicast group, and this port's facts for
 * it; see mcast_joinable.h. */
#include <stdio.h>
#include <string.h>

#include <infiniband/umad.h>

#include "base/gid.h"
#include "base/ibrate.h"
#include "base/mgid.h"
#include "sa/mcast_joinable.h"

/* Lanes of a LinkWidthActive code (1x, 4x, 8x, 12x, 2x). */
static unsigned width_lanes(uint8_t width)
{
	switch (width) {
	case 1: return 1;
	case 2: return 4;
	case 4: return 8;
	case 8: return 12;
	case 16: return 2;
	}
	return 0;
}

/* Nominal Gb/s of one lane, as the rate names count it (FDR: 14). */
static double lane_gbps(const struct portinfo_record *p)
{
	switch (p->speed_ext_active) {
	case 1: return 14;	/* FDR */
	case 2: return 25;	/* EDR */
	case 4: return 50;	/* HDR */
	case 8: return 100;	/* NDR */
	}
	switch (p->speed_active) {
	case 1: return 2.5;	/* SDR */
	case 2: return 5;	/* DDR */
	case 4: return 10;	/* QDR */
	}
	return 0;
}

uint8_t portinfo_rate_code(const struct portinfo_record *p)
{
	double gbps = width_lanes(p->width_active) * lane_gbps(p);

	if (gbps <= 0)
		return 0;
	for (uint8_t code = 2; code < 64; code++)
		if (ibrate_gbps(code) == gbps)
			return code;
	return 0;
}

int mcast_port_caps_fetch(struct path_session *s, uint32_t timeout_ms,
			  unsigned retries, struct mcast_port_caps *caps,
			  char *err, size_t errlen)
{
	char why[DIAG_MSG_MAX * 2];
	struct portinfo_record pi;
	struct sa_query q = { 0 };
	umad_port_t up;

	memset(caps, 0, sizeof(*caps));
	caps->lid = s->sa.lid;
	caps->port_num = s->sa.port_num;
	sa_encode_portinfo_get(q.request, s->sa.lid, s->sa.port_num);
	if (sa_client_run(&s->sa, &q, 1, 1, timeout_ms, retries, err, errlen))
		return -1;
	sa_queries_release(&q, 1);
	if (q.result != SA_RESULT_OK) {
		sa_query_describe(&q, "PortInfoRecord Get", timeout_ms, why,
				  sizeof(why));
		snprintf(err, errlen, "cannot read this port's PortInfoRecord "
			 "(LID %u port %u) from the SA: %s", s->sa.lid,
			 s->sa.port_num, why);
		return -1;
	}
	portinforec_decode(q.response + SA_HEADER_BYTES, &pi);
	caps->mtu_cap = pi.mtu_cap;
	caps->active_mtu = pi.neighbor_mtu;
	caps->rate = portinfo_rate_code(&pi);
	/* The P_Key table as the port holds it (umad reads sysfs); empty
	 * slots (0x0000, 0x8000) name no partition. */
	if (umad_get_port(s->sa.ca, s->sa.port_num, &up) == 0) {
		for (unsigned i = 0; i < up.pkeys_size &&
				caps->pkey_count < MCAST_MAX_PKEYS;
		     i++) {
			uint16_t pkey = up.pkeys[i];

			if ((pkey & 0x7fff) != 0)
				caps->pkeys[caps->pkey_count++] = pkey;
		}
		umad_release_port(&up);
	}
	return 0;
}

void mcast_joinable_judge(const struct mcmember_record *group,
			  const struct mcast_port_caps *port,
			  struct mcast_joinability *j)
{
	memset(j, 0, sizeof(*j));
	j->mtu_short = port->mtu_cap < group->mtu;
	j->rate_short = port->rate < group->rate;
	j->joinable = !j->mtu_short && !j->rate_short;
}

static void port_and_group_words(const struct mcmember_record *group,
				 const struct mcast_port_caps *port,
				 const struct mcast_joinability *j,
				 char *mine, size_t mlen, char *theirs,
				 size_t tlen)
{
	char prate[16], grate[16];
	bool both = j->joinable || (j->mtu_short && j->rate_short);

	ibrate_format_gbps(port->rate, prate, sizeof(prate));
	ibrate_format_gbps(group->rate, grate, sizeof(grate));
	if (both) {
		snprintf(mine, mlen, "MTU %u, rate %s Gb/s",
			 ibrate_mtu_bytes(port->mtu_cap), prate);
		snprintf(theirs, tlen, "MTU %u, rate %s Gb/s",
			 ibrate_mtu_bytes(group->mtu), grate);
	} else if (j->mtu_short) {
		snprintf(mine, mlen, "MTU %u", ibrate_mtu_bytes(port->mtu_cap));
		snprintf(theirs, tlen, "MTU %u", ibrate_mtu_bytes(group->mtu));
	} else {
		snprintf(mine, mlen, "rate %s Gb/s", prate);
		snprintf(theirs, tlen, "rate %s Gb/s", grate);
	}
}

void mcast_joinable_describe(const struct mcmember_record *group,
			     const struct mcast_port_caps *port,
			     const struct mcast_joinability *j, char *buf,
			     size_t len)
{
	char mgid[GID_TEXT_MAX], mine[64], theirs[64], tail[96] = "";
	uint16_t pkey;

	gid_format(&group->mgid, mgid, sizeof(mgid));
	port_and_group_words(group, port, j, mine, sizeof(mine), theirs,
			     sizeof(theirs));
	if (!j->joinable && mgid_is_ipoib(&group->mgid, &pkey))
		snprintf(tail, sizeof(tail), ": IPoIB on partition 0x%04x "
			 "will not come up here", pkey);
	snprintf(buf, len, "this port (%s) %s %s (%s)%s", mine,
		 j->joinable ? "can join" : "cannot join", mgid, theirs, tail);
}
