/* Unit tests of the device decisions that need no device: which devices
 * can run UD probes (node type and transport as libibverbs' try_driver()
 * sets them), and the port choice over a list with a device that could
 * not be opened and an iWARP device ahead of an InfiniBand one, and the
 * note that says so whenever the choice is not the first device's first
 * port (no silent fallback). */
#include <string.h>

#include "verbs/device.h"
#include "base/diag.h"
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
	ok(strstr(device_ud_reason(DEVICE_UD_HNS_HIP08),
		  "unsupported hardware: hns HIP08 cannot create UD QPs or AHs"),
	   "hns HIP08 named as unsupported hardware: %s",
	   device_ud_reason(DEVICE_UD_HNS_HIP08));
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
	p = device_pick_port(&list, NULL, 0, &dev, NULL, 0, err, sizeof(err));
	ok(p == &active_port && dev == &devs[2],
	   "automatic choice: past the broken and the iWARP device to mlx5_1");
	p = device_pick_port(&list, NULL, 1, &dev, NULL, 0, err, sizeof(err));
	ok(p == &active_port && dev == &devs[2], "-P 1 alone: the same");

	p = device_pick_port(&list, "iw0", 0, &dev, NULL, 0, err, sizeof(err));
	ok(p == NULL, "-d iw0: refused");
	ok(strstr(err, "iw0 is an iWARP device: iWARP has no UD QPs") != NULL,
	   "says why: %s", err);
	p = device_pick_port(&list, "mlx5_0", 0, &dev, NULL, 0, err, sizeof(err));
	ok(p == NULL, "-d of the device that could not be opened: refused");
	is_str(err, "cannot open mlx5_0: Permission denied", "with its error");

	list.count = 2;		/* only the broken and the iWARP device */
	p = device_pick_port(&list, NULL, 0, &dev, NULL, 0, err, sizeof(err));
	ok(p == NULL, "nothing usable: none picked");
	ok(strstr(err, "no ACTIVE port (mlx5_0 skipped: it could not be "
		       "read)") != NULL, "names what was skipped: %s", err);

	devs[1].ud = DEVICE_UD_OK;	/* were it RoCE... */
	p = device_pick_port(&list, NULL, 0, &dev, NULL, 0, err, sizeof(err));
	ok(p == &roce_port, "a RoCE port is picked like any");
}

/* Two RoCE devices of two ports each; which are up is set per case. */
static struct port_info ports0[2], ports1[2];

static void make_two(struct device_list *list, struct device_info *devs,
		     enum ibv_port_state s00, enum ibv_port_state s01,
		     enum ibv_port_state s10, enum ibv_port_state s11)
{
	memset(devs, 0, 2 * sizeof(*devs));
	for (int d = 0; d < 2; d++) {
		struct port_info *p = d ? ports1 : ports0;

		snprintf(devs[d].name, sizeof(devs[d].name), "rxe%d", d);
		devs[d].node_type = IBV_NODE_CA;
		devs[d].transport = IBV_TRANSPORT_IB;
		devs[d].ud = DEVICE_UD_OK;
		devs[d].port_count = 2;
		devs[d].ports = p;
		memset(p, 0, 2 * sizeof(*p));
		p[0].port_num = 1;
		p[1].port_num = 2;
		p[0].link_layer = p[1].link_layer = LINK_LAYER_ETHERNET;
	}
	ports0[0].state = s00;
	ports0[1].state = s01;
	ports1[0].state = s10;
	ports1[1].state = s11;
	list->count = 2;
	list->devices = devs;
}

static void test_note(void)
{
	struct device_info devs[3];
	struct device_list list;
	const struct device_info *dev = NULL;
	const struct port_info *p;
	char err[256] = "", note[DIAG_MSG_MAX] = "junk";
	const enum ibv_port_state up = IBV_PORT_ACTIVE, down = IBV_PORT_DOWN;

	make_two(&list, devs, up, up, up, up);
	p = device_pick_port(&list, NULL, 0, &dev, note, sizeof(note), err,
			     sizeof(err));
	ok(p == &ports0[0], "all up: the first device's first port");
	is_str(note, "", "no note when the first is taken");

	make_two(&list, devs, down, down, up, up);
	p = device_pick_port(&list, NULL, 0, &dev, note, sizeof(note), err,
			     sizeof(err));
	ok(p == &ports1[0] && dev == &devs[1], "first device down: the next");
	is_str(note, "using rxe1 port 1: rxe0 port 1 is DOWN",
	       "the note names both");

	make_two(&list, devs, down, up, up, up);
	p = device_pick_port(&list, NULL, 0, &dev, note, sizeof(note), err,
			     sizeof(err));
	ok(p == &ports0[1], "first port down: the device's next port");
	is_str(note, "using rxe0 port 2: rxe0 port 1 is DOWN",
	       "another port of the first device is noted too");

	make_two(&list, devs, down, up, up, up);
	p = device_pick_port(&list, "rxe0", 0, &dev, note, sizeof(note), err,
			     sizeof(err));
	ok(p == &ports0[1], "-d alone: its first ACTIVE port");
	is_str(note, "using rxe0 port 2: rxe0 port 1 is DOWN",
	       "-d alone leaves the port to us: noted");

	make_two(&list, devs, down, down, up, up);
	p = device_pick_port(&list, "rxe0", 0, &dev, note, sizeof(note), err,
			     sizeof(err));
	ok(p == NULL, "-d with every port down: none (exit 3), no fallback");
	ok(strstr(err, "no ACTIVE port on rxe0") != NULL, "says so: %s", err);
	is_str(note, "", "no note on failure");

	make_two(&list, devs, down, down, up, up);
	p = device_pick_port(&list, "rxe0", 1, &dev, note, sizeof(note), err,
			     sizeof(err));
	ok(p == &ports0[0], "-d and -P: that port, whatever its state");
	is_str(note, "", "asked for: no note");

	make_two(&list, devs, down, down, up, up);
	p = device_pick_port(&list, NULL, 2, &dev, note, sizeof(note), err,
			     sizeof(err));
	ok(p == &ports0[1], "-P 2 alone: the first device's port 2");
	is_str(note, "", "the first device has it: no note");

	make_list(&list, devs);
	p = device_pick_port(&list, NULL, 0, &dev, note, sizeof(note), err,
			     sizeof(err));
	ok(p == &active_port, "past the broken and the iWARP device");
	is_str(note, "using mlx5_1 port 1: mlx5_0 could not be read",
	       "the device skipped first is named");
	devs[0].error[0] = '\0';
	devs[0].port_count = 0;
	p = device_pick_port(&list, NULL, 0, &dev, note, sizeof(note), err,
			     sizeof(err));
	ok(p == &active_port && strcmp(dev->name, "mlx5_1") == 0,
	   "a device without ports and the iWARP device: mlx5_1");
	is_str(note, "using mlx5_1 port 1: mlx5_0 has no port",
	       "a device without ports is passed over, noted");
	memmove(&devs[0], &devs[1], 2 * sizeof(devs[0]));
	list.count = 2;
	p = device_pick_port(&list, NULL, 1, &dev, note, sizeof(note), err,
			     sizeof(err));
	ok(p == &active_port, "-P 1 alone, iWARP device first");
	ok(strncmp(note, "using mlx5_1 port 1: iw0 cannot run UD probes (iWARP "
		     "has no UD QPs", 61) == 0,
	   "-P alone: the device was still chosen by us: %s", note);
}

int main(void)
{
	test_ud_support();
	test_pick();
	test_note();
	return tap_done();
}
