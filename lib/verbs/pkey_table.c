/* P_Key tables: the lookup the kernel does, and reading the table. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/umad.h>
#include <infiniband/verbs.h>

#include "base/parse.h"
#include "verbs/pkey_table.h"

int pkey_table_find(const struct pkey_table *t, uint16_t pkey)
{
	int limited = -1;

	if ((pkey & PKEY_BASE_MASK) == 0)
		return -1;
	for (size_t i = 0; i < t->count; i++) {
		if (!pkey_same_partition(t->keys[i], pkey))
			continue;
		if (t->keys[i] & PKEY_FULL_MEMBER)
			return (int)i;
		if (limited < 0)
			limited = (int)i;
	}
	return limited;
}

enum pkey_membership pkey_table_membership(const struct pkey_table *t,
					   uint16_t pkey)
{
	int i;

	if (!t)
		return PKEY_MEMBER_UNKNOWN;
	i = pkey_table_find(t, pkey);
	if (i < 0)
		return PKEY_MEMBER_NONE;
	return t->keys[i] & PKEY_FULL_MEMBER ? PKEY_MEMBER_FULL
					     : PKEY_MEMBER_LIMITED;
}

bool pkey_same_partition(uint16_t a, uint16_t b)
{
	return (a & PKEY_BASE_MASK) == (b & PKEY_BASE_MASK);
}

int pkey_parse_partition(const char *text, uint16_t *pkey, char *err,
			 size_t errlen)
{
	if (parse_pkey(text, pkey, err, errlen))
		return -1;
	if ((*pkey & PKEY_BASE_MASK) == 0) {
		snprintf(err, errlen, "p_key '%s' names no partition: its low "
			 "15 bits are 0 (expected 0x0001-0x7fff, with bit 15 "
			 "for full membership)", text);
		return -1;
	}
	return 0;
}

static int read_verbs(const struct device_info *dev, uint8_t port,
		      struct pkey_table *t, char *err, size_t errlen)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_port_attr pa;
	int n, rc = -1;

	list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n && !ctx; i++)
		if (strcmp(ibv_get_device_name(list[i]), dev->name) == 0)
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!ctx) {
		snprintf(err, errlen, "cannot open %s to read its P_Key table: "
			 "%s", dev->name, strerror(errno ? errno : ENODEV));
		return -1;
	}
	if (ibv_query_port(ctx, port, &pa)) {
		snprintf(err, errlen, "cannot query %s port %u: %s", dev->name,
			 port, strerror(errno));
		goto out;
	}
	for (uint16_t i = 0; i < pa.pkey_tbl_len && i < PKEY_TABLE_MAX; i++) {
		__be16 key;

		if (ibv_query_pkey(ctx, port, i, &key)) {
			snprintf(err, errlen, "cannot read P_Key %u of %s port "
				 "%u: %s", i, dev->name, port, strerror(errno));
			goto out;
		}
		t->keys[t->count++] = ntohs(key);	/* the wire's order */
	}
	rc = 0;
out:
	ibv_close_device(ctx);
	return rc;
}

static int read_umad(const struct device_info *dev, uint8_t port,
		     struct pkey_table *t, char *err, size_t errlen)
{
	umad_port_t up;

	if (umad_get_port(dev->name, port, &up) < 0) {
		snprintf(err, errlen, "cannot read the P_Key table of %s port "
			 "%u through umad", dev->name, port);
		return -1;
	}
	for (unsigned i = 0; i < up.pkeys_size && i < PKEY_TABLE_MAX; i++)
		t->keys[t->count++] = up.pkeys[i];
	umad_release_port(&up);
	return 0;
}

int pkey_table_read(const struct device_info *dev, uint8_t port,
		    struct pkey_table *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	return dev->source == DEVICE_FROM_VERBS
		       ? read_verbs(dev, port, t, err, errlen)
		       : read_umad(dev, port, t, err, errlen);
}
