/* Unit tests of the leaf-switch decision of report --groups sa: the
 * LinkRecord and NodeRecord bytes as opensm answers them (written out by
 * hand from ib_link_record_t and ib_node_record_t; the values are those
 * saquery showed in the simulated two-switch subnet: H3 at LID 5 port 1,
 * cabled to S2 at LID 3, node GUID 0x200001), every way the answer can
 * fail to give a switch, and the group names, told apart by GUID when
 * two switches share a description. */
#include <stdlib.h>
#include <string.h>

#include "sa/leaf_switch.h"
#include "tap.h"

/* LinkRecord: FromLID, FromPort, ToPort, ToLID, two bytes of padding. */
static void link_bytes(uint8_t *b, uint16_t from_lid, uint8_t from_port,
		       uint8_t to_port, uint16_t to_lid)
{
	memset(b, 0, 8);
	b[0] = (uint8_t)(from_lid >> 8);
	b[1] = (uint8_t)from_lid;
	b[2] = from_port;
	b[3] = to_port;
	b[4] = (uint8_t)(to_lid >> 8);
	b[5] = (uint8_t)to_lid;
}

/* NodeRecord (108 bytes): LID, 2 reserved, then NodeInfo at 4 (base and
 * class version, NodeType at 6, NumPorts at 7, SystemImageGUID at 8,
 * NodeGUID at 16, PortGUID at 24, PartitionCap, DeviceID, Revision,
 * LocalPortNum at 40, VendorID), NodeDescription (64 bytes) at 44. */
static void node_bytes(uint8_t *b, uint16_t lid, uint8_t type,
		       uint64_t guid, const char *desc)
{
	memset(b, 0, 108);
	b[0] = (uint8_t)(lid >> 8);
	b[1] = (uint8_t)lid;
	b[4] = 1;
	b[5] = 1;
	b[6] = type;
	b[7] = type == 2 ? 8 : 1;
	for (int i = 0; i < 8; i++) {
		b[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
		b[16 + i] = (uint8_t)(guid >> (56 - 8 * i));
		b[24 + i] = (uint8_t)((guid + (type != 2)) >> (56 - 8 * i));
	}
	b[33] = 8;
	b[39] = 0xa1;
	b[40] = type == 2 ? 0 : 1;
	memcpy(b + 44, desc, strnlen(desc, 64));
}

static void test_decide(void)
{
	uint8_t link[8], node[108];
	struct leaf_switch l;

	link_bytes(link, 5, 1, 1, 3);
	node_bytes(node, 3, 2, 0x200001, "S2");
	is_int(leaf_switch_peer_lid(link), 3, "the peer to ask: ToLID");
	is_int(leaf_switch_decide(5, 1, link, node, &l), LEAF_FOUND,
	       "a CA port cabled to a switch: found");
	is_str(l.description, "S2", "its NodeDescription");
	ok(l.node_guid == 0x200001, "its node GUID");
	is_int(l.lid, 3, "its LID");
	is_int(l.peer_type, 2, "a switch");

	is_int(leaf_switch_decide(0, 1, link, node, &l), LEAF_NO_LID,
	       "LID 0 (RoCE, an older probe): nothing to ask");
	is_int(leaf_switch_decide(5, 1, NULL, NULL, &l), LEAF_NO_LINK,
	       "no LinkRecord (\"no records\"): no link");
	is_str(leaf_status_reason(LEAF_NO_LINK), "whose LinkRecord the SA "
	       "does not give (hidden by the SA: no shared partition with "
	       "this host)", "no LinkRecord of a host that probed: hidden, "
	       "not a cable");
	is_int(leaf_switch_decide(5, 2, link, node, &l), LEAF_SA_FAILED,
	       "a LinkRecord of another port is no answer");
	link_bytes(link, 5, 1, 1, 0);
	is_int(leaf_switch_decide(5, 1, link, node, &l), LEAF_SA_FAILED,
	       "a link to LID 0 is no answer");
	link_bytes(link, 5, 1, 1, 3);
	is_int(leaf_switch_decide(5, 1, link, NULL, &l), LEAF_SA_FAILED,
	       "a link whose peer has no NodeRecord");
	is_int(l.lid, 3, "... still names the peer");
	node_bytes(node, 4, 2, 0x200001, "S2");
	is_int(leaf_switch_decide(5, 1, link, node, &l), LEAF_SA_FAILED,
	       "a NodeRecord of another LID is no answer");

	node_bytes(node, 3, 1, 0x100006, "H4 mlx5_0");
	is_int(leaf_switch_decide(5, 1, link, node, &l), LEAF_NOT_SWITCH,
	       "a CA at the other end (back to back): no switch");
	is_int(l.peer_type, 1, "... a CA");
	is_str(l.description, "", "... and no name taken");
	node_bytes(node, 3, 3, 0x300000, "R1");
	is_int(leaf_switch_decide(5, 1, link, node, &l), LEAF_NOT_SWITCH,
	       "a router at the other end: no switch");

	/* LMC 2: the port's LIDs are 8-11; opensm's record names base 8. */
	link_bytes(link, 8, 1, 5, 3);
	node_bytes(node, 3, 2, 0x200001, "S2");
	is_int(leaf_switch_decide(9, 1, link, node, &l), LEAF_FOUND,
	       "a LID of the LMC range: the record's FromLID is the base LID");
	link_bytes(link, 10, 1, 5, 3);
	is_int(leaf_switch_decide(9, 1, link, node, &l), LEAF_SA_FAILED,
	       "a FromLID above the LID asked is no answer");

	link_bytes(link, 5, 1, 1, 3);
	node_bytes(node, 3, 2, 0x200001, "leaf-07 rack 3   ");
	leaf_switch_decide(5, 1, link, node, &l);
	is_str(l.description, "leaf-07 rack 3",
	       "trailing blanks of the description dropped");
	node_bytes(node, 3, 2, 0x200001,
		   "0123456789012345678901234567890123456789012345678901234567890123");
	leaf_switch_decide(5, 1, link, node, &l);
	is_int(strlen(l.description), 64,
	       "a description of all 64 bytes, with no NUL, kept whole");
}

static struct leaf_switch found(uint64_t guid, const char *desc)
{
	struct leaf_switch l = { .status = LEAF_FOUND, .node_guid = guid };

	snprintf(l.description, sizeof(l.description), "%s", desc);
	return l;
}

static void test_names(void)
{
	struct leaf_switch leaves[7] = {
		found(0x200000, "S1"),
		found(0x200001, "leaf"),
		found(0x200000, "S1"),	/* S1 seen through another port */
		{ .status = LEAF_NO_LINK },
		found(0x200002, "leaf"),
		found(0x200003, ""),
		found(0x200004, "S1\x1b[2J"),
	};
	char *names[7];

	is_int(leaf_switch_names(leaves, 7, names), 0, "names made");
	is_str(names[0], "S1", "a description of one switch: as it is");
	is_str(names[2], "S1", "the same switch through two ports: one name");
	is_str(names[1], "leaf (0x0000000000200001)",
	       "two switches sharing a description: the GUID added");
	is_str(names[4], "leaf (0x0000000000200002)", "... to both");
	ok(names[3] == NULL, "a port without a leaf: no name");
	is_str(names[5], "switch 0x0000000000200003",
	       "an empty description: named by GUID");
	is_str(names[6], "S1\x1b[2J",
	       "control characters kept: the renderers escape them");
	for (int i = 0; i < 7; i++)
		free(names[i]);
	is_int(leaf_switch_names(leaves, 0, names), 0, "no leaf: no name");
}

/* Descriptions that read like other switches' names: "D (0xGUID)" of
 * the switch of that GUID, which shares "D" with a third and so is named
 * "D (0xGUID)" itself; "switch 0xGUID" of a switch without one; and a
 * chain where qualifying one name makes it clash with the next. Every
 * switch (every GUID) gets a name of its own. */
static void test_names_unique(void)
{
	struct leaf_switch leaves[8] = {
		found(0x300001, "D"),
		found(0x300002, "D"),
		found(0x300003, "D (0x0000000000300001)"),
		found(0x300004, ""),
		found(0x300005, "switch 0x0000000000300004"),
		found(0x300006, "E"),
		found(0x300007, "E (0x0000000000300006)"),
		found(0x300008, "E (0x0000000000300006) (0x0000000000300007)"),
	};
	/* with "E" shared with a ninth switch, the chain runs through */
	struct leaf_switch chain[9];
	char *names[9];
	bool distinct = true;

	is_int(leaf_switch_names(leaves, 8, names), 0, "unique: names made");
	is_str(names[0], "D (0x0000000000300001)", "unique: D shared, GUID added");
	is_str(names[2], "D (0x0000000000300001) (0x0000000000300003)",
	       "unique: a description that reads like it gets its GUID too");
	is_str(names[4], "switch 0x0000000000300004 (0x0000000000300005)",
	       "unique: a description like a GUID name gets its GUID");
	is_str(names[5], "E", "unique: a description of one switch as it is");
	is_str(names[6], "E (0x0000000000300006)",
	       "unique: that one is no clash while E is no shared name");
	for (int i = 0; i < 8; i++)
		for (int j = i + 1; j < 8; j++)
			distinct = distinct && strcmp(names[i], names[j]) != 0;
	ok(distinct, "unique: eight switches, eight names");
	for (int i = 0; i < 8; i++)
		free(names[i]);

	memcpy(chain, leaves + 5, 3 * sizeof(*chain));
	chain[3] = found(0x300009, "E");
	is_int(leaf_switch_names(chain, 4, names), 0, "chain: names made");
	distinct = true;
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			distinct = distinct && strcmp(names[i], names[j]) != 0;
	ok(distinct, "chain: four switches, four names");
	is_str(names[2],
	       "E (0x0000000000300006) (0x0000000000300007) (0x0000000000300008)",
	       "chain: each clash qualified in turn");
	for (int i = 0; i < 4; i++)
		free(names[i]);
}

int main(void)
{
	test_decide();
	test_names();
	test_names_unique();
	return tap_done();
}
