/* Provider identification and its rules for probing; see provider.h. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "verbs/provider.h"
#include "wire/roce_packet.h"

static const char *const names[PROVIDER_COUNT] = {
	[PROVIDER_UNKNOWN] = "unknown", [PROVIDER_MLX4] = "mlx4",
	[PROVIDER_MLX5] = "mlx5", [PROVIDER_HNS] = "hns",
	[PROVIDER_RXE] = "rxe", [PROVIDER_IRDMA] = "irdma",
	[PROVIDER_BNXT_RE] = "bnxt_re", [PROVIDER_OCRDMA] = "ocrdma",
	[PROVIDER_QEDR] = "qedr", [PROVIDER_ERDMA] = "erdma",
	[PROVIDER_IONIC] = "ionic", [PROVIDER_SIW] = "siw",
	[PROVIDER_EFA] = "efa", [PROVIDER_MANA] = "mana",
};

const char *provider_name(enum provider p)
{
	return p < PROVIDER_COUNT ? names[p] : "unknown";
}

enum provider provider_from_name(const char *name, size_t len)
{
	for (int p = 0; p < PROVIDER_COUNT; p++)
		if (strlen(names[p]) == len && memcmp(names[p], name, len) == 0)
			return (enum provider)p;
	return PROVIDER_UNKNOWN;
}

/* The kernel driver bound to the device the ib_device hangs off: the PCI
 * (or auxiliary) driver, since the RDMA drivers set ibdev.dev.parent to
 * their PCI device (mlx5_ib, irdma: the ice/i40e function, bnxt_re: the
 * bnxt_en function, hns: the hns3 function, ocrdma: be2net). */
static const struct {
	const char *driver;
	enum provider provider;
} by_driver[] = {
	{ "mlx5_core", PROVIDER_MLX5 }, { "mlx4_core", PROVIDER_MLX4 },
	{ "hns3", PROVIDER_HNS }, { "hns_roce_hw_v2", PROVIDER_HNS },
	{ "irdma", PROVIDER_IRDMA }, { "ice", PROVIDER_IRDMA },
	{ "i40e", PROVIDER_IRDMA }, { "i40iw", PROVIDER_IRDMA },
	{ "bnxt_en", PROVIDER_BNXT_RE }, { "bnxt_re", PROVIDER_BNXT_RE },
	{ "be2net", PROVIDER_OCRDMA }, { "ocrdma", PROVIDER_OCRDMA },
	{ "qede", PROVIDER_QEDR }, { "qed", PROVIDER_QEDR },
	{ "qedr", PROVIDER_QEDR }, { "erdma", PROVIDER_ERDMA },
	{ "ionic", PROVIDER_IONIC }, { "efa", PROVIDER_EFA },
	{ "mana", PROVIDER_MANA }, { "mana_ib", PROVIDER_MANA },
};

/* ibv_query_device's vendor_id as each kernel driver fills it: the PCI
 * vendor for most; the IEEE OUI 0x02c9 for Mellanox (mlx4_ib/mlx5_ib
 * query_device); RXE_VENDOR_ID 0xffffff (sw/rxe/rxe_param.h); SIW_VENDOR_ID
 * 0x626d74 (sw/siw/siw.h). Mellanox's OUI covers mlx4 and mlx5, which
 * share every rule here, so the first wins. */
static const struct {
	uint32_t vendor_id;
	enum provider provider;
} by_vendor[] = {
	{ 0x02c9, PROVIDER_MLX5 }, { 0x15b3, PROVIDER_MLX5 },
	{ 0x19e5, PROVIDER_HNS }, { 0xffffff, PROVIDER_RXE },
	{ 0x8086, PROVIDER_IRDMA }, { 0x14e4, PROVIDER_BNXT_RE },
	{ 0x10df, PROVIDER_OCRDMA }, { 0x1077, PROVIDER_QEDR },
	{ 0x1ded, PROVIDER_ERDMA }, { 0x1dd8, PROVIDER_IONIC },
	{ 0x626d74, PROVIDER_SIW }, { 0x1d0f, PROVIDER_EFA },
	{ 0x1414, PROVIDER_MANA },
};

enum provider provider_identify(const struct provider_facts *facts)
{
	/* The software providers first: before Linux 5.11 rxe and siw set
	 * their ib_device's parent to the NIC they run on
	 * (rxe_dma_device), so the driver link names mlx5_core or hns3. */
	if (facts->vendor_id == 0xffffff)
		return PROVIDER_RXE;
	if (facts->vendor_id == 0x626d74)
		return PROVIDER_SIW;
	if (facts->driver && facts->driver[0])
		for (size_t i = 0; i < sizeof(by_driver) / sizeof(by_driver[0]);
		     i++)
			if (strcmp(facts->driver, by_driver[i].driver) == 0)
				return by_driver[i].provider;
	for (size_t i = 0; i < sizeof(by_vendor) / sizeof(by_vendor[0]); i++)
		if (facts->vendor_id == by_vendor[i].vendor_id)
			return by_vendor[i].provider;
	return PROVIDER_UNKNOWN;
}

void provider_facts_read(const char *ibdev, uint32_t vendor_id, char *driver,
			 size_t driver_len, struct provider_facts *facts)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	const char *base;

	driver[0] = '\0';
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device/driver",
		 ibdev);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		base = strrchr(target, '/');
		snprintf(driver, driver_len, "%s", base ? base + 1 : target);
	}
	facts->driver = driver;
	facts->vendor_id = vendor_id;
}

#define HNS_ROCE_HW_VER3 0x130

bool provider_ud_unsupported(enum provider p, uint32_t hw_ver)
{
	return p == PROVIDER_HNS && hw_ver < HNS_ROCE_HW_VER3;
}

const char *hop_limit_rule_name(enum hop_limit_rule rule)
{
	switch (rule) {
	case HOP_LIMIT_RULE_AH: return "ah";
	case HOP_LIMIT_RULE_ROUTE: return "route";
	case HOP_LIMIT_RULE_UNKNOWN: break;
	}
	return "unknown";
}

/* Providers whose user-space create_ah writes the GRH hop limit into the
 * address vector the HCA reads: mlx4 (mlx4_create_ah: av.hop_limit), mlx5
 * (mlx5_create_ah: av.hop_limit; its ibv_cmd_create_ah on RoCE only
 * fetches the DMAC), hns (hns_roce_u_create_ah: av.hop_limit, set before
 * ibv_cmd_create_ah). */
static bool builds_av_in_user_space(enum provider p)
{
	return p == PROVIDER_MLX4 || p == PROVIDER_MLX5 || p == PROVIDER_HNS;
}

/* Providers whose AH is the kernel's (their create_ah is
 * ibv_cmd_create_ah): rxe (rxe_create_ah), irdma (irdma_ucreate_ah),
 * bnxt_re (bnxt_re_create_ah), ocrdma (ocrdma_create_ah), ionic
 * (ionic_create_ah). On RoCE the kernel's rdma_create_user_ah ->
 * ib_resolve_eth_dmac -> ib_resolve_unicast_gid_dmac overwrites
 * grh.hop_limit with the route's (rdma_addr_find_l2_eth_by_grh). */
static bool creates_ah_in_kernel(enum provider p)
{
	return p == PROVIDER_RXE || p == PROVIDER_IRDMA ||
	       p == PROVIDER_BNXT_RE || p == PROVIDER_OCRDMA ||
	       p == PROVIDER_IONIC;
}

enum hop_limit_rule provider_hop_limit_rule(const struct hop_limit_rule_input *in,
					    char *why, size_t len)
{
	const char *name = provider_name(in->provider);

	if (in->link_layer != LINK_LAYER_ETHERNET) {
		/* No route on InfiniBand: every provider sends the AH's. */
		snprintf(why, len, "InfiniBand: the AH's hop limit is sent");
		return HOP_LIMIT_RULE_AH;
	}
	if (builds_av_in_user_space(in->provider)) {
		snprintf(why, len, "%s builds the address vector in user space: "
			 "the AH's hop limit is sent", name);
		return HOP_LIMIT_RULE_AH;
	}
	if (creates_ah_in_kernel(in->provider)) {
		/* ib_resolve_unicast_gid_dmac returns early, leaving the
		 * hop limit alone, for a link-local DGID from a RoCE v1
		 * GID: no IP stack is involved then. */
		if (in->sgid_roce_v1 && in->dgid_link_local) {
			snprintf(why, len, "%s creates AHs in the kernel, but a "
				 "RoCE v1 link-local destination skips the "
				 "route: the AH's hop limit is sent", name);
			return HOP_LIMIT_RULE_AH;
		}
		snprintf(why, len, "%s creates AHs in the kernel, which puts "
			 "the route's hop limit on the wire", name);
		return HOP_LIMIT_RULE_ROUTE;
	}
	snprintf(why, len, "provider %s: not known whether the AH's or the "
		 "route's hop limit is sent; judged from what arrives", name);
	return HOP_LIMIT_RULE_UNKNOWN;
}

bool provider_wc_sl_is_sl(enum link_layer link_layer)
{
	return link_layer == LINK_LAYER_IB;
}

/* include/linux/hash.h: hash_32() is the generic one on x86, arm64 and
 * the others that run rxe (only m68k and microblaze had their own). */
#define KERNEL_GOLDEN_RATIO_32 0x61C88647u
#define RXE_ROCE_V2_SPORT 0xc000u

uint16_t provider_rxe_qp_udp_sport(uint32_t qpn)
{
	uint32_t hash = (uint32_t)(qpn * KERNEL_GOLDEN_RATIO_32) >> (32 - 14);

	return (uint16_t)(RXE_ROCE_V2_SPORT + (hash & 0x3fff));
}

int32_t provider_wire_udp_sport(enum provider p, uint32_t flow_label,
				uint32_t qpn)
{
	uint32_t fl = flow_label & ROCE_FLOW_LABEL_MASK;

	if (provider_sport_follows_flow_label(p))
		return fl ? roce_flow_label_to_udp_sport(fl) : -1;
	if (provider_sport_follows_qp(p))
		return provider_rxe_qp_udp_sport(qpn);
	return -1;
}

bool provider_sport_follows_flow_label(enum provider p)
{
	return p == PROVIDER_MLX5 || p == PROVIDER_HNS;
}

bool provider_sport_follows_qp(enum provider p)
{
	return p == PROVIDER_RXE;
}

bool provider_sends_udp(const struct udp_sport_facts *f)
{
	return f->link_layer == LINK_LAYER_ETHERNET && f->grh &&
	       f->sgid_roce_v2;
}

int32_t provider_label_udp_sport(const struct udp_sport_facts *f)
{
	uint32_t fl = f->flow_label & ROCE_FLOW_LABEL_MASK;

	if (fl == 0 || !provider_sends_udp(f))
		return -1;
	return roce_flow_label_to_udp_sport(fl);
}

int32_t provider_probe_udp_sport(const struct udp_sport_facts *f)
{
	if (!f->qp_known || !provider_sends_udp(f))
		return -1;
	return provider_wire_udp_sport(f->provider, f->flow_label, f->qpn);
}
