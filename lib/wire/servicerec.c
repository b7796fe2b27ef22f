/* ServiceRecord codec and ibahprobe's responder records; layout in
 * servicerec.h. */
#include <stdio.h>
#include <string.h>

#include "wire/servicerec.h"
#include "base/text_escape.h"
#include "wire/wire_bytes.h"

_Static_assert(SERVICE_RECORD_BYTES <= SA_DATA_BYTES,
	       "one ServiceRecord fits the data of one SA MAD");

enum {
	SR_ID = 0, SR_GID = 8, SR_PKEY = 24, SR_LEASE = 28, SR_KEY = 32,
	SR_NAME = 48, SR_DATA8 = 112, SR_DATA16 = 128, SR_DATA32 = 144,
	SR_DATA64 = 160, SR_END = 176,
};
_Static_assert(SR_END == SERVICE_RECORD_BYTES, "ServiceRecord is 176 bytes");
_Static_assert(SR_NAME + SERVICE_NAME_BYTES == SR_DATA8,
	       "ServiceName is 64 bytes");

/* ibahprobe's use of the data fields. */
enum {
	RESP_DATA32_QPN = 0, RESP_DATA32_QKEY = 1,
	RESP_DATA16_FORMAT = 0, RESP_DATA16_RENDEZVOUS = 1,
	RESP_DATA16_LID = 2,
};

void servicerec_encode(const struct service_record *r, uint8_t *d)
{
	memset(d, 0, SERVICE_RECORD_BYTES);
	wire_put64(d, SR_ID, r->id);
	memcpy(d + SR_GID, r->gid.raw, 16);
	wire_put16(d, SR_PKEY, r->pkey);
	wire_put32(d, SR_LEASE, r->lease);
	memcpy(d + SR_KEY, r->key, 16);
	/* NUL-padded; a 64-byte name fills the field without a NUL. */
	memcpy(d + SR_NAME, r->name, strnlen(r->name, SERVICE_NAME_BYTES));
	memcpy(d + SR_DATA8, r->data8, 16);
	for (size_t i = 0; i < 8; i++)
		wire_put16(d, SR_DATA16 + 2 * i, r->data16[i]);
	for (size_t i = 0; i < 4; i++)
		wire_put32(d, SR_DATA32 + 4 * i, r->data32[i]);
	for (size_t i = 0; i < 2; i++)
		wire_put64(d, SR_DATA64 + 8 * i, r->data64[i]);
}

void servicerec_decode(const uint8_t *d, struct service_record *r)
{
	memset(r, 0, sizeof(*r));
	r->id = wire_get64(d, SR_ID);
	memcpy(r->gid.raw, d + SR_GID, 16);
	r->pkey = wire_get16(d, SR_PKEY);
	r->lease = wire_get32(d, SR_LEASE);
	memcpy(r->key, d + SR_KEY, 16);
	memcpy(r->name, d + SR_NAME, SERVICE_NAME_BYTES);
	r->name[SERVICE_NAME_BYTES] = '\0';
	memcpy(r->data8, d + SR_DATA8, 16);
	for (size_t i = 0; i < 8; i++)
		r->data16[i] = wire_get16(d, SR_DATA16 + 2 * i);
	for (size_t i = 0; i < 4; i++)
		r->data32[i] = wire_get32(d, SR_DATA32 + 4 * i);
	for (size_t i = 0; i < 2; i++)
		r->data64[i] = wire_get64(d, SR_DATA64 + 8 * i);
}

void sa_encode_service_request(uint8_t *mad, enum sa_method method,
			       uint64_t tid, const struct service_record *rec,
			       uint64_t comp_mask)
{
	uint8_t data[SERVICE_RECORD_BYTES];

	servicerec_encode(rec, data);
	sa_encode_request(mad, method, SA_ATTR_SERVICE_RECORD, tid, comp_mask,
			  data, sizeof(data));
}

uint64_t servicerec_from_responder(const struct responder_record *r,
				   struct service_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->id = IBAHPROBE_SERVICE_ID;
	rec->gid = r->gid;
	rec->pkey = IBAHPROBE_SERVICE_PKEY;
	rec->lease = r->lease;
	if (r->host[0])
		snprintf(rec->name, sizeof(rec->name), "%s:%.*s",
			 IBAHPROBE_SERVICE_PREFIX,
			 (int)(SERVICE_NAME_BYTES -
			       sizeof(IBAHPROBE_SERVICE_PREFIX)),
			 r->host);
	else
		snprintf(rec->name, sizeof(rec->name), "%s",
			 IBAHPROBE_SERVICE_PREFIX);
	rec->data16[RESP_DATA16_FORMAT] = IBAHPROBE_SERVICE_FORMAT;
	rec->data16[RESP_DATA16_RENDEZVOUS] = r->rendezvous_port;
	rec->data16[RESP_DATA16_LID] = r->lid;
	rec->data32[RESP_DATA32_QPN] = r->qpn;
	rec->data32[RESP_DATA32_QKEY] = r->qkey;
	/* Every field written, and nothing else: ServiceKey stays out. */
	return SR_COMP_ID | SR_COMP_GID | SR_COMP_PKEY | SR_COMP_LEASE |
	       SR_COMP_NAME | SR_COMP_DATA16(RESP_DATA16_FORMAT) |
	       SR_COMP_DATA16(RESP_DATA16_RENDEZVOUS) |
	       SR_COMP_DATA16(RESP_DATA16_LID) |
	       SR_COMP_DATA32(RESP_DATA32_QPN) |
	       SR_COMP_DATA32(RESP_DATA32_QKEY);
}

uint64_t servicerec_discovery_query(struct service_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->id = IBAHPROBE_SERVICE_ID;
	/* The name carries the host: match on the ServiceID alone, and
	 * check the name's prefix in servicerec_to_responder(). */
	return SR_COMP_ID;
}

int servicerec_to_responder(const struct service_record *rec,
			    struct responder_record *r, char *err,
			    size_t errlen)
{
	size_t plen = strlen(IBAHPROBE_SERVICE_PREFIX);
	char name[TEXT_ESCAPE_SIZE(SERVICE_NAME_BYTES)];

	memset(r, 0, sizeof(*r));
	if (rec->id != IBAHPROBE_SERVICE_ID) {
		snprintf(err, errlen, "ServiceID 0x%016llx is not ibahprobe's",
			 (unsigned long long)rec->id);
		return -1;
	}
	if (strncmp(rec->name, IBAHPROBE_SERVICE_PREFIX, plen) != 0 ||
	    (rec->name[plen] != '\0' && rec->name[plen] != ':')) {
		/* Anyone may register under the ServiceID: the name is
		 * shown escaped. */
		snprintf(err, errlen, "service name '%s' is not "
			 "'" IBAHPROBE_SERVICE_PREFIX "[:HOST]'",
			 text_escape(rec->name, SERVICE_NAME_BYTES, name,
				     sizeof(name)));
		return -1;
	}
	if (rec->data16[RESP_DATA16_FORMAT] != IBAHPROBE_SERVICE_FORMAT) {
		snprintf(err, errlen, "record format %u, this ibahprobe reads "
			 "format %u", rec->data16[RESP_DATA16_FORMAT],
			 IBAHPROBE_SERVICE_FORMAT);
		return -1;
	}
	if (rec->data32[RESP_DATA32_QPN] == 0 ||
	    rec->data32[RESP_DATA32_QPN] > 0xffffff) {
		snprintf(err, errlen, "QPN 0x%x is not a UD QP number",
			 rec->data32[RESP_DATA32_QPN]);
		return -1;
	}
	r->gid = rec->gid;
	r->qpn = rec->data32[RESP_DATA32_QPN];
	r->qkey = rec->data32[RESP_DATA32_QKEY];
	r->lid = rec->data16[RESP_DATA16_LID];
	r->rendezvous_port = rec->data16[RESP_DATA16_RENDEZVOUS];
	r->lease = rec->lease;
	if (rec->name[plen] == ':')
		snprintf(r->host, sizeof(r->host), "%s", rec->name + plen + 1);
	return 0;
}
