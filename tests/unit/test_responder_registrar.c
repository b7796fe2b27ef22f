/* Unit tests of serve --register's record after a port change
 * (registration_change_of): a new GID is a new record, a new LID a new
 * Set of the same one, neither nothing. */
#include <string.h>

#include "sa/responder_registrar.h"
#include "tap.h"

int main(void)
{
	struct responder_record rec;
	union ibv_gid gid;

	memset(&rec, 0, sizeof(rec));
	rec.lid = 5;
	rec.gid.raw[0] = 0xfe;
	rec.gid.raw[1] = 0x80;
	rec.gid.raw[15] = 1;
	gid = rec.gid;
	is_int(registration_change_of(&rec, 5, &gid), REGISTRATION_UNCHANGED,
	       "same LID and GID: nothing to do");
	is_int(registration_change_of(&rec, 6, &gid), REGISTRATION_NEW_LID,
	       "a new LID: the same record set again");
	gid.raw[15] = 2;
	is_int(registration_change_of(&rec, 5, &gid), REGISTRATION_NEW_GID,
	       "a new GID: the old record deleted, a new one set");
	is_int(registration_change_of(&rec, 6, &gid), REGISTRATION_NEW_GID,
	       "both new: a new record");
	gid = rec.gid;
	gid.raw[8] ^= 0x80;
	is_int(registration_change_of(&rec, 5, &gid), REGISTRATION_NEW_GID,
	       "a GID differing in its interface ID is another GID");
	return tap_done();
}
