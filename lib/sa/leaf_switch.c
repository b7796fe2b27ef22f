/* A port's leaf switch from its LinkRecord and its peer's NodeRecord;
 * see leaf_switch.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strmap.h"
#include "sa/leaf_switch.h"
#include "wire/pathrec.h"
#include "wire/sa_records.h"

enum leaf_status leaf_switch_decide(uint16_t lid, uint8_t port,
				    const uint8_t *link, const uint8_t *node,
				    struct leaf_switch *out)
{
	struct link_record lr;
	struct node_record nr;

	memset(out, 0, sizeof(*out));
	if (lid == 0)
		return out->status = LEAF_NO_LID;
	if (!link)
		return out->status = LEAF_NO_LINK;
	linkrec_decode(link, &lr);
	/* FromLID is the port's base LID, which a LID of its LMC range
	 * need not be; the port number must be the one asked. */
	if (lr.from_port != port || lr.from_lid == 0 || lr.from_lid > lid ||
	    lr.to_lid == 0)
		return out->status = LEAF_SA_FAILED;
	out->lid = lr.to_lid;
	if (!node)
		return out->status = LEAF_SA_FAILED;
	noderec_decode(node, &nr);
	if (nr.lid != lr.to_lid)
		return out->status = LEAF_SA_FAILED;
	out->peer_type = nr.node_type;
	if (nr.node_type != NODE_TYPE_SWITCH)
		return out->status = LEAF_NOT_SWITCH;
	out->node_guid = nr.node_guid;
	memcpy(out->description, nr.description, sizeof(out->description));
	/* NodeDescription is NUL-padded; some firmware pads with blanks. */
	for (size_t len = strlen(out->description);
	     len && (out->description[len - 1] == ' ' ||
		     out->description[len - 1] == '\t');)
		out->description[--len] = '\0';
	return out->status = LEAF_FOUND;
}

uint16_t leaf_switch_peer_lid(const uint8_t *link)
{
	struct link_record lr;

	linkrec_decode(link, &lr);
	return lr.to_lid;
}

static int by_description_then_guid(const void *a, const void *b, void *arg)
{
	const struct leaf_switch *leaves = arg;
	const struct leaf_switch *x = &leaves[*(const size_t *)a];
	const struct leaf_switch *y = &leaves[*(const size_t *)b];
	int c = strcmp(x->description, y->description);

	if (c)
		return c;
	return (x->node_guid > y->node_guid) - (x->node_guid < y->node_guid);
}

static char *name_of(const struct leaf_switch *l, int shared)
{
	char *name;
	int rc;

	if (!l->description[0])
		rc = asprintf(&name, "switch 0x%016llx",
			      (unsigned long long)l->node_guid);
	else if (shared)
		rc = asprintf(&name, "%s (0x%016llx)", l->description,
			      (unsigned long long)l->node_guid);
	else
		rc = asprintf(&name, "%s", l->description);
	return rc < 0 ? NULL : name;
}

/* A description taken as it is may read like another switch's name with
 * its GUID ("D (0xG)" beside the switch G described "D" that shares "D"
 * with a third), or like "switch 0xG": such a switch gets its GUID added
 * too. Names with a GUID are unique among themselves (each ends in its
 * own, of fixed width), so adding one can only clash with a name taken as
 * it is: repeat until nothing clashes, each turn qualifying one more.
 * 0, or -1 when memory ran out. */
static int names_unique(const struct leaf_switch *leaves, const size_t *order,
			size_t found, char **names, bool *qualified)
{
	for (bool clash = true; clash;) {
		struct strmap taken = { 0 };

		clash = false;
		/* Qualified names first: they stay; a plain one yields. */
		for (int pass = 1; pass >= 0; pass--)
			for (size_t k = 0; k < found; k++) {
				size_t i = order[k];
				const struct leaf_switch *owner;
				void **slot;

				if (qualified[i] != (pass == 1))
					continue;
				slot = strmap_slot(&taken, names[i]);
				if (!slot) {
					strmap_free(&taken);
					return -1;
				}
				owner = *slot;
				if (!owner) {
					*slot = (void *)&leaves[i];
					continue;
				}
				if (owner->node_guid == leaves[i].node_guid ||
				    pass == 1)
					continue;
				free(names[i]);
				names[i] = name_of(&leaves[i], 1);
				qualified[i] = true;
				clash = true;
				if (!names[i]) {
					strmap_free(&taken);
					return -1;
				}
			}
		strmap_free(&taken);
	}
	return 0;
}

int leaf_switch_names(const struct leaf_switch *leaves, size_t n,
		      char **names)
{
	size_t *order = malloc((n ? n : 1) * sizeof(*order)), found = 0;
	bool *qualified = calloc(n ? n : 1, sizeof(*qualified));

	for (size_t i = 0; i < n; i++)
		names[i] = NULL;
	if (!order || !qualified) {
		free(order);
		free(qualified);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (leaves[i].status == LEAF_FOUND)
			order[found++] = i;
	qsort_r(order, found, sizeof(*order), by_description_then_guid,
		(void *)leaves);
	/* One run per description: shared when its GUIDs differ. */
	for (size_t start = 0, end; start < found; start = end) {
		const struct leaf_switch *first = &leaves[order[start]];
		int shared = 0;

		for (end = start + 1; end < found &&
		     strcmp(leaves[order[end]].description,
			    first->description) == 0; end++)
			shared |= leaves[order[end]].node_guid !=
				  first->node_guid;
		for (size_t k = start; k < end; k++) {
			qualified[order[k]] = shared || !first->description[0];
			names[order[k]] = name_of(&leaves[order[k]], shared);
			if (!names[order[k]])
				goto oom;
		}
	}
	if (names_unique(leaves, order, found, names, qualified))
		goto oom;
	free(qualified);
	free(order);
	return 0;
oom:
	free(qualified);
	for (size_t i = 0; i < n; i++) {
		free(names[i]);
		names[i] = NULL;
	}
	free(order);
	return -1;
}

const char *leaf_status_reason(enum leaf_status status)
{
	switch (status) {
	case LEAF_FOUND:
		return "on a leaf switch";
	case LEAF_NO_LID:
		return "with no LID in their results (RoCE, or a probe "
		       "older than source.lid)";
	case LEAF_NO_LINK:
		/* The host sent results, so its port is up: an absent
		 * LinkRecord is opensm hiding it from this requester
		 * (osm_sa_link_record.c lr_rcv_get_physp_link answers only
		 * links whose ends share a P_Key with it), not a cable. */
		return "whose LinkRecord the SA does not give (hidden by the "
		       "SA: no shared partition with this host)";
	case LEAF_NOT_SWITCH:
		return "cabled to no switch (back to back, or to a router)";
	case LEAF_SA_FAILED:
		return "whose records the SA did not answer";
	case LEAF_STATUS_COUNT:
		break;
	}
	return "?";
}
