/* GID text form and classification. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "base/gid.h"

const char *gid_format(const union ibv_gid *gid, char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, gid->raw, buf, len))
		snprintf(buf, len, "?");
	return buf;
}

const char *gid_format_address(const union ibv_gid *gid, char *buf,
			       size_t len)
{
	if (!gid_is_ipv4_mapped(gid))
		return gid_format(gid, buf, len);
	if (!inet_ntop(AF_INET, &gid->raw[12], buf, len))
		snprintf(buf, len, "?");
	return buf;
}

bool gid_is_zero(const union ibv_gid *gid)
{
	static const uint8_t zero[16];

	return memcmp(gid->raw, zero, sizeof(zero)) == 0;
}

bool gid_is_ipv4_mapped(const union ibv_gid *gid)
{
	static const uint8_t prefix[12] = { [10] = 0xff, [11] = 0xff };

	return memcmp(gid->raw, prefix, sizeof(prefix)) == 0;
}

bool gid_is_link_local(const union ibv_gid *gid)
{
	/* fe80::/10, the default IB subnet prefix fe80::/64 included. */
	return gid->raw[0] == 0xfe && (gid->raw[1] & 0xc0) == 0x80;
}

bool gid_is_multicast(const union ibv_gid *gid)
{
	return gid->raw[0] == 0xff;
}
