/* Parsing of destination specs and destination lists (files, stdin). */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>

#include "base/dest.h"
#include "base/diag.h"
#include "base/gid.h"
#include "base/line_reader.h"
#include "base/mgid.h"
#include "base/parse.h"

/* Longest spec we accept: a node description is at most 64 bytes. */
#define DEST_TEXT_MAX 256
/* A list file of more lines than this is a mistake (/dev/zero, an
 * endless pipe), not a fabric. */
#define DEST_LIST_MAX_LINES 1000000

const char *dest_kind_name(enum dest_kind kind)
{
	switch (kind) {
	case DEST_LID: return "lid";
	case DEST_GID: return "gid";
	case DEST_GUID: return "guid";
	case DEST_NODE: return "node";
	case DEST_ADDR: return "addr";
	case DEST_HOST: return "host";
	case DEST_MCAST: return "mcast";
	}
	return "?";
}

/* Prefixes are case-insensitive: "LID:5" is a LID, not host "LID" port 5. */
static bool starts_with(const char *text, const char *prefix)
{
	return strncasecmp(text, prefix, strlen(prefix)) == 0;
}

static bool looks_numeric(const char *text)
{
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		return true;
	for (; *text; text++)
		if (!isdigit((unsigned char)*text))
			return false;
	return true;
}

/* RFC 1123 host names; anything else is a typo, not a DNS query. The last
 * label is never all digits (RFC 3696), so "10.0.0.256" or "1.2.3" is a
 * mistyped address; getaddrinfo would take "1.2.3" for 1.2.0.3. */
static bool valid_host_name(const char *name)
{
	size_t len = strlen(name);
	const char *last = strrchr(name, '.');
	bool digits_only = true;

	if (len == 0 || len > 253 || name[0] == '-' || name[0] == '.')
		return false;
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '.' &&
		    *c != '_')
			return false;
	for (const char *c = last ? last + 1 : name; *c; c++)
		if (!isdigit((unsigned char)*c))
			digits_only = false;
	return !digits_only;
}

/* Splits "host:PORT" and "[v6]:PORT"; a bare IPv6 literal has no port. */
static int split_port(char *text, char **host, struct dest *dest, char *err,
		      size_t errlen)
{
	char *colon, *close;
	uint32_t port;

	*host = text;
	if (text[0] == '[') {
		close = strchr(text, ']');
		if (!close) {
			snprintf(err, errlen,
				 "destination '%s' has no closing ']'", text);
			return -1;
		}
		*close = '\0';
		*host = text + 1;
		if (close[1] == '\0')
			return 0;
		if (close[1] != ':') {
			snprintf(err, errlen,
				 "destination '%s]%s' has junk after ']'",
				 text, close + 1);
			return -1;
		}
		colon = close + 1;
	} else {
		colon = strchr(text, ':');
		/* Two colons or more: an IPv6 literal, not host:port. */
		if (!colon || strchr(colon + 1, ':'))
			return 0;
		*colon = '\0';
	}
	if (parse_u32(colon + 1, "port", 1, 65535, &port, err, errlen))
		return -1;
	dest->has_port = true;
	dest->port = (uint16_t)port;
	return 0;
}

/* "fe80::2%eth1": a scope means something for an IPv6 link-local address
 * only, and names an interface of this host. */
static int parse_scope(const char *host, const char *scope, struct dest *dest,
		       char *err, size_t errlen)
{
	unsigned char v6[16];

	if (inet_pton(AF_INET6, host, v6) != 1 || v6[0] != 0xfe ||
	    (v6[1] & 0xc0) != 0x80) {
		snprintf(err, errlen, "destination '%s': a scope (%%IF) goes "
			 "with an IPv6 link-local address only", dest->text);
		return -1;
	}
	if (!*scope || strlen(scope) >= sizeof(dest->scope) ||
	    !if_nametoindex(scope)) {
		snprintf(err, errlen, "destination '%s': no interface '%s' on "
			 "this host ('ip link' lists them)", dest->text, scope);
		return -1;
	}
	snprintf(dest->scope, sizeof(dest->scope), "%s", scope);
	return 0;
}

static int parse_address_or_host(char *text, struct dest *dest, char *err,
				 size_t errlen)
{
	char *host, *percent;
	struct in_addr v4;

	if (split_port(text, &host, dest, err, errlen))
		return -1;
	percent = strchr(host, '%');
	if (percent) {
		*percent = '\0';
		if (parse_scope(host, percent + 1, dest, err, errlen))
			return -1;
	}
	if (inet_pton(AF_INET6, host, dest->gid.raw) == 1 ||
	    inet_pton(AF_INET, host, &v4) == 1) {
		if (parse_gid(host, &dest->gid, err, errlen))
			return -1;
		dest->kind = DEST_ADDR;
		dest->has_gid = true;
		return 0;
	}
	if (strchr(host, ':')) {
		snprintf(err, errlen,
			 "destination '%s' is not a valid IPv6 address (an "
			 "address with a port is written [ADDR]:PORT)",
			 dest->text);
		return -1;
	}
	if (!valid_host_name(host)) {
		snprintf(err, errlen,
			 "destination '%s' is not a LID, GID, address or host "
			 "name: expected lid:N, gid:ADDR, guid:0x..., "
			 "node:NAME, an address or a host name",
			 dest->text);
		return -1;
	}
	dest->kind = DEST_HOST;
	dest->name = strdup(host);
	if (!dest->name) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* mcast:MGID, mcast:ipoib[:PKEY], mcast:ipoib6[:PKEY]; on RoCE an IPv6
 * group is an MGID too (mcast:ff0e::1234), an IPv4 one mcast:239.1.2.3. */
static int parse_mcast(const char *spec, struct dest *dest, char *err,
		       size_t errlen)
{
	static const struct {
		const char *name;
		enum ipoib_group group;
	} ipoib[] = {
		{ "ipoib6", IPOIB_GROUP_IPV6_ALL_NODES },
		{ "ipoib", IPOIB_GROUP_IPV4_BROADCAST },
	};

	dest->kind = DEST_MCAST;
	for (size_t i = 0; i < sizeof(ipoib) / sizeof(ipoib[0]); i++) {
		size_t len = strlen(ipoib[i].name);

		if (strncasecmp(spec, ipoib[i].name, len) != 0 ||
		    (spec[len] != '\0' && spec[len] != ':'))
			continue;
		dest->pkey = IPOIB_DEFAULT_PKEY;
		if (spec[len] == ':' &&
		    parse_pkey(spec + len + 1, &dest->pkey, err, errlen))
			return -1;
		ipoib_mgid(ipoib[i].group, dest->pkey, MGID_SCOPE_LINK_LOCAL,
			   &dest->gid);
		return 0;
	}
	if (!*spec) {
		snprintf(err, errlen, "'%s' names no group: expected "
			 "mcast:MGID, mcast:ipoib[:PKEY] or "
			 "mcast:ipoib6[:PKEY]", dest->text);
		return -1;
	}
	if (parse_gid(spec, &dest->gid, err, errlen))
		return -1;
	/* RoCE: an IPv4 group's GID is its IPv4-mapped address (the
	 * kernel's ib_resolve_eth_dmac maps it to 01:00:5e:...). */
	if (gid_is_ipv4_mapped(&dest->gid)) {
		if ((dest->gid.raw[12] & 0xf0) == 0xe0)
			return 0;
		snprintf(err, errlen, "'%s' is not a multicast address (IPv4 "
			 "groups are in 224.0.0.0/4)", spec);
		return -1;
	}
	if (!gid_is_multicast(&dest->gid)) {
		snprintf(err, errlen, "'%s' is not a multicast GID (an MGID "
			 "starts with ff)", spec);
		return -1;
	}
	return 0;
}

static int parse_spec(char *text, struct dest *dest, char *err, size_t errlen)
{
	uint64_t guid;

	if (starts_with(text, "lid:") || looks_numeric(text)) {
		dest->kind = DEST_LID;
		return parse_lid(text + (starts_with(text, "lid:") ? 4 : 0),
				 &dest->lid, err, errlen);
	}
	if (starts_with(text, "gid:")) {
		dest->kind = DEST_GID;
		dest->has_gid = true;
		return parse_gid(text + 4, &dest->gid, err, errlen);
	}
	if (starts_with(text, "guid:")) {
		dest->kind = DEST_GUID;
		if (parse_u64_hex(text + 5, "port guid", 1, UINT64_MAX, &guid,
				  err, errlen))
			return -1;
		dest->guid = guid;
		return 0;
	}
	if (starts_with(text, "mcast:"))
		return parse_mcast(text + 6, dest, err, errlen);
	if (starts_with(text, "node:")) {
		dest->kind = DEST_NODE;
		/* NodeDescription is 64 bytes on the wire. */
		if (!text[5] || strlen(text + 5) > 64) {
			snprintf(err, errlen,
				 "node name in '%s' must be 1-64 characters",
				 dest->text);
			return -1;
		}
		dest->name = strdup(text + 5);
		if (!dest->name) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		return 0;
	}
	return parse_address_or_host(text, dest, err, errlen);
}

int dest_parse(const char *text, struct dest *dest, char *err, size_t errlen)
{
	char *work;
	int rc;

	memset(dest, 0, sizeof(*dest));
	if (!text || !*text) {
		snprintf(err, errlen, "destination is empty");
		return -1;
	}
	if (strlen(text) > DEST_TEXT_MAX) {
		snprintf(err, errlen, "destination is longer than %d characters",
			 DEST_TEXT_MAX);
		return -1;
	}
	dest->text = strdup(text);
	work = strdup(text);
	if (!dest->text || !work) {
		free(work);
		dest_clear(dest);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = parse_spec(work, dest, err, errlen);
	free(work);
	if (rc)
		dest_clear(dest);
	return rc;
}

int dest_resolve_host(struct dest *dest, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM };
	struct addrinfo *res, *ai;
	int rc;

	if (dest->kind != DEST_HOST)
		return 0;
	rc = getaddrinfo(dest->name, NULL, &hints, &res);
	if (rc) {
		snprintf(err, errlen, "cannot resolve host '%s': %s",
			 dest->name, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		char text[INET6_ADDRSTRLEN];
		const void *addr;

		if (ai->ai_family == AF_INET6)
			addr = &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr;
		else if (ai->ai_family == AF_INET)
			addr = &((struct sockaddr_in *)ai->ai_addr)->sin_addr;
		else
			continue;
		inet_ntop(ai->ai_family, addr, text, sizeof(text));
		if (parse_gid(text, &dest->gid, err, errlen) == 0) {
			dest->has_gid = true;
			break;
		}
	}
	freeaddrinfo(res);
	if (!dest->has_gid) {
		snprintf(err, errlen, "host '%s' has no IPv4 or IPv6 address",
			 dest->name);
		return -1;
	}
	return 0;
}

void dest_clear(struct dest *dest)
{
	free(dest->text);
	free(dest->name);
	free(dest->error);
	memset(dest, 0, sizeof(*dest));
}

/* A spec that does not parse, kept as it was typed with why: 0, or -1
 * with err set when there is no memory for it. */
static int keep_invalid(struct dest *d, const char *text, const char *why,
			char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->text = strdup(text ? text : "");
	d->error = strdup(why);
	if (!d->text || !d->error) {
		dest_clear(d);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int dest_list_add(struct dest_list *list, const char *text, char *err,
		  size_t errlen)
{
	struct dest parsed, *grown;

	if (dest_parse(text, &parsed, err, errlen) &&
	    (!list->keep_invalid || strcmp(err, "out of memory") == 0 ||
	     keep_invalid(&parsed, text, err, err, errlen)))
		return -1;
	/* Doubling: lists of 100,000 destinations are read one at a time. */
	if (list->count == list->capacity) {
		size_t capacity = list->capacity ? 2 * list->capacity : 16;

		grown = reallocarray(list->items, capacity, sizeof(*grown));
		if (!grown) {
			dest_clear(&parsed);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		list->items = grown;
		list->capacity = capacity;
	}
	list->items[list->count++] = parsed;
	return 0;
}

/* A kept spec's error from a file names the file and the line. */
static int where_in_file(struct dest *d, const char *label,
			 unsigned long line, char *err, size_t errlen)
{
	char *why;

	if (asprintf(&why, "%s:%lu: %s", label, line, d->error) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	free(d->error);
	d->error = why;
	return 0;
}

int dest_list_read(struct dest_list *list, FILE *in, const char *label,
		   char *err, size_t errlen)
{
	struct line_reader lines;
	char msg[DIAG_MSG_MAX];
	char *start, *end;
	int rc;

	if (line_reader_init(&lines, in, label, DEST_TEXT_MAX,
			     DEST_LIST_MAX_LINES)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while ((rc = line_reader_next(&lines, err, errlen)) > 0) {
		if (list->read_flow_label &&
		    dest_flow_label_take(&list->flow_label, lines.buf, label,
					 lines.line, err, errlen)) {
			rc = -1;
			break;
		}
		end = strchr(lines.buf, '#');
		if (end)
			*end = '\0';
		for (start = lines.buf; isspace((unsigned char)*start); start++)
			;
		end = start + strlen(start);
		while (end > start && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*start)
			continue;
		if (dest_list_add(list, start, msg, sizeof(msg))) {
			snprintf(err, errlen, "%s:%lu: %s", label, lines.line,
				 msg);
			rc = -1;
			break;
		}
		if (list->items[list->count - 1].error &&
		    where_in_file(&list->items[list->count - 1], label,
				  lines.line, err, errlen)) {
			rc = -1;
			break;
		}
	}
	line_reader_free(&lines);
	return rc < 0 ? -1 : 0;
}

int dest_list_collect(struct dest_list *list, int argc, char **argv,
		      const char *file, char *err, size_t errlen)
{
	FILE *in;
	int rc;

	for (int i = 0; i < argc; i++)
		if (dest_list_add(list, argv[i], err, errlen))
			return -1;
	if (!file)
		return 0;
	in = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
	if (!in) {
		snprintf(err, errlen, "cannot open destination file '%s': %s",
			 file, strerror(errno));
		return -1;
	}
	rc = dest_list_read(list, in, strcmp(file, "-") ? file : "<stdin>",
			    err, errlen);
	if (in != stdin)
		fclose(in);
	return rc;
}

void dest_list_free(struct dest_list *list)
{
	size_t i;

	for (i = 0; i < list->count; i++)
		dest_clear(&list->items[i]);
	free(list->items);
	dest_flow_label_free(&list->flow_label);
	list->items = NULL;
	list->count = 0;
	list->capacity = 0;
}
