/* serve --mcast's GROUP text; see mcast_spec.h. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/gid.h"
#include "base/mcast_spec.h"
#include "base/mgid.h"
#include "base/parse.h"

bool mcast_gid_is_group(const union ibv_gid *gid)
{
	if (gid_is_ipv4_mapped(gid))
		return (gid->raw[12] & 0xf0) == 0xe0;
	return gid_is_multicast(gid);
}

static const char *family_words(enum mcast_spec_family family)
{
	switch (family) {
	case MCAST_SPEC_IPOIB: return "an InfiniBand (IPoIB) group";
	case MCAST_SPEC_IPV4: return "an IPv4 (RoCE) group";
	case MCAST_SPEC_MGID: break;
	}
	return "a group";
}

/* ipoib[:PKEY], ipoib6[:PKEY]: 1 when text is one (0 when not, -1 bad). */
static int parse_ipoib(const char *text, struct mcast_spec *spec, char *err,
		       size_t errlen)
{
	static const struct {
		const char *name;
		enum ipoib_group group;
	} names[] = {
		{ "ipoib6", IPOIB_GROUP_IPV6_ALL_NODES },
		{ "ipoib", IPOIB_GROUP_IPV4_BROADCAST },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t len = strlen(names[i].name);
		uint16_t pkey = IPOIB_DEFAULT_PKEY;

		if (strncasecmp(text, names[i].name, len) != 0 ||
		    (text[len] != '\0' && text[len] != ':'))
			continue;
		if (text[len] == ':' &&
		    parse_pkey(text + len + 1, &pkey, err, errlen))
			return -1;
		spec->family = MCAST_SPEC_IPOIB;
		ipoib_mgid(names[i].group, pkey, MGID_SCOPE_LINK_LOCAL,
			   &spec->gid);
		return 1;
	}
	return 0;
}

int mcast_spec_parse(const char *text, struct mcast_spec *spec, char *err,
		     size_t errlen)
{
	struct in_addr a4;
	int rc;

	memset(spec, 0, sizeof(*spec));
	if (!*text) {
		snprintf(err, errlen, "an empty group: expected an MGID, "
			 "ipoib[:PKEY], ipoib6[:PKEY] or an IPv4/IPv6 "
			 "multicast address");
		return -1;
	}
	if (strlen(text) >= sizeof(spec->text)) {
		snprintf(err, errlen, "group '%.20s...' is too long", text);
		return -1;
	}
	snprintf(spec->text, sizeof(spec->text), "%s", text);
	rc = parse_ipoib(text, spec, err, errlen);
	if (rc)
		return rc < 0 ? -1 : 0;
	if (inet_pton(AF_INET, text, &a4) == 1) {
		spec->family = MCAST_SPEC_IPV4;
		spec->gid.raw[10] = spec->gid.raw[11] = 0xff;
		memcpy(spec->gid.raw + 12, &a4, 4);
		if (!mcast_gid_is_group(&spec->gid)) {
			snprintf(err, errlen, "group '%s' is not an IPv4 "
				 "multicast address (224.0.0.0/4)", text);
			return -1;
		}
		return 0;
	}
	if (inet_pton(AF_INET6, text, spec->gid.raw) != 1) {
		snprintf(err, errlen, "group '%s' is neither an MGID, "
			 "ipoib[:PKEY], ipoib6[:PKEY] nor an IPv4/IPv6 "
			 "multicast address", text);
		return -1;
	}
	if (!mcast_gid_is_group(&spec->gid)) {
		snprintf(err, errlen, "group '%s' is not multicast (an MGID or "
			 "IPv6 group starts with ff, an IPv4 group is in "
			 "224.0.0.0/4)", text);
		return -1;
	}
	spec->family = gid_is_ipv4_mapped(&spec->gid) ? MCAST_SPEC_IPV4
						      : MCAST_SPEC_MGID;
	return 0;
}

static int add_one(struct mcast_spec_list *list, const char *text, char *err,
		   size_t errlen)
{
	struct mcast_spec spec;

	if (mcast_spec_parse(text, &spec, err, errlen))
		return -1;
	for (size_t i = 0; i < list->count; i++) {
		const struct mcast_spec *had = &list->specs[i];

		if (memcmp(had->gid.raw, spec.gid.raw, 16) == 0) {
			snprintf(err, errlen, "group '%s' is named twice (as "
				 "'%s' before)", text, had->text);
			return -1;
		}
		if ((had->family == MCAST_SPEC_IPOIB &&
		     spec.family == MCAST_SPEC_IPV4) ||
		    (had->family == MCAST_SPEC_IPV4 &&
		     spec.family == MCAST_SPEC_IPOIB)) {
			snprintf(err, errlen, "'%s' is %s and '%s' %s: one "
				 "port is either InfiniBand or RoCE", had->text,
				 family_words(had->family), text,
				 family_words(spec.family));
			return -1;
		}
	}
	if (list->count == MCAST_SPEC_MAX) {
		snprintf(err, errlen, "more than %d groups", MCAST_SPEC_MAX);
		return -1;
	}
	list->specs[list->count++] = spec;
	return 0;
}

int mcast_spec_list_add(struct mcast_spec_list *list, const char *text,
			char *err, size_t errlen)
{
	char item[MCAST_SPEC_TEXT_MAX + 1];
	const char *at = text;

	for (;;) {
		const char *comma = strchr(at, ',');
		size_t len = comma ? (size_t)(comma - at) : strlen(at);

		if (len >= sizeof(item)) {
			snprintf(err, errlen, "group '%.20s...' is too long",
				 at);
			return -1;
		}
		memcpy(item, at, len);
		item[len] = '\0';
		if (add_one(list, item, err, errlen))
			return -1;
		if (!comma)
			return 0;
		at = comma + 1;
	}
}
