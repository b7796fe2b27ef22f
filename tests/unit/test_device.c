/* Unit tests of the device decisions that need no device: which devices
 * can run UD probes (node type and transport as libibverbs' try_driver()
 * sets them), and the port choice over a list with a device that could
 * not be opened and an iWARP device ahead of an InfiniBand one. */
#include <string.h>

#include "device.h"
#include "tap.h"

static void test_ud_support(void)
{
	is_int(device_ud_support(IBV_NODE_CA, IBV_TRANSPORT_IB), DEVICE_UD_OK,
	       "CA (InfiniBand or RoCE): UD");
	is_int(device_ud_support(IBV_NODE_SWITCH, IBV_TRANSPORT_IB),
	       DEVICE_UD_OK, "switch port 0: UD");
	is_int(device_ud_support(IBV_NODE_RNIC, IBV_TRANSPORT_IWARP),
	       DEVICE_UD_IWARP, "RNIC: iWARP");
	is_int(device_ud_support(IBV_NODE_USNIC_UDP, IBV_TRANSPORT_USNIC_UDP),
	       DEVICE_UD_USNIC, "usNIC UDP");
	is_int(device_ud_support(IBV_NODE_UNSPECIFIED,
				 IBV_TRANSPORT_UNSPECIFIED),
	       DEVICE_UD_OTHER, "unspecified (e.g. EFA): not IB or RoCE");
	is_int(device_ud_support(IBV_NODE_UNKNOWN, IBV_TRANSPORT_IWARP),
	       DEVICE_UD_IWARP, "unknown node type: the transport decides");
	is_int(device_ud_support(IBV_NODE_UNKNOWN, IBV_TRANSPORT_IB),
	       DEVICE_UD_OK, "unknown node type, IB transport: UD");
	ok(device_ud_reason(DEVICE_UD_OK) == NULL, "no reason when fine");
	ok(strstr(device_ud_reason(DEVICE_UD_IWARP), "iWARP has no UD QPs"),
	   "iWARP named: %s", device_ud_reason(DEVICE_UD_IWARP));
	is_str(device_transport_name(IBV_TRANSPORT_IWARP), "iWARP", "name");
}

static struct port_info active_port = {
	.port_num = 1, .state = IBV_PORT_ACTIVE, .link_layer = LINK_LAYER_IB,
};
static struct port_info roce_port = {
	.port_num = 1, .state = IBV_PORT_ACTIVE,
	.link_layer = LINK_LAYER_ETHERNET,
};

/* broken (could not be opened), iw0 (iWARP, ACTIVE), mlx5_1 (IB). */
static void make_list(struct device_list *list, struct device_info *devs)
{
	memset(devs, 0, 3 * sizeof(*devs));
	strcpy(devs[0].name, "mlx5_0");
	devs[0].node_type = IBV_NODE_CA;
	devs[0].transport = IBV_TRANSPORT_IB;
	devs[0].ud = DEVICE_UD_OK;
	strcpy(devs[0].error, "cannot open mlx5_0: Permission denied");
	devs[0].error_errno = 13;
	strcpy(devs[1].name, "iw0");
	devs[1].node_type = IBV_NODE_RNIC;
	devs[1].transport = IBV_TRANSPORT_IWARP;
	devs[1].ud = DEVICE_UD_IWARP;
	devs[1].port_count = 1;
	devs[1].ports = &roce_port;
	strcpy(devs[2].name, "mlx5_1");
	devs[2].node_type = IBV_NODE_CA;
	devs[2].transport = IBV_TRANSPORT_IB;
	devs[2].ud = DEVICE_UD_OK;
	devs[2].port_count = 1;
	devs[2].ports = &active_port;
	list->count = 3;
	list->devices = devs;
}

static void test_pick(void)
{
	struct device_info devs[3];
	struct device_list list;
	const struct device_info *dev = NULL;
	const struct port_info *p;
	char err[256] = "";

	make_list(&list, devs);
	p = device_pick_port(&list, NULL, 0, &dev, err, sizeof(err));
	ok(p == &active_port && dev == &devs[2],
	   "automatic choice: past the broken and the iWARP device to mlx5_1");
	p = device_pick_port(&list, NULL, 1, &dev, err, sizeof(err));
	ok(p == &active_port && dev == &devs[2], "-P 1 alone: the same");

	p = device_pick_port(&list, "iw0", 0, &dev, err, sizeof(err));
	ok(p == NULL, "-d iw0: refused");
	ok(strstr(err, "iw0 is an iWARP device: iWARP has no UD QPs") != NULL,
	   "says why: %s", err);
	p = device_pick_port(&list, "mlx5_0", 0, &dev, err, sizeof(err));
	ok(p == NULL, "-d of the device that could not be opened: refused");
	is_str(err, "cannot open mlx5_0: Permission denied", "with its error");

	list.count = 2;		/* only the broken and the iWARP device */
	p = device_pick_port(&list, NULL, 0, &dev, err, sizeof(err));
	ok(p == NULL, "nothing usable: none picked");
	ok(strstr(err, "no ACTIVE port (mlx5_0 skipped: it could not be "
		       "read)") != NULL, "names what was skipped: %s", err);

	devs[1].ud = DEVICE_UD_OK;	/* were it RoCE... */
	p = device_pick_port(&list, NULL, 0, &dev, err, sizeof(err));
	ok(p == &roce_port, "a RoCE port is picked like any");
}

int main(void)
{
	test_ud_support();
	test_pick();
	return tap_done();
}
